// Real processes sharing one home at once: two writers storing N distinct memories each (through
// the built library, reopening the store as they go) while a third process searches in a loop.
// Afterwards every memory must be there exactly once, and no process may have failed or complained.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { HANG_GUARD_MS, NO_EMBEDDER, ROOT, assertBuilt, childEnv, cliJson, json, makeHome, ok, removeHome, runCli, runNode } from '../helpers/cli.js';

const FIXTURES = join(ROOT, 'test', 'cli', 'fixtures');
const homes: string[] = [];

before(() => assertBuilt());
after(() => {
  for (const h of homes) removeHome(h);
});

interface Proc {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
  /** Resolves once the process printed a line equal to `line`. */
  printed(line: string): Promise<void>;
}

function start(script: string, args: string[], home: string, timeoutMs: number): Proc {
  const child = spawn(process.execPath, [join(FIXTURES, script), ...args], { cwd: ROOT, env: childEnv(home), stdio: 'pipe' });
  let out = '';
  let err = '';
  const waiters: Array<{ line: string; resolve: () => void }> = [];
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (const w of waiters) if (out.split('\n').includes(w.line)) w.resolve();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  child.stdin.on('error', () => undefined);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      for (const w of waiters) w.resolve(); // let waiters proceed; the exit code tells the story
      resolve(code);
    }),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    printed: (line) =>
      new Promise<void>((resolve) => {
        if (out.split('\n').includes(line)) resolve();
        else waiters.push({ line, resolve });
      }),
  };
}

interface WriterLine {
  id: string;
  text: string;
  embedded: boolean;
}

async function runScenario(options: { n: number; embedder: boolean; timeoutMs: number }) {
  const { n, embedder, timeoutMs } = options;
  const home = makeHome(embedder ? undefined : NO_EMBEDDER);
  homes.push(home);
  // Initialise first only for the no-embedder home; the embedder home starts without a database,
  // so the writers and the searcher also race to create and migrate it.
  if (!embedder) ok(await runCli(['init'], { home }));

  const writers = ['alpha', 'beta'].map((prefix) => start('writer.mjs', [prefix, String(n), embedder ? '10' : '25'], home, timeoutMs));
  const searcher = start('searcher.mjs', [], home, timeoutMs);
  await Promise.all([...writers, searcher].map((p) => p.printed('ready')));
  for (const w of writers) w.child.stdin.write('go\n');
  const writerCodes = await Promise.all(writers.map((w) => w.exited));
  searcher.child.stdin.end('stop\n');
  const searcherCode = await searcher.exited;

  for (const [i, w] of writers.entries()) {
    assert.equal(writerCodes[i], 0, `writer ${i} exited ${writerCodes[i]}: ${w.stderr()}`);
    assert.equal(w.stderr(), '', `writer ${i} printed errors or warnings`);
  }
  assert.equal(searcherCode, 0, `searcher exited ${searcherCode}: ${searcher.stderr()}`);
  assert.equal(searcher.stderr(), '', 'searcher printed errors');

  const perWriter = writers.map((w) => {
    const lines = w.stdout().trim().split('\n').slice(1).map((l) => json(l));
    const done = lines.pop() as { done: boolean; start: number; end: number };
    assert.equal(done.done, true, 'writer finished its loop');
    return { stored: lines as WriterLine[], done };
  });
  // The writers really overlapped in time (otherwise this would test nothing).
  const [a, b] = perWriter.map((w) => w.done);
  assert.ok(a!.start < b!.end && b!.start < a!.end, `writers overlapped: ${JSON.stringify([a, b])}`);
  const stats = json(searcher.stdout().trim().split('\n').pop()!);
  assert.ok(stats.searches >= 3, `searcher ran ${stats.searches} searches during the writes`);

  const stored = perWriter.flatMap((w) => w.stored);
  assert.equal(stored.length, 2 * n, 'each writer acknowledged every memory');
  if (embedder) assert.ok(stored.every((s) => s.embedded), 'every memory was embedded inline');
  const ids = stored.map((s) => s.id);
  assert.equal(new Set(ids).size, 2 * n, 'ids are unique');

  // Everything is there exactly once: export, list and status agree, and each id resolves.
  const exported = ok(await runCli(['export'], { home }))
    .trim()
    .split('\n')
    .map((l) => json(l));
  assert.equal(exported.length, 2 * n, 'export count');
  assert.deepEqual(exported.map((m) => m.id).sort(), [...ids].sort(), 'exported ids are exactly the acknowledged ids');
  const byId = new Map(stored.map((s) => [s.id, s.text]));
  for (const m of exported) {
    assert.equal(m.text, byId.get(m.id), `text of ${m.id}`);
    assert.equal(m.mentions, 1, `${m.id} was stored once`);
  }
  const listed = await cliJson(['list', '--all', '--limit', '10000', '--json'], { home });
  assert.equal(listed.length, 2 * n, 'list count');
  const status = await cliJson(['status', '--json'], { home });
  assert.equal(status.ok, true);
  assert.equal(status.totals.memories, 2 * n);
  if (embedder) {
    assert.equal(status.namespaces[0].vectors, 2 * n, 'one vector per memory');
    assert.equal(status.index.pending, 0);
  }

  const got = await runNode([join(FIXTURES, 'get-all.mjs')], { home, input: ids.join('\n') });
  assert.equal(got.code, 0, got.stderr);
  const report = json(got.stdout);
  assert.deepEqual(report.missing, []);
  assert.equal(report.found, 2 * n);
  for (const s of stored) assert.equal(report.texts[s.id], s.text);
  // And through the CLI itself for a few of them, both writers.
  for (const s of [stored[0]!, stored[n - 1]!, stored[n]!, stored[2 * n - 1]!]) {
    assert.equal((await cliJson(['get', s.id, '--json'], { home })).text, s.text);
  }

  const hits = await cliJson(['search', 'concurrent memory number 7 of', '--limit', '200', '--json'], { home });
  assert.ok(hits.results.some((r: { text: string }) => r.text === `alpha wrote concurrent memory number 7 of ${n}`));
  assert.ok(hits.results.some((r: { text: string }) => r.text === `beta wrote concurrent memory number 7 of ${n}`));
  return { stats };
}

describe('concurrent processes on one home', () => {
  test('two writers × 200 memories and a searcher, no embedder', async () => {
    const { stats } = await runScenario({ n: 200, embedder: false, timeoutMs: HANG_GUARD_MS });
    assert.deepEqual(stats.modes, ['bm25']);
  });

  test('two writers × 30 memories and a searcher, default embedder, fresh home', async () => {
    const { stats } = await runScenario({ n: 30, embedder: true, timeoutMs: HANG_GUARD_MS });
    assert.ok(stats.modes.includes('hybrid'), `searches used vectors: ${stats.modes}`);
  });
});
