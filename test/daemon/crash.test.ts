// Kill -9 the real daemon 22 times mid-capture (while the transcripts keep growing, partial lines
// included), restart it each time, and check the end state: every capturable message stored
// exactly once, nothing lost, nothing doubled.
//
// The kill points are deterministic, not timed: each daemon runs with CAIRN_TEST_PAUSE (see
// src/core/crash-points.ts) and stops itself at its n-th batch of turns, alternately inside the
// transaction before it commits and right after it committed; the test then kills it there. n is
// drawn (seeded) below the number of batches the daemon must still commit, so every kill lands
// mid-capture however loaded the machine is.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { assertBuilt, cliJson, makeHome, removeHome } from '../helpers/cli.js';
import { eventually, scansAfter, startDaemon } from '../helpers/daemon.js';
import { parseLines } from '../../src/capture/formats/index.js';
import { seeded as prng } from '../helpers/prng.js';

/** README: "a test does it 22 times mid-capture". */
const KILLS = 22;
const FILES = 4;
const INITIAL_LINES = 3000;
const BATCH_LINES = 50;
/** Only stops a hang: this test restarts a daemon 23 times and may run for minutes on a busy machine. */
const TEST_GUARD_MS = 30 * 60_000;

const WORDS = 'staging database port queue retry budget kafka broker deploy rollback invoice customer schema migration latency cache index vector'.split(' ');

