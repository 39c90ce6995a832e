// A cold `cairn search` starts its query model's thread before it loads commander, zod and the
// service (src/interfaces/cli/early-model.ts). The thread is started from the raw config file, so
// the tests check it is started only when the command will embed, taken only when the validated
// config asks for the very same model, and released (never cut short: onnxruntime aborts the
// process) when the command fails or does not use it.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { embedsQuery, releaseEarlyModel, startModelEarly, takeEarlyModel } from '../../src/interfaces/cli/early-model.js';
import { Cairn } from '../../src/service/cairn.js';
import { ROOT, json, ok, runNode, tempHomes } from '../helpers/cli.js';

const BUNDLE = join(ROOT, 'dist', 'bin', 'cairn.js');
/** Preloaded into the CLI: counts the worker threads it starts and prints the count as it exits. */
const COUNT_THREADS = `data:text/javascript,${encodeURIComponent(
  // Preloads run in worker threads too: only the main thread counts and reports.
  "import wt from 'node:worker_threads'; import { syncBuiltinESMExports } from 'node:module'; if (wt.isMainThread) { let n = 0; const W = wt.Worker; wt.Worker = class extends W { constructor(...a) { super(...a); n++; } }; syncBuiltinESMExports(); process.on('exit', () => process.stderr.write(`\\nworker-threads ${n}\\n`)); }",
)}`;
const threadsOf = (stderr: string) => Number(/\nworker-threads (\d+)\n/.exec(stderr)?.[1] ?? NaN);
/**
 * Preloaded into the CLI: notes when the main thread starts a worker and when it reads the bundled
 * CLI (dist/bin/cli.cjs), and prints that order as it exits; with `fail`, reading the bundle throws,
 * 130 ms late: by then the thread is (on this machine) inside onnxruntime's native calls.
 */
const orderOfStart = (fail: boolean) =>
  `data:text/javascript,${encodeURIComponent(
    `import wt from 'node:worker_threads'; import fs from 'node:fs'; import { syncBuiltinESMExports } from 'node:module';
    if (wt.isMainThread) {
      const order = [];
      const W = wt.Worker; wt.Worker = class extends W { constructor(...a) { super(...a); order.push('thread'); } };
      const read = fs.readFileSync; fs.readFileSync = function (path, ...rest) {
        if (String(path).endsWith('cli.cjs')) { order.push('bundle'); if (${fail}) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 130); throw new Error('cannot read the bundle (test)'); } }
        return read.call(this, path, ...rest);
      };
      syncBuiltinESMExports();
      process.on('exit', () => process.stderr.write('\\nstart-order ' + order.join(',') + '\\n'));
    }`,
  )}`;
const startOrderOf = (stderr: string) => /\nstart-order ([a-z,]*)\n/.exec(stderr)?.[1];
const ABORTED = /terminate called|Napi::Error|Aborted/;

describe('which command lines embed a query', () => {
  it('search (but not --mode bm25) and context with a query', () => {
    const yes = [['search', 'x'], ['--home', '/h', 'search', 'x', '--json'], ['search', '--mode', 'vector', 'x'], ['search', '--mode=hybrid', 'x'], ['context', '-q', 'x'], ['context', '--query=x']];
    const no = [
      ['search', '--mode', 'bm25', 'x'],
      ['search', 'x', '--mode=bm25'],
      ['search', '--help'],
      ['search', '-h'],
      ['context'],
      ['context', '--query='],
      ['store', 'search me'],
      ['--version'],
      [],
      ['--home', 'search', 'status'],
      ['-n', 'search', 'list'],
    ];
    for (const args of yes) assert.equal(embedsQuery(args), true, args.join(' '));
    for (const args of no) assert.equal(embedsQuery(args), false, args.join(' '));
  });
});

describe('the early model thread, in process', () => {
  const newHome = tempHomes();
  after(releaseEarlyModel);

  it('is taken by a command whose config asks for the same model, and embeds', async () => {
    const home = newHome(null); // no config file: the default embedder, use-lite
    startModelEarly(['--home', home, 'search', 'staging port']);
    assert.equal(takeEarlyModel({ provider: 'use-lite', runtime: 'tfjs' }, join(home, 'cache')), null, 'another runtime');
    assert.equal(takeEarlyModel({ provider: 'use-lite' }, join(home, 'elsewhere')), null, 'another cache folder');
    const embedder = takeEarlyModel({ provider: 'use-lite' }, join(home, 'cache'));
    assert.ok(embedder, 'the matching command takes it');
    try {
      assert.equal(embedder.modelId, 'use-lite@1');
      const [vector] = await embedder.embed(['which port is the staging database on']);
      assert.equal(vector!.length, 512);
      assert.ok(Math.abs(Math.hypot(...vector!) - 1) < 1e-3);
      assert.equal(takeEarlyModel({ provider: 'use-lite' }, join(home, 'cache')), null, 'taken once');
    } finally {
      await embedder.close();
    }
  });

  it('follows --home=, the config file\'s runtime, and is released when nobody takes it', async () => {
    const home = newHome({ embedder: { provider: 'use-lite', runtime: 'tfjs' } });
    startModelEarly([`--home=${home}`, 'context', '--query', 'x']);
    assert.equal(takeEarlyModel({ provider: 'use-lite' }, join(home, 'cache')), null);
    await releaseEarlyModel(); // waits for the model load in flight, then lets the thread go
    assert.equal(takeEarlyModel({ provider: 'use-lite', runtime: 'tfjs' }, join(home, 'cache')), null, 'released');
  });

  it('is not started for another embedder, a config it cannot read plainly, bm25, or a running daemon', () => {
    const configs: Array<object | string> = [
      { embedder: { provider: 'none' } },
      { embedder: { provider: 'ollama', model: 'nomic-embed-text' } },
      { embedder: { provider: 'use-lite', runtime: 'gpu' } },
      { embedder: { provider: 'use-lite', runtime: 'tfjs', extra: true } },
      { embedder: 'use-lite' },
      { embedder: null },
      '[1, 2]',
      '{"embedder": {"provider": "use-lite"',
      '',
      '\u0000\u0001',
      JSON.stringify({ embedder: { provider: 'use-lite' }, pad: 'x'.repeat(2_000_000) }).replace('"provider"', '"provider\\u0000"'),
    ];
    for (const config of configs) {
      const home = newHome(config);
      startModelEarly(['--home', home, 'search', 'x']);
      assert.equal(takeEarlyModel({ provider: 'use-lite' }, join(home, 'cache')), null, JSON.stringify(config).slice(0, 80));
    }
    const home = newHome(null); // no config file: the default embedder, use-lite
    startModelEarly(['--home', home, 'search', '--mode', 'bm25', 'x']);
    assert.equal(takeEarlyModel({ provider: 'use-lite' }, join(home, 'cache')), null, 'bm25');
    writeFileSync(join(home, 'cairn.sock'), ''); // a daemon's socket: it answers the search
    startModelEarly(['--home', home, 'search', 'x']);
    assert.equal(takeEarlyModel({ provider: 'use-lite' }, join(home, 'cache')), null, 'daemon socket');
  });
});

