// The `cairn` executable (dist/bin/cairn.js) compiles the bundled CLI (dist/bin/cli.cjs) from a V8
// code cache kept in <home>/cache/ (src/interfaces/cli/bundle-loader.ts). The cache must change
// nothing but speed: the same output with it, without it and from the unbundled CLI; a damaged,
// stale or foreign cache file, or a home that cannot be written, is no error and prints nothing.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { VALIDATED_CONFIG_FILE } from '../../src/core/config-cache.js';
import { KEPT_CACHES, bundleKey, cacheFileFor, commandLabel } from '../../src/interfaces/cli/bundle-loader.js';
import { Cairn } from '../../src/service/cairn.js';
import { CLI, HANG_GUARD_MS, ROOT, childEnv, ok, runNode, tempHomes, type RunResult } from '../helpers/cli.js';
import { unprivileged } from '../helpers/cli-as.js';

const BIN = join(ROOT, 'dist', 'bin', 'cairn.js');
const BUNDLE = realpathSync(join(ROOT, 'dist', 'bin', 'cli.cjs'));

const MEMORIES = [
  'We decided to move the staging database to port 5433',
  'Backups of the production database run nightly at 02:00 UTC',
  'Meine Schwestern wohnen in Hamburg, in einem alten Haus am Hafen',
  'Мои сёстры живут в Москве',
];
const BM25 = ['search', 'staging database port', '--mode', 'bm25', '--json'];

interface Header {
  key: string;
  crc32: string;
  commands: string[];
}

const cacheOf = (home: string): string => cacheFileFor(join(home, 'cache'), BUNDLE);

function readCache(home: string): { header: Header; data: Buffer; ino: number } {
  const file = cacheOf(home);
  const raw = readFileSync(file);
  const end = raw.indexOf(0x0a);
  return { header: JSON.parse(raw.toString('utf8', 0, end)) as Header, data: raw.subarray(end + 1), ino: statSync(file).ino };
}

function writeCache(home: string, header: Header, data: Buffer): void {
  mkdirSync(join(home, 'cache'), { recursive: true });
  writeFileSync(cacheOf(home), Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), data]));
}

const checksum = (data: Buffer): string => crc32(data).toString(16).padStart(8, '0');

/** A cache the executable wrote and will use: its key is this bundle's, its checksum matches. */
function assertValidCache(home: string): void {
  const { header, data } = readCache(home);
  assert.equal(header.key, bundleKey(BUNDLE));
  assert.equal(header.crc32, checksum(data));
  assert.ok(data.length > 100_000, `the cache holds the compiled bundle (${data.length} bytes)`);
}

/** Exit code, stdout and stderr: what a user sees. */
const seen = (r: RunResult) => ({ code: r.code, stdout: r.stdout, stderr: r.stderr });

