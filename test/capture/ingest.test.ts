// Capturing transcript files into a real SQLite store, exactly once: appends, partial lines,
// re-runs, truncation, rotation, oversized and malformed lines, secrets, Claude Code responses
// split across runs, a crash between batches, unreadable paths; then the facade and the CLI.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingestFile, type IngestFileOptions, type IngestReport } from '../../src/capture/ingest-file.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import type { Turn } from '../../src/core/types.js';
import { Cairn } from '../../src/service/cairn.js';
import { HashEmbedder, rejectsCode, tempDir } from '../helpers/store-fixtures.js';
import { NO_EMBEDDER, assertBuilt, cliJson, makeHome, removeHome, runCli } from '../helpers/cli.js';

const NS = 'agent-a';
const tmp = tempDir('cairn-ingest-');
after(() => tmp.cleanup());
let n = 0;

const jl = (value: unknown): string => JSON.stringify(value) + '\n';
const chat = (id: string, content: string, extra: Record<string, unknown> = {}) => jl({ role: 'user', content, id, ...extra });

/** A fresh store with one registered source, and helpers to ingest a file into it. */
async function setup(format = 'jsonl') {
  const dir = join(tmp.dir, `case-${n++}`);
  mkdirSync(dir);
  const store = new SqliteStore(join(dir, 'cairn.db'));
  const path = join(dir, 'session-1.jsonl');
  const source = await store.addSource(NS, format, path);
  const ingest = (extra: Partial<IngestFileOptions> = {}, on: Store = store): Promise<IngestReport> =>
    ingestFile(on, { path, format, namespace: NS, sourceId: source.id, ...extra });
  const turns = async (): Promise<Turn[]> => {
    const seqs = await store.filterEntries(NS, { kinds: ['turn'] }, 10_000);
    const entries = await store.getEntries(NS, seqs);
    const out = await Promise.all(entries.map((e) => store.getTurn(NS, e.refId)));
    return (out.filter(Boolean) as Turn[]).sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  };
  return { dir, store, path, source, ingest, turns };
}

