// Memories about the entities a query names (the entity boost), leaving out people who speak in
// the namespace: the speaker factor already prefers what they said. Speakers' names are keyed only
// when the query names a person at all: a chat namespace has thousands of speakers.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Cairn } from '../../src/service/cairn.js';
import { queryEntityMemories } from '../../src/search/search-knowledge.js';
import { aliasKey } from '../../src/memory/knowledge/entities/aliases.js';
import { seedKnowledge, SEED_NS, type Seeded } from '../helpers/knowledge-seed.js';
import { tempDir } from '../helpers/store-fixtures.js';

describe('queryEntityMemories', () => {
  const tmp = tempDir('cairn-entity-boost-');
  let cairn: Cairn;
  let seeded: Seeded;
  let calls = 0;
  const counted = (name: string) => {
    calls++;
    return aliasKey(name);
  };
  const speakers = (...names: string[]) => names.map((name) => ({ name, turns: 1 }));

  before(async () => {
    seeded = await seedKnowledge(tmp.dir);
    cairn = await Cairn.open({ home: tmp.dir, embedder: null });
  });
  after(async () => {
    await cairn.close();
    tmp.cleanup();
  });

  it('finds the memories about each entity the query names, by any alias', async () => {
    const got = await queryEntityMemories(cairn.store, SEED_NS, 'Where did Ana Souza move?', aliasKey, []);
    assert.deepEqual([...got].sort(), [seeded.memories.lisbon.id, seeded.memories.oldPort.id, seeded.memories.lima.id].sort());
    const project = await queryEntityMemories(cairn.store, SEED_NS, 'who reviewed the cairn plan', aliasKey, []);
    assert.deepEqual([...project].sort(), [seeded.memories.lima.id, seeded.memories.bob.id].sort());
  });

  it('leaves out a person who speaks in the namespace, keeps the other entities the query names', async () => {
    const got = await queryEntityMemories(cairn.store, SEED_NS, 'what did Ana say about Cairn', aliasKey, speakers('Ana', 'Maria'));
    assert.deepEqual([...got].sort(), [seeded.memories.lima.id, seeded.memories.bob.id].sort());
  });

  it('keys no speaker name when the query names no entity, however many speakers there are', async () => {
    const crowd = speakers(...Array.from({ length: 5_000 }, (_, i) => `Speaker ${i}`));
    calls = 0;
    const got = await queryEntityMemories(cairn.store, SEED_NS, 'what was the weather like on the trip', counted, crowd);
    assert.equal(got.size, 0);
    assert.ok(calls < 50, `only the query's runs of words were keyed (${calls} keys)`);
    calls = 0;
    await queryEntityMemories(cairn.store, SEED_NS, 'what did Bob say', counted, crowd);
    assert.ok(calls > 5_000, 'a person named: the speakers are keyed to tell them apart');
  });

  it('copes with empty and hostile queries', async () => {
    assert.equal((await queryEntityMemories(cairn.store, SEED_NS, '', aliasKey, [])).size, 0);
    assert.equal((await queryEntityMemories(cairn.store, SEED_NS, '"); DROP TABLE entities; -- Ana', aliasKey, [])).size, 3);
    assert.equal((await queryEntityMemories(cairn.store, SEED_NS, 'x '.repeat(50_000), aliasKey, [])).size, 0);
  });
});
