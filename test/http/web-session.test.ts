// The web UI's server side on a loopback server with tokens: the shell and login form, the
// session cookie accepted like the Authorization header (same grants), the CSRF proof on every
// state-changing cookie request, login rate limiting, and the REST routes the UI added
// (GET /v1/namespaces, PUT …/memories/:id/tags).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Cairn } from '../../src/service/cairn.js';
import { loopbackServer, send } from '../helpers/http-loopback.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { GITHUB_TOKEN } from '../helpers/secrets.js';
import { WEB_PATHS } from '../../src/interfaces/web/index.js';

describe('web UI session and routes', () => {
  const tmp = tempDir('cairn-web-session-');
  let cairn: Cairn;
  let server: Awaited<ReturnType<typeof loopbackServer>>;
  let work: string;
  let all: string;
  let memoryId: string;
  before(async () => {
    const home = join(tmp.dir, 'home');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.json'), JSON.stringify({ embedder: { provider: 'none' } }));
    cairn = await Cairn.open({ home, embedder: null });
    memoryId = (await cairn.remember({ namespace: 'work', text: 'The staging database listens on port 5433', tags: ['db'] })).memory.id;
    await cairn.remember({ namespace: 'private', text: 'A private note' });
    work = (await cairn.createToken({ namespaces: ['work'] })).token;
    all = (await cairn.createToken({ namespaces: ['*'] })).token;
    server = await loopbackServer(cairn, false);
  });
  after(async () => {
    await server?.close();
    await cairn?.close();
    tmp.cleanup();
  });

  const cookie = (token: string) => ({ cookie: `cairn_session=${token}` });
  async function csrfOf(token: string): Promise<string> {
    const res = await fetch(`${server.base}/`, { headers: cookie(token) });
    assert.equal(res.status, 200);
    const m = /name="cairn-csrf" content="([^"]+)"/.exec(await res.text());
    assert.ok(m, 'the shell carries the CSRF token');
    return m[1]!;
  }

  it('every shell path asks for a login without a session, and carries a strict CSP', async () => {
    for (const path of WEB_PATHS) {
      const res = await fetch(server.base + path.replace(':id', 'm_x'), { redirect: 'manual' });
      assert.equal(res.status, 302, path);
      assert.match(res.headers.get('location')!, /^\/login\?next=/);
      const csp = res.headers.get('content-security-policy') ?? '';
      for (const d of ["default-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'", "script-src 'self'"]) assert.ok(csp.includes(d), `${path}: ${d}`);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    }
    const login = await fetch(`${server.base}/login?next=${encodeURIComponent('//evil.example/x')}`);
    assert.equal(login.status, 200);
    const body = await login.text();
    assert.match(body, /name="next" value="\/"/, 'a next that leaves the site is replaced by /');
    assert.ok(login.headers.get('content-security-policy'));
  });

  it('logs in with a valid token only, sets an HttpOnly SameSite=Strict cookie, and logs out', async () => {
    const form = (token: string, next = '/memory/m_abc?ns=work') => new URLSearchParams({ token, next });
    const wrong = await fetch(`${server.base}/login`, { method: 'POST', body: form('cairn_wrong'), headers: { origin: server.base }, redirect: 'manual' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('set-cookie'), null);
    assert.match(await wrong.text(), /not valid/);
    const hostile = await fetch(`${server.base}/login`, { method: 'POST', body: form('"><script>alert(1)</script>', '/"><script>'), headers: { origin: server.base }, redirect: 'manual' });
    assert.equal(hostile.status, 401);
    assert.doesNotMatch(await hostile.text(), /<script>/, 'nothing sent is echoed unescaped');
    const foreign = await fetch(`${server.base}/login`, { method: 'POST', body: form(work), headers: { origin: 'http://evil.example' }, redirect: 'manual' });
    assert.equal(foreign.status, 403, 'a login form posted from another site is refused');
    const ok = await fetch(`${server.base}/login`, { method: 'POST', body: form(work), headers: { origin: server.base }, redirect: 'manual' });
    assert.equal(ok.status, 303);
    assert.equal(ok.headers.get('location'), '/memory/m_abc?ns=work');
    const set = ok.headers.get('set-cookie')!;
    assert.match(set, /^cairn_session=/);
    assert.match(set, /HttpOnly/);
    assert.match(set, /SameSite=Strict/);
    assert.doesNotMatch(set, /Secure/, 'plain http on loopback: no Secure flag');
    const out = await fetch(`${server.base}/logout`, { method: 'POST', headers: { ...cookie(work), origin: server.base }, redirect: 'manual' });
    assert.equal(out.status, 303);
    assert.match(out.headers.get('set-cookie')!, /Max-Age=0/);
  });

  it('the cookie is checked like the header: grants per namespace, revoked or malformed → 401', async () => {
    assert.equal((await fetch(`${server.base}/v1/namespaces/work/memories/${memoryId}`, { headers: cookie(work) })).status, 200);
    const other = await fetch(`${server.base}/v1/namespaces/private/memories`, { headers: cookie(work) });
    assert.equal(other.status, 403);
    assert.equal((await fetch(`${server.base}/v1/namespaces/work/memories`, { headers: cookie('cairn_nope') })).status, 401);
    assert.equal((await fetch(`${server.base}/v1/namespaces/work/memories`, { headers: cookie('bad token;') })).status, 401);
    const shell = await fetch(`${server.base}/`, { headers: cookie('cairn_nope'), redirect: 'manual' });
    assert.equal(shell.status, 302, 'a stale cookie sends the page to the login form');
    assert.match(shell.headers.get('set-cookie') ?? '', /Max-Age=0/, 'and clears it');
  });

  it('GET /v1/namespaces lists only the granted namespaces', async () => {
    assert.deepEqual((await send(server.base, 'GET', '/v1/namespaces', undefined, work)).body, { namespaces: ['work'] });
    assert.deepEqual((await send(server.base, 'GET', '/v1/namespaces', undefined, all)).body, { namespaces: ['private', 'work'] });
    assert.equal((await send(server.base, 'GET', '/v1/namespaces')).status, 401);
  });

  it('a state-changing cookie request needs the CSRF token and this server as Origin', async () => {
    const csrf = await csrfOf(work);
    const path = `${server.base}/v1/namespaces/work/memories/${memoryId}/feedback`;
    const post = (headers: Record<string, string>) => fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...cookie(work), ...headers }, body: '{"important":true}' });
    assert.equal((await post({ origin: server.base })).status, 403, 'no CSRF token');
    assert.equal((await post({ origin: server.base, 'x-cairn-csrf': csrf.slice(0, -2) + 'xx' })).status, 403, 'wrong CSRF token');
    assert.equal((await post({ origin: 'http://evil.example', 'x-cairn-csrf': csrf })).status, 403, 'foreign Origin');
    assert.equal((await post({ 'x-cairn-csrf': csrf })).status, 403, 'no Origin');
    assert.equal((await post({ origin: server.base, 'x-cairn-csrf': await csrfOf(all) })).status, 403, "another session's token");
    assert.equal((await cairn.get(memoryId, 'work')).importance < 8, true, 'nothing changed yet');
    const ok = await post({ origin: server.base, 'x-cairn-csrf': csrf });
    assert.equal(ok.status, 200);
    assert.equal((await cairn.get(memoryId, 'work')).importance, 8);
    // The bearer header needs no CSRF proof: a browser never adds it on its own.
    assert.equal((await send(server.base, 'POST', `/v1/namespaces/work/memories/${memoryId}/feedback`, { important: false }, work)).status, 200);
  });

  it('PUT tags replaces a current memory\'s tags, validated; superseded → 409, other namespace → 403', async () => {
    const path = `/v1/namespaces/work/memories/${memoryId}/tags`;
    const res = await send(server.base, 'PUT', path, { tags: ['db', 'staging', 'db', ' ports\u0007 '] }, work);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.tags, ['db', 'staging', 'ports']);
    assert.deepEqual((await cairn.get(memoryId, 'work')).tags, ['db', 'staging', 'ports']);
    for (const bad of [{}, { tags: 'db' }, { tags: [''] }, { tags: ['x'.repeat(65)] }, { tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }, { tags: [], extra: 1 }]) {
      assert.equal((await send(server.base, 'PUT', path, bad, work)).status, 400, JSON.stringify(bad).slice(0, 60));
    }
    const secret = await send(server.base, 'PUT', path, { tags: ['db', `key ${GITHUB_TOKEN}`] }, work);
    assert.equal(secret.status, 200);
    assert.doesNotMatch(JSON.stringify(secret.body.tags), new RegExp(GITHUB_TOKEN), 'a secret in a tag is redacted before it lands');
    assert.match(secret.body.tags[1], /REDACTED/);
    assert.equal((await send(server.base, 'PUT', '/v1/namespaces/private/memories/m_1/tags', { tags: [] }, work)).status, 403);
    assert.equal((await send(server.base, 'PUT', '/v1/namespaces/work/memories/m_missing0000000000000/tags', { tags: [] }, work)).status, 404);
    const sup = await send(server.base, 'POST', `/v1/namespaces/work/memories/${memoryId}/supersede`, { text: 'The staging database listens on port 6543' }, work);
    assert.equal(sup.status, 201);
    const late = await send(server.base, 'PUT', path, { tags: ['late'] }, work);
    assert.equal(late.status, 409);
    assert.match(late.body.error.message, /superseded/);
    const spec = (await send(server.base, 'GET', '/openapi.json')).body;
    assert.ok(spec.paths['/v1/namespaces/{ns}/memories/{id}/tags']?.put, 'documented in OpenAPI');
    assert.ok(spec.paths['/v1/namespaces']?.get, 'documented in OpenAPI');
  });

  it('rate-limits failed logins per client', async () => {
    const attempt = () => fetch(`${server.base}/login`, { method: 'POST', body: new URLSearchParams({ token: 'cairn_wrong' }), headers: { origin: server.base }, redirect: 'manual' });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await attempt()).status);
    assert.ok(statuses.includes(429), `statuses: ${statuses.join(',')}`);
    const limited = await attempt();
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    const right = await fetch(`${server.base}/login`, { method: 'POST', body: new URLSearchParams({ token: work }), headers: { origin: server.base }, redirect: 'manual' });
    assert.equal(right.status, 429, 'even a right token waits out the window');
  });
});
