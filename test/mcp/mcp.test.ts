// The MCP server through the SDK's own Client: over stdio against the real built CLI
// (`cairn mcp`), and over Streamable HTTP against the handler `cairn serve` mounts at /mcp. Every
// tool and resource, bad arguments, namespace walls, a clean stdout, clean shutdown, and one run
// with the real default embedder. Run `npm run build` first.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { mcpHttpHandler } from '../../src/interfaces/mcp/http.js';
import { CLI, HANG_GUARD_MS, NO_EMBEDDER, ROOT, assertBuilt, childEnv, makeHome, removeHome, writeConfig } from '../helpers/cli.js';
import { badArguments, everyTool, snapshot } from './flows.js';
import { callFails, callOk, httpClient, httpServer, stdioClient, type HttpFixture, type TestClient } from './helpers.js';

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

interface RawRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns `cairn mcp` and writes JSON-RPC lines to it without a client, so stdout is seen byte for
 * byte. `then` decides how the server is stopped once the answers have arrived.
 */
function rawServer(
  home: string,
  args: string[],
  messages: object[],
  options: { env?: Record<string, string | undefined>; nodeArgs?: string[]; stop?: 'stdin' | 'SIGTERM'; answers?: number } = {},
): Promise<RawRun> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, 'mcp', ...args], { cwd: ROOT, env: childEnv(home, options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const answers = options.answers ?? messages.filter((m) => 'id' in m).length;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cairn mcp timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, HANG_GUARD_MS);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
      if (options.stop === 'SIGTERM' && stdout.split('\n').filter(Boolean).length >= answers) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.write(messages.map((m) => JSON.stringify(m) + '\n').join(''));
    if (options.stop !== 'SIGTERM') child.stdin.end();
  });
}

/** Every stdout line is one JSON-RPC message; returns them. */
function protocolOnly(stdout: string): Array<{ id?: number; result?: any; error?: any }> {
  assert.ok(stdout.endsWith('\n'), 'stdout ends with a full message');
  return stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((line) => {
      let msg: any;
      assert.doesNotThrow(() => (msg = JSON.parse(line)), `stdout line is not JSON: ${line.slice(0, 200)}`);
      assert.equal(msg.jsonrpc, '2.0', `stdout line is not JSON-RPC: ${line.slice(0, 200)}`);
      return msg;
    });
}

