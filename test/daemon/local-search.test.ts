// `cairn search` asks a running `cairn watch` (or `cairn serve`) over the home's local socket, and
// searches in-process whenever that cannot give the same answer: no one listening, a socket left
// by a killed daemon, a config changed since the daemon started, a server that answers junk or
// nothing. Errors the daemon reports are the ones the CLI would have reported itself.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { NO_EMBEDDER, assertBuilt, cliJson, makeHome, removeHome, runCli, writeConfig } from '../helpers/cli.js';
import { eventually, startDaemon, type DaemonProcess } from '../helpers/daemon.js';

const VIA_DAEMON = /answered by the running daemon/;
const debug = { CAIRN_DEBUG: '1' };

/** Sends raw bytes to the socket and returns what comes back before it closes. */
function raw(path: string, payload: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', reject);
    socket.on('close', () => resolve(data));
    socket.on('connect', () => socket.end(payload));
  });
}

describe('cairn search through the running daemon', () => {
  let home: string;
  let sock: string;
  let daemon: DaemonProcess | null = null;

  const stopDaemon = async (signal: NodeJS.Signals) => {
    daemon!.child.kill(signal);
    await daemon!.exited;
    daemon = null;
  };
  const start = async (args: string[] = []) => {
    daemon = startDaemon(home, ['--rescan-seconds', '60', ...args]);
    await daemon.waitFor(/answering searches on the local socket/);
  };

  before(async () => {
    assertBuilt();
    home = makeHome({ ...NO_EMBEDDER, defaultNamespace: 'team' });
    sock = join(home, 'cairn.sock');
    await cliJson(['store', 'We decided the billing service moves to Postgres 16', '--json'], { home });
    await cliJson(['-n', 'proj', 'store', 'The staging database listens on port 5433', '--json'], { home });
  });

  after(async () => {
    if (daemon && daemon.child.exitCode === null) {
      daemon.child.kill('SIGKILL');
      await daemon.exited;
    }
    removeHome(home);
  });

  it('answers from the warm process, exactly as an in-process search would', async () => {
    // Started with -n proj: a CLI without -n still searches the config's default namespace.
    await start(['-n', 'proj']);
    assert.equal(statSync(sock).mode & 0o777, 0o600, 'the socket is the user\'s alone');
    const asOf = [['search', 'billing postgres', '--as-of', '2000-01-01'], ['search', 'billing postgres', '--as-of', '2099-01-01', '--since', '36500d'], ['search', 'billing postgres', '--as-of', '2099-01-01', '--since', '3650d']];
    for (const args of [['search', 'billing postgres'], ['-n', 'proj', 'search', 'staging port', '--limit', '3'], ['search', 'nothing matches zzz'], ...asOf]) {
      const via = await runCli([...args, '--json'], { home, env: debug });
      assert.equal(via.code, 0, via.stderr);
      assert.match(via.stderr, VIA_DAEMON);
      const local = await runCli([...args, '--json', '--no-daemon'], { home, env: debug });
      assert.doesNotMatch(local.stderr, VIA_DAEMON);
      assert.deepEqual(JSON.parse(via.stdout), JSON.parse(local.stdout), args.join(' '));
    }
    // As of 2000 nothing stored existed yet; ages count back from 2099: 100 years reach today, 10 do not.
    const found = async (args: string[]) => JSON.parse((await runCli([...args, '--json'], { home, env: debug })).stdout).results.length;
    assert.equal(await found(asOf[0]!), 0);
    assert.ok((await found(asOf[1]!)) > 0);
    assert.equal(await found(asOf[2]!), 0);
    const text = await runCli(['search', 'billing'], { home });
    assert.match(text.stdout, /billing service moves to Postgres 16/);
  });

  it('answers cairn context and the SessionStart hook the same way; a capture hook stays in its own process', async () => {
    for (const args of [['context', '--json'], ['context', '--query', 'billing', '--budget-tokens', '300', '--json'], ['-n', 'proj', 'context', '--json']]) {
      const via = await runCli(args, { home, env: debug });
      assert.equal(via.code, 0, via.stderr);
      assert.match(via.stderr, VIA_DAEMON);
      const local = await runCli([...args, '--no-daemon'], { home });
      assert.deepEqual(JSON.parse(via.stdout), JSON.parse(local.stdout), args.join(' '));
    }
    const start = JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's1', cwd: home });
    for (const ns of [[], ['-n', 'team']]) {
      // Without -n the session's namespace comes from its folder (empty here); with -n, team's brief.
      const via = await runCli([...ns, 'hook', 'claude-code'], { home, input: start, env: debug });
      assert.equal(via.code, 0);
      assert.match(via.stderr, VIA_DAEMON);
      assert.match(via.stdout, ns.length ? /billing service moves to Postgres 16/ : /No hot state or memories yet/);
      const local = await runCli([...ns, 'hook', 'claude-code', '--no-daemon'], { home, input: start });
      assert.equal(via.stdout, local.stdout);
    }
    const stop = JSON.stringify({ hook_event_name: 'Stop', session_id: 's1', transcript_path: join(home, 'missing.jsonl') });
    const captured = await runCli(['hook', 'claude-code'], { home, input: stop, env: debug });
    assert.equal(captured.code, 0);
    assert.doesNotMatch(captured.stderr, VIA_DAEMON);
    assert.match(captured.stderr, /cairn: Stop: /, 'captured (here: failed) in the hook\'s own process');
  });

  it('reports the errors an in-process search would, with the same exit codes', async () => {
    for (const args of [['search', '   '], ['search', 'x', '--since', 'last tuesday-ish'], ['search', 'x', '--as-of', 'someday'], ['-n', 'Bad Namespace!', 'search', 'x']]) {
      const via = await runCli(args, { home, env: debug });
      const local = await runCli([...args, '--no-daemon'], { home });
      assert.notEqual(via.code, 0, args.join(' '));
      assert.equal(via.code, local.code, args.join(' '));
      assert.equal(via.stderr.replace(/cairn: debug:.*\n/g, ''), local.stderr, args.join(' '));
    }
  });

  it('survives malformed, oversized and foreign requests, and keeps answering', async () => {
    assert.match(await raw(sock, 'this is not json\n'), /^\{"rejected"/);
    assert.match(await raw(sock, JSON.stringify({ v: 2, op: 'drop everything' }) + '\n'), /^\{"rejected"/);
    assert.match(await raw(sock, JSON.stringify({ v: 99, op: 'from the future' }) + '\n'), /^\{"stale"/, 'another protocol: its client searches itself');
    assert.match(await raw(sock, Buffer.alloc(200 * 1024, 0x41)), /longer than/);
    assert.equal(await raw(sock, ''), '', 'a client that sends nothing gets nothing');
    const request = (stamp: string, op: string, payload: object) => JSON.stringify({ v: 2, stamp, op, namespace: null, payload }) + '\n';
    assert.match(await raw(sock, request('x', 'search', { query: 'billing' })), /^\{"stale"/, 'another config or release: the CLI searches itself');
    assert.match(await raw(sock, request('x', 'delete', {})), /^\{"rejected"/, 'only reads are answered');
    const stamp = `2/0.1.0/${statSync(join(home, 'config.json')).size}:${Math.trunc(statSync(join(home, 'config.json')).mtimeMs)}`;
    const capture = { input: { hook_event_name: 'Stop', transcript_path: '/tmp/x.jsonl' } };
    assert.match(await raw(sock, request(stamp, 'session-start', capture)), /"rejected":"only SessionStart/, 'a capture stays with the hook\'s own process');
    assert.match(await raw(sock, request(stamp, 'search', { query: 'billing', limit: 'lots' })), /"error":\{"code":"INVALID_INPUT"/, 'the facade validates the arguments');
    const via = await runCli(['search', 'billing', '--json'], { home, env: debug });
    assert.match(via.stderr, VIA_DAEMON);
    assert.equal(JSON.parse(via.stdout).results.length, 1);
  });

  it('searches in-process when config.json changed since the daemon started', async () => {
    writeConfig(home, { ...NO_EMBEDDER, defaultNamespace: 'proj' });
    try {
      const res = await runCli(['search', 'staging', '--json'], { home, env: debug });
      assert.equal(res.code, 0, res.stderr);
      assert.doesNotMatch(res.stderr, VIA_DAEMON);
      assert.equal(JSON.parse(res.stdout).namespace, 'proj', 'the new config, not the daemon\'s');
    } finally {
      writeConfig(home, { ...NO_EMBEDDER, defaultNamespace: 'team' });
    }
  });

  it('removes the socket on SIGTERM; after a kill -9 the CLI searches itself, and the next daemon takes the socket over', async () => {
    await stopDaemon('SIGTERM');
    assert.equal(existsSync(sock), false);
    await start();
    await stopDaemon('SIGKILL');
    assert.equal(existsSync(sock), true, 'a killed daemon leaves its socket file');
    const res = await runCli(['search', 'billing', '--json'], { home, env: debug });
    assert.equal(res.code, 0, res.stderr);
    assert.doesNotMatch(res.stderr, VIA_DAEMON);
    assert.equal(JSON.parse(res.stdout).results.length, 1);
    await start();
    await eventually(async () => VIA_DAEMON.test((await runCli(['search', 'billing'], { home, env: debug })).stderr));
    await stopDaemon('SIGTERM');
  });

  it('a server that answers junk, or nothing, only costs a fallback', async () => {
    rmSync(sock, { force: true });
    for (const behaviour of ['junk', 'silent', 'hangup'] as const) {
      const server = createServer((s) => {
        s.on('error', () => undefined);
        s.resume(); // reads, so a client's hang-up is seen and close() can finish
        if (behaviour === 'junk') s.end('{"ok": [1, 2\n');
        else if (behaviour === 'hangup') s.destroy();
        // silent: holds the connection open until the client gives up
      });
      await new Promise<void>((r) => server.listen(sock, r));
      try {
        const res = await runCli(['search', 'billing', '--json'], { home, env: debug });
        assert.equal(res.code, 0, `${behaviour}: ${res.stderr}`);
        assert.doesNotMatch(res.stderr, VIA_DAEMON);
        assert.equal(JSON.parse(res.stdout).results.length, 1, behaviour);
      } finally {
        await new Promise<void>((r) => server.close(() => r()));
      }
    }
    // A server that took the request is waited for past the 2 s it has to take one.
    const slow = createServer((s) => {
      s.on('error', () => undefined);
      s.resume();
      s.write('{"working":true}\n');
      setTimeout(() => s.end(JSON.stringify({ ok: { namespace: 'team', query: 'billing', mode: 'bm25', results: [] } }) + '\n'), 2500);
    });
    await new Promise<void>((r) => slow.listen(sock, r));
    try {
      const res = await runCli(['search', 'billing', '--json'], { home, env: debug });
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stderr, VIA_DAEMON);
      assert.deepEqual(JSON.parse(res.stdout).results, [], 'the slow server\'s answer');
    } finally {
      await new Promise<void>((r) => slow.close(() => r()));
    }
    // A file that is not a socket at all.
    writeFileSync(sock, 'not a socket');
    const res = await runCli(['search', 'billing', '--json'], { home });
    assert.equal(res.code, 0, res.stderr);
    rmSync(sock, { force: true });
  });
});
