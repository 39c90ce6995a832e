// Three machines, one memory: three homes (three data directories, as on three hosts) whose config
// points at one PostgreSQL schema. A token created on one machine is honoured by `cairn serve` on
// another with exactly its namespace grants; what any machine stores, every grant holder finds;
// a namespace outside the grant stays a wall (403) whichever machine is asked. Real built CLI, real
// HTTP server on loopback, real PostgreSQL (test/helpers/postgres.ts).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cliJson, ok, runCli, tempHomes } from '../helpers/cli.js';
import { dropSchema, freshSchemaName, testDatabaseUrl } from '../helpers/postgres.js';
import { get, serve } from '../helpers/serve.js';

const home = tempHomes();
const schemas: Array<{ url: string; schema: string }> = [];
after(async () => {
  for (const s of schemas) await dropSchema(s.url, s.schema);
});

async function threeMachines(): Promise<[string, string, string]> {
  const url = await testDatabaseUrl();
  const schema = freshSchemaName();
  schemas.push({ url, schema });
  const config = { embedder: { provider: 'none' }, store: { backend: 'postgres', url, schema } };
  return [home(config), home(config), home(config)];
}

async function post(url: string, path: string, token: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(url + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

describe('one PostgreSQL store shared by three machines, through namespace grants', () => {
  test('a token made on machine A works on machine B for its namespace only; machine C\'s memories are found there', async () => {
    const [a, b, c] = await threeMachines();
    ok(await runCli(['-n', 'team', 'store', 'We chose Postgres for the shared memory of the team'], { home: c }));
    ok(await runCli(['-n', 'private', 'store', 'The private diary entry about the garden'], { home: c }));
    const created = await cliJson<{ token: string }>(['tokens', 'create', '--grant', 'team', '--json'], { home: a });
    const server = await serve(b);
    try {
      const found = await get(server.url, '/v1/namespaces/team/search?q=shared%20memory%20postgres', created.token);
      assert.equal(found.status, 200, found.text);
      assert.match(found.text, /We chose Postgres/);
      const walled = await get(server.url, '/v1/namespaces/private/search?q=garden', created.token);
      assert.equal(walled.status, 403, walled.text);
      assert.doesNotMatch(walled.text, /garden/);
      assert.equal((await get(server.url, '/v1/namespaces/team/memories')).status, 401, 'no token, no access, on any machine');
      // A write through machine B is seen by machine A's CLI at once (no per-process copy to refresh).
      const stored = await post(server.url, '/v1/namespaces/team/memories', created.token, { text: 'Release freeze starts on Thursday' });
      assert.equal(stored.status, 201, stored.text);
      const seen = await cliJson<{ results: Array<{ text: string }> }>(['-n', 'team', 'search', 'release freeze', '--json'], { home: a });
      assert.ok(seen.results.some((r) => /Release freeze/.test(r.text)), JSON.stringify(seen));
      // The same statement stored again through machine A is a re-mention, not a second memory.
      ok(await runCli(['-n', 'team', 'store', 'Release freeze starts on Thursday'], { home: a }));
      const listed = await get(server.url, '/v1/namespaces/team/memories', created.token);
      assert.equal((listed.text.match(/Release freeze starts on Thursday/g) ?? []).length, 1, listed.text);
    } finally {
      await server.stop();
    }
  });

  test('revoking the token on machine C ends its access through machine B\'s running server', async () => {
    const [a, b, c] = await threeMachines();
    ok(await runCli(['-n', 'team', 'store', 'The standup moved to ten'], { home: a }));
    const created = await cliJson<{ token: string; info: { id: string } }>(['tokens', 'create', '--grant', 'team', '--json'], { home: a });
    const server = await serve(b);
    try {
      assert.equal((await get(server.url, '/v1/namespaces/team/memories', created.token)).status, 200);
      ok(await runCli(['tokens', 'revoke', created.info.id], { home: c }));
      assert.equal((await get(server.url, '/v1/namespaces/team/memories', created.token)).status, 401);
    } finally {
      await server.stop();
    }
  });
});
