// The REST knowledge routes on a loopback server: entities listed, shown, merged, renamed and split,
// facts by subject and time; every route validated, authorised and documented like the others.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { loopbackServer, send } from '../helpers/http-loopback.js';
import { seedKnowledge, type Seeded } from '../helpers/knowledge-seed.js';
import { tempDir } from '../helpers/store-fixtures.js';

const NS = '/v1/namespaces/default';

describe('REST knowledge routes', () => {
  const tmp = tempDir('cairn-http-knowledge-');
  let cairn: Cairn;
  let server: Awaited<ReturnType<typeof loopbackServer>>;
  let seeded: Seeded;
  before(async () => {
    const home = join(tmp.dir, 'home');
    const { writeFileSync, mkdirSync } = await import('node:fs');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.json'), JSON.stringify({ embedder: { provider: 'none' } }));
    seeded = await seedKnowledge(home);
    cairn = await Cairn.open({ home, embedder: null });
    server = await loopbackServer(cairn);
  });
  after(async () => {
    await server?.close();
    await cairn?.close();
    tmp.cleanup();
  });

  it('GET entities: filters by type, promotion and name; GET one by a URL-encoded name', async () => {
    const all = await send(server.base, 'GET', `${NS}/entities`);
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.entities.map((e: { slug: string }) => e.slug), ['ana-souza', 'cairn', 'staging-database', 'bob']);
    const people = await send(server.base, 'GET', `${NS}/entities?type=person&promoted=true&limit=1`);
    assert.deepEqual(people.body.entities.map((e: { slug: string }) => e.slug), ['ana-souza']);
    assert.deepEqual((await send(server.base, 'GET', `${NS}/entities?q=stag`)).body.entities.map((e: { id: string }) => e.id), ['e_staging']);
    const one = await send(server.base, 'GET', `${NS}/entities/${encodeURIComponent('Ana Lima')}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.entity.id, 'e_ana');
    assert.deepEqual(one.body.facts.map((f: { id: string }) => f.id), ['f_lisbon']);
    assert.equal((await send(server.base, 'GET', `${NS}/entities/nobody`)).status, 404);
    assert.equal((await send(server.base, 'GET', '/v1/namespaces/other/entities/e_ana')).status, 404, 'another namespace does not see it');
  });

  it('GET facts: current by default, the history with includeSuperseded', async () => {
    const current = await send(server.base, 'GET', `${NS}/facts?subject=${encodeURIComponent('the staging database')}`);
    assert.deepEqual(current.body.facts.map((f: { value: string }) => f.value), ['6543']);
    const all = await send(server.base, 'GET', `${NS}/facts?subject=staging%20database&attribute=port&includeSuperseded=true`);
    assert.deepEqual(all.body.facts.map((f: { value: string; validTo: string | null }) => [f.value, f.validTo !== null]), [['5433', true], ['6543', false]]);
    assert.equal((await send(server.base, 'GET', `${NS}/facts?entity=nobody`)).status, 404);
  });

  it('POST split, rename and merge fix the entities; conflicts are 409', async () => {
    const split = await send(server.base, 'POST', `${NS}/entities/ana/split`, { aliases: ['Ana Lima'], type: 'person' });
    assert.equal(split.status, 200, split.text);
    assert.deepEqual(split.body.moved, [seeded.memories.lima.id]);
    const renamed = await send(server.base, 'POST', `${NS}/entities/ana-lima/rename`, { name: 'Ana Lima Costa' });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.entity.entity.slug, 'ana-lima-costa');
    assert.equal((await send(server.base, 'POST', `${NS}/entities/bob/merge`, { into: 'Bob' })).status, 409);
    assert.equal((await send(server.base, 'POST', `${NS}/entities/bob/rename`, { name: 'Ana' })).status, 409);
    const merged = await send(server.base, 'POST', `${NS}/entities/ana-lima-costa/merge`, { into: 'e_bob' });
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.removed.name, 'Ana Lima Costa');
    assert.equal((await send(server.base, 'GET', `${NS}/entities/${encodeURIComponent('Ana Lima')}`)).body.entity.id, 'e_bob');
  });

  it('bad input is 400 (or 404/415) with the issue, never a 500: empty, oversized, hostile, unknown fields', async () => {
    const cases: Array<[string, string, unknown, number]> = [
      ['GET', `${NS}/entities?type=alien`, undefined, 400],
      ['GET', `${NS}/entities?limit=0`, undefined, 400],
      ['GET', `${NS}/entities?promoted=maybe`, undefined, 400],
      ['GET', `${NS}/entities?q=${'a'.repeat(201)}`, undefined, 400],
      ['GET', `${NS}/entities?color=red`, undefined, 400],
      ['GET', `${NS}/entities/${'x'.repeat(201)}`, undefined, 400],
      ['GET', `${NS}/entities/bob%1b%5b2J`, undefined, 400],
      ['GET', `${NS}/entities/%20%20`, undefined, 400],
      ['GET', `${NS}/entities/${encodeURIComponent("'; DROP TABLE entities; --")}`, undefined, 404],
      ['GET', `${NS}/facts?includeSuperseded=yes`, undefined, 400],
      ['POST', `${NS}/entities/bob/rename`, { name: '' }, 400],
      ['POST', `${NS}/entities/bob/rename`, { name: 'n'.repeat(10_000) }, 400],
      ['POST', `${NS}/entities/bob/rename`, { name: 'Robert', extra: 1 }, 400],
      ['POST', `${NS}/entities/bob/rename`, { name: 42 }, 400],
      ['POST', `${NS}/entities/bob/rename`, ['Robert'], 400],
      ['POST', `${NS}/entities/bob/split`, { aliases: [] }, 400],
      ['POST', `${NS}/entities/bob/split`, { aliases: ['Topher'] }, 400],
      ['POST', `${NS}/entities/cairn/split`, { aliases: ['Cairn'] }, 409],
      ['POST', `${NS}/entities/bob/merge`, {}, 400],
      ['POST', `${NS}/entities/nobody/merge`, { into: 'bob' }, 404],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await send(server.base, method, path, body);
      assert.equal(res.status, status, `${method} ${path.slice(0, 80)}: ${res.text.slice(0, 300)}`);
      assert.ok(res.body?.error?.code, 'a JSON error with a code');
    }
    const raw = await fetch(`${server.base}${NS}/entities/bob/rename`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' });
    assert.equal(raw.status, 400);
    const text = await fetch(`${server.base}${NS}/entities/bob/rename`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'Robert' });
    assert.equal(text.status, 415);
    assert.equal((await send(server.base, 'GET', `${NS}/entities/bob`)).body.entity.name, 'Bob', 'nothing changed');
    assert.equal((await send(server.base, 'GET', `${NS}/entities/cairn`)).body.entity.aliases.length, 1);
  });

  it('every knowledge route is in the OpenAPI document, with its response schema', async () => {
    const doc = (await send(server.base, 'GET', '/openapi.json')).body;
    const expected: Array<[string, string]> = [
      ['get', '/v1/namespaces/{ns}/entities'], ['get', '/v1/namespaces/{ns}/entities/{id}'], ['post', '/v1/namespaces/{ns}/entities/{id}/merge'],
      ['post', '/v1/namespaces/{ns}/entities/{id}/rename'], ['post', '/v1/namespaces/{ns}/entities/{id}/split'], ['get', '/v1/namespaces/{ns}/facts'],
    ];
    for (const [method, path] of expected) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path}`);
      const ref: string = Object.values(op.responses as Record<string, { content?: { 'application/json': { schema: { $ref?: string } } } }>)[0]!.content!['application/json'].schema.$ref!;
      assert.ok(doc.components.schemas[ref.split('/').pop()!], `${ref} is defined`);
    }
  });
});
