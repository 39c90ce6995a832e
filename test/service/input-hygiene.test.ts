// Input hygiene (issue 30 item 15): what enters through capture or the facade is stored as valid
// UTF-8 without control characters in ids, sessions, speakers and other metadata.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Cairn } from '../../src/service/cairn.js';
import { HashEmbedder, rejectsCode, tempDir } from '../helpers/store-fixtures.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every text column of every row, as the bytes SQLite holds, must decode as strict UTF-8. */
function assertValidUtf8(dbPath: string, table: string, columns: readonly string[]): void {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db.prepare(`SELECT ${columns.map((c) => `hex(CAST(${c} AS BLOB)) AS ${c}`).join(', ')} FROM ${table}`).all() as Array<Record<string, string>>;
    assert.ok(rows.length > 0, `${table} has rows`);
    for (const row of rows) {
      for (const c of columns) assert.doesNotThrow(() => strictUtf8.decode(Buffer.from(row[c] ?? '', 'hex')), `${table}.${c} is valid UTF-8: ${row[c]}`);
    }
  } finally {
    db.close();
  }
}

describe('input hygiene: capture', () => {
  let base: ReturnType<typeof tempDir>;
  let home: string;
  let cairn: Cairn;

  beforeEach(async () => {
    base = tempDir();
    home = join(base.dir, 'home');
    cairn = await Cairn.open({ home, embedder: new HashEmbedder() });
  });
  afterEach(async () => {
    await cairn.close();
    base.cleanup();
  });

  it('lone surrogates and control characters in ids, sessions and speakers never reach the store; distinct ids stay distinct', async () => {
    const file = join(base.dir, 'chat.jsonl');
    const lines = [
      { role: 'user', content: 'I love hiking in the alps every summer with my two brothers', id: 'a\ud800b', session: 's\u0000x', speaker: 'A\u0000na' },
      { role: 'user', content: 'We always stay in the same small hut near the glacier lake', id: 'a\ud801b', session: 's\u0000x', speaker: 'A\u0000na' },
      { role: 'user', content: 'text with a nul \u0000 and a lone \udc00 surrogate in the middle of it', id: 'x\u0007\u001b[31m', session: 'q\ud800', speaker: 'B\u0007o\u001b[31mb\ud800\n' },
      { role: 'user', content: 'The last one says that the glacier lake was frozen in June', id: 'ab', session: 'sx', speaker: 'Ana' },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const res = await cairn.ingest([file], { format: 'jsonl' });
    assert.equal(res.turnsInserted, 4, 'no turn is lost to ids that differ only in invalid characters');
    await cairn.judgePending();
    const turns = (cairn.store as unknown as { db: Database.Database }).db
      .prepare('SELECT session_id AS session, message_id AS id, speaker, text FROM turns ORDER BY seq')
      .all() as Array<{ session: string; id: string; speaker: string | null; text: string }>;
    for (const t of turns) {
      for (const [field, value] of Object.entries(t)) {
        if (value === null) continue;
        assert.doesNotMatch(value, LONE_SURROGATE, `${field} ${JSON.stringify(value)} has no lone surrogate`);
        if (field !== 'text') assert.doesNotMatch(value, CONTROL, `${field} ${JSON.stringify(value)} has no control character`);
      }
    }
    assert.deepEqual(turns.map((t) => t.speaker), ['Ana', 'Ana', 'Bo[31mb\ufffd', 'Ana'], 'speakers lose their control characters');
    assert.equal(new Set(turns.map((t) => `${t.session}/${t.id}`)).size, 4, 'every turn keeps its own id');
    assert.notEqual(turns[0]!.session, turns[3]!.session, '"s\\0x" is not merged with "sx"');
    assert.match(turns[2]!.text, /a nul {1,2}and a lone \ufffd surrogate/);
    assertValidUtf8(join(home, 'cairn.db'), 'turns', ['session_id', 'message_id', 'speaker', 'text', 'meta']);
    const memories = await cairn.list({ limit: 50 });
    assert.ok(memories.length > 0, 'the judge made memories');
    for (const m of memories) {
      assert.doesNotMatch(m.text, CONTROL, `memory text ${JSON.stringify(m.text)}`);
      for (const value of m.provenance.flatMap((p) => Object.values(p)).filter((v) => typeof v === 'string')) {
        assert.doesNotMatch(value, CONTROL, `provenance ${JSON.stringify(value)}`);
        assert.doesNotMatch(value, LONE_SURROGATE, `provenance ${JSON.stringify(value)}`);
      }
    }
    assert.ok(memories.some((m) => m.text.startsWith('Ana: ')), 'the speaker prefix reads "Ana: …"');
    assertValidUtf8(join(home, 'cairn.db'), 'memories', ['text', 'provenance']);
  });
});

describe('input hygiene: the facade', () => {
  let base: ReturnType<typeof tempDir>;
  let cairn: Cairn;

  beforeEach(async () => {
    base = tempDir();
    cairn = await Cairn.open({ home: join(base.dir, 'home'), embedder: new HashEmbedder() });
  });
  afterEach(async () => {
    await cairn.close();
    base.cleanup();
  });

  it('a lone surrogate in text becomes U+FFFD; in a provenance id it is refused with a clear error', async () => {
    const { memory } = await cairn.remember({ text: 'broken \ud83d pair and \u0000 nul', provenance: [{ source: 'api', speaker: 'A\u0000na\ud800', sessionId: 'fine' }] });
    assert.equal(memory.text, 'broken \ufffd pair and  nul');
    assert.equal(memory.provenance[0]!.speaker, 'Ana\ufffd');
    for (const field of ['sessionId', 'messageId'] as const) {
      for (const bad of ['s\ud800', 's\u0000x', 'a\nb']) {
        await rejectsCode(cairn.remember({ text: 'x', provenance: [{ [field]: bad }] }), 'INVALID_INPUT', new RegExp(`provenance\\.0\\.${field}: .*(control character|unpaired surrogate)`));
      }
    }
    const { memory: tagged } = await cairn.remember({ text: 'tagged', tags: ['a\u0000b', 'c\ud800'], entities: ['E\u0007ve'] });
    assert.deepEqual(tagged.tags, ['ab', 'c\ufffd']);
    assert.deepEqual(tagged.entities, ['Eve']);
    await rejectsCode(cairn.remember({ text: 'x', tags: ['\u0000\u0007'] }), 'INVALID_INPUT', /tags/);
    const state = await cairn.setState({ objective: 'ship \ud800 it', blockers: ['b\u0000x'] });
    assert.equal(state.objective, 'ship \ufffd it');
    assert.deepEqual(state.blockers, ['bx']);
    const search = await cairn.search('broken \udc00 pair');
    assert.equal(search.query, 'broken \ufffd pair');
  });
});
