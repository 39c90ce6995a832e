// The `cairn` users run is the bundle scripts/bundle-cli.mjs writes (dist/bin/cairn.js, the
// package's bin): it must answer exactly what the library answers, find the files the unbundled
// modules find beside them (the embedding worker, package.json), and run through a symlink as
// `npm link` and a global install make it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Cairn } from '../../src/service/cairn.js';
import { ROOT, json, ok, runNode, tempHomes } from '../helpers/cli.js';

const BUNDLE = join(ROOT, 'dist', 'bin', 'cairn.js');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };

const MEMORIES = [
  'We decided to move the staging database to port 5433',
  'The deploy pipeline runs on GitHub Actions with a manual approval step',
  'Ana prefers tea over coffee in the morning',
  'Backups of the production database run nightly at 02:00 UTC',
  'Meine Schwestern wohnen in Hamburg, in einem alten Haus am Hafen',
  'Mis hermanas viven en Sevilla y tienen bicicletas rojas',
  'The staging cluster was moved from eu-west-1 to eu-central-1 in March',
  'Use pnpm, not npm, in the web repository',
];
// The last two name times: the bundle carries chrono-node's English locale (the others stay in node_modules).
const QUERIES = ['which port is the staging db on', 'staging database port', 'Wo wohnen meine Schwestern?', '¿Dónde viven mis hermanas?', 'nightly backups', 'zzzz qqqq', 'the staging cluster move in March', 'nightly backups today'];

