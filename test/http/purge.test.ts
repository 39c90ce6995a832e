// POST/GET /v1/namespaces/:ns/purge (issue 30 item 5) on a loopback server: a token granted the
// namespace is needed even where token-less loopback access is open; another namespace's token is
// refused; a dry run, a literal, an id, the audit; the OpenAPI document describes both routes.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { Cairn } from '../../src/service/cairn.js';
import { NO_EMBEDDER, makeHome, removeHome } from '../helpers/cli.js';
import { loopbackServer, send } from '../helpers/http-loopback.js';
import { assertNowhereOnDisk } from '../helpers/secrets.js';

const cleanups: Array<() => void> = [];
after(() => {
  for (const c of cleanups) c();
});

const LITERAL = 'Osprey-9087-quarry';

async function harness(): Promise<{ home: string; cairn: Cairn; base: string; close: () => Promise<void> }> {
  const home = makeHome(NO_EMBEDDER);
  cleanups.push(() => removeHome(home));
  const cairn = await Cairn.open({ home });
  const server = await loopbackServer(cairn, true);
  return { home, cairn, base: server.base, close: async () => (await server.close(), await cairn.close()) };
}

describe('purge over HTTP', () => {
  it('needs a token even in open loopback mode, and nothing is purged without one', async () => {
    const h = await harness();
    try {
      const stored = await send(h.base, 'POST', '/v1/namespaces/alpha/memories', { text: `quarry code ${LITERAL}` });
      assert.equal(stored.status, 201, 'other routes are open on loopback without tokens');
      for (const [method, body] of [['POST', { text: LITERAL }], ['GET', undefined]] as const) {
        const res = await send(h.base, method, '/v1/namespaces/alpha/purge', body);
        assert.equal(res.status, 401, res.text);
        assert.equal(res.body.error.code, 'UNAUTHORIZED');
        assert.match(res.body.error.message, /needs a bearer token/);
      }
      assert.match((await h.cairn.get(stored.body.memory.id, 'alpha')).text, /Osprey/);
      assert.deepEqual(await h.cairn.purgeLog(), []);
    } finally {
      await h.close();
    }
  });

  it('a token of the namespace purges (dry run first) and reads the audit; another namespace\'s token is refused', async () => {
    const h = await harness();
    try {
      const alpha = (await h.cairn.createToken({ namespaces: ['alpha'] })).token;
      const beta = (await h.cairn.createToken({ namespaces: ['beta'] })).token;
      const stored = await send(h.base, 'POST', '/v1/namespaces/alpha/memories', { text: `quarry code ${LITERAL}` }, alpha);
      const other = await send(h.base, 'POST', '/v1/namespaces/alpha/memories', { text: 'the quarry opens at dawn' }, alpha);
      assert.equal((await send(h.base, 'POST', '/v1/namespaces/alpha/purge', { text: LITERAL }, beta)).status, 403);
      assert.equal((await send(h.base, 'GET', '/v1/namespaces/alpha/purge', undefined, beta)).status, 403);

      const dry = await send(h.base, 'POST', '/v1/namespaces/alpha/purge', { text: LITERAL, dryRun: true }, alpha);
      assert.equal(dry.status, 200, dry.text);
      assert.equal(dry.body.dryRun, true);
      // The literal reads as a name: the knowledge pass made it an entity, which the purge reaches too.
      assert.deepEqual(dry.body.rewritten, { memories: 1, entities: 1, entity_aliases: 1 });
      assert.match((await h.cairn.get(stored.body.memory.id, 'alpha')).text, /Osprey/);

      const done = await send(h.base, 'POST', '/v1/namespaces/alpha/purge', { text: LITERAL }, alpha);
      assert.equal(done.status, 200, done.text);
      assert.ok(!done.text.includes(LITERAL), 'the report never holds the removed text');
      const byId = await send(h.base, 'POST', '/v1/namespaces/alpha/purge', { ids: [other.body.memory.id] }, alpha);
      assert.deepEqual(byId.body.removed, [{ kind: 'memory', id: other.body.memory.id, namespace: 'alpha' }]);
      const missing = await send(h.base, 'POST', '/v1/namespaces/alpha/purge', { ids: [other.body.memory.id] }, alpha);
      assert.equal(missing.status, 404, missing.text);
      for (const bad of [{}, { text: 'abc' }, { text: LITERAL, secrets: true }, { secrets: true, namespace: 'beta' }, { ids: ['../etc'] }]) {
        const res = await send(h.base, 'POST', '/v1/namespaces/alpha/purge', bad, alpha);
        assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
      }

      const log = await send(h.base, 'GET', '/v1/namespaces/alpha/purge?limit=10', undefined, alpha);
      assert.equal(log.status, 200, log.text);
      assert.deepEqual(log.body.purges.map((p: { id: number; via: string }) => [p.id, p.via]), [[byId.body.auditId, 'http'], [done.body.auditId, 'http']]);
      assert.ok(!log.text.includes(LITERAL));
      const betaLog = await send(h.base, 'GET', '/v1/namespaces/beta/purge', undefined, beta);
      assert.deepEqual(betaLog.body.purges, [], 'a namespace sees only its own purges');
    } finally {
      await h.close();
    }
    assertNowhereOnDisk(h.home, LITERAL);
  });

  it('the OpenAPI document describes the purge routes, their body and their token need', async () => {
    const h = await harness();
    try {
      const doc = (await send(h.base, 'GET', '/openapi.json')).body;
      const post = doc.paths['/v1/namespaces/{ns}/purge'].post;
      const get = doc.paths['/v1/namespaces/{ns}/purge'].get;
      assert.deepEqual([post.tags, get.tags], [['purge'], ['purge']]);
      assert.match(post.description, /even on loopback/);
      const body = post.requestBody.content['application/json'].schema;
      assert.deepEqual(Object.keys(body.properties).sort(), ['dryRun', 'ids', 'secrets', 'text']);
      assert.equal(post.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/PurgeReport');
      assert.ok(post.responses['401'] && post.responses['403'] && post.responses['404']);
      assert.ok(doc.components.schemas.PurgeLog);
    } finally {
      await h.close();
    }
  });
});
