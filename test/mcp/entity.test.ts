// entity_get and memory_search's entity argument over stdio (the real built CLI as the MCP server):
// what an agent sees of an entity, and arguments an agent can get wrong refused with a clear error.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { tempHomes } from '../helpers/cli.js';
import { seedKnowledge, type Seeded } from '../helpers/knowledge-seed.js';
import { callFails, callOk, stdioClient, type TestClient } from './helpers.js';

const newHome = tempHomes();

describe('MCP entity_get and memory_search entity (stdio)', () => {
  let mcp: TestClient;
  let seeded: Seeded;
  before(async () => {
    const home = newHome();
    seeded = await seedKnowledge(home);
    mcp = await stdioClient(home, 'default');
  });
  after(async () => mcp?.close());

  it('entity_get: by any name, with current facts, history and recent memories, as structure and text', async () => {
    const res = await callOk(mcp.client, 'entity_get', { entity: '  staging database ' });
    assert.equal(res.entity.id, 'e_staging');
    assert.equal(res.entity.promoted, false);
    assert.deepEqual(res.facts.map((f: { value: string }) => f.value), ['6543']);
    assert.deepEqual(res.history.map((f: { value: string; validTo: string }) => [f.value, f.validTo.slice(0, 10)]), [['5433', '2026-01-21']]);
    assert.deepEqual(res.memories.map((m: { id: string }) => m.id), [seeded.memories.newPort.id, seeded.memories.oldPort.id]);
    assert.match(res._text, /^staging database \(e_staging\) \[topic\] candidate/);
    assert.match(res._text, /Current facts:\n- staging database · port: 6543 \(since 2026-01-21/);
    assert.match(res._text, /History:\n- staging database · port: 5433 \(2026-01-07 → 2026-01-21/);
    const bob = await callOk(mcp.client, 'entity_get', { entity: '@bob' });
    assert.equal(bob.entity.relation, 'manager');
    assert.equal(bob.entity.promoted, true);
  });

  it('entity_get refuses what is not an entity: unknown, empty, oversized, control characters, extra fields', async () => {
    await callFails(mcp.client, 'entity_get', { entity: 'Nobody at all' }, /^NOT_FOUND: No entity "Nobody at all"/);
    await callFails(mcp.client, 'entity_get', { entity: '../../etc/passwd' }, /^NOT_FOUND: /);
    await callFails(mcp.client, 'entity_get', { entity: '   ' }, /entity/i);
    await callFails(mcp.client, 'entity_get', { entity: 'x'.repeat(201) }, /entity/i);
    await callFails(mcp.client, 'entity_get', { entity: 'bob\u001b[2J' }, /control character/);
    await callFails(mcp.client, 'entity_get', { entity: 'bob', namespace: 'other' }, /namespace|Unrecognized|unknown/i);
    await callFails(mcp.client, 'entity_get', {}, /entity/i);
  });

  it('memory_search takes an entity: an unknown one is NOT_FOUND, a hostile one is refused', async () => {
    const res = await callOk(mcp.client, 'memory_search', { query: 'port', entity: 'staging database' });
    assert.ok(res.results.every((r: { id: string }) => [seeded.memories.newPort.id, seeded.memories.oldPort.id].includes(r.id)), 'only memories about it');
    await callFails(mcp.client, 'memory_search', { query: 'port', entity: 'Nobody at all' }, /^NOT_FOUND: /);
    await callFails(mcp.client, 'memory_search', { query: 'port', entity: 'y'.repeat(201) }, /entity/i);
  });
});
