// Kill -9 the real daemon at 20+ random points during a large capture (while the transcripts keep
// growing, partial lines included), restart it each time, and check the end state: every
// capturable message stored exactly once, nothing lost, nothing doubled.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { assertBuilt, cliJson, makeHome, removeHome } from '../helpers/cli.js';
import { eventually, startDaemon } from '../helpers/daemon.js';
import { parseLines } from '../../src/capture/formats/index.js';
import { seeded as prng } from '../helpers/prng.js';

const KILLS = 22;
const FILES = 4;


const WORDS = 'staging database port queue retry budget kafka broker deploy rollback invoice customer schema migration latency cache index vector'.split(' ');

function makeLine(rand: () => number, file: number, n: number): string {
  const words = Array.from({ length: 6 + Math.floor(rand() * 20) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  return JSON.stringify({ id: `f${file}-m${n}`, role: n % 2 ? 'assistant' : 'user', content: `message ${n} of file ${file}: ${words}`, session: `s${file}`, timestamp: new Date(Date.UTC(2026, 2, 2, 9, 0, n)).toISOString() });
}

describe('kill -9 during capture: 0 lost, 0 duplicated', () => {
  let home: string;
  let dir: string;
  const counters = Array.from({ length: FILES }, () => 0);
  const rand = prng(20261121);

  function grow(file: number, lines: number, partialTail = false): void {
    const parts: string[] = [];
    for (let i = 0; i < lines; i++) {
      const n = counters[file]!;
      counters[file] = n + 1;
      parts.push(makeLine(rand, file, n));
      if (rand() < 0.01) parts.push('{"broken json'); // malformed lines are counted, never fatal
    }
    const path = join(dir, `t${file}.jsonl`);
    const text = parts.join('\n') + '\n';
    if (!partialTail) return appendFileSync(path, text);
    // Write all but the last 20 bytes now, the rest later: the daemon sees half a line meanwhile.
    appendFileSync(path, text.slice(0, -20));
    setTimeout(() => appendFileSync(path, text.slice(-20)), 30);
  }

  before(async () => {
    assertBuilt();
    home = makeHome({ embedder: { provider: 'none' }, capture: { batchLines: 50 } });
    dir = join(home, 'transcripts');
    mkdirSync(dir);
    for (let f = 0; f < FILES; f++) writeFileSync(join(dir, `t${f}.jsonl`), '');
    for (let f = 0; f < FILES; f++) grow(f, 25_000);
    await cliJson(['-n', 'crash', 'sources', 'add', 'jsonl', dir, '--json'], { home });
  });

  after(() => removeHome(home));

  it(`survives ${KILLS} kill -9 at random points`, async () => {
    const countTurns = () => {
      const db = new Database(join(home, 'cairn.db'), { readonly: true, fileMustExist: true });
      try {
        return (db.prepare("SELECT COUNT(*) AS n FROM turns WHERE namespace = 'crash'").get() as { n: number }).n;
      } catch {
        return 0; // not created yet
      } finally {
        db.close();
      }
    };
    let interrupted = 0;
    for (let k = 0; k < KILLS; k++) {
      const d = startDaemon(home, ['--debounce-ms', '20', '--rescan-seconds', '1', '--quiet']);
      // Between starts the transcripts keep growing, sometimes mid-line.
      grow(k % FILES, 150 + Math.floor(rand() * 300), k % 3 === 0);
      const delay = 150 + Math.floor(rand() * 900);
      await new Promise((r) => setTimeout(r, delay));
      d.child.kill('SIGKILL');
      const { signal } = await d.exited;
      assert.equal(signal, 'SIGKILL');
      // Killed while lines were still waiting: the kill landed mid-capture, not after it.
      if (countTurns() < counters.reduce((a, b) => a + b, 0) - 600) interrupted++;
    }
    assert.ok(interrupted >= KILLS / 2, `only ${interrupted} of ${KILLS} kills landed mid-capture`);
    await new Promise((r) => setTimeout(r, 100)); // the last partial tail lands
    const expected = new Set<string>();
    for (let f = 0; f < FILES; f++) {
      const parsed = parseLines('jsonl', readFileSync(join(dir, `t${f}.jsonl`), 'utf8').split('\n').filter((l) => l !== ''), { sessionId: `t${f}` });
      for (const t of parsed.turns) expected.add(`${t.sessionId}\0${t.messageId}`);
    }
    assert.equal(expected.size, counters.reduce((a, b) => a + b, 0));

    const final = startDaemon(home, ['--debounce-ms', '20', '--rescan-seconds', '1']);
    try {
      await eventually(async () => countTurns() >= expected.size, 60_000, 250);
      await new Promise((r) => setTimeout(r, 1500)); // one more rescan: nothing further may arrive
      const db = new Database(join(home, 'cairn.db'), { readonly: true, fileMustExist: true });
      try {
        const rows = db.prepare("SELECT session_id, message_id, text FROM turns WHERE namespace = 'crash'").all() as Array<{ session_id: string; message_id: string; text: string }>;
        const stored = new Set(rows.map((r) => `${r.session_id}\0${r.message_id}`));
        assert.equal(rows.length, expected.size, `stored ${rows.length}, capturable ${expected.size}`);
        assert.equal(stored.size, rows.length, 'no message stored twice');
        for (const key of expected) assert.ok(stored.has(key), `lost ${key.replace('\0', '/')}`);
        for (const r of rows) assert.match(r.text, new RegExp(`^message ${r.message_id.split('-m')[1]} of file`));
      } finally {
        db.close();
      }
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
