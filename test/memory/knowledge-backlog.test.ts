// A home filled without the knowledge pass (Store.addMemories, an import, a crash mid-pass) has a
// backlog behind the pass's cursor. A remember takes in one page of it, not all of it (issue 29:
// minutes at 100k memories); the pages that follow make knowledge complete, and the result equals
// what one whole pass learns: nothing lost, nothing doubled. Names seen in an earlier page still
// resolve later through the alias key index the pass looks first names up by.
import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { Cairn } from '../../src/service/cairn.js';
import { LEARN_PER_STORE } from '../../src/service/cairn-knowledge.js';
import type { NewMemory } from '../../src/core/types.js';
import { tempDir } from '../helpers/store-fixtures.js';

const NS = 'work';
const PEOPLE = ['Ana Souza', 'Bruno Lima', 'Carla Reis', 'Anastasia Petrova'];

/** A backlog larger than one page: people, repeated statements and changing facts. */
function backlog(n: number): NewMemory[] {
  return Array.from({ length: n }, (_, i) => {
    const who = PEOPLE[i % PEOPLE.length]!;
    const text = i % 10 === 0 ? `${who} reviewed the quarterly budget draft` : `${who} fixed ticket ${1000 + i} in the billing service`;
    return { namespace: NS, text, importance: 5, eventTime: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString() };
  });
}

async function pending(cairn: Cairn): Promise<number> {
  return (await cairn.store.memoriesAfter(NS, await cairn.store.knowledgeCursor(NS), 1_000_000)).length;
}

/** What the knowledge of a namespace amounts to, ids left out (two homes mint their own). */
async function knowledgeOf(cairn: Cairn) {
  const entities = (await cairn.entities({ namespace: NS, limit: 1000 })).map((e) => `${e.type}:${e.name}:${e.stats.mentions}:${e.stats.memories}`).sort();
  const memories = (await cairn.list({ namespace: NS, limit: 10_000, includeSuperseded: true })).map((m) => `${m.text}|${m.validTo === null}|${m.mentions}|${[...m.entities].sort().join(',')}`).sort();
  return { entities, memories };
}