function makeLine(rand: () => number, file: number, n: number): string {
  const words = Array.from({ length: 6 + Math.floor(rand() * 20) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  return JSON.stringify({ id: `f${file}-m${n}`, role: n % 2 ? 'assistant' : 'user', content: `message ${n} of file ${file}: ${words}`, session: `s${file}`, timestamp: new Date(Date.UTC(2026, 2, 2, 9, 0, n)).toISOString() });
}

describe('kill -9 during capture: 0 lost, 0 duplicated', () => {
  let home: string;
  let dir: string;
  /** Messages written per file (the last one may still lack its tail). */
  const counters = Array.from({ length: FILES }, () => 0);
  /** Per file: the last 20 bytes not written yet (the daemon sees half a line meanwhile). */
  const tails: Array<string | null> = Array.from({ length: FILES }, () => null);
  const rand = prng(20261121);

  function grow(file: number, lines: number, partialTail = false): void {
    const parts: string[] = [];
    for (let i = 0; i < lines; i++) {
      const n = counters[file]!;
      counters[file] = n + 1;
      parts.push(makeLine(rand, file, n));
      if (rand() < 0.01) parts.push('{"broken json'); // malformed lines are counted, never fatal
    }
    const text = parts.join('\n') + '\n';
    appendFileSync(join(dir, `t${file}.jsonl`), partialTail ? text.slice(0, -20) : text);
    if (partialTail) tails[file] = text.slice(-20);
  }

  function finishTails(): void {
    for (let f = 0; f < FILES; f++) {
      if (tails[f] !== null) appendFileSync(join(dir, `t${f}.jsonl`), tails[f]!);
      tails[f] = null;
    }
  }

  function query<T>(sql: string): T[] {
    const db = new Database(join(home, 'cairn.db'), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all() as T[];
    } catch {
      return []; // not created yet
    } finally {
      db.close();
    }
  }

  const storedPerSession = () => new Map(query<{ s: string; n: number }>("SELECT session_id AS s, COUNT(*) AS n FROM turns WHERE namespace = 'crash' GROUP BY session_id").map((r) => [r.s, r.n]));
  const countTurns = () => [...storedPerSession().values()].reduce((a, b) => a + b, 0);
  /** Complete messages written so far (a message still missing its tail is not). */
  const complete = (f: number) => counters[f]! - (tails[f] === null ? 0 : 1);

  /**
   * Batches the daemon must still commit, at least: a batch covers at most BATCH_LINES lines, and
   * every message not stored yet sits on a line not consumed yet.
   */
  function batchesLeft(): number {
    const stored = storedPerSession();
    let batches = 0;
    for (let f = 0; f < FILES; f++) batches += Math.floor((complete(f) - (stored.get(`s${f}`) ?? 0)) / BATCH_LINES);
    return batches;
  }

  before(async () => {
    assertBuilt();
    home = makeHome({ embedder: { provider: 'none' }, capture: { batchLines: BATCH_LINES } });
    dir = join(home, 'transcripts');
    mkdirSync(dir);
    for (let f = 0; f < FILES; f++) writeFileSync(join(dir, `t${f}.jsonl`), '');
    for (let f = 0; f < FILES; f++) grow(f, INITIAL_LINES);
    await cliJson(['-n', 'crash', 'sources', 'add', 'jsonl', dir, '--json'], { home });
  });

  after(() => removeHome(home));

  it(`survives ${KILLS} kill -9 at chosen points mid-capture`, { timeout: TEST_GUARD_MS }, async (t) => {
    const points: string[] = [];
    for (let k = 0; k < KILLS; k++) {
      // Between starts the transcripts keep growing, sometimes mid-line.
      grow(k % FILES, 150 + Math.floor(rand() * 300), k % 3 === 0);
      const left = batchesLeft();
      assert.ok(left >= 2, `${left} batches left before kill ${k + 1}`);
      const point = k % 2 === 0 ? 'turns-before-commit' : 'turns-after-commit';
      const n = 1 + Math.floor(rand() * (left - 1));
      points.push(`${point}:${n}/${left}`);
      const d = startDaemon(home, ['--debounce-ms', '20', '--rescan-seconds', '1', '--quiet'], { CAIRN_TEST_PAUSE: `${point}:${n}` });
      await d.waitFor(new RegExp(`cairn-test-pause ${point} ${n}\\b`));
      d.child.kill('SIGKILL');
      const { signal } = await d.exited;
      assert.equal(signal, 'SIGKILL');
      const written = Array.from({ length: FILES }, (_, f) => complete(f)).reduce((a, b) => a + b, 0);
      assert.ok(countTurns() < written, `kill ${k + 1} (${point}:${n}) landed mid-capture: ${countTurns()} of ${written} stored`);
      finishTails();
    }
    t.diagnostic(`kill points (point:n/batches left): ${points.join(' ')}`);

    const expected = new Set<string>();
    for (let f = 0; f < FILES; f++) {
      const parsed = parseLines('jsonl', readFileSync(join(dir, `t${f}.jsonl`), 'utf8').split('\n').filter((l) => l !== ''), { sessionId: `t${f}` });
      for (const turn of parsed.turns) expected.add(`${turn.sessionId}\0${turn.messageId}`);
    }
    assert.equal(expected.size, counters.reduce((a, b) => a + b, 0));

    const final = startDaemon(home, ['--debounce-ms', '20', '--rescan-seconds', '1']);
    try {
      await eventually(async () => countTurns() >= expected.size, undefined, 250);
      // Two more rescans of the source: nothing further may arrive.
      await scansAfter(home, Date.now(), 2);
      const rows = query<{ session_id: string; message_id: string; text: string }>("SELECT session_id, message_id, text FROM turns WHERE namespace = 'crash'");
      const stored = new Set(rows.map((r) => `${r.session_id}\0${r.message_id}`));
      assert.equal(rows.length, expected.size, `stored ${rows.length}, capturable ${expected.size}`);
      assert.equal(stored.size, rows.length, 'no message stored twice');
      for (const key of expected) assert.ok(stored.has(key), `lost ${key.replace('\0', '/')}`);
      for (const r of rows) assert.match(r.text, new RegExp(`^message ${r.message_id.split('-m')[1]} of file`));
      const status = await cliJson(['status', '--json'], { home });
      const src = status.capture.sources[0];
      assert.equal(src.turns, expected.size);
      assert.ok(src.stats.malformed > 0, 'broken lines were counted');
    } finally {
      final.child.kill('SIGTERM');
      const end = await final.exited;
      assert.equal(end.code, 0, `daemon did not stop on SIGTERM (${end.signal}); output:\n${final.output().slice(-3000)}`);
    }
  });
});