describe('the early model thread, in the CLI', () => {
  const newHome = tempHomes();
  const run = (home: string, args: string[]) => runNode([BUNDLE, ...args], { home, nodeArgs: ['--import', COUNT_THREADS] });

  it('a cold hybrid search starts one model thread and embeds with it; BM25 starts none', async () => {
    const home = newHome(null); // no config file: the default embedder, use-lite
    const cairn = await Cairn.open({ home });
    try {
      await cairn.remember({ text: 'We decided to move the staging database to port 5433', category: 'decision', importance: 7 });
      await cairn.remember({ text: 'Ana prefers tea over coffee in the morning', category: 'preference', importance: 4 });
      await cairn.embedPending();
    } finally {
      await cairn.close();
    }
    const hybrid = await run(home, ['search', 'which port is the staging db on', '--json']);
    const res = json(ok(hybrid, 'search'));
    assert.equal(res.mode, 'hybrid', hybrid.stderr);
    assert.match(res.results[0].text, /port 5433/);
    assert.equal(threadsOf(hybrid.stderr), 1);
    const bm25 = await run(home, ['search', 'staging database', '--mode', 'bm25', '--json']);
    assert.equal(json(ok(bm25, 'bm25 search')).mode, 'bm25');
    assert.equal(threadsOf(bm25.stderr), 0);
    const brief = await run(home, ['context', '--query', 'staging database port', '--json']);
    ok(brief, 'context --query');
    assert.equal(threadsOf(brief.stderr), 1);
  });

  it('the executable starts the thread before it reads the bundled CLI, and lets it go when it cannot', async () => {
    const home = newHome(null); // no config file: the default embedder, use-lite
    const search = await runNode([BUNDLE, 'search', 'staging port', '--json'], { home, nodeArgs: ['--import', orderOfStart(false)] });
    ok(search, 'search');
    assert.equal(startOrderOf(search.stderr), 'thread,bundle');
    const bm25 = await runNode([BUNDLE, 'search', 'staging port', '--mode', 'bm25', '--json'], { home, nodeArgs: ['--import', orderOfStart(false)] });
    ok(bm25, 'bm25 search');
    assert.equal(startOrderOf(bm25.stderr), 'bundle');
    // The thread is inside its model's load when the bundle fails: the process must not end under it.
    const broken = await runNode([BUNDLE, 'search', 'staging port', '--json'], { home, nodeArgs: ['--import', orderOfStart(true)] });
    assert.equal(broken.code, 1, broken.stderr);
    assert.equal(broken.signal, null);
    assert.match(broken.stderr, /cannot read the bundle \(test\)/);
    assert.doesNotMatch(broken.stderr, ABORTED);
    assert.equal(startOrderOf(broken.stderr), 'thread,bundle');
  });

  it('exits cleanly when the command fails or never searches after the thread started', async () => {
    // The raw file names use-lite (so the thread starts); the schema refuses the rest of it.
    const invalid = newHome({ embedder: { provider: 'use-lite' }, search: { noSuchKey: 1 } });
    const refused = await run(invalid, ['search', 'x', '--json']);
    assert.equal(refused.code, 6, refused.stderr);
    assert.match(refused.stderr, /noSuchKey/);
    assert.doesNotMatch(refused.stderr, ABORTED);
    assert.equal(threadsOf(refused.stderr), 1);
    const home = newHome(null); // no config file: the default embedder, use-lite
    for (const args of [['search', '--limit', '0', 'x'], ['search', '--mode', 'hybrid', '--no-such-flag', 'x'], ['search', '--layer', '9', 'x']]) {
      const res = await run(home, args);
      assert.notEqual(res.code, 0, args.join(' '));
      assert.equal(res.signal, null, args.join(' '));
      assert.doesNotMatch(res.stderr, ABORTED, args.join(' '));
    }
  });
});