describe('cairn mcp over stdio', { timeout: HANG_GUARD_MS }, () => {
  let home: string;
  const open: TestClient[] = [];
  const client = async (ns: string | null, env?: Record<string, string | undefined>) => {
    const c = await stdioClient(home, ns, env);
    open.push(c);
    return c;
  };

  before(() => {
    assertBuilt();
    home = makeHome(NO_EMBEDDER);
  });
  after(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    removeHome(home);
  });

  it('serves every tool and resource', async () => {
    const c = await client('agent-a');
    await everyTool(c.client, home, 'agent-a');
    assert.match(c.stderr(), /serving namespace "agent-a"/);
  });

  it('rejects bad arguments with clear errors and stores nothing', async () => {
    const c = await client('agent-bad');
    await badArguments(c.client, home, 'agent-bad');
    assert.deepEqual(await snapshot(home, 'agent-bad'), { memories: 0, stateUpdatedAt: null });
  });

  it('keeps two namespaces on one home apart', async () => {
    const a = await client('wall-a');
    const b = await client('wall-b');
    const secret = await callOk(a.client, 'memory_store', { text: 'The vault code of wall-a is 4417' });
    await callOk(a.client, 'state_set', { objective: 'objective of wall-a' });
    await callOk(b.client, 'memory_store', { text: 'wall-b keeps its own notes about the vault' });

    const seen = await callOk(b.client, 'memory_search', { query: 'vault code 4417' });
    assert.ok(seen.results.every((r: { text: string; id: string }) => !r.text.includes('4417') && r.id !== secret.memory.id));
    assert.equal((await callOk(a.client, 'memory_search', { query: 'vault code 4417' })).results[0].id, secret.memory.id);
    await callFails(b.client, 'memory_get', { id: secret.memory.id }, /^NOT_FOUND: /);
    await callFails(b.client, 'memory_get', { path: `memory:${secret.memory.id}` }, /^NOT_FOUND: /);
    await callFails(b.client, 'memory_history', { id: secret.memory.id }, /^NOT_FOUND: /);
    await callFails(b.client, 'memory_supersede', { id: secret.memory.id, text: 'hijacked' }, /^NOT_FOUND: /);
    await callFails(b.client, 'memory_feedback', { id: secret.memory.id, important: false }, /^NOT_FOUND: /);
    await callFails(b.client, 'memory_get', { path: join(home, 'wall-a', 'SESSION-STATE.md') }, /^NOT_FOUND: /);
    await callFails(b.client, 'memory_get', { path: '../wall-a/SESSION-STATE.md' }, /\.\./);
    assert.equal((await callOk(b.client, 'state_get')).objective, null);
    assert.doesNotMatch((await callOk(b.client, 'context', {})).text, /wall-a|4417/);
    const resources = (await b.client.listResources()).resources.map((r) => r.uri);
    assert.ok(resources.every((u) => u.startsWith('cairn://wall-b/')));
    await assert.rejects(b.client.readResource({ uri: 'cairn://wall-a/SESSION-STATE.md' }));
    assert.equal((await callOk(a.client, 'memory_get', { id: secret.memory.id })).memory.importance, 5, 'b changed nothing of a');
  });

  it('takes the namespace from -n, else CAIRN_NAMESPACE, else the config default', async () => {
    const msgs = [INIT];
    const ns = async (args: string[], env: Record<string, string | undefined> = {}) => {
      const run = await rawServer(home, args, msgs, { env });
      assert.equal(run.code, 0, run.stderr);
      return /namespace "([^"]+)"/.exec(protocolOnly(run.stdout)[0]!.result.instructions)![1];
    };
    assert.equal(await ns(['-n', 'from-flag'], { CAIRN_NAMESPACE: 'from-env' }), 'from-flag');
    assert.equal(await ns([], { CAIRN_NAMESPACE: 'from-env' }), 'from-env');
    assert.equal(await ns([], { CAIRN_NAMESPACE: '' }), 'default');
    const custom = makeHome({ ...NO_EMBEDDER, defaultNamespace: 'from-config' });
    try {
      const run = await rawServer(custom, [], msgs);
      assert.match(protocolOnly(run.stdout)[0]!.result.instructions, /namespace "from-config"/);
    } finally {
      removeHome(custom);
    }
    const bad = await rawServer(home, ['-n', '../escape'], msgs);
    assert.equal(bad.code, 3);
    assert.equal(bad.stdout, '');
    assert.match(bad.stderr, /Invalid namespace/);
  });

  it('writes only protocol to stdout, even when something else prints', async () => {
    const messages = [
      INIT,
      INITIALIZED,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'memory_store', arguments: { text: 'stdout stays clean' } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'memory_store', arguments: { importance: 'high' } } },
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'memory_search', arguments: { query: 'stdout clean' } } },
      { jsonrpc: '2.0', id: 6, method: 'resources/read', params: { uri: 'cairn://noisy/MEMORY.md' } },
      { jsonrpc: '2.0', id: 7, method: 'no/such/method' },
    ];
    // A preload that prints to stdout (as a chatty library would) once the server is running.
    const noisy = join(ROOT, 'test', 'mcp', 'fixtures', 'noisy.mjs');
    const run = await rawServer(home, ['-n', 'noisy'], messages, { nodeArgs: ['--import', noisy] });
    assert.equal(run.code, 0, run.stderr);
    // Requests run concurrently: answers come in any order, but every one comes before the exit.
    const out = new Map(protocolOnly(run.stdout).map((m) => [m.id, m]));
    assert.deepEqual([...out.keys()].sort(), [1, 2, 3, 4, 5, 6, 7]);
    assert.equal(out.get(3)!.result.isError, undefined);
    assert.equal(out.get(4)!.result.isError, true);
    assert.match(out.get(6)!.result.contents[0].text, /no MEMORY\.md yet/);
    assert.equal(out.get(7)!.error.code, -32601);
    assert.match(run.stderr, /noise from a library/);
    assert.match(run.stderr, /stopped \(stdin closed\)/);
  });

  it('stops cleanly on SIGTERM', async () => {
    const run = await rawServer(home, ['-n', 'sigterm'], [INIT], { stop: 'SIGTERM', answers: 1 });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(protocolOnly(run.stdout).length, 1);
    assert.match(run.stderr, /stopped \(SIGTERM\)/);
  });
});