describe('the bundled CLI (dist/bin/cairn.js)', () => {
  const newHome = tempHomes({});
  let home = '';
  let linkDir = '';

  before(async () => {
    assert.ok(existsSync(BUNDLE), `${BUNDLE} is missing: run "npm run build"`);
    home = newHome(); // the default embedder (use-lite): searches load the model and embed the query
    const cairn = await Cairn.open({ home });
    try {
      for (const text of MEMORIES) await cairn.remember({ text, category: 'fact', importance: 5 });
      await cairn.embedPending();
    } finally {
      await cairn.close();
    }
    linkDir = mkdtempSync(join(tmpdir(), 'cairn-bin-'));
  });
  after(() => rmSync(linkDir, { recursive: true, force: true }));

  it('is the package bin', () => {
    assert.equal(pkg.bin.cairn, 'dist/bin/cairn.js');
  });

  it('answers every search (hybrid and BM25) exactly as the library does', async () => {
    const searches = (['hybrid', 'bm25'] as const).flatMap((mode) => QUERIES.map((query) => ({ mode, query })));
    const cairn = await Cairn.open({ home });
    const lib: unknown[] = [];
    try {
      for (const { mode, query } of searches) lib.push(JSON.parse(JSON.stringify(await cairn.search(query, { mode }))));
    } finally {
      await cairn.close();
    }
    for (const [i, { mode, query }] of searches.entries()) {
      const cli = json(ok(await runNode([BUNDLE, 'search', query, '--mode', mode, '--json'], { home })));
      assert.deepEqual(cli, lib[i], `${mode} search for "${query}"`);
      if (mode === 'hybrid') assert.equal((cli as { mode: string }).mode, 'hybrid', 'the query was embedded');
      // The memories were stored now: the bundled date parser read "today" and preferred them.
      if (query.endsWith('today')) assert.ok((cli as { results: Array<{ parts: { when: number } }> }).results.some((r) => r.parts.when > 1), `${mode}: the time was read`);
    }
  });

  it('closes the model thread a search started when the search cannot open, and exits', async () => {
    // A hybrid search starts loading the model on another thread before it opens the home.
    const res = await runNode([BUNDLE, '-n', '../x', 'search', 'staging port', '--json'], { home, timeoutMs: 60_000 });
    assert.equal(res.code, 3, res.stderr);
    assert.equal(json<{ error: { code: string } }>(res.stderr.trim()).error.code, 'INVALID_NAMESPACE');
  });

  it('runs through a symlink, as npm link and npm install -g leave it', async () => {
    const link = join(linkDir, 'cairn');
    symlinkSync(BUNDLE, link);
    const version = await runNode([link, '--version'], { home });
    assert.equal(ok(version).trim(), pkg.version);
    // The loader answers --version itself: the same line as commander's in the unbundled CLI.
    for (const flag of ['--version', '-V']) assert.equal(ok(await runNode([link, flag], { home })), ok(await runNode([join(ROOT, 'dist', 'interfaces', 'cli', 'main.js'), flag], { home })));
    const res = json<{ results: Array<{ text: string }> }>(ok(await runNode([link, 'search', 'staging port', '--json'], { home })));
    assert.match(res.results[0]?.text ?? '', /5433/);
  });

  it('starts the embedding worker from the file beside the unbundled modules', async () => {
    // reembed embeds in worker threads (embed/worker-embedder.ts finds embed-worker.js by URL).
    const res = json<{ model: string; done: number }>(ok(await runNode([BUNDLE, 'reembed', '--force', '--json'], { home })));
    assert.equal(res.model, 'use-lite@1');
    assert.equal(res.done, MEMORIES.length);
  });

  it('reports a bad command as the unbundled CLI does', async () => {
    const res = await runNode([BUNDLE, 'no-such-command'], { home });
    const unbundled = await runNode([join(ROOT, 'dist', 'interfaces', 'cli', 'main.js'), 'no-such-command'], { home });
    assert.notEqual(res.code, 0);
    assert.equal(res.code, unbundled.code);
    assert.equal(res.stderr, unbundled.stderr);
  });

  it('reports an invalid config in the same words as the unbundled CLI (zod keeps its English messages)', async () => {
    const bad = newHome({ embedder: { provider: 'nope' }, search: { limit: 'ten' } });
    const res = await runNode([BUNDLE, 'status', '--json'], { home: bad });
    const unbundled = await runNode([join(ROOT, 'dist', 'interfaces', 'cli', 'main.js'), 'status', '--json'], { home: bad });
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /embedder\.provider/);
    assert.equal(res.code, unbundled.code);
    assert.equal(res.stderr, unbundled.stderr);
  });

  it('a one-shot command reads the database through a memory map', { skip: !existsSync('/proc/self/maps') }, async () => {
    // Preloaded: as the CLI prints its answer (the database still open: it closes after), notes
    // whether the process maps the file; says so at exit. (The bundle carries better-sqlite3's own
    // JavaScript, so its class cannot be patched from outside.)
    const probe = `data:text/javascript,${encodeURIComponent(
      `import { readFileSync } from 'node:fs';
      const write = process.stdout.write; let mapped = false;
      process.stdout.write = function (...args) { mapped ||= /cairn\\.db$/m.test(readFileSync('/proc/self/maps', 'utf8')); return write.apply(this, args); };
      process.on('exit', () => process.stderr.write('\\nmapped ' + mapped + '\\n'));`,
    )}`;
    // `list` stands for the commands without a query (status prints after it closed the database).
    for (const args of [['search', 'staging port', '--json'], ['search', 'staging port', '--mode', 'bm25', '--json'], ['list', '--json']]) {
      const res = await runNode([BUNDLE, ...args], { home, nodeArgs: ['--import', probe] });
      ok(res, args.join(' '));
      assert.match(res.stderr, /\nmapped true\n/, args.join(' '));
    }
  });

  it('is in the packed package', () => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const files = (JSON.parse(r.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
    assert.ok(files.includes('dist/bin/cairn.js'), 'dist/bin/cairn.js is packed');
    assert.ok(files.includes('dist/bin/cli.cjs'), 'the bundle the executable runs is packed');
    assert.ok(files.includes('dist/bin/package.json'), 'so is what makes dist/bin CommonJS');
    assert.ok(files.includes('dist/embed/embed-worker.js'), 'the worker the bundle starts is packed');
  });
});
