// A home this user cannot write (issue 30 item 13): writes fail with their own READ_ONLY error and
// exit code 12 (not "corrupt"), while status, search, list and export keep working and status says
// "read-only". Root ignores mode bits, so as root the CLI runs as `nobody` on a home it owns.
// A path that is not a folder (`--home /dev/null`) is a configuration error, not "EEXIST".
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NO_EMBEDDER, assertBuilt, json, ok, runCli, type RunResult } from '../helpers/cli.js';
import { NOBODY, canRunAs, isRoot } from '../helpers/cli-as.js';

const EXIT_READ_ONLY = 12;
const EXIT_CONFIG = 6;

describe('a read-only home', () => {
  let base: string;
  const asRoot = isRoot();
  const user = asRoot ? NOBODY : undefined;
  /** Where the child may put temporary files (a read-only home is read from a copy there). */
  let scratch: string;

  before(() => {
    assertBuilt();
    base = mkdtempSync(join(tmpdir(), 'cairn-ro-'));
    scratch = join(base, 'tmp');
    mkdirSync(scratch);
    if (asRoot) {
      chmodSync(base, 0o755);
      chownSync(scratch, NOBODY.uid, NOBODY.gid);
    }
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  const cli = (args: readonly string[], home: string): Promise<RunResult> => runCli(args, { home, env: { TMPDIR: scratch }, ...(user ?? {}) });

  /** A home owned by the user the CLI runs as, with two memories and a hot state. */
  async function filledHome(name: string): Promise<string> {
    const home = join(base, name);
    mkdirSync(home);
    writeFileSync(join(home, 'config.json'), JSON.stringify(NO_EMBEDDER));
    if (asRoot) {
      chownSync(home, NOBODY.uid, NOBODY.gid);
      chownSync(join(home, 'config.json'), NOBODY.uid, NOBODY.gid);
    }
    ok(await cli(['store', 'The staging database moved to port 5433'], home));
    ok(await cli(['store', 'Ana prefers tea over coffee'], home));
    ok(await cli(['state', 'set', '--objective', 'keep the archive'], home));
    return home;
  }

  async function assertReadsWork(home: string): Promise<void> {
    const status = await cli(['status'], home);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /^Cairn read-only · home /);
    assert.match(status.stdout, /warning: the data directory is read-only here/);
    assert.doesNotMatch(status.stdout, /healthy/);
    const report = json<{ ok: boolean; readOnly: string | null; totals: { memories: number } }>(ok(await cli(['status', '--json'], home)));
    assert.match(String(report.readOnly), /not writable/);
    assert.equal(report.totals.memories, 2);
    const search = json<{ results: Array<{ text: string }> }>(ok(await cli(['search', 'staging port', '--json', '--no-daemon'], home)));
    assert.match(search.results[0]?.text ?? '', /port 5433/);
    const exported = ok(await cli(['export'], home)).trim().split('\n');
    assert.equal(exported.length, 2);
    assert.equal(json<unknown[]>(ok(await cli(['list', '--json'], home))).length, 2);
    assert.match(ok(await cli(['state', 'get'], home)), /keep the archive/);
  }

  async function assertWritesRefused(home: string): Promise<void> {
    const transcript = join(base, 'new-turns.jsonl');
    writeFileSync(transcript, JSON.stringify({ role: 'user', content: 'a new turn to capture', id: 'n1' }) + '\n');
    chmodSync(transcript, 0o644);
    for (const args of [['store', 'one more memory'], ['state', 'set', '--objective', 'changed'], ['ingest', transcript, '-f', 'jsonl']]) {
      const res = await cli(args, home);
      assert.equal(res.code, EXIT_READ_ONLY, `${args.join(' ')}: ${res.stderr}`);
      assert.match(res.stderr, /read-only/, args.join(' '));
      assert.doesNotMatch(res.stderr, /corrupt/);
    }
    const watch = await cli(['watch'], home);
    assert.equal(watch.code, EXIT_READ_ONLY, `watch: ${watch.stderr}`);
    assert.match(watch.stderr, /cairn watch captures into the data directory, which is read-only here/);
    const asJson = await cli(['store', 'again', '--json'], home);
    assert.equal(asJson.code, EXIT_READ_ONLY);
    assert.equal(json<{ error: { code: string } }>(asJson.stderr).error.code, 'READ_ONLY');
  }

  it('chmod -w on the folder and the database: writes exit 12 READ_ONLY; status, search, list, export work', async (t) => {
    if (asRoot && !canRunAs(NOBODY)) return t.skip('running as root, and nobody cannot run the built CLI here');
    const home = await filledHome('folder-ro');
    assert.ok(!existsSync(join(home, 'cairn.db-shm')), 'closed cleanly: no -shm file, so SQLite cannot read in place');
    chmodSync(join(home, 'cairn.db'), 0o400);
    chmodSync(home, 0o500);
    try {
      await assertWritesRefused(home);
      await assertReadsWork(home);
      assert.deepEqual(readdirSync(scratch), [], 'the temporary copy read instead is removed');
      assert.ok(!existsSync(join(home, 'cairn.db-shm')), 'nothing was written in the home');
    } finally {
      chmodSync(home, 0o700);
    }
  });

  it('only the database file read-only: the same', async (t) => {
    if (asRoot && !canRunAs(NOBODY)) return t.skip('running as root, and nobody cannot run the built CLI here');
    const home = await filledHome('file-ro');
    chmodSync(join(home, 'cairn.db'), 0o400);
    await assertWritesRefused(home);
    await assertReadsWork(home);
  });

  it('a home that cannot be created is READ_ONLY (exit 12), naming the folder', async (t) => {
    if (asRoot && !canRunAs(NOBODY)) return t.skip('running as root, and nobody cannot run the built CLI here');
    const parent = join(base, 'closed');
    mkdirSync(parent, { mode: 0o555 });
    if (asRoot) chownSync(parent, NOBODY.uid, NOBODY.gid);
    const res = await cli(['store', 'x'], join(parent, 'home'));
    assert.equal(res.code, EXIT_READ_ONLY, res.stderr);
    assert.match(res.stderr, /data directory .*closed\/home cannot be created: permission denied/);
  });
});

describe('a home that is not a folder', () => {
  before(() => assertBuilt());

  it('--home /dev/null (and a path under a file) is a configuration error naming the path, for every command', async () => {
    const base = mkdtempSync(join(tmpdir(), 'cairn-notdir-'));
    try {
      const file = join(base, 'a-file');
      writeFileSync(file, 'x');
      for (const home of ['/dev/null', file, join(file, 'below')]) {
        for (const args of [['store', 'hello'], ['status'], ['init'], ['search', 'x'], ['-n', 'a', 'list']]) {
          const res = await runCli(['--home', home, ...args], { home: null });
          assert.equal(res.code, EXIT_CONFIG, `${home} ${args.join(' ')}: ${res.stderr}`);
          assert.match(res.stderr, /is not a directory/);
          assert.doesNotMatch(res.stderr, /EEXIST|internal error/);
        }
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
