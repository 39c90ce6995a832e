// The data directory is private (issue 30 item 6): whatever the umask, the home and every folder
// in it are 0700 and every file 0600, for the CLI, the daemon and library users; a home made with
// wider modes (an older Cairn, a umask) is fixed on open, and the fix is reported once.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NO_EMBEDDER, assertBuilt, ok, runCli, writeConfig } from '../helpers/cli.js';
import { startDaemon } from '../helpers/daemon.js';
import { Cairn } from '../../src/service/cairn.js';
import { HashEmbedder } from '../helpers/store-fixtures.js';

/** Every entry under `root` (root included) with its permission bits, symbolic links left out. */
function modes(root: string): Array<{ path: string; mode: number; dir: boolean }> {
  const out: Array<{ path: string; mode: number; dir: boolean }> = [];
  const walk = (path: string): void => {
    // A temp file the running daemon renames away between readdir and lstat is simply gone.
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink()) return;
    out.push({ path, mode: st.mode & 0o777, dir: st.isDirectory() });
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(root);
  return out;
}

function assertPrivate(root: string, skip: (path: string) => boolean = () => false): void {
  const wrong = modes(root)
    .filter((e) => !skip(e.path))
    .filter((e) => e.mode !== (e.dir ? 0o700 : 0o600))
    .map((e) => `${e.mode.toString(8)} ${e.path}`);
  assert.deepEqual(wrong, [], 'every folder is 0700 and every file 0600');
}

describe('a private data directory', () => {
  let base: string;
  let umask: number;
  before(() => {
    assertBuilt();
    base = mkdtempSync(join(tmpdir(), 'cairn-perm-'));
    // The umask most systems ship: without care, files would be 0644 and folders 0755.
    umask = process.umask(0o022);
  });
  after(() => {
    process.umask(umask);
    rmSync(base, { recursive: true, force: true });
  });

  it('every file a real CLI session and the daemon create is 0600, every folder 0700 (umask 022)', async () => {
    const home = join(base, 'cli-home');
    const transcript = join(base, 'chat.jsonl');
    writeFileSync(transcript, JSON.stringify({ role: 'user', content: 'We moved the staging database to port 5433 yesterday', id: 'm1', session: 's1' }) + '\n');
    ok(await runCli(['init'], { home }));
    writeConfig(home, NO_EMBEDDER);
    ok(await runCli(['store', 'Ana moved the staging DB to port 5433'], { home }));
    ok(await runCli(['-n', 'work', 'state', 'set', '--objective', 'ship it'], { home }));
    ok(await runCli(['ingest', transcript, '-f', 'jsonl'], { home }));
    ok(await runCli(['search', 'staging'], { home }));
    ok(await runCli(['sources', 'add', 'jsonl', transcript], { home }));
    // A hook given bad input logs the error to logs/hooks.log (and still exits 0).
    ok(await runCli(['hook', 'claude-code'], { home, input: '{}' }));
    const daemon = startDaemon(home);
    try {
      await daemon.waitFor(/answering searches on the local socket/);
      // Idle, it reports its state in run/daemon.json.
      for (let i = 0; i < 200 && !existsSync(join(home, 'run', 'daemon.json')); i++) await new Promise((r) => setTimeout(r, 100));
      // While it runs: the socket, the lock, its state file, the log.
      assertPrivate(home);
      const names = modes(home).map((e) => e.path.slice(home.length + 1));
      for (const expected of ['cairn.db', 'cairn.db-wal', 'cairn.db-shm', 'cairn.sock', 'config.json', 'logs/cairn.log', 'logs/hooks.log', 'run/daemon.lock', 'run/daemon.json', 'default/raw', 'work/SESSION-STATE.md']) {
        assert.ok(names.includes(expected), `${expected} exists (got ${names.join(', ')})`);
      }
      assert.ok(names.some((n) => /^default\/raw\/realtime-\d{4}-\d{2}-\d{2}\.md$/.test(n)), 'the raw log exists');
    } finally {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
    assertPrivate(home);
  });

  it('a library user with umask 022 gets private files too, without a process umask', async () => {
    const home = join(base, 'lib-home');
    const cairn = await Cairn.open({ home, embedder: new HashEmbedder() });
    try {
      await cairn.remember({ text: 'the library stores a memory' });
      await cairn.setState({ objective: 'private files' });
      assert.equal(process.umask(), 0o022, 'the library leaves the umask alone');
      assertPrivate(home);
      assert.ok(modes(home).some((e) => e.path.endsWith('cairn.db-wal')));
    } finally {
      await cairn.close();
    }
  });

  it('an existing home with 755/644 modes is made private on open, said once; other files are left alone', async () => {
    const home = join(base, 'old-home');
    mkdirSync(home);
    writeConfig(home, NO_EMBEDDER);
    ok(await runCli(['store', 'an old memory'], { home }));
    ok(await runCli(['-n', 'work', 'state', 'set', '--objective', 'old state'], { home }));
    // What an older Cairn left: everything readable by every local user.
    for (const e of modes(home)) chmodSync(e.path, e.dir ? 0o755 : 0o644);
    const foreign = join(home, 'notes-of-mine.txt');
    writeFileSync(foreign, 'not Cairn’s');
    chmodSync(foreign, 0o644);

    const first = await runCli(['status'], { home });
    assert.equal(first.code, 0, first.stderr);
    const said = first.stderr.match(/fixed permissions of (\d+) files and folders in (.+?):/);
    assert.ok(said, `said so: ${first.stderr}`);
    assert.equal(said[2], home);
    assert.ok(Number(said[1]) >= 6, `counted the entries changed: ${said[1]}`);
    assertPrivate(home, (p) => p === foreign);
    assert.equal(lstatSync(foreign).mode & 0o777, 0o644, 'a file that is not Cairn’s keeps its mode');

    const second = await runCli(['status'], { home });
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stderr, /fixed permissions/, 'said once, not on every open');

    // The library reports through onNotice instead of stderr.
    chmodSync(home, 0o755);
    const notices: string[] = [];
    const cairn = await Cairn.open({ home, embedder: null, onNotice: (m) => notices.push(m) });
    await cairn.close();
    assert.deepEqual(notices, [`fixed permissions of 1 files and folders in ${home}: now readable by you only (folders 0700, files 0600)`]);
  });
});
