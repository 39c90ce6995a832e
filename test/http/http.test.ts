// The REST API (`cairn serve`): the auth matrix on every route family, token-less loopback mode,
// the refusal to bind a public address without a token, body limits, malformed JSON, hostile
// namespaces and ids, the whole memory flow, the OpenAPI document, and MCP over /mcp. Most tests
// run the app in-process on 127.0.0.1:0 behind a spy that records every facade call (so "nothing
// is read" is checked, not assumed); a few spawn the real built `cairn serve`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Cairn } from '../../src/service/cairn.js';
import { CairnError, ERROR_CODES } from '../../src/core/errors.js';
import { createApp } from '../../src/interfaces/http/app.js';
import { WEB_ROUTES } from '../../src/interfaces/web/index.js';
import { STATUS_OF } from '../../src/interfaces/http/errors.js';
import { isLoopbackHost } from '../../src/interfaces/http/auth.js';
import { startServer } from '../../src/interfaces/http/server.js';
import { mcpHttpHandler } from '../../src/interfaces/mcp/http.js';
import { eventually } from '../helpers/daemon.js';
import { CLI, HANG_GUARD_MS, NO_EMBEDDER, assertBuilt, childEnv, makeHome, removeHome, runCli } from '../helpers/cli.js';

const homes: string[] = [];
function home(): string {
  const h = makeHome(NO_EMBEDDER);
  homes.push(h);
  return h;
}

after(() => {
  for (const h of homes) removeHome(h);
});

// ---- helpers ------------------------------------------------------------------------------------

/** Facade calls the auth layer may make before a request is authorised. */
const AUTH_CALLS = new Set(['verifyToken', 'hasTokens']);

/** Wraps the facade so every method call is recorded (name only). */
function spyOn(cairn: Cairn): { facade: Cairn; calls: string[] } {
  const calls: string[] = [];
  const facade = new Proxy(cairn, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { facade, calls };
}

interface Harness {
  url: string;
  cairn: Cairn;
  calls: string[];
  close(): Promise<void>;
}

/** createApp served in-process by @hono/node-server on 127.0.0.1:0, behind the spy. */
async function inProcess(h: string, options: { openOnLoopback?: boolean; bodyLimitBytes?: number; wrap?: (c: Cairn) => Cairn } = {}): Promise<Harness> {
  const cairn = await Cairn.open({ home: h });
  const { facade, calls } = spyOn(options.wrap ? options.wrap(cairn) : cairn);
  const app = createApp(facade, {
    openOnLoopback: options.openOnLoopback ?? true,
    bodyLimitBytes: options.bodyLimitBytes,
    mcp: mcpHttpHandler(facade, { maxBodyBytes: options.bodyLimitBytes, log: () => undefined }),
  });
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    cairn,
    calls,
    async close() {
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      await cairn.close();
    },
  };
}