describe('knowledge backlog', () => {
  const homes: Array<{ cairn: Cairn; tmp: ReturnType<typeof tempDir> }> = [];
  async function home(): Promise<Cairn> {
    const tmp = tempDir();
    const cairn = await Cairn.open({ home: tmp.dir, embedder: null, namespace: NS });
    homes.push({ cairn, tmp });
    return cairn;
  }
  afterEach(async () => {
    for (const h of homes.splice(0)) {
      await h.cairn.close();
      h.tmp.cleanup();
    }
  });

  it('a remember takes in one page of the backlog; the rest follows and equals one whole pass', async () => {
    const size = LEARN_PER_STORE + 57;
    const paged = await home();
    await paged.store.addMemories(backlog(size));
    // Equal statements merged on the way in (re-mentions): what is behind the cursor is what was stored.
    const seeded = await pending(paged);
    assert.ok(seeded > LEARN_PER_STORE, `a backlog of ${seeded}`);

    const first = await paged.remember({ text: 'Ana Souza moved the staging database to port 6543' });
    assert.equal(await pending(paged), seeded + 1 - LEARN_PER_STORE, 'one page taken in, the rest (the new memory too) still behind the cursor');
    assert.equal(first.memory.text, 'Ana Souza moved the staging database to port 6543');
    assert.equal((await paged.get(first.memory.id)).validTo, null, 'stored and current before the pass reaches it');

    // The next remember takes the next page, which now reaches both new memories.
    await paged.remember({ text: 'Carla Reis booked the team offsite in Lisbon' });
    assert.equal(await pending(paged), 0);
    assert.equal((await paged.learn({ namespace: NS })).memories, 0, 'nothing left for a later pass');

    const whole = await home();
    await whole.store.addMemories(backlog(size));
    await whole.store.addMemories([{ namespace: NS, text: 'Ana Souza moved the staging database to port 6543' }, { namespace: NS, text: 'Carla Reis booked the team offsite in Lisbon' }]);
    assert.equal((await whole.learn({ namespace: NS })).memories, seeded + 2);

    const a = await knowledgeOf(paged);
    const b = await knowledgeOf(whole);
    assert.equal(a.memories.length, seeded + 2, 'nothing lost');
    assert.deepEqual(a.memories, b.memories);
    assert.deepEqual(a.entities, b.entities);
    assert.ok(a.entities.some((e) => e.startsWith('person:Ana Souza:')), `entities: ${a.entities.join('; ')}`);
  });

  it('a name resolves to the person of an earlier page, not to one who only shares its first letters', async () => {
    const cairn = await home();
    const texts = ['My sister Ana called about the trip', 'Anastasia Petrova joined the data team', 'Ana Souza booked the flights to Lisbon', '@ana sent the hotel confirmation'];
    await cairn.store.addMemories(texts.map((text) => ({ namespace: NS, text })));
    // One memory per page: each later one sees the earlier ones only through the store.
    for (const _ of texts) assert.equal((await cairn.learn({ namespace: NS, limit: 1 })).memories, 1);
    const persons = await cairn.store.listEntities(NS, { type: 'person', aliasPrefix: 'ana' });
    assert.deepEqual(persons.map((p) => p.entity.name).sort(), ['Ana Souza', 'Anastasia Petrova']);
    assert.deepEqual(persons.map((p) => p.entity.name).sort(), (await cairn.store.listEntities(NS, { type: 'person', prefix: 'ana' })).map((p) => p.entity.name).sort());
    const ana = persons.find((p) => p.entity.name === 'Ana Souza')!;
    assert.equal(ana.stats.memories, 3, 'Ana, Ana Souza and @ana are one person');
    assert.equal(ana.entity.relation, 'sister');
    assert.deepEqual(await cairn.store.listEntities(NS, { aliasPrefix: 'zz' }), []);
    // A prefix holding the characters LIKE would read as patterns means only them.
    assert.deepEqual(await cairn.store.listEntities(NS, { aliasPrefix: 'an%' }), []);
  });

  it('a first name shared by more stored persons than are compared resolves to the most mentioned of them', async () => {
    const cairn = await home();
    // 'Ana Souza' (mentioned) and 54 persons whose names start with the letters "ana", none named Ana;
    // Ana Souza's id sorts last, so an arbitrary 50 of the 55 would likely leave her out.
    const texts = ['Ana Souza booked the flights to Lisbon', 'Ana Souza renewed her passport', 'Ana Souza sent the hotel confirmation'];
    await cairn.store.addMemories(texts.map((text) => ({ namespace: NS, text })));
    const stored = await cairn.store.memoriesAfter(NS, 0, 10);
    const others = Array.from({ length: 54 }, (_, i) => {
      const name = `Ana${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))} Costa`;
      return { id: `e_a${String(i).padStart(3, '0')}`, name, slug: name.toLowerCase().replace(/ /g, '-'), type: 'person' as const, relation: null };
    });
    const ana = { id: 'e_zzz', name: 'Ana Souza', slug: 'ana-souza', type: 'person' as const, relation: null };
    const applied = await cairn.store.applyKnowledge({
      namespace: NS, expectCursor: 0, cursor: stored[stored.length - 1]!.seq, now: new Date().toISOString(),
      entities: [...others, ana],
      aliases: [...others, ana].map((e) => ({ key: e.name.toLowerCase(), entityId: e.id, display: e.name })),
      mentions: stored.map((m) => ({ entityId: ana.id, memoryId: m.memory.id })),
      entityUpdates: [], memoryEntities: [], facts: [], factUpdates: [], retirements: [],
    });
    assert.equal(applied.applied, true);
    assert.equal((await cairn.store.entitiesByAliasPrefix(NS, 'ana', { type: 'person', limit: 100 })).length, 55);
    const memory = (await cairn.remember({ text: 'Ana called about the trip' })).memory;
    await cairn.learn({ namespace: NS });
    assert.deepEqual((await cairn.get(memory.id))!.entities, ['Ana Souza']);
  });
});