describe('ingestFile', () => {
  it('captures appended lines across calls, and a partial last line only once its newline arrives', async () => {
    const s = await setup();
    writeFileSync(s.path, chat('m1', 'first') + chat('m2', 'second') + '{"role":"user","content":"thi');
    const r1 = await s.ingest();
    assert.deepEqual([r1.linesRead, r1.turnsInserted, r1.duplicates, r1.checkpointLine], [2, 2, 0, 2]);
    appendFileSync(s.path, 'rd","id":"m3"}');
    const r2 = await s.ingest();
    assert.deepEqual([r2.linesRead, r2.turnsInserted], [0, 0], 'still no newline: nothing parsed');
    appendFileSync(s.path, '\n' + chat('m4', 'fourth'));
    const r3 = await s.ingest();
    assert.deepEqual([r3.linesRead, r3.turnsInserted, r3.duplicates, r3.issues.length], [2, 2, 0, 0]);
    assert.deepEqual((await s.turns()).map((t) => [t.line, t.messageId, t.text]), [
      [1, 'm1', 'first'], [2, 'm2', 'second'], [3, 'm3', 'third'], [4, 'm4', 'fourth'],
    ]);
    await s.store.close();
  });

  it('is exactly once: a second run over an unchanged file inserts and re-reads nothing', async () => {
    const s = await setup();
    writeFileSync(s.path, chat('m1', 'a') + chat('m2', 'b'));
    assert.equal((await s.ingest()).turnsInserted, 2);
    const again = await s.ingest();
    assert.deepEqual([again.linesRead, again.turnsInserted, again.duplicates], [0, 0, 0]);
    assert.equal((await s.store.namespaceStats()).find((x) => x.namespace === NS)!.turns, 2);
    await s.store.close();
  });

  it('after truncation restarts from the top: new content captured, old content not doubled', async () => {
    const s = await setup();
    writeFileSync(s.path, chat('m1', 'one') + chat('m2', 'two') + chat('m3', 'three'));
    await s.ingest();
    writeFileSync(s.path, chat('m1', 'one') + chat('m9', 'nine')); // same inode, shorter
    const r = await s.ingest();
    assert.equal(r.restarted, 'truncated');
    assert.deepEqual([r.turnsInserted, r.duplicates], [1, 1]);
    assert.deepEqual((await s.turns()).map((t) => t.messageId).sort(), ['m1', 'm2', 'm3', 'm9']);
    await s.store.close();
  });

  it('after truncation, records without ids that land on old line numbers are still captured', async () => {
    const s = await setup();
    const noId = (text: string) => JSON.stringify({ role: 'user', content: text, timestamp: '2026-03-02T09:00:00Z' }) + '\n';
    writeFileSync(s.path, noId('old first') + noId('old second') + noId('old third'));
    await s.ingest();
    writeFileSync(s.path, noId('old first') + noId('brand new second')); // same inode, shorter
    const r = await s.ingest();
    assert.equal(r.restarted, 'truncated');
    assert.deepEqual([r.turnsInserted, r.duplicates], [1, 1], 'the unchanged first line is a duplicate; the new second is not');
    assert.deepEqual((await s.turns()).map((t) => t.text).sort(), ['brand new second', 'old first', 'old second', 'old third']);
    await s.store.close();
  });

  it('after rotation (a new file at the same path) captures the new file without doubling the old content', async () => {
    const s = await setup();
    writeFileSync(s.path, chat('m1', 'one') + chat('m2', 'two'));
    await s.ingest();
    renameSync(s.path, `${s.path}.1`);
    writeFileSync(s.path, chat('m2', 'two') + chat('m3', 'three') + chat('m4', 'four'));
    const r = await s.ingest();
    assert.equal(r.restarted, 'replaced');
    assert.deepEqual([r.linesRead, r.turnsInserted, r.duplicates], [3, 2, 1]);
    assert.deepEqual((await s.turns()).map((t) => t.messageId).sort(), ['m1', 'm2', 'm3', 'm4']);
    appendFileSync(s.path, chat('m5', 'five'));
    const next = await s.ingest();
    assert.deepEqual([next.restarted, next.linesRead, next.turnsInserted], [undefined, 1, 1]);
    await s.store.close();
  });

  it('counts an oversized line and invalid JSON lines with their line numbers; every good line is captured', async () => {
    const s = await setup();
    const big = JSON.stringify({ role: 'user', content: 'x'.repeat(5 * 1024 * 1024), id: 'big' });
    writeFileSync(s.path, chat('m1', 'good one') + big + '\n' + 'not json at all\n' + chat('m4', 'good four') + '[1,2]\n' + chat('m6', 'good six'));
    const r = await s.ingest({ maxLineBytes: 4 * 1024 * 1024 });
    assert.deepEqual(r.issues.map((i) => i.line), [2, 3, 5]);
    assert.match(r.issues[0]!.reason, /exceeds the 4194304-byte limit/);
    assert.match(r.issues[1]!.reason, /invalid JSON/);
    assert.deepEqual([r.linesRead, r.turnsInserted, r.checkpointLine], [6, 3, 6]);
    assert.deepEqual((await s.turns()).map((t) => t.messageId), ['m1', 'm4', 'm6']);
    // Under the default 8 MB cap the same 5 MB line is read (its text cut to the turn limit).
    const s2 = await setup();
    writeFileSync(s2.path, big + '\n' + chat('m2', 'after'));
    const r2 = await s2.ingest();
    assert.deepEqual([r2.turnsInserted, r2.issues.length], [2, 0]);
    await s.store.close();
    await s2.store.close();
  });

  it('redacts secrets before storing: texts hold [REDACTED:…], never the secret; counts per kind', async () => {
    const s = await setup();
    const aws = 'AKIAIOSFODNN7EXAMPLQ';
    const ghp = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
    const url = 'postgres://admin:hunter2secretpw@db.internal:5432/app';
    writeFileSync(s.path, chat('m1', `my key is ${aws} ok`) + chat('m2', `token ${ghp} and ${url}`) + chat('m3', 'nothing secret here'));
    const r = await s.ingest();
    assert.equal(r.turnsInserted, 3);
    const total = Object.values(r.redactions).reduce((a, b) => a + b, 0);
    assert.ok(total >= 3, `expected at least 3 redactions, got ${JSON.stringify(r.redactions)}`);
    const turns = await s.turns();
    for (const t of turns.slice(0, 2)) assert.match(t.text, /\[REDACTED:/);
    const all = JSON.stringify(turns);
    for (const secret of [aws, ghp, 'hunter2secretpw']) assert.ok(!all.includes(secret), `${secret} landed`);
    assert.ok(turns[0]!.meta.redactions, 'meta keeps the redaction counts');
    assert.equal(turns[2]!.text, 'nothing secret here');
    await s.store.close();
  });

  it('jsonl records without a timestamp get the file mtime; provenance fields are kept', async () => {
    const s = await setup();
    writeFileSync(s.path, chat('m1', 'no time here', { speaker: 'Ana', session: 'chat-7' }) + jl({ role: 'assistant', content: 'reply' }));
    const mtime = new Date('2025-06-01T12:00:00.000Z');
    utimesSync(s.path, mtime, mtime);
    await s.ingest();
    const [a, b] = await s.turns();
    assert.equal(a!.timestamp, mtime.toISOString());
    assert.deepEqual([a!.sessionId, a!.messageId, a!.speaker, a!.role, a!.line, a!.sourceId], ['chat-7', 'm1', 'Ana', 'user', 1, s.source.id]);
    assert.deepEqual([b!.sessionId, b!.messageId.replace(/-[0-9a-f]{8}$/, '')], ['session-1', 'line-2'], 'session from the file name, id from the line');
    assert.equal(a!.meta.kind, 'message');
    assert.equal(a!.meta.source, 'jsonl');
    await s.store.close();
  });

  it('a Claude Code response split over two runs becomes one turn: the checkpoint waits at pendingFrom', async () => {
    const s = await setup('claude-code');
    const base = { sessionId: 'S1', cwd: '/p', timestamp: '2026-02-18T11:44:00.000Z' };
    const user = (uuid: string, text: string) => jl({ ...base, type: 'user', uuid, message: { role: 'user', content: text } });
    const part = (uuid: string, text: string) =>
      jl({ ...base, type: 'assistant', uuid, requestId: 'req_A', message: { id: 'msg_A', role: 'assistant', model: 'm', content: [{ type: 'text', text }] } });
    writeFileSync(s.path, user('u1', 'Add a retry') + part('a1', 'Part one.'));
    const r1 = await s.ingest();
    assert.deepEqual([r1.turnsInserted, r1.checkpointLine], [1, 1], 'the open response is held, not checkpointed');
    appendFileSync(s.path, part('a2', 'Part two.') + user('u2', 'thanks'));
    const r2 = await s.ingest();
    assert.equal(r2.linesRead, 3, 'resumed at the held line');
    assert.equal(r2.checkpointLine, 4);
    const turns = await s.turns();
    assert.deepEqual(turns.map((t) => [t.line, t.role, t.messageId]), [[1, 'user', 'u1'], [2, 'assistant', 'msg_A'], [4, 'user', 'u2']]);
    assert.match(turns[1]!.text, /Part one\.[\s\S]*Part two\./);
    // An open response at the end: held without final, captured with final, never doubled.
    appendFileSync(s.path, part('a3', 'Closing words.').replace(/msg_A/, 'msg_B'));
    assert.equal((await s.ingest()).turnsInserted, 0);
    const fin = await s.ingest({ final: true });
    assert.deepEqual([fin.turnsInserted, fin.checkpointLine], [1, 5]);
    assert.deepEqual([(await s.ingest({ final: true })).turnsInserted, (await s.turns()).length], [0, 4]);
    await s.store.close();
  });

  it('a crash between batches loses nothing and doubles nothing on the next run', async () => {
    const s = await setup();
    writeFileSync(s.path, Array.from({ length: 10 }, (_, i) => chat(`m${i + 1}`, `text ${i + 1}`)).join(''));
    let calls = 0;
    const crashing = new Proxy(s.store, {
      get(target, prop, receiver) {
        if (prop === 'addTurns') {
          return (...args: Parameters<Store['addTurns']>) => {
            if (++calls === 3) throw new Error('simulated crash');
            return target.addTurns(...args);
          };
        }
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await assert.rejects(s.ingest({ batchLines: 3 }, crashing), /simulated crash/);
    assert.equal((await s.turns()).length, 6, 'two batches of three committed');
    const r = await s.ingest({ batchLines: 3 });
    assert.deepEqual([r.linesRead, r.turnsInserted, r.duplicates], [4, 4, 0]);
    assert.deepEqual((await s.turns()).map((t) => t.messageId), Array.from({ length: 10 }, (_, i) => `m${i + 1}`));
    await s.store.close();
  });

  it('a missing file or a directory is a clear error and touches nothing', async () => {
    const s = await setup();
    await rejectsCode(s.ingest(), 'NOT_FOUND', /Cannot read transcript .*session-1\.jsonl: no such file/);
    mkdirSync(s.path);
    await rejectsCode(s.ingest(), 'INVALID_INPUT', /is a directory/);
    assert.equal(await s.store.getCheckpoint(s.source.id, s.path), null);
    assert.equal((await s.turns()).length, 0);
    await rejectsCode(s.ingest({ format: 'nope' }), 'INVALID_INPUT', /Unknown transcript format/);
    await s.store.close();
  });
});

describe('Cairn.ingest', () => {
  it('registers sources, captures, embeds, and search finds the turn with its provenance', async () => {
    const t = tempDir();
    const cairn = await Cairn.open({ home: t.dir, embedder: new HashEmbedder() });
    try {
      const a = join(t.dir, 'sess-a.jsonl');
      const b = join(t.dir, 'sess-b.jsonl');
      writeFileSync(a, chat('m1', 'The staging database moved to port 5433') + 'garbage\n');
      writeFileSync(b, chat('m1', 'Lunch is at noon'));
      const res = await cairn.ingest([a, b], { format: 'jsonl', namespace: NS });
      assert.equal(res.turnsInserted, 2);
      // Both turns, plus the memory the judge made of the one worth keeping.
      assert.ok(res.embedded >= 2, String(res.embedded));
      assert.deepEqual((await cairn.judgeStats()).map((j) => [j.namespace, j.judged, j.pending]), [[NS, 2, 0]]);
      assert.deepEqual(res.files.map((f) => f.report?.issues.length), [1, 0]);
      assert.equal((await cairn.store.listSources(NS)).length, 2);
      const found = await cairn.search('staging database port', { namespace: NS });
      assert.equal(found.mode, 'hybrid');
      assert.equal(found.results[0]!.text, 'The staging database moved to port 5433');
      const { turnIds: _turnIds, ...prov } = found.results[0]!.provenance[0]!;
      assert.deepEqual(prov, {
        source: 'jsonl', path: a, sessionId: 'sess-a', messageId: 'm1', line: 1, role: 'user', timestamp: found.results[0]!.provenance[0]!.timestamp,
      });
      assert.equal((await cairn.ingest([a, b], { format: 'jsonl', namespace: NS })).turnsInserted, 0);
      // One unreadable path: its own clear error; the other paths of the call are still captured.
      writeFileSync(join(t.dir, 'new.jsonl'), chat('x', 'The retro is moved to Thursday'));
      const mixed = await cairn.ingest([join(t.dir, 'new.jsonl'), join(t.dir, 'missing.jsonl')], { format: 'jsonl', namespace: 'other' });
      assert.equal(mixed.turnsInserted, 1);
      assert.equal(mixed.files[1]!.error?.code, 'NOT_FOUND');
      assert.match(mixed.files[1]!.error!.message, /Cannot read transcript .*missing\.jsonl: no such file/);
      assert.deepEqual((await cairn.store.listSources('other')).map((s) => s.path), [join(t.dir, 'new.jsonl')], 'no source for the missing path');
      await rejectsCode(cairn.ingest([a], { format: 'csv' }), 'INVALID_INPUT');
    } finally {
      await cairn.close();
      t.cleanup();
    }
  });
});

describe('cairn ingest (CLI)', () => {
  const homes: string[] = [];
  before(() => assertBuilt());
  after(() => homes.forEach(removeHome));

  it('ingests, warns about bad lines (exit 0), is idempotent, and search finds the turn with provenance', async () => {
    const h = makeHome(NO_EMBEDDER);
    homes.push(h);
    const file = join(h, 'chat-42.jsonl');
    writeFileSync(file, chat('q1', 'We picked Fastify over Express for the gateway') + '{oops\n' + jl({ role: 'assistant', content: 'Noted', id: 'q2' }));
    const first = await runCli(['ingest', file, '--format', 'jsonl', '-n', 'bot'], { home: h });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /3 lines, 2 new turns, 0 duplicates, 0 skipped, 1 issues/);
    assert.match(first.stderr, /warning: .*chat-42\.jsonl:2: invalid JSON/);
    const again = await cliJson(['ingest', file, '--format', 'jsonl', '-n', 'bot', '--json'], { home: h });
    assert.deepEqual([again.turnsInserted, again.files[0].report.linesRead], [0, 0]);
    const found = await cliJson(['search', 'Fastify gateway', '-n', 'bot', '--json'], { home: h });
    // The turn, or the memory the judge made of it (which stands for it in results).
    const hit = found.results.find((r: any) => r.provenance[0]?.messageId === 'q1');
    assert.ok(hit, JSON.stringify(found));
    assert.equal(hit.text, 'We picked Fastify over Express for the gateway');
    assert.deepEqual([hit.provenance[0].source, hit.provenance[0].sessionId, hit.provenance[0].messageId, hit.provenance[0].line], ['jsonl', 'chat-42', 'q1', 1]);
  });

  it('a missing file exits non-zero (NOT_FOUND = 4); a directory 3; an unknown or untold format 3', async () => {
    const h = makeHome(NO_EMBEDDER);
    homes.push(h);
    const missing = await runCli(['ingest', join(h, 'nope.jsonl'), '--format', 'jsonl'], { home: h });
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /Cannot read transcript .*nope\.jsonl: no such file/);
    const dir = await runCli(['ingest', h, '--format', 'jsonl'], { home: h });
    assert.equal(dir.code, 3);
    const fmt = await runCli(['ingest', join(h, 'config.json'), '--format', 'csv'], { home: h });
    assert.equal(fmt.code, 3);
    assert.match(fmt.stderr, /Unknown transcript format "csv"/);
    // Without --format the file must say its format: config.json says none.
    const none = await runCli(['ingest', join(h, 'config.json')], { home: h });
    assert.equal(none.code, 3);
    assert.match(none.stderr, /Cannot tell the format of .*config\.json/);
  });
});