interface Res {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function call(base: string, method: string, path: string, opts: { token?: string | null; auth?: string; body?: unknown; raw?: string; type?: string; headers?: Record<string, string> } = {}): Promise<Res> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.auth !== undefined) headers.authorization = opts.auth;
  else if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] = opts.type ?? 'application/json';
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** A raw HTTP request (no URL normalisation, any Host header). */
function rawRequest(url: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; text: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function assertError(res: Res, status: number, code?: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${res.text.slice(0, 300)}`);
  assert.ok(res.body && typeof res.body.error === 'object', `error body is JSON {error}: ${res.text.slice(0, 200)}`);
  assert.equal(typeof res.body.error.message, 'string');
  if (code) assert.equal(res.body.error.code, code, res.text.slice(0, 300));
  assert.doesNotMatch(res.text, /\bat .+\.(ts|js):\d+/, 'no stack trace');
}

function mcpClient(url: string, headers: Record<string, string>): { client: Client; transport: StreamableHTTPClientTransport } {
  const client = new Client({ name: 'cairn-http-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url + '/mcp'), { requestInit: { headers } });
  return { client, transport };
}

// ---- the auth matrix ------------------------------------------------------------------------

describe('auth matrix', () => {
  let h: Harness;
  const tokens: Record<'alpha' | 'beta' | 'all' | 'revoked', string> = { alpha: '', beta: '', all: '', revoked: '' };
  let memoryId = '';

  before(async () => {
    const dir = home();
    const setup = await Cairn.open({ home: dir });
    tokens.alpha = (await setup.createToken({ namespaces: ['alpha'], label: 'alpha' })).token;
    tokens.beta = (await setup.createToken({ namespaces: ['beta'] })).token;
    tokens.all = (await setup.createToken({ namespaces: ['*'] })).token;
    const revoked = await setup.createToken({ namespaces: ['alpha'] });
    tokens.revoked = revoked.token;
    assert.equal(await setup.revokeToken(revoked.info.id), true);
    memoryId = (await setup.remember({ text: 'The staging database listens on port 5433', namespace: 'alpha' })).memory.id;
    await setup.setState({ objective: 'ship the API' }, 'alpha');
    await setup.close();
    h = await inProcess(dir);
  });
  after(async () => h.close());

  // One request per route family (in namespace alpha).
  const routes = (): Array<{ name: string; method: string; path: string; body?: unknown }> => [
    { name: 'store', method: 'POST', path: '/v1/namespaces/alpha/memories', body: { text: 'auth matrix probe memory' } },
    { name: 'list', method: 'GET', path: '/v1/namespaces/alpha/memories' },
    { name: 'get', method: 'GET', path: `/v1/namespaces/alpha/memories/${memoryId}` },
    { name: 'history', method: 'GET', path: `/v1/namespaces/alpha/memories/${memoryId}/history` },
    { name: 'feedback', method: 'POST', path: `/v1/namespaces/alpha/memories/${memoryId}/feedback`, body: { important: true } },
    { name: 'search', method: 'POST', path: '/v1/namespaces/alpha/search', body: { query: 'staging port' } },
    { name: 'search-get', method: 'GET', path: '/v1/namespaces/alpha/search?q=staging' },
    { name: 'state-get', method: 'GET', path: '/v1/namespaces/alpha/state' },
    { name: 'state-put', method: 'PUT', path: '/v1/namespaces/alpha/state', body: { nextActions: ['write tests'] } },
    { name: 'context', method: 'GET', path: '/v1/namespaces/alpha/context?budgetTokens=300' },
    { name: 'files', method: 'GET', path: '/v1/namespaces/alpha/files?path=SESSION-STATE.md' },
    // Supersede last: it changes which memory is current.
    { name: 'supersede', method: 'POST', path: `/v1/namespaces/alpha/memories/${memoryId}/supersede`, body: { text: 'The staging database listens on port 6543' } },
  ];

  const denied: Array<{ who: string; auth: () => string | undefined; status: number; code: string }> = [
    { who: 'no token', auth: () => undefined, status: 401, code: 'UNAUTHORIZED' },
    { who: 'malformed header (Basic)', auth: () => 'Basic YWxwaGE6c2VjcmV0', status: 401, code: 'UNAUTHORIZED' },
    { who: 'malformed header (Bearer, no token)', auth: () => 'Bearer', status: 401, code: 'UNAUTHORIZED' },
    { who: 'malformed header (two words)', auth: () => `Bearer ${tokens.alpha} extra`, status: 401, code: 'UNAUTHORIZED' },
    { who: 'wrong token', auth: () => 'Bearer cairn_thisIsNotARealTokenAtAll0123456789abcdefghij', status: 401, code: 'UNAUTHORIZED' },
    { who: 'revoked token', auth: () => `Bearer ${tokens.revoked}`, status: 401, code: 'UNAUTHORIZED' },
    { who: 'token of another namespace', auth: () => `Bearer ${tokens.beta}`, status: 403, code: 'FORBIDDEN' },
  ];

  test('every route family refuses every bad credential, and reads or writes nothing', async () => {
    // The open loopback mode must not apply: this home has tokens.
    for (const route of routes()) {
      for (const d of denied) {
        h.calls.length = 0;
        const auth = d.auth();
        const res = await call(h.url, route.method, route.path, { ...(auth === undefined ? {} : { auth }), body: route.body });
        assertError(res, d.status, d.code);
        if (d.status === 401) assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/, `${route.name} / ${d.who}: WWW-Authenticate`);
        const touched = h.calls.filter((c) => !AUTH_CALLS.has(c));
        assert.deepEqual(touched, [], `${route.name} / ${d.who}: facade calls before auth passed`);
      }
    }
    // Nothing was stored by the refused writes.
    const alpha = await h.cairn.list({ namespace: 'alpha', includeSuperseded: true });
    assert.equal(alpha.length, 1);
    assert.equal((await h.cairn.getState('alpha')).nextActions.length, 0);
  });

  test('a valid namespace token and a "*" token pass on every route family', async () => {
    for (const who of ['alpha', 'all'] as const) {
      for (const route of routes()) {
        if (route.name === 'supersede' && who === 'all') continue; // the memory is superseded by then
        const res = await call(h.url, route.method, route.path, { token: tokens[who], body: route.body });
        assert.ok(res.status === 200 || res.status === 201, `${who} ${route.name}: ${res.status} ${res.text.slice(0, 300)}`);
      }
    }
  });

  test('/v1/status: 401 without a token; a namespace token sees only its namespaces; "*" sees all', async () => {
    await h.cairn.remember({ text: 'a beta memory that alpha must not count', namespace: 'beta' });
    assertError(await call(h.url, 'GET', '/v1/status'), 401, 'UNAUTHORIZED');
    assertError(await call(h.url, 'GET', '/v1/status', { auth: `Bearer ${tokens.revoked}` }), 401);
    const mine = await call(h.url, 'GET', '/v1/status', { token: tokens.alpha });
    assert.equal(mine.status, 200, mine.text);
    assert.deepEqual(mine.body.namespaces.map((n: any) => n.namespace), ['alpha']);
    assert.equal(mine.body.home, undefined, 'no home path for a namespace token');
    assert.ok(!mine.text.includes('beta'), 'nothing about beta');
    assert.equal(mine.body.totals.memories, mine.body.namespaces[0].memories);
    const all = await call(h.url, 'GET', '/v1/status', { token: tokens.all });
    assert.deepEqual(all.body.namespaces.map((n: any) => n.namespace).sort(), ['alpha', 'beta']);
  });

  test('/v1/health needs no token and says nothing but ok; /openapi.json is public', async () => {
    const res = await call(h.url, 'GET', '/v1/health');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true });
    assert.equal((await call(h.url, 'GET', '/openapi.json')).status, 200);
  });

  test('unknown routes under /v1 answer 401 to strangers (no route enumeration), 404 JSON to callers', async () => {
    assertError(await call(h.url, 'GET', '/v1/namespaces/alpha/secrets'), 401);
    assertError(await call(h.url, 'GET', '/v1/namespaces/alpha/secrets', { token: tokens.alpha }), 404, 'ROUTE_NOT_FOUND');
    assertError(await call(h.url, 'DELETE', '/v1/namespaces/alpha/memories', { token: tokens.alpha }), 404, 'ROUTE_NOT_FOUND');
    assertError(await call(h.url, 'GET', '/elsewhere'), 404, 'ROUTE_NOT_FOUND');
  });

  test('/mcp: 401 without a token, 403 for another namespace, listTools and a round trip with a token', async () => {
    h.calls.length = 0;
    const noToken = await call(h.url, 'POST', '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { accept: 'application/json, text/event-stream' } });
    assertError(noToken, 401, 'UNAUTHORIZED');
    const other = await call(h.url, 'POST', '/mcp', { token: tokens.beta, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { 'x-cairn-namespace': 'alpha', accept: 'application/json, text/event-stream' } });
    assertError(other, 403, 'FORBIDDEN');
    const badNs = await call(h.url, 'POST', '/mcp?namespace=..%2fetc', { token: tokens.all, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    assertError(badNs, 400, 'INVALID_NAMESPACE');
    assert.deepEqual(h.calls.filter((c) => !AUTH_CALLS.has(c)), []);
    // Stateless endpoint: no server-to-client stream.
    assert.equal((await call(h.url, 'GET', '/mcp', { token: tokens.alpha, headers: { accept: 'text/event-stream' } })).status, 405);

    const { client, transport } = mcpClient(h.url, { authorization: `Bearer ${tokens.alpha}`, 'x-cairn-namespace': 'alpha' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const t of ['memory_store', 'memory_search', 'memory_get', 'state_get', 'state_set', 'context']) assert.ok(names.includes(t), `tool ${t}`);
      const stored = await client.callTool({ name: 'memory_store', arguments: { text: 'stored through MCP over HTTP' } });
      assert.notEqual(stored.isError, true, JSON.stringify(stored));
    } finally {
      await client.close();
    }
    const list = await call(h.url, 'GET', '/v1/namespaces/alpha/memories', { token: tokens.alpha });
    assert.ok(list.body.memories.some((m: any) => m.text === 'stored through MCP over HTTP'), 'the MCP write landed in alpha');

    // The namespace defaults to the token's only namespace; ?namespace= works too.
    const viaQuery = mcpClient(h.url, { authorization: `Bearer ${tokens.beta}` });
    await viaQuery.client.connect(viaQuery.transport);
    try {
      const res = await viaQuery.client.callTool({ name: 'memory_search', arguments: { query: 'stored through MCP' } });
      assert.ok(!JSON.stringify(res).includes('stored through MCP over HTTP'), 'beta never sees alpha');
    } finally {
      await viaQuery.client.close();
    }
    const refused = new Client({ name: 'cairn-http-test', version: '1.0.0' });
    const refusedTransport = new StreamableHTTPClientTransport(new URL(h.url + '/mcp?namespace=beta'), { requestInit: { headers: { authorization: `Bearer ${tokens.alpha}` } } });
    await assert.rejects(refused.connect(refusedTransport), /403|FORBIDDEN/);
  });
});

// ---- token-less loopback mode -----------------------------------------------------------------

describe('local mode: no token configured, bound to loopback', () => {
  let h: Harness;
  before(async () => {
    h = await inProcess(home(), { openOnLoopback: true });
  });
  after(async () => h.close());

  test('requests without a token work; a presented wrong token is still refused', async () => {
    const stored = await call(h.url, 'POST', '/v1/namespaces/local/memories', { body: { text: 'local single-user memory' } });
    assert.equal(stored.status, 201, stored.text);
    assert.equal((await call(h.url, 'GET', `/v1/namespaces/local/memories/${stored.body.memory.id}`)).status, 200);
    assert.equal((await call(h.url, 'GET', '/v1/status')).status, 200);
    assertError(await call(h.url, 'GET', '/v1/namespaces/local/memories', { auth: 'Bearer cairn_wrongwrongwrongwrongwrong' }), 401);
  });

  test('a foreign Host or Origin (DNS rebinding, a web page) is refused, and nothing is read', async () => {
    h.calls.length = 0;
    const foreign = await rawRequest(h.url, 'GET', '/v1/namespaces/local/memories', { host: 'attacker.example:80' });
    assert.equal(foreign.status, 403, foreign.text);
    const page = await rawRequest(h.url, 'POST', '/v1/namespaces/local/memories', { host: new URL(h.url).host, origin: 'https://attacker.example', 'content-type': 'application/json' }, JSON.stringify({ text: 'csrf' }));
    assert.equal(page.status, 403, page.text);
    assert.deepEqual(h.calls.filter((c) => !AUTH_CALLS.has(c)), []);
    const local = await rawRequest(h.url, 'GET', '/v1/namespaces/local/memories', { host: `localhost:${new URL(h.url).port}`, origin: 'http://127.0.0.1:3000' });
    assert.equal(local.status, 200, local.text);
  });

  test('creating the first token ends local mode at once (no restart)', async () => {
    const { token } = await h.cairn.createToken({ namespaces: ['local'] });
    assertError(await call(h.url, 'GET', '/v1/namespaces/local/memories'), 401, 'UNAUTHORIZED');
    assert.equal((await call(h.url, 'GET', '/v1/namespaces/local/memories', { token })).status, 200);
  });

  test('a server not bound to loopback never allows token-less requests, even with no token left', async () => {
    const dir = home();
    const cairn = await Cairn.open({ home: dir });
    const app = createApp(cairn, { openOnLoopback: false });
    const res = await app.request('/v1/namespaces/x/memories', { headers: { host: '127.0.0.1' } });
    assert.equal(res.status, 401);
    await cairn.close();
  });

  test('isLoopbackHost', () => {
    for (const yes of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST', '::ffff:127.0.0.1']) assert.equal(isLoopbackHost(yes), true, yes);
    for (const no of ['0.0.0.0', '::', '192.168.1.2', '10.0.0.1', 'example.com', '', '128.0.0.1', 'localhost.example.com']) assert.equal(isLoopbackHost(no), false, no);
  });
});

// ---- refusal to bind a public address without a token ---------------------------------------------

describe('binding', () => {
  before(() => assertBuilt());

  test('startServer refuses 0.0.0.0 with no token, with a clear message', async () => {
    const cairn = await Cairn.open({ home: home() });
    try {
      await assert.rejects(startServer(cairn, { host: '0.0.0.0', port: 0 }), (err: unknown) => {
        assert.ok(err instanceof CairnError);
        assert.equal(err.code, 'CONFIG');
        assert.match(err.message, /cairn tokens create --grant/);
        return true;
      });
    } finally {
      await cairn.close();
    }
  });

  test('`cairn serve --host 0.0.0.0` with no token exits with the config error code before listening', async () => {
    const dir = home();
    const res = await runCli(['serve', '--host', '0.0.0.0', '--port', '0'], { home: dir });
    assert.equal(res.code, 6, res.stderr);
    assert.match(res.stderr, /Refusing to listen on 0\.0\.0\.0/);
    assert.match(res.stderr, /cairn tokens create --grant/);
    assert.doesNotMatch(res.stdout, /listening/i);
  });

  test('`cairn serve --help` explains the token-less loopback mode', async () => {
    const res = await runCli(['serve', '--help'], { home: home() });
    assert.equal(res.code, 0);
    assert.match(res.stdout, /NO token at all and the server is bound\s+to a loopback address/);
    assert.match(res.stdout, /--host 0\.0\.0\.0\) is refused until a token exists/);
  });
});

// ---- limits, malformed input, hostile ids ---------------------------------------------------------

describe('limits and hostile input', () => {
  let h: Harness;
  let token = '';
  before(async () => {
    const dir = home();
    const setup = await Cairn.open({ home: dir });
    token = (await setup.createToken({ namespaces: ['*'] })).token;
    await setup.close();
    h = await inProcess(dir, { bodyLimitBytes: 64 * 1024 });
  });
  after(async () => h.close());

  test('oversized bodies get 413 JSON (Content-Length and chunked), and the connection stays usable', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(100 * 1024) });
    const res = await call(h.url, 'POST', '/v1/namespaces/big/memories', { token, raw: big });
    assertError(res, 413, 'PAYLOAD_TOO_LARGE');
    // Chunked: no Content-Length, the limit is counted while reading.
    const chunks = [big.slice(0, 40_000), big.slice(40_000)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const chunked = await fetch(h.url + '/v1/namespaces/big/memories', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    assert.equal(chunked.status, 413);
    assert.equal(((await chunked.json()) as any).error.code, 'PAYLOAD_TOO_LARGE');
    // The same for /mcp.
    assertError(await call(h.url, 'POST', '/mcp', { token, raw: big }), 413, 'PAYLOAD_TOO_LARGE');
    assert.equal((await call(h.url, 'GET', '/v1/health')).status, 200);
    assert.deepEqual(await h.cairn.list({ namespace: 'big' }), []);
  });

  test('malformed JSON, an empty body, a non-JSON content type and wrong shapes are 400/415 with issues', async () => {
    for (const raw of ['{"text": "unterminated', '{text: 1}', 'null x', '\u0000']) {
      assertError(await call(h.url, 'POST', '/v1/namespaces/bad/memories', { token, raw }), 400, 'MALFORMED_JSON');
    }
    assertError(await call(h.url, 'POST', '/v1/namespaces/bad/memories', { token, raw: '' }), 400, 'MALFORMED_JSON');
    assertError(await call(h.url, 'POST', '/v1/namespaces/bad/memories', { token, raw: 'text=hi', type: 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assertError(await call(h.url, 'POST', '/v1/namespaces/bad/memories', { token, raw: '{"text":"hi"}', type: 'application/x-www-form-urlencoded' }), 415);
    for (const body of [[], 'a string', 42, null, {}, { text: '' }, { text: 'ok', importance: 11 }, { text: 'ok', category: 'gossip' }, { text: 'ok', importnace: 3 }]) {
      const res = await call(h.url, 'POST', '/v1/namespaces/bad/memories', { token, body });
      assertError(res, 400, 'INVALID_INPUT');
      assert.ok(Array.isArray(res.body.error.issues) && res.body.error.issues.length > 0, `issues for ${JSON.stringify(body)}`);
    }
    const unknown = await call(h.url, 'POST', '/v1/namespaces/bad/memories', { token, body: { text: 'ok', importnace: 3 } });
    assert.match(unknown.body.error.message, /unknown field "importnace"/);
    assertError(await call(h.url, 'POST', '/v1/namespaces/bad/search', { token, body: { query: '   ' } }), 400, 'INVALID_INPUT');
    assertError(await call(h.url, 'GET', '/v1/namespaces/bad/search', { token }), 400, 'INVALID_INPUT');
    assertError(await call(h.url, 'GET', '/v1/namespaces/bad/search?q=x&limit=10abc', { token }), 400, 'INVALID_INPUT');
    assertError(await call(h.url, 'GET', '/v1/namespaces/bad/search?q=x&limit=1&limit=2', { token }), 400, 'INVALID_INPUT');
    assertError(await call(h.url, 'GET', '/v1/namespaces/bad/search?q=x&category=gossip', { token }), 400, 'INVALID_INPUT');
    assertError(await call(h.url, 'GET', '/v1/namespaces/bad/memories?limit=0', { token }), 400, 'INVALID_INPUT');
    assertError(await call(h.url, 'GET', '/v1/namespaces/bad/memories?bogus=1', { token }), 400, 'INVALID_INPUT');
    assertError(await call(h.url, 'GET', '/v1/namespaces/bad/context?budgetTokens=-5', { token }), 400, 'INVALID_INPUT');
    assertError(await call(h.url, 'PUT', '/v1/namespaces/bad/state', { token, body: {} }), 400, 'INVALID_INPUT');
    assertError(await call(h.url, 'PUT', '/v1/namespaces/bad/state', { token, body: { blockers: 'not a list' } }), 400, 'INVALID_INPUT');
    assertError(await call(h.url, 'POST', '/v1/namespaces/bad/memories/m_abc/feedback', { token, body: { important: 'yes' } }), 400, 'INVALID_INPUT');
    assert.deepEqual(await h.cairn.list({ namespace: 'bad' }), [], 'nothing stored');
  });

  test('hostile namespaces are 400 (or 404 when they change the route) and read nothing', async () => {
    const hostile = [
      '..%2fetc', '..%2F..%2Fetc', '%2e%2e', '..', 'a%00', '%00', 'A', 'a%20b', 'a%2fb', 'cairn.db', 'index', '-a', '.a',
      'a'.repeat(65), 'a'.repeat(5000), '%C3%A9t%C3%A9', 'a..b',
    ];
    for (const ns of hostile) {
      h.calls.length = 0;
      for (const path of [`/v1/namespaces/${ns}/memories`, `/v1/namespaces/${ns}/state`, `/v1/namespaces/${ns}/files?path=MEMORY.md`]) {
        const res = await call(h.url, 'GET', path, { token });
        assert.ok(res.status === 400 || res.status === 404, `${ns} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
        assert.ok(res.body?.error?.code, `JSON error for ${ns}`);
        if (res.status === 400) assert.equal(res.body.error.code, 'INVALID_NAMESPACE');
      }
      const stored = await call(h.url, 'POST', `/v1/namespaces/${ns}/memories`, { token, body: { text: 'should not land' } });
      assert.ok(stored.status === 400 || stored.status === 404, `${ns} store: ${stored.status}`);
      assert.deepEqual(h.calls.filter((c) => !AUTH_CALLS.has(c)), [], `${ns}: nothing read`);
    }
  });

  test('hostile ids are 400 (or 404 when they change the route) and read nothing', async () => {
    const hostile = ['..%2f..%2fetc%2fpasswd', '..', '%2e%2e', 'm_%00', 'm_..%2f', 'm_a%2fb', 'x', 'm_', `m_${'a'.repeat(100)}`, 'm_a b', '%00', 'M_ABC', 'm_abc;drop'];
    for (const id of hostile) {
      h.calls.length = 0;
      for (const [method, suffix, body] of [['GET', '', undefined], ['GET', '/history', undefined], ['POST', '/supersede', { text: 'x' }], ['POST', '/feedback', { important: true }]] as const) {
        const res = await call(h.url, method, `/v1/namespaces/ids/memories/${id}${suffix}`, { token, body });
        assert.ok(res.status === 400 || res.status === 404, `${id}${suffix}: ${res.status} ${res.text.slice(0, 200)}`);
        assert.ok(res.body?.error?.code, `JSON error for ${id}`);
      }
      assert.deepEqual(h.calls.filter((c) => !AUTH_CALLS.has(c)), [], `${id}: nothing read`);
    }
  });

  test('raw traversal in the request line never reaches the facade; huge URLs are refused', async () => {
    h.calls.length = 0;
    const auth = { authorization: `Bearer ${token}` };
    for (const path of [
      '/v1/namespaces/../../etc/passwd',
      '/v1/namespaces/a/memories/../../../../etc/passwd',
      '/v1/namespaces/a/../b/memories',
      '/v1/namespaces/a/memories/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/v1/namespaces/a%2f..%2fb/memories',
      '/v1/namespaces//memories',
    ]) {
      const res = await rawRequest(h.url, 'GET', path, auth);
      assert.ok(res.status === 400 || res.status === 404, `${path}: ${res.status} ${res.text.slice(0, 200)}`);
      // Dot segments are refused as sent, not normalised into another namespace or route.
      if (/\/\.\.\//.test(path)) assert.equal(res.status, 400, `${path}: ${res.text}`);
    }
    assert.deepEqual(h.calls.filter((c) => !AUTH_CALLS.has(c)), []);
    const huge = await rawRequest(h.url, 'GET', `/v1/namespaces/${'a'.repeat(100_000)}/memories`, auth).catch(() => ({ status: 431, text: '' }));
    assert.ok(huge.status >= 400 && huge.status < 500, `huge URL: ${huge.status}`);
    assert.equal((await call(h.url, 'GET', '/v1/health')).status, 200, 'still serving');
  });

  test('files: traversal and absolute paths are NOT_FOUND, never content', async () => {
    for (const p of ['../../etc/passwd', '/etc/passwd', '..%2f..%2fetc%2fpasswd', 'a/../../cairn.db', '%00', '../config.json']) {
      const res = await call(h.url, 'GET', `/v1/namespaces/files/files?path=${p}`, { token });
      assert.ok(res.status === 404 || res.status === 400, `${p}: ${res.status}`);
      assert.doesNotMatch(res.text, /root:|SQLite format/);
    }
  });
});

