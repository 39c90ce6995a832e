// Capturing OpenClaw's SQLite transcript store (2026.8+) into a real SQLite Cairn store: plain,
// zstd and mixed rows, several sessions, resuming mid-session, re-runs, broken rows, unreadable
// databases, read-only access beside a live writer, paging with a checkpoint per page, redaction,
// and the stats kept in each session's checkpoint.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dbCheckpointKey, ingestOpenClawDb, type IngestDbOptions, type IngestDbReport } from '../../src/capture/openclaw-db.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { CheckpointState, Store, TurnsCheckpoint } from '../../src/store/store.js';
import type { Turn } from '../../src/core/types.js';
import { rejectsCode, tempDir } from '../helpers/store-fixtures.js';
import { OpenClawDb, assistant, conversation, header, msgId, noise, user, zstd } from '../helpers/openclaw-db-fixture.js';

const NS = 'agent-a';
const S1 = '5aa69cdb-42d7-48df-9377-3887a4cff539';
const S2 = '7c1e0f52-8d3b-4b8e-9a51-2f0c6d1e9b44';
const tmp = tempDir('cairn-openclaw-db-');
after(() => tmp.cleanup());
let n = 0;

/** A fresh Cairn store with one registered source, an OpenClaw database path beside it, helpers. */
async function setup() {
  const dir = join(tmp.dir, `case-${n++}`);
  mkdirSync(dir);
  const store = new SqliteStore(join(dir, 'cairn.db'));
  const path = join(dir, 'openclaw-agent.sqlite');
  const source = await store.addSource(NS, 'openclaw-db', path);
  const ingest = (extra: Partial<IngestDbOptions> = {}, on: Store = store): Promise<IngestDbReport> =>
    ingestOpenClawDb(on, { path, namespace: NS, sourceId: source.id, ...extra });
  const turns = async (): Promise<Turn[]> => {
    const seqs = await store.filterEntries(NS, { kinds: ['turn'] }, 100_000);
    const entries = await store.getEntries(NS, seqs);
    const out = await Promise.all(entries.map((e) => store.getTurn(NS, e.refId)));
    return (out.filter(Boolean) as Turn[]).sort((a, b) => a.sessionId.localeCompare(b.sessionId) || (a.line ?? 0) - (b.line ?? 0));
  };
  const checkpoint = (session: string) => store.getCheckpoint(source.id, dbCheckpointKey(path, session));
  return { dir, store, path, source, ingest, turns, checkpoint };
}

/** A store whose addTurns calls are recorded (and can run a hook first), for paging and concurrency. */
function recording(store: Store, before?: (call: number) => void): { store: Store; calls: Array<{ turns: number; checkpoint: CheckpointState | undefined }> } {
  const calls: Array<{ turns: number; checkpoint: CheckpointState | undefined }> = [];
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'addTurns') {
        const value = Reflect.get(target, prop, receiver) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (turns: Parameters<Store['addTurns']>[0], cp: TurnsCheckpoint | undefined) => {
        before?.(calls.length);
        const call: { turns: number; checkpoint: CheckpointState | undefined } = { turns: turns.length, checkpoint: undefined };
        calls.push(call);
        if (!cp) return target.addTurns(turns, cp);
        // Records the state as the store worked it out (it may depend on what was stored).
        const { state } = cp;
        return target.addTurns(turns, {
          ...cp,
          state: (added) => {
            call.checkpoint = { ...cp, state: typeof state === 'function' ? state(added) : state };
            return call.checkpoint.state;
          },
        });
      };
    },
  });
  return { store: proxy, calls };
}

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');
const anthropicKey = (): string => 'sk-ant-api03-' + randomBytes(70).toString('base64url') + 'AA';

