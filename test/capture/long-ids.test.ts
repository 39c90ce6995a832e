// Message and session ids longer than the stored limit (200 characters) stay distinct: two ids that
// share their first 200 characters are two turns, a re-read of the same lines stores nothing new,
// and ids up to the limit are stored exactly as before. Through the real CLI and SQLite file.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { foldLongId, MAX_ID_CHARS } from '../../src/core/ids.js';
import { draftToTurn } from '../../src/capture/to-turn.js';
import { Cairn } from '../../src/service/cairn.js';
import { NO_EMBEDDER, assertBuilt, cliJson, makeHome, removeHome } from '../helpers/cli.js';

const NS = 'long-ids';
const PREFIX = 'conversation/'.padEnd(200, 'x');
const jl = (value: unknown): string => JSON.stringify(value) + '\n';

describe('foldLongId', () => {
  it('keeps ids up to the limit as they are, and folds longer ones into a distinct, stable id within it', () => {
    for (const id of ['m1', 'x'.repeat(MAX_ID_CHARS), '', 'ünïcødé-😀']) assert.equal(foldLongId(id), id);
    const a = foldLongId(`${PREFIX}-first`);
    const b = foldLongId(`${PREFIX}-second`);
    assert.notEqual(a, b, 'ids sharing their first 200 characters stay apart');
    for (const f of [a, b]) {
      assert.ok(f.length <= MAX_ID_CHARS, `${f.length} characters`);
      assert.ok(f.startsWith(PREFIX.slice(0, 150)), 'the readable start is kept');
    }
    assert.equal(foldLongId(`${PREFIX}-first`), a, 'deterministic: a re-read gives the same id');
    assert.equal(foldLongId(a), a, 'a folded id is not folded again');
    assert.notEqual(foldLongId('y'.repeat(201)), foldLongId('y'.repeat(202)));
    // A cut never splits a surrogate pair into a lone half.
    for (let pad = 150; pad < 200; pad++) {
      const folded = foldLongId('a'.repeat(pad) + '😀'.repeat(60));
      assert.ok(folded.length <= MAX_ID_CHARS);
      assert.ok(!/[\uD800-\uDFFF]/u.test(folded), `no lone surrogate at pad ${pad}`);
    }
  });

  it('every capture format goes through it (draftToTurn folds session and message ids)', () => {
    const draft = { sessionId: `${PREFIX}-s`, messageId: `${PREFIX}-m`, role: 'user' as const, speaker: null, text: 'hi', timestamp: '2026-03-02T09:00:00.000Z', line: 1, kind: 'message' as const, meta: {} };
    const turn = draftToTurn(draft, { namespace: NS, sourceId: 1, source: 'claude-code' }, {});
    assert.equal(turn.sessionId, foldLongId(`${PREFIX}-s`));
    assert.equal(turn.messageId, foldLongId(`${PREFIX}-m`));
  });
});

describe('long ids through cairn ingest', () => {
  let home: string;
  const dbRows = <T>(sql: string): T[] => {
    const db = new Database(join(home, 'cairn.db'), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all() as T[];
    } finally {
      db.close();
    }
  };

  before(() => {
    assertBuilt();
    home = makeHome(NO_EMBEDDER);
  });
  after(() => removeHome(home));

  it('stores two messages whose ids share their first 200 characters as two turns; a re-read stores nothing new', async () => {
    const dir = join(home, 'a');
    mkdirSync(dir);
    const file = join(dir, 'chat.jsonl');
    writeFileSync(
      file,
      jl({ id: `${PREFIX}-first`, role: 'user', content: 'The staging database moved to port 5433', session: 's1' }) +
        jl({ id: `${PREFIX}-second`, role: 'assistant', content: 'Noted: the invoice job now retries three times', session: 's1' }) +
        jl({ id: 'x'.repeat(200), role: 'user', content: 'An id of exactly two hundred characters', session: 's1' }),
    );
    const first = await cliJson(['-n', NS, 'ingest', file, '-f', 'jsonl', '--json'], { home });
    assert.equal(first.turnsInserted, 3, JSON.stringify(first.files[0].report));
    assert.equal(first.files[0].report.duplicates, 0);
    const ids = dbRows<{ message_id: string; text: string }>(`SELECT message_id, text FROM turns WHERE namespace = '${NS}' ORDER BY line`);
    assert.deepEqual(ids.map((r) => r.text), ['The staging database moved to port 5433', 'Noted: the invoice job now retries three times', 'An id of exactly two hundred characters']);
    assert.deepEqual(ids.map((r) => r.message_id), [foldLongId(`${PREFIX}-first`), foldLongId(`${PREFIX}-second`), 'x'.repeat(200)]);
    assert.equal(ids[2]!.message_id, 'x'.repeat(200), 'an id within the limit is stored unchanged');

    // The same lines read again through another file (another checkpoint): all three are known.
    const copy = join(dir, 'chat-copy.jsonl');
    copyFileSync(file, copy);
    const again = await cliJson(['-n', NS, 'ingest', copy, '-f', 'jsonl', '--json'], { home });
    assert.equal(again.turnsInserted, 0);
    assert.equal(again.files[0].report.duplicates, 3);
  });

  it('keeps long session ids that share their first 200 characters apart', async () => {
    const file = join(home, 'sessions.jsonl');
    writeFileSync(
      file,
      jl({ id: 'm1', role: 'user', content: 'Session one chose PostgreSQL', session: `${PREFIX}-one` }) +
        jl({ id: 'm1', role: 'user', content: 'Session two chose SQLite', session: `${PREFIX}-two` }),
    );
    const res = await cliJson(['-n', `${NS}-s`, 'ingest', file, '-f', 'jsonl', '--json'], { home });
    assert.equal(res.turnsInserted, 2);
    assert.equal(res.files[0].report.duplicates, 0);
    const sessions = dbRows<{ session_id: string }>(`SELECT session_id FROM turns WHERE namespace = '${NS}-s' ORDER BY line`).map((r) => r.session_id);
    assert.deepEqual(sessions, [foldLongId(`${PREFIX}-one`), foldLongId(`${PREFIX}-two`)]);
  });

  it('a memory whose provenance names a long session or message id is stored with the same folded ids', async () => {
    const cairn = await Cairn.open({ home, embedder: null });
    try {
      const { memory } = await cairn.remember({ namespace: NS, text: 'Refunds round half-even', provenance: [{ source: 'api', sessionId: `${PREFIX}-one`, messageId: `${PREFIX}-m` }] });
      assert.equal(memory.provenance[0]!.sessionId, foldLongId(`${PREFIX}-one`));
      assert.equal(memory.provenance[0]!.messageId, foldLongId(`${PREFIX}-m`));
    } finally {
      await cairn.close();
    }
  });
});