// ---- errors map to statuses ---------------------------------------------------------------------------

describe('error mapping', () => {
  test('every facade error code has an HTTP status', () => {
    for (const code of Object.values(ERROR_CODES)) assert.ok(STATUS_OF[code] >= 400, code);
    assert.equal(STATUS_OF.INVALID_INPUT, 400);
    assert.equal(STATUS_OF.INVALID_NAMESPACE, 400);
    assert.equal(STATUS_OF.NOT_FOUND, 404);
    assert.equal(STATUS_OF.CONFLICT, 409);
    assert.equal(STATUS_OF.CONFIG, 500);
    assert.equal(STATUS_OF.STORE_LOCKED, 503);
    assert.equal(STATUS_OF.LLM, 502);
  });

  test('CairnErrors become their status; unexpected errors are a 500 with no message or stack', async () => {
    const failing = (cairn: Cairn) =>
      new Proxy(cairn, {
        get(target, key) {
          if (key === 'list') return async () => { throw new CairnError(ERROR_CODES.STORE_LOCKED, 'database is locked'); };
          if (key === 'getState') return async () => { throw new Error('secret internal detail /home/x/.cairn'); };
          if (key === 'context') return async () => { throw new CairnError(ERROR_CODES.LLM, 'the LLM is down'); };
          const v = Reflect.get(target, key, target) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
    const h = await inProcess(home(), { wrap: failing });
    try {
      assertError(await call(h.url, 'GET', '/v1/namespaces/x/memories'), 503, 'STORE_LOCKED');
      assertError(await call(h.url, 'GET', '/v1/namespaces/x/context'), 502, 'LLM');
      const internal = await call(h.url, 'GET', '/v1/namespaces/x/state');
      assertError(internal, 500, 'INTERNAL');
      assert.doesNotMatch(internal.text, /secret|\.cairn|stack/);
    } finally {
      await h.close();
    }
  });
});

// ---- the whole flow through the real CLI server -------------------------------------------------------

describe('cairn serve (the real CLI)', () => {
  let child: ChildProcess;
  let dir = '';
  let url = '';
  let token = '';
  let stdout = '';
  let exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  before(async () => {
    assertBuilt();
    dir = home();
    const setup = await Cairn.open({ home: dir });
    token = (await setup.createToken({ namespaces: ['flow'], label: 'flow test' })).token;
    await setup.close();
    child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { env: childEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not print its URL: ${stdout} ${stderr}`)), HANG_GUARD_MS);
      child.stdout!.on('data', (d: Buffer) => {
        stdout += d.toString();
        const m = /listening on (http:\/\/\S+?) /.exec(stdout);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child.on('exit', () => reject(new Error(`serve exited: ${stderr}`)));
    });
  });

  after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  test('store → search → get → history → supersede → feedback → state → context → files', async () => {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const ns = '/v1/namespaces/flow';
    const stored = await call(url, 'POST', `${ns}/memories`, { token, body: { text: 'The release train leaves on Thursdays', category: 'decision', importance: 7, tags: ['release'] } });
    assert.equal(stored.status, 201, stored.text);
    const id = stored.body.memory.id as string;
    assert.equal(stored.body.duplicate, false);
    assert.deepEqual(stored.body.memory.provenance, [{ source: 'http' }]);
    const again = await call(url, 'POST', `${ns}/memories`, { token, body: { text: 'The release train leaves on Thursdays' } });
    assert.equal(again.status, 200);
    assert.equal(again.body.duplicate, true);
    assert.equal(again.body.memory.id, id);

    const found = await call(url, 'POST', `${ns}/search`, { token, body: { query: 'when does the release train leave', limit: 5 } });
    assert.equal(found.status, 200, found.text);
    assert.equal(found.body.results[0].id, id);
    const viaGet = await call(url, 'GET', `${ns}/search?q=release%20train&category=decision&limit=3`, { token });
    assert.equal(viaGet.body.results[0].id, id);
    const openclaw = await call(url, 'POST', `${ns}/search`, { token, body: { query: 'release train', maxResults: 3, format: 'openclaw' } });
    assert.equal(openclaw.status, 200, openclaw.text);
    for (const k of ['path', 'startLine', 'endLine', 'score', 'snippet', 'source']) assert.ok(k in openclaw.body.results[0], `openclaw field ${k}`);
    const none = await call(url, 'POST', `${ns}/search`, { token, body: { query: 'release train', minScore: 99 } });
    assert.deepEqual(none.body.results, []);
    // Rewriting asked for with no chat model configured: the plain search, and why.
    const unrewritten = await call(url, 'POST', `${ns}/search`, { token, body: { query: 'release train', rewrite: true } });
    assert.equal(unrewritten.body.results[0].id, id);
    assert.deepEqual(unrewritten.body.rewrite, { status: 'skipped', reason: 'no chat model configured (judge.llm)' });
    assertError(await call(url, 'POST', `${ns}/search`, { token, body: { query: 'release train', rewrite: 'yes' } }), 400, 'INVALID_INPUT');
    // As of a day ago the memory stored just now did not exist yet; by body or query string.
    assert.deepEqual((await call(url, 'POST', `${ns}/search`, { token, body: { query: 'release train', asOf: '1d' } })).body.results, []);
    assert.deepEqual((await call(url, 'GET', `${ns}/search?q=release%20train&asOf=2020-01-01`, { token })).body.results, []);
    assert.equal((await call(url, 'GET', `${ns}/search?q=release%20train&asOf=2099-01-01`, { token })).body.results[0].id, id);
    assertError(await call(url, 'POST', `${ns}/search`, { token, body: { query: 'release train', asOf: 'someday' } }), 400, 'INVALID_INPUT');
    assertError(await call(url, 'GET', `${ns}/search?q=release%20train&asOf=2026-02-30`, { token }), 400, 'INVALID_INPUT');

    const got = await call(url, 'GET', `${ns}/memories/${id}`, { token });
    assert.equal(got.body.text, 'The release train leaves on Thursdays');
    assertError(await call(url, 'GET', `${ns}/memories/m_0000000000000000000000`, { token }), 404, 'NOT_FOUND');

    const sup = await call(url, 'POST', `${ns}/memories/${id}/supersede`, { token, body: { text: 'The release train leaves on Wednesdays' } });
    assert.equal(sup.status, 201, sup.text);
    assert.equal(sup.body.previous.id, id);
    const newId = sup.body.current.id as string;
    assertError(await call(url, 'POST', `${ns}/memories/${id}/supersede`, { token, body: { text: 'again' } }), 409, 'CONFLICT');
    const hist = await call(url, 'GET', `${ns}/memories/${newId}/history`, { token });
    assert.deepEqual(hist.body.history.map((m: any) => m.id), [id, newId]);
    const list = await call(url, 'GET', `${ns}/memories?includeSuperseded=true&limit=10`, { token });
    assert.equal(list.body.memories.length, 2);
    assert.equal((await call(url, 'GET', `${ns}/memories`, { token })).body.memories.length, 1);

    const fb = await call(url, 'POST', `${ns}/memories/${newId}/feedback`, { token, body: { important: true } });
    assert.equal(fb.status, 200, fb.text);
    assert.ok(fb.body.importance >= 8);
    assertError(await call(url, 'POST', `${ns}/memories/m_0000000000000000000000/feedback`, { token, body: { important: false } }), 404, 'NOT_FOUND');

    const put = await call(url, 'PUT', `${ns}/state`, { token, body: { objective: 'Cut the 2.0 release', blockers: ['CI is red'] } });
    assert.equal(put.status, 200, put.text);
    const patch = await call(url, 'PUT', `${ns}/state`, { token, body: { nextActions: ['fix CI'] } });
    assert.equal(patch.body.objective, 'Cut the 2.0 release', 'PATCH semantics: fields left out stay');
    const state = await call(url, 'GET', `${ns}/state`, { token });
    assert.deepEqual([state.body.objective, state.body.blockers, state.body.nextActions], ['Cut the 2.0 release', ['CI is red'], ['fix CI']]);

    const ctx = await call(url, 'GET', `${ns}/context?query=release&budgetTokens=400`, { token });
    assert.equal(ctx.status, 200, ctx.text);
    assert.match(ctx.body.text, /Cut the 2\.0 release/);
    assert.match(ctx.body.text, /Wednesdays/);
    assert.ok(ctx.body.usedTokens <= 400);

    const file = await call(url, 'GET', `${ns}/files?path=SESSION-STATE.md&from=1&lines=200`, { token });
    assert.equal(file.status, 200, file.text);
    assert.match(file.body.text, /Cut the 2\.0 release/);
    const mem = await call(url, 'GET', `${ns}/files?path=${encodeURIComponent(openclaw.body.results[0].path)}`, { token });
    assert.equal(mem.status, 200, mem.text);
  });

  test('request logs are structured JSON lines without query strings or bodies', async () => {
    await call(url, 'GET', '/v1/namespaces/flow/search?q=topsecretquery', { token });
    // The log line may reach stdout a little after the answer: wait for it, not for a guessed delay.
    const logged = () => stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    await eventually(async () => logged().some((l) => l.path === '/v1/namespaces/flow/search'), undefined, 20);
    const reqs = logged();
    assert.ok(reqs.length > 5, 'one line per request');
    const last = reqs.at(-1);
    assert.equal(last.method, 'GET');
    assert.equal(last.path, '/v1/namespaces/flow/search');
    assert.equal(last.status, 200);
    assert.equal(last.namespace, 'flow');
    assert.equal(typeof last.ms, 'number');
    assert.match(last.token, /^tok_/);
    assert.ok(!stdout.includes('topsecretquery'), 'no query strings in logs');
    assert.ok(!stdout.includes('Thursdays'), 'no bodies in logs');
    assert.ok(!stdout.includes(token), 'never the token');
  });

  test('GET /openapi.json is a valid OpenAPI 3.1 document listing every route', async () => {
    const res = await call(url, 'GET', '/openapi.json');
    assert.equal(res.status, 200);
    const doc = res.body;
    assert.equal(doc.openapi, '3.1.0');
    const expected: Array<[string, string]> = [
      ['get', '/v1/health'], ['get', '/v1/status'],
      ['post', '/v1/namespaces/{ns}/memories'], ['get', '/v1/namespaces/{ns}/memories'],
      ['get', '/v1/namespaces/{ns}/memories/{id}'], ['get', '/v1/namespaces/{ns}/memories/{id}/history'],
      ['post', '/v1/namespaces/{ns}/memories/{id}/supersede'], ['post', '/v1/namespaces/{ns}/memories/{id}/feedback'],
      ['post', '/v1/namespaces/{ns}/search'], ['get', '/v1/namespaces/{ns}/search'],
      ['get', '/v1/namespaces/{ns}/state'], ['put', '/v1/namespaces/{ns}/state'],
      ['get', '/v1/namespaces/{ns}/context'], ['get', '/v1/namespaces/{ns}/files'],
      ['get', '/openapi.json'], ['post', '/mcp'],
    ];
    for (const [method, path] of expected) assert.ok(doc.paths[path]?.[method], `${method.toUpperCase()} ${path} documented`);

    // Every route the app really serves is documented (from hono's own route table), except the web UI's pages.
    const cairn = await Cairn.open({ home: home() });
    const app = createApp(cairn, { openOnLoopback: true, mcp: async () => new Response() });
    await cairn.close();
    const served = app.routes.filter((r) => r.method !== 'ALL' && !r.path.includes('*') && !WEB_ROUTES.includes(r.path));
    assert.ok(served.length >= expected.length);
    for (const r of served) {
      const p = r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      assert.ok(doc.paths[p]?.[r.method.toLowerCase()], `served route ${r.method} ${r.path} is documented`);
    }

    // Operations: parameters for every {param}, responses including errors, resolvable $refs.
    const refs: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (k === '$ref' && typeof x === 'string') refs.push(x);
          else walk(x);
        }
      }
    };
    walk(doc.paths);
    walk(doc.components);
    for (const ref of refs) {
      const target = ref.replace(/^#\//, '').split('/').reduce((o: any, k) => o?.[k], doc);
      assert.ok(target, `${ref} resolves`);
    }
    const ids = new Set<string>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        assert.ok(op.operationId && !ids.has(op.operationId), `${method} ${path}: unique operationId`);
        ids.add(op.operationId);
        assert.ok(Object.keys(op.responses).length > 0, `${method} ${path}: responses`);
        for (const param of path.match(/\{(\w+)\}/g) ?? []) {
          assert.ok(op.parameters?.some((p: any) => p.in === 'path' && `{${p.name}}` === param), `${method} ${path}: ${param} documented`);
        }
        if (path.startsWith('/v1/namespaces/') || path === '/v1/status' || path === '/mcp') {
          assert.ok(op.responses['401'] && op.responses['403'], `${method} ${path}: auth errors documented`);
        }
        if (op.requestBody) {
          assert.ok(op.requestBody.content['application/json'].schema, `${method} ${path}: body schema`);
          assert.ok(op.responses['400'] && op.responses['413'], `${method} ${path}: body errors documented`);
        }
      }
    }
    assert.equal(doc.paths['/v1/health'].get.security.length, 0, 'health needs no auth');
    const storeBody = doc.paths['/v1/namespaces/{ns}/memories'].post.requestBody.content['application/json'].schema;
    assert.deepEqual(storeBody.required, ['text']);
    assert.ok(storeBody.properties.category.enum.includes('decision'));
    const q = doc.paths['/v1/namespaces/{ns}/search'].get.parameters.find((p: any) => p.name === 'q');
    assert.equal(q.required, true);
    assert.ok(doc.paths['/v1/namespaces/{ns}/search'].get.parameters.some((p: any) => p.name === 'asOf'), 'asOf in the query string');
    const searchSchema = JSON.stringify(doc.paths['/v1/namespaces/{ns}/search'].post);
    assert.ok(searchSchema.includes('asOf') || JSON.stringify(doc.components ?? {}).includes('asOf'), 'asOf in the body');
  });

  test('/mcp on the real server: listTools with a bearer token and X-Cairn-Namespace', async () => {
    const { client, transport } = mcpClient(url, { authorization: `Bearer ${token}`, 'x-cairn-namespace': 'flow' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'memory_search'));
      const res = await client.callTool({ name: 'state_get', arguments: {} });
      assert.match(JSON.stringify(res.structuredContent), /Cut the 2\.0 release/);
    } finally {
      await client.close();
    }
    const stranger = mcpClient(url, {});
    await assert.rejects(stranger.client.connect(stranger.transport), /401|UNAUTHORIZED/);
  });

  test('cairn search on the same home is answered by the server over the local socket', async () => {
    const res = await runCli(['-n', 'flow', 'search', 'release train', '--json'], { home: dir, env: { CAIRN_DEBUG: '1' } });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stderr, /answered by the running daemon/);
    assert.match(JSON.parse(res.stdout).results[0].text, /release train/);
  });

  test('SIGTERM closes the server and the facade cleanly', async () => {
    child.kill('SIGTERM');
    const { code, signal } = await exit;
    assert.equal(signal, null);
    assert.equal(code, 0);
    assert.match(stdout, /"msg":"stopped"/);
    await assert.rejects(fetch(url + '/v1/health'));
    assert.equal(existsSync(join(dir, 'cairn.sock')), false, 'the local socket goes with the server');
  });
});

test('`cairn serve` with no token on loopback says so and serves token-less; SIGINT stops it', { timeout: HANG_GUARD_MS }, async () => {
  assertBuilt();
  const dir = home();
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--quiet'], { env: childEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(out)), HANG_GUARD_MS);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+?) /.exec(out);
      if (m && out.includes('No API token')) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  const res = await call(url, 'POST', '/v1/namespaces/solo/memories', { body: { text: 'local use without a token' } });
  assert.equal(res.status, 201, res.text);
  assert.ok(!out.includes('"msg":"request"'), '--quiet keeps logs off stdout');
  child.kill('SIGINT');
  assert.equal(await exit, 0);
});