describe('the code cache of the bundled CLI', () => {
  const newHome = tempHomes();
  let home = '';
  let expected: RunResult;

  before(async () => {
    home = newHome();
    const cairn = await Cairn.open({ home });
    try {
      for (const text of MEMORIES) await cairn.remember({ text, category: 'fact', importance: 5 });
    } finally {
      await cairn.close();
    }
    expected = await runNode([CLI, ...BM25], { home }); // the unbundled CLI, no cache involved
    ok(expected);
  });

  const run = (args: readonly string[], h = home): Promise<RunResult> => runNode([BIN, ...args], { home: h });

  it('answers as without it and as the unbundled CLI; written once, then used as it is', async () => {
    const commands = [BM25, ['list', '--json'], ['get', '--json', 'nope'], ['--version'], ['--help'], ['search', '--help'], ['status', '--json']];
    for (const args of commands) {
      rmSync(cacheOf(home), { force: true });
      const unbundled = await runNode([CLI, ...args], { home });
      const first = await run(args); // compiles the bundle, writes the cache at exit (when it succeeded)
      const second = await run(args); // compiles from the cache
      const what = args.join(' ');
      if (args[0] === 'status') {
        // status reports the home's size, which the cache file changes: same shape, same exit
        assert.equal(first.code, 0, first.stderr);
        assert.deepEqual(Object.keys(JSON.parse(second.stdout)), Object.keys(JSON.parse(first.stdout)));
        assert.equal(second.stderr, '');
      } else {
        assert.deepEqual(seen(first), seen(unbundled), what);
        assert.deepEqual(seen(second), seen(unbundled), what);
      }
      if (first.code !== 0) {
        assert.equal(existsSync(cacheOf(home)), false, `${what} failed: no cache written`);
        continue;
      }
      if (what === '--version') {
        assert.equal(existsSync(cacheOf(home)), false, 'the loader answers --version without the bundle: no cache');
        continue;
      }
      assertValidCache(home);
      const written = readCache(home);
      await run(args);
      assert.equal(readCache(home).ino, written.ino, `${what}: the cache was used, not rewritten`);
    }
  });

  it('grows to cover each command that ran, rewriting once per command', async () => {
    rmSync(cacheOf(home), { force: true });
    ok(await run(['list', '--json']));
    assert.deepEqual(readCache(home).header.commands, ['list']);
    const listOnly = readCache(home);
    ok(await run(BM25));
    const both = readCache(home);
    assert.deepEqual(both.header.commands, ['list', 'search']);
    assert.notEqual(both.ino, listOnly.ino);
    assert.ok(both.data.length > listOnly.data.length, 'the search code was added');
    ok(await run(['list', '--json']));
    ok(await run(['search', 'nightly backups', '--mode', 'bm25']));
    assert.equal(readCache(home).ino, both.ino, 'both commands were covered: nothing rewritten');
    // A query vector runs other code: its own entry (this home has no embedder: BM25 all the same).
    ok(await run(['search', 'nightly backups', '--json']));
    assert.deepEqual(readCache(home).header.commands, ['list', 'search', 'search +vector']);
  });

  it('keeps the code of commands run while a daemon listens in a file of its own', async () => {
    // A daemon answers searches with a fraction of the CLI's code: its cache is not weighed down by
    // the in-process search's. A plain file stands for the socket (the CLI then answers itself).
    rmSync(cacheOf(home), { force: true });
    ok(await run(BM25));
    const plain = readCache(home);
    const socket = join(home, 'cairn.sock');
    const viaDaemon = cacheFileFor(join(home, 'cache'), BUNDLE, true);
    writeFileSync(socket, '');
    try {
      assert.deepEqual(seen(await run(BM25)), seen(expected));
      assert.ok(existsSync(viaDaemon), 'written apart');
      assert.equal(readCache(home).ino, plain.ino, 'the other cache untouched');
      ok(await run([...BM25, '--no-daemon'])); // told not to ask a daemon: the other file
      assert.equal(readCache(home).ino, plain.ino);
    } finally {
      rmSync(socket, { force: true });
    }
    // Both files are one bundle's: another bundle's write keeps them together.
    assert.deepEqual(readdirSync(join(home, 'cache')).filter((n) => n.startsWith('cli-code-')).sort(), [cacheOf(home), viaDaemon].map((f) => f.slice(join(home, 'cache').length + 1)).sort());
    rmSync(viaDaemon, { force: true });
  });

  it('is private: the file 0600, the folder it creates 0700', async () => {
    const fresh = newHome();
    ok(await run(['list', '--json'], fresh));
    assert.equal(statSync(cacheOf(fresh)).mode & 0o777, 0o600);
    assert.equal(statSync(join(fresh, 'cache')).mode & 0o777, 0o700);
  });

  it('keeps the caches of a few bundles: writing one removes the least recently written beyond them', async () => {
    const fresh = newHome();
    const dir = join(fresh, 'cache');
    mkdirSync(dir);
    const others = ['cli-code-00000001.bin', 'cli-code-00000002.bin', 'cli-code-00000003.bin', 'cli-code-00000004.bin'];
    others.forEach((name, i) => {
      writeFileSync(join(dir, name), 'another install');
      utimesSync(join(dir, name), new Date(2020, 0, 1 + i), new Date(2020, 0, 1 + i)); // 00000004 the newest
    });
    // A bundle's two files go together, its newest write counting: 00000002 was used last, by way of a daemon.
    writeFileSync(join(dir, 'cli-code-00000002-daemon.bin'), 'another install');
    utimesSync(join(dir, 'cli-code-00000002-daemon.bin'), new Date(2020, 0, 10), new Date(2020, 0, 10));
    writeFileSync(join(dir, 'model.onnx'), 'not a code cache');
    ok(await run(['list', '--json'], fresh));
    assert.equal(KEPT_CACHES, 3);
    const kept = ['cli-code-00000002.bin', 'cli-code-00000002-daemon.bin', 'cli-code-00000004.bin'];
    // Beside them: the validated config (core/config-cache.ts), written once the folder exists.
    assert.deepEqual(readdirSync(dir).filter((f) => f !== VALIDATED_CONFIG_FILE).sort(), [...kept, 'model.onnx', cacheOf(fresh).slice(dir.length + 1)].sort());
    assertValidCache(fresh);
  });

  it('writes nothing into a home that does not exist, nor into a folder that is no Cairn home', async () => {
    const base = mkdtempSync(join(tmpdir(), 'cairn-cc-'));
    try {
      const missing = join(base, 'no-home');
      for (const dir of [missing, base]) {
        const res = await run(['--version'], dir);
        assert.equal(ok(res).trim(), '0.1.0');
        assert.equal(res.stderr, '');
      }
      assert.deepEqual(readdirSync(base), [], 'no home, no cache folder');
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('a damaged cache file is ignored, says nothing, and is rewritten', async () => {
    ok(await run(BM25));
    const good = readCache(home);
    const damages: Array<[string, () => void]> = [
      ['bytes flipped inside the code', () => {
        const data = Buffer.from(good.data);
        for (let i = data.length >> 1; i < (data.length >> 1) + 64; i++) data[i] = data[i]! ^ 0xff;
        writeCache(home, good.header, data);
      }],
      ['bytes flipped, checksum to match', () => {
        // Only the checksum stands between this and V8: its own checks then (length, magic) must hold.
        const data = Buffer.from(good.data);
        for (let i = 0; i < 16; i++) data[i] = data[i]! ^ 0xff;
        writeCache(home, { ...good.header, crc32: checksum(data) }, data);
      }],
      ['truncated to half', () => truncateSync(cacheOf(home), statSync(cacheOf(home)).size >> 1)],
      ['the header only', () => writeFileSync(cacheOf(home), `${JSON.stringify(good.header)}\n`)],
      ['empty', () => writeFileSync(cacheOf(home), '')],
      ['not a cache at all', () => writeFileSync(cacheOf(home), 'garbage\nmore garbage')],
      ['a header that is not JSON', () => writeFileSync(cacheOf(home), Buffer.concat([Buffer.from('{"key":\n'), good.data]))],
    ];
    for (const [what, damage] of damages) {
      ok(await run(BM25)); // a valid cache again
      damage();
      const damaged = readFileSync(cacheOf(home));
      const res = await run(BM25);
      assert.deepEqual(seen(res), seen(expected), what);
      assertValidCache(home);
      assert.notDeepEqual(readFileSync(cacheOf(home)), damaged, `${what}: rewritten`);
    }
  });

  it("a cache of another bundle (another key, or V8 code of another script) is not used and is rewritten", async () => {
    ok(await run(BM25));
    const good = readCache(home);
    // Another bundle's key, as after an upgrade: not even handed to V8.
    writeCache(home, { ...good.header, key: good.header.key.replace(/ \d+ /, ' 1 ') }, good.data);
    assert.deepEqual(seen(await run(BM25)), seen(expected));
    assertValidCache(home);
    // The right key and checksum but code V8 made for another source: V8 rejects it.
    const foreign = new Script('(function () { return 42; })').createCachedData();
    writeCache(home, { key: bundleKey(BUNDLE), crc32: checksum(foreign), commands: ['search'] }, foreign);
    assert.deepEqual(seen(await run(BM25)), seen(expected));
    assertValidCache(home);
    assert.notDeepEqual(readCache(home).data, foreign);
  });

  it('labels what a run adds: the command, a query vector, a query that may name a time (the bundled date parser)', () => {
    const cases: Array<[string[], string]> = [
      [['list', '--json'], 'list'],
      [['--version'], ''],
      [['--help'], '--help'],
      [['search', 'nightly backups'], 'search +vector'],
      [['search', 'nightly backups', '--mode', 'bm25'], 'search'],
      [['search', 'what did we decide last week'], 'search +vector +time'],
      [['--home', '/tmp/h1', 'search', 'backups in June', '--mode', 'bm25'], 'search +time'],
      [['search', '--mode', 'bm25', 'the 3 backups'], 'search +time'],
      [['search', 'nightly backups', '--limit', '20', '--since', '2024-01-01'], 'search +vector'],
      [['context', '--budget-tokens', '800', '-q', 'nightly backups'], 'context +vector'],
      [['context', '-q', 'what happened on Friday'], 'context +vector +time'],
      [['context', '--json'], 'context'],
      [['store', 'we moved it last week'], 'store'],
    ];
    for (const [args, label] of cases) assert.equal(commandLabel(args), label, args.join(' '));
  });

  it('a query that may name a time adds the date parser\'s code once; later dated queries use it', async () => {
    rmSync(cacheOf(home), { force: true });
    ok(await run(BM25));
    const plain = readCache(home);
    ok(await run(['search', 'backups last week', '--mode', 'bm25', '--json']));
    const dated = readCache(home);
    assert.deepEqual(dated.header.commands, ['search', 'search +time']);
    assert.ok(dated.data.length > plain.data.length, 'the date parser\'s code was added');
    ok(await run(['search', 'what moved in March', '--mode', 'bm25', '--json']));
    assert.equal(readCache(home).ino, dated.ino, 'covered: nothing rewritten');
  });

  it('the key changes with the bundle file (size, mtime)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-cc-'));
    try {
      const file = join(dir, 'cli.cjs');
      writeFileSync(file, '(function () {})');
      const first = bundleKey(file);
      utimesSync(file, new Date(2020, 0, 1), new Date(2020, 0, 1));
      const touched = bundleKey(file);
      writeFileSync(file, '(function () { })');
      utimesSync(file, new Date(2020, 0, 1), new Date(2020, 0, 1));
      const grown = bundleKey(file);
      assert.equal(new Set([first, touched, grown]).size, 3);
      assert.equal(cacheFileFor('/h/cache', file), cacheFileFor('/h/cache', file));
      assert.notEqual(cacheFileFor('/h/cache', file), cacheFileFor('/h/cache', join(dir, 'other.cjs')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Root writes everywhere, so the command runs as a user mode bits apply to (cli-as.ts).
  it('a cache folder it cannot write: the command runs as before and says nothing', { timeout: HANG_GUARD_MS }, async () => {
    const runner = unprivileged();
    assert.ok(runner, 'no way to run a child that file mode bits apply to (not root, nobody, or setpriv)');
    const base = mkdtempSync(join(tmpdir(), 'cairn-cc-ro-'));
    try {
      const locked = join(base, 'home');
      cpSync(home, locked, { recursive: true });
      rmSync(join(locked, 'cache'), { recursive: true, force: true });
      mkdirSync(join(locked, 'cache'));
      runner.grant(base);
      chmodSync(join(locked, 'cache'), 0o500);
      const res = spawnSync(runner.command, [...runner.prefix, BIN, ...BM25], {
        cwd: ROOT,
        encoding: 'utf8',
        env: childEnv(locked),
        timeout: HANG_GUARD_MS,
        ...(runner.uid !== undefined ? { uid: runner.uid, gid: runner.gid } : {}),
      });
      assert.deepEqual({ code: res.status, stdout: res.stdout, stderr: res.stderr }, seen(expected), `as ${runner.who}`);
      assert.deepEqual(readdirSync(join(locked, 'cache')), [], 'nothing written, no temporary file left');
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