describe('ingestOpenClawDb', () => {
  it('captures plain JSON rows (schema without event_zstd) with seq as line and the header cwd', async () => {
    const s = await setup();
    const oc = new OpenClawDb(s.path, { zstdColumn: false });
    oc.append(S1, 1, [header(S1, '/home/ana/proj'), user('aaaa0001', 'The staging DB moved to port 5433.'), noise('aaaa0002'), assistant('aaaa0003', 'Noted: port 5433.')]);
    oc.close();
    const r = await s.ingest();
    assert.deepEqual([r.sessions, r.rowsRead, r.turnsInserted, r.duplicates, r.skipped, r.issues.length], [1, 4, 2, 0, 1, 0]);
    const turns = await s.turns();
    assert.deepEqual(turns.map((t) => [t.sessionId, t.messageId, t.role, t.line, t.text]), [
      [S1, 'aaaa0001', 'user', 2, 'The staging DB moved to port 5433.'],
      [S1, 'aaaa0003', 'assistant', 4, 'Noted: port 5433.'],
    ]);
    assert.equal(turns[0]!.meta.cwd, '/home/ana/proj');
    assert.equal(turns[0]!.meta.source, 'openclaw');
    assert.deepEqual(r.insertedIds.sort(), turns.map((t) => t.id).sort());
    assert.equal((await s.checkpoint(S1))!.seq, 4);
    await s.store.close();
  });

  it('reads zstd rows, and sessions mixing plain and compressed rows, like plain ones', async () => {
    const s = await setup();
    const oc = new OpenClawDb(s.path);
    const a = conversation(S1, 6);
    const b = conversation(S2, 6);
    oc.append(S1, 1, a.map((e) => ({ zstd: e })));
    oc.append(S2, 1, b.map((e, i) => (i % 2 === 0 ? { zstd: e } : { json: e })));
    oc.close();
    const r = await s.ingest();
    assert.deepEqual([r.sessions, r.rowsRead, r.turnsInserted, r.issues.length], [2, 12, 10, 0]);
    const turns = await s.turns();
    const expected = (session: string) => [1, 2, 3, 4, 5].map((i) => [session, msgId(i), i + 1, i % 2 === 1 ? `question number ${i}` : `answer number ${i}`]);
    assert.deepEqual(turns.map((t) => [t.sessionId, t.messageId, t.line, t.text]), [...expected(S1), ...expected(S2)].sort((x, y) => String(x[0]).localeCompare(String(y[0]))));
    await s.store.close();
  });

  it('keeps one checkpoint per session, and a second run reads and inserts nothing', async () => {
    const s = await setup();
    const oc = new OpenClawDb(s.path);
    oc.append(S1, 1, conversation(S1, 4));
    oc.append(S2, 0, conversation(S2, 3)); // sequences may start at 0
    oc.close();
    const first = await s.ingest();
    assert.deepEqual([first.sessions, first.rowsRead, first.turnsInserted], [2, 7, 5]);
    assert.equal((await s.checkpoint(S1))!.seq, 4);
    assert.equal((await s.checkpoint(S2))!.seq, 2);
    const keys = (await s.store.listCheckpoints(s.source.id)).map((c) => c.key).sort();
    assert.deepEqual(keys, [dbCheckpointKey(s.path, S1), dbCheckpointKey(s.path, S2)].sort());
    const again = await s.ingest();
    assert.deepEqual([again.sessions, again.rowsRead, again.turnsInserted, again.duplicates], [0, 0, 0, 0]);
    await s.store.close();
  });

  it('resumes mid-session: only new rows are read, with the session id and cwd of the (compressed) header', async () => {
    const s = await setup();
    const oc = new OpenClawDb(s.path);
    // The header names the cwd; the rows read on resume do not.
    oc.insert(S1, 1, { zstd: header(S1, '/srv/agent') });
    oc.append(S1, 2, [user('bbbb0001', 'first question'), assistant('bbbb0002', 'first answer')]);
    oc.append(S2, 1, conversation(S2, 3));
    const first = await s.ingest();
    assert.deepEqual([first.rowsRead, first.turnsInserted], [6, 4]);
    oc.append(S1, 4, [user('bbbb0003', 'second question'), { zstd: assistant('bbbb0004', 'second answer') }]);
    const second = await s.ingest();
    oc.close();
    assert.deepEqual([second.sessions, second.rowsRead, second.turnsInserted, second.duplicates, second.issues.length], [1, 2, 2, 0, 0]);
    const resumed = (await s.turns()).filter((t) => t.messageId === 'bbbb0003' || t.messageId === 'bbbb0004');
    assert.deepEqual(resumed.map((t) => [t.sessionId, t.line, t.meta.cwd, t.text]), [
      [S1, 4, '/srv/agent', 'second question'],
      [S1, 5, '/srv/agent', 'second answer'],
    ]);
    const cp = await s.checkpoint(S1);
    assert.equal(cp!.seq, 5);
    assert.equal((cp!.stats as { linesRead: number }).linesRead, 5, 'the re-read header is not counted twice');
    await s.store.close();
  });

  it('gives resumed turns the same session id as a full read, even when the header names another id', async () => {
    const s = await setup();
    const oc = new OpenClawDb(s.path);
    // An imported JSONL session: its header id is what the file capture used, so it wins here too.
    oc.append('row-session', 1, [header('header-session'), user('jjjj0001', 'before')]);
    await s.ingest();
    oc.append('row-session', 3, [user('jjjj0002', 'after')]);
    oc.close();
    assert.equal((await s.ingest()).rowsRead, 1);
    assert.deepEqual((await s.turns()).map((t) => [t.messageId, t.sessionId]), [['jjjj0001', 'header-session'], ['jjjj0002', 'header-session']]);
    assert.ok(await s.checkpoint('row-session'), 'checkpoints are keyed by the session_id column');
    await s.store.close();
  });

  it('reports a corrupt zstd blob, a truncated frame and a row with neither column by session and seq, capturing the rest', async () => {
    const s = await setup();
    const oc = new OpenClawDb(s.path);
    const good = zstd(JSON.stringify(user('cccc0009', 'x'.repeat(400))));
    oc.append(S1, 1, [
      header(S1),
      user('cccc0001', 'before the damage'),
      { raw: { event_json: null, event_zstd: Buffer.from('definitely not zstd data') } },
      { raw: { event_json: null, event_zstd: good.subarray(0, good.length - 20) } },
      { raw: { event_json: null, event_zstd: null } },
      { raw: { event_json: null, event_zstd: Buffer.alloc(0) } },
      assistant('cccc0002', 'after the damage'),
    ]);
    oc.close();
    const r = await s.ingest();
    assert.deepEqual([r.rowsRead, r.turnsInserted], [7, 2]);
    assert.deepEqual(r.issues.map((i) => [i.session, i.seq]), [[S1, 3], [S1, 4], [S1, 5], [S1, 6]]);
    assert.match(r.issues[0]!.reason, /event_zstd does not decompress/);
    assert.match(r.issues[1]!.reason, /event_zstd does not decompress/);
    assert.match(r.issues[2]!.reason, /neither event_json nor event_zstd/);
    assert.deepEqual((await s.turns()).map((t) => t.text), ['before the damage', 'after the damage']);
    const stats = (await s.checkpoint(S1))!.stats as { malformed: number; recentIssues: Array<{ line: number }> };
    assert.equal(stats.malformed, 4);
    assert.deepEqual(stats.recentIssues.map((i) => i.line), [3, 4, 5, 6]);
    await s.store.close();
  });

  it('reports invalid JSON in a plain or a compressed row as an issue and reads on', async () => {
    const s = await setup();
    const oc = new OpenClawDb(s.path);
    oc.append(S1, 1, [header(S1), '{"type":"message","id":"dd', { zstd: '{not json' }, user('dddd0001', 'still read')]);
    oc.close();
    const r = await s.ingest();
    assert.deepEqual(r.issues.map((i) => [i.session, i.seq]), [[S1, 2], [S1, 3]]);
    for (const issue of r.issues) assert.match(issue.reason, /invalid JSON/);
    assert.deepEqual((await s.turns()).map((t) => t.messageId), ['dddd0001']);
    await s.store.close();
  });

  it('refuses a missing file, a directory, a non-SQLite file and a database without the table, storing nothing', async () => {
    const s = await setup();
    await rejectsCode(s.ingest(), 'NOT_FOUND', /no such file/);
    mkdirSync(s.path);
    await rejectsCode(s.ingest(), 'INVALID_INPUT', /is a directory/);
    const other = await setup();
    writeFileSync(other.path, 'this is a text file, not a database '.repeat(200));
    await rejectsCode(other.ingest(), 'INVALID_INPUT', /Cannot read OpenClaw transcript database .*not a SQLite database/);
    const third = await setup();
    const oc = new OpenClawDb(third.path);
    oc.db.exec('DROP TABLE transcript_events; CREATE TABLE sessions (id TEXT)');
    oc.close();
    await rejectsCode(third.ingest(), 'INVALID_INPUT', /has no transcript_events table/);
    for (const x of [s, other, third]) {
      assert.deepEqual(await x.store.listCheckpoints(x.source.id), []);
      assert.equal(((await x.store.namespaceStats()).find((ns) => ns.namespace === NS)?.turns ?? 0), 0);
      await x.store.close();
    }
  });

  it('rejects a non-positive batch size', async () => {
    const s = await setup();
    await rejectsCode(s.ingest({ batchRows: 0 }), 'INVALID_INPUT', /batchRows/);
    await s.store.close();
  });

  it('never writes to the database: its bytes and mtime are unchanged after reading', async () => {
    const s = await setup();
    for (const wal of [true, false]) {
      const oc = new OpenClawDb(s.path + (wal ? '' : '.rollback'), { wal });
      oc.append(S1, 1, conversation(S1, 20).map((e, i) => (i % 3 === 0 ? { zstd: e } : e)));
      oc.close();
      const path = oc.path;
      const before = { hash: sha(path), mtime: statSync(path).mtimeMs, size: statSync(path).size };
      const r = await ingestOpenClawDb(s.store, { path, namespace: NS, sourceId: s.source.id, batchRows: 7 });
      assert.equal(r.turnsInserted, wal ? 19 : 0, 'same session ids: the second copy only duplicates');
      assert.deepEqual({ hash: sha(path), mtime: statSync(path).mtimeMs, size: statSync(path).size }, before);
    }
    await s.store.close();
  });

  it('reads beside a live WAL writer: an open write transaction neither blocks it nor is blocked', async () => {
    const s = await setup();
    const gateway = new OpenClawDb(s.path);
    gateway.append(S1, 1, conversation(S1, 4));
    // The writer is mid-transaction while Cairn reads: uncommitted rows are not seen.
    gateway.db.exec('BEGIN IMMEDIATE');
    gateway.insert(S1, 5, user('eeee0001', 'uncommitted yet'));
    const r1 = await s.ingest();
    assert.deepEqual([r1.rowsRead, r1.turnsInserted], [4, 3]);
    gateway.db.exec('COMMIT');
    // And the writer keeps committing between Cairn's pages, with Cairn's connection open.
    const rec = recording(s.store, (call) => {
      if (call < 3) gateway.insert(S1, 6 + call, assistant(`ffff000${call}`, `written while reading ${call}`));
    });
    const r2 = await s.ingest({ batchRows: 1 }, rec.store);
    assert.deepEqual([r2.rowsRead, r2.turnsInserted], [4, 4], 'the row committed after the first run, and the three written meanwhile');
    gateway.close();
    const r3 = await s.ingest();
    assert.deepEqual([r3.rowsRead, r3.turnsInserted], [0, 0]);
    assert.equal((await s.turns()).length, 7);
    await s.store.close();
  });

  it('pages thousands of rows in small batches, committing a checkpoint with every page', async () => {
    const s = await setup();
    const oc = new OpenClawDb(s.path);
    oc.append(S1, 1, conversation(S1, 3000).map((e, i) => (i % 10 === 0 ? { zstd: e } : e)));
    oc.close();
    const rec = recording(s.store);
    const r = await s.ingest({ batchRows: 250 }, rec.store);
    assert.deepEqual([r.rowsRead, r.turnsInserted, r.issues.length], [3000, 2999, 0]);
    assert.equal(rec.calls.length, 12);
    assert.deepEqual(rec.calls.map((c) => c.checkpoint?.state.seq), Array.from({ length: 12 }, (_, i) => (i + 1) * 250));
    assert.ok(rec.calls.every((c) => c.turns <= 250 && c.checkpoint?.key === dbCheckpointKey(s.path, S1)));
    const stats = (await s.checkpoint(S1))!.stats as { linesRead: number; turns: number };
    assert.deepEqual([stats.linesRead, stats.turns], [3000, 2999]);
    await s.store.close();
  });

  it('redacts secrets in plain and compressed events before they are stored', async () => {
    const s = await setup();
    const keys = [anthropicKey(), anthropicKey()];
    const oc = new OpenClawDb(s.path);
    oc.append(S1, 1, [header(S1), user('gggg0001', `use ANTHROPIC_API_KEY=${keys[0]} for staging`), { zstd: assistant('gggg0002', `Set it to ${keys[1]} now.`) }]);
    oc.close();
    const r = await s.ingest();
    assert.equal(r.redactions['anthropic-key'], 2);
    const turns = await s.turns();
    for (const t of turns) {
      assert.match(t.text, /\[REDACTED:anthropic-key\]/);
      for (const key of keys) assert.ok(!JSON.stringify(t).includes(key), 'the key is not stored anywhere in the turn');
    }
    assert.equal(((await s.checkpoint(S1))!.stats as { redactions: Record<string, number> }).redactions['anthropic-key'], 2);
    await s.store.close();
  });

  it('keeps running stats in the checkpoint, and clears a stored error on success', async () => {
    const s = await setup();
    const oc = new OpenClawDb(s.path);
    oc.append(S1, 1, [header(S1), user('hhhh0001', 'one'), noise('hhhh0002'), '{bad', assistant('hhhh0003', 'two')]);
    await s.ingest();
    let cp = await s.checkpoint(S1);
    assert.deepEqual(pickStats(cp), { linesRead: 5, turns: 2, skipped: 1, malformed: 1 });
    assert.ok(typeof (cp!.stats as { lastCaptureAt: unknown }).lastCaptureAt === 'string');
    // A failure recorded by a watcher is cleared by the next successful run, even with nothing new.
    await s.store.putCheckpoint({ sourceId: s.source.id, key: dbCheckpointKey(s.path, S1), state: { ...cp, error: { at: new Date().toISOString(), code: 'STORE_LOCKED', message: 'locked' } } });
    const quiet = await s.ingest();
    assert.deepEqual([quiet.rowsRead, quiet.turnsInserted], [0, 0]);
    cp = await s.checkpoint(S1);
    assert.equal(cp!.error, undefined);
    assert.equal(cp!.seq, 5);
    oc.append(S1, 6, [user('hhhh0004', 'three')]);
    oc.close();
    await s.ingest();
    assert.deepEqual(pickStats(await s.checkpoint(S1)), { linesRead: 6, turns: 3, skipped: 1, malformed: 1 });
    await s.store.close();
  });

  it('reads a session again from the top when its seq restarted lower (database rebuilt), without doubles', async () => {
    const s = await setup();
    const first = new OpenClawDb(s.path);
    first.append(S1, 1, conversation(S1, 10));
    first.append(S2, 1, conversation(S2, 3));
    first.close();
    await s.ingest();
    renameSync(s.path, s.path + '.old');
    const rebuilt = new OpenClawDb(s.path);
    rebuilt.append(S1, 1, [header(S1), user(msgId(1), 'question number 1'), user('iiii0001', 'new after rebuild')]);
    rebuilt.append(S2, 1, conversation(S2, 3));
    rebuilt.close();
    const r = await s.ingest();
    assert.deepEqual([r.sessions, r.rowsRead, r.turnsInserted, r.duplicates], [1, 3, 1, 1]);
    assert.equal((await s.checkpoint(S1))!.seq, 3);
    assert.ok((await s.turns()).some((t) => t.messageId === 'iiii0001'));
    await s.store.close();
  });
});

function pickStats(cp: Record<string, unknown> | null): Record<string, number> {
  const stats = cp!.stats as Record<string, number>;
  return { linesRead: stats.linesRead!, turns: stats.turns!, skipped: stats.skipped!, malformed: stats.malformed! };
}