describe('MCP over Streamable HTTP', { timeout: HANG_GUARD_MS }, () => {
  let home: string;
  let cairn: Cairn;
  let http: HttpFixture;
  const open: TestClient[] = [];
  const client = async (ns: string) => {
    const c = await httpClient(http.url(ns));
    open.push(c);
    return c;
  };

  before(async () => {
    home = makeHome(NO_EMBEDDER);
    cairn = await Cairn.open({ home });
    http = await httpServer(mcpHttpHandler(cairn, { maxBodyBytes: 64 * 1024, log: () => undefined }));
  });
  after(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await http.close();
    await cairn.close();
    removeHome(home);
  });

  it('serves every tool and resource', async () => {
    await everyTool((await client('http-a')).client, home, 'http-a');
  });

  it('rejects bad arguments with clear errors and stores nothing', async () => {
    await badArguments((await client('http-bad')).client, home, 'http-bad');
  });

  it('binds each request to the namespace the HTTP layer passes', async () => {
    const a = await client('http-wall-a');
    const b = await client('http-wall-b');
    const secret = await callOk(a.client, 'memory_store', { text: 'http-wall-a alone knows the launch date is May 3' });
    assert.deepEqual((await callOk(b.client, 'memory_search', { query: 'launch date May' })).results, []);
    await callFails(b.client, 'memory_get', { id: secret.memory.id }, /^NOT_FOUND: /);
    assert.equal((await callOk(a.client, 'memory_search', { query: 'launch date May' })).results[0].id, secret.memory.id);
  });

  it('answers bad requests with JSON-RPC errors', async () => {
    const url = http.url('http-raw');
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const get = await fetch(url, { headers: { accept: 'text/event-stream' } });
    assert.equal(get.status, 405);
    assert.equal((await get.json()).jsonrpc, '2.0');
    const malformed = await fetch(url, { method: 'POST', headers, body: '{"jsonrpc":"2.0",' });
    assert.equal(malformed.status, 400);
    assert.equal((await malformed.json()).error.code, -32700);
    const big = JSON.stringify({ ...INIT, params: { ...INIT.params, pad: 'x'.repeat(100 * 1024) } });
    const oversized = await fetch(url, { method: 'POST', headers, body: big });
    assert.equal(oversized.status, 413);
    const handler = mcpHttpHandler(cairn, { log: () => undefined });
    const escaped = await handler(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(INIT) }), '../escape');
    assert.equal(escaped.status, 400);
    assert.match((await escaped.json()).error.message, /^INVALID_NAMESPACE: /);
    const ok = await fetch(url, { method: 'POST', headers, body: JSON.stringify(INIT) });
    assert.equal(ok.status, 200);
    assert.equal((await ok.json()).result.serverInfo.name, 'cairn');
  });
});

describe('cairn mcp with the real default embedder', { timeout: HANG_GUARD_MS }, () => {
  let home: string;
  let c: TestClient | undefined;
  before(() => {
    home = makeHome();
    writeConfig(home, { embedder: { provider: 'use-lite' } });
  });
  after(async () => {
    await c?.close().catch(() => undefined);
    removeHome(home);
  });

  it('embeds on store and searches by meaning', async () => {
    c = await stdioClient(home, 'semantic');
    const hiking = await callOk(c.client, 'memory_store', { text: 'Ana loves hiking in the mountains every weekend', category: 'preference' });
    assert.equal(hiking.embedded, true);
    await callOk(c.client, 'memory_store', { text: 'The staging database listens on port 5433', category: 'fact' });
    await callOk(c.client, 'memory_store', { text: 'Invoices are sent on the first business day of the month', category: 'fact' });
    const res = await callOk(c.client, 'memory_search', { query: 'outdoor activities she enjoys' });
    assert.equal(res.mode, 'hybrid');
    assert.notEqual(res.model, 'none');
    assert.equal(res.degraded, undefined);
    assert.equal(res.results[0].id, hiking.memory.id);
  });
});
