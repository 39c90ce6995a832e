// `cairn watch` as a real process: it captures lines appended to a watched transcript within
// seconds, holds one lock per data directory, stops cleanly on SIGTERM, and keeps status current.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NO_EMBEDDER, assertBuilt, cliJson, makeHome, removeHome, runCli } from '../helpers/cli.js';
import { eventually, startDaemon, type DaemonProcess } from '../helpers/daemon.js';

const line = (id: string, role: string, content: string, ts = '2026-03-02T09:14:05.000Z') => JSON.stringify({ id, role, content, timestamp: ts, session: 's1' }) + '\n';

async function search(home: string, ns: string, query: string): Promise<Array<{ text: string; provenance: Array<{ path?: string }> }>> {
  const res = await cliJson(['-n', ns, 'search', query, '--json'], { home });
  return res.results;
}

describe('cairn watch (real daemon process)', () => {
  let home: string;
  let dir: string;
  let daemon: DaemonProcess | null = null;

  before(async () => {
    assertBuilt();
    home = makeHome(NO_EMBEDDER);
    dir = join(home, 'transcripts');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.jsonl'), line('m1', 'user', 'We decided the staging database moves to port 5433'));
    const added = await cliJson(['-n', 'proj', 'sources', 'add', 'jsonl', dir, '--json'], { home });
    assert.equal(added.added.length, 1);
  });

  after(async () => {
    if (daemon && daemon.child.exitCode === null) {
      daemon.child.kill('SIGKILL');
      await daemon.exited;
    }
    removeHome(home);
  });

  it('captures existing lines at start, and appended lines within seconds', async () => {
    daemon = startDaemon(home, ['--debounce-ms', '50', '--rescan-seconds', '60']);
    await daemon.waitFor(/cairn watch started/);
    await eventually(async () => (await search(home, 'proj', 'staging port')).length === 1);
    const started = Date.now();
    appendFileSync(join(dir, 'a.jsonl'), line('m2', 'assistant', 'Noted: the kafka cluster runs on three brokers', '2026-03-02T09:15:00.000Z'));
    const hits = await eventually(async () => {
      const r = await search(home, 'proj', 'kafka brokers');
      return r.length > 0 ? r : null;
    });
    assert.ok(Date.now() - started < 15_000);
    assert.match(hits[0]!.text, /three brokers/);
    // A new file in the watched folder is picked up too, and a partial line waits for its newline.
    const partial = line('m3', 'user', 'The retry budget is eleven attempts').trimEnd();
    writeFileSync(join(dir, 'b.jsonl'), partial);
    await new Promise((r) => setTimeout(r, 800));
    assert.equal((await search(home, 'proj', 'retry budget eleven')).length, 0, 'half a line is never parsed');
    appendFileSync(join(dir, 'b.jsonl'), '\n');
    await eventually(async () => (await search(home, 'proj', 'retry budget eleven')).length === 1);
  });

  it('a second daemon on the same home is refused and names the holder', async () => {
    const res = await runCli(['watch'], { home, timeoutMs: 20_000 });
    assert.equal(res.code, 5, res.stderr);
    assert.match(res.stderr, new RegExp(`already running .*pid ${daemon!.child.pid}`));
  });

  it('status shows the daemon and per-source figures', async () => {
    const status = await cliJson(['status', '--json'], { home });
    assert.equal(status.capture.daemon.running, true);
    assert.equal(status.capture.daemon.pid, daemon!.child.pid);
    const src = status.capture.sources[0];
    assert.equal(src.kind, 'jsonl');
    assert.equal(src.turns, 3);
    assert.equal(src.stats.linesRead, 3);
    assert.equal(src.errors.length, 0);
  });

  it('keeps a readable raw log per namespace', () => {
    const raw = join(home, 'proj', 'raw');
    const files = readdirSync(raw).filter((f) => f.startsWith('realtime-'));
    assert.deepEqual(files, ['realtime-2026-03-02.md']);
    const text = readFileSync(join(raw, files[0]!), 'utf8');
    for (const phrase of ['port 5433', 'three brokers', 'eleven attempts']) assert.equal(text.split(phrase).length - 1, 1, phrase);
  });

  it('SIGTERM: exits 0, releases the lock, logs the stop', async () => {
    daemon!.child.kill('SIGTERM');
    const { code } = await daemon!.exited;
    assert.equal(code, 0, daemon!.output().slice(-2000));
    assert.match(daemon!.output(), /cairn watch stopped/);
    assert.equal(existsSync(join(home, 'run', 'daemon.lock')), false);
    const status = await cliJson(['status', '--json'], { home });
    assert.equal(status.capture.daemon.running, false);
    assert.match(readFileSync(join(home, 'logs', 'cairn.log'), 'utf8'), /"msg":"captured"/);
  });

  it('an unreadable unit is logged and shown in status while other files are captured', async () => {
    // A FIFO named like a transcript cannot be read as a file (root ignores mode bits, so no chmod).
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    appendFileSync(join(dir, 'c.jsonl'), line('m9', 'user', 'The office wifi password rotates monthly'));
    daemon = startDaemon(home, ['--debounce-ms', '50']);
    await daemon.waitFor(/cannot capture/);
    await eventually(async () => (await search(home, 'proj', 'wifi rotates monthly')).length === 1);
    const status = await cliJson(['status', '--json'], { home });
    const errors = status.capture.sources[0].errors;
    assert.equal(errors.length, 1);
    assert.match(errors[0].key, /pipe\.jsonl$/);
    assert.match(errors[0].message, /not a regular file/);
    daemon.child.kill('SIGINT');
    assert.equal((await daemon.exited).code, 0);
  });
});

describe('cairn watch: bad input', () => {
  it('rejects bad timing flags with a clear usage error', async () => {
    const home = makeHome(NO_EMBEDDER);
    try {
      const res = await runCli(['watch', '--debounce-ms', 'soon'], { home });
      assert.notEqual(res.code, 0);
      assert.match(res.stderr, /debounce-ms/);
    } finally {
      removeHome(home);
    }
  });

  it('starts with no sources and says so in status', async () => {
    const home = makeHome(NO_EMBEDDER);
    const d = startDaemon(home);
    try {
      await d.waitFor(/cairn watch started/);
      const status = await cliJson(['status', '--json'], { home });
      assert.equal(status.capture.sources.length, 0);
      assert.equal(status.capture.daemon.running, true);
    } finally {
      d.child.kill('SIGTERM');
      await d.exited;
      removeHome(home);
    }
  });
});
