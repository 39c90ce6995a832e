// Store conformance, knowledge (issue 25): the knowledge pass's cursor and batches, entities with
// their stats, facts, memory retirements and what search sees of them (as-of, entity filter).
// Called from conformance.ts inside every backend's suite; talks to the store only through `Store`.
// Edits, reset, purge and rewrite are in conformance-knowledge-edits.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Fact, Memory, NewMemory } from '../../src/core/types.js';
import type { KnowledgeBatch, Store } from '../../src/store/store.js';
import { indexTerms } from '../helpers/index-terms.js';

export const NS = 'alpha';
export const OTHER = 'beta';
export const NOW = '2026-02-01T00:00:00.000Z';
const at = (day: number) => new Date(Date.parse('2026-01-01T12:00:00.000Z') + day * 86_400_000).toISOString();

export function batch(over: Partial<KnowledgeBatch> = {}): KnowledgeBatch {
  return {
    namespace: NS, expectCursor: 0, cursor: 0, entities: [], entityUpdates: [], aliases: [], mentions: [], memoryEntities: [], facts: [],
    factUpdates: [], retirements: [], now: NOW, ...over,
  };
}

export function fact(over: Partial<Fact> & Pick<Fact, 'id' | 'memoryId'>): Fact {
  return {
    namespace: NS, subject: 'staging database', subjectName: 'Staging database', entityId: null, attribute: 'port', value: '5433',
    validFrom: at(0), validTo: null, recordedAt: at(0), confidence: 0.9, supersededBy: null, mentions: 1, extractor: 'offline@1', provenance: [], ...over,
  };
}

export const entity = (id: string, name: string, over: Partial<KnowledgeBatch['entities'][number]> = {}) => ({
  id, name, slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'), type: 'person' as const, relation: null, ...over,
});

export async function remember(store: Store, text: string, over: Partial<NewMemory> = {}, now = at(0)): Promise<Memory> {
  return (await store.addMemory({ namespace: NS, text, ...over }, { now })).memory;
}

/** Applies a batch at the store's current cursor, moving it by one. */
export async function apply(store: Store, over: Partial<KnowledgeBatch>): Promise<void> {
  const ns = over.namespace ?? NS;
  const cursor = await store.knowledgeCursor(ns);
  const res = await store.applyKnowledge(batch({ namespace: ns, expectCursor: cursor, cursor: cursor + 1, ...over }));
  assert.equal(res.applied, true);
}

async function refIds(store: Store, ns: string, seqs: readonly number[]): Promise<string[]> {
  return (await store.getEntries(ns, seqs)).map((e) => e.refId).sort();
}

export function knowledgeConformance(current: () => Store): void {
  describe('knowledge: cursor, batches, entities, facts', () => {
    it('the cursor starts at 0; memoriesAfter pages every memory of the namespace (superseded too) in seq order', async () => {
      const store = current();
      assert.equal(await store.knowledgeCursor(NS), 0);
      const a = await remember(store, 'first pelican note');
      await store.addMemory({ namespace: OTHER, text: 'another namespace' });
      const b = (await store.supersedeMemory(NS, a.id, { namespace: NS, text: 'second pelican note' })).current;
      const all = await store.memoriesAfter(NS, 0, 10);
      assert.deepEqual(all.map((s) => s.memory.id), [a.id, b.id]);
      assert.ok(all[0]!.seq < all[1]!.seq);
      assert.equal(all[0]!.memory.validTo !== null, true);
      assert.deepEqual((await store.memoriesAfter(NS, all[0]!.seq, 10)).map((s) => s.memory.id), [b.id]);
      assert.deepEqual((await store.memoriesAfter(NS, 0, 1)).map((s) => s.memory.id), [a.id]);
      assert.deepEqual(await store.memoriesAfter('nobody', 0, 10), []);
    });

    it('applyKnowledge writes entities, aliases, mentions and names, and moves the cursor; a stale cursor writes nothing', async () => {
      const store = current();
      const m1 = await remember(store, 'Ana reviewed the walrus release', { importance: 7, eventTime: at(2) });
      const m2 = await remember(store, 'Ana prefers tea', {}, at(5));
      const res = await store.applyKnowledge(batch({
        cursor: 2, entities: [entity('e_ana', 'Ana Souza', { relation: 'manager' })],
        aliases: [{ key: 'ana', entityId: 'e_ana', display: 'Ana' }, { key: 'ana souza', entityId: 'e_ana', display: 'Ana Souza' }],
        mentions: [{ entityId: 'e_ana', memoryId: m1.id }, { entityId: 'e_ana', memoryId: m2.id }, { entityId: 'e_ana', memoryId: m2.id }],
        memoryEntities: [{ memoryId: m1.id, entities: ['Ana Souza', 'Ana Souza'] }],
      }));
      assert.deepEqual(res, { applied: true, cursor: 2 });
      assert.equal(await store.knowledgeCursor(NS), 2);
      const [ana] = await store.listEntities(NS);
      assert.deepEqual(ana!.entity, {
        id: 'e_ana', namespace: NS, name: 'Ana Souza', slug: 'ana-souza', type: 'person', aliases: ['Ana Souza', 'Ana'], relation: 'manager',
        locked: false, createdAt: NOW, updatedAt: NOW,
      });
      assert.deepEqual(ana!.stats, { mentions: 2, memories: 2, firstSeen: at(2), lastSeen: at(5), maxImportance: 7 });
      assert.deepEqual((await store.getMemory(NS, m1.id))!.entities, ['Ana Souza']);
      const hits = await store.keywordSearch(NS, indexTerms(['souza']), 10);
      assert.deepEqual(await refIds(store, NS, hits.map((h) => h.seq)), [m1.id], 'the name is in the memory\'s index entry');

      const stale = await store.applyKnowledge(batch({ expectCursor: 0, cursor: 9, entities: [entity('e_late', 'Late Larry')] }));
      assert.deepEqual(stale, { applied: false, cursor: 2 });
      assert.equal((await store.listEntities(NS)).length, 1);
      assert.equal(await store.knowledgeCursor(NS), 2);
    });

    it('an alias key keeps the entity it names first; entitiesByAliasKeys answers known keys only', async () => {
      const store = current();
      await apply(store, {
        entities: [entity('e_a', 'Ana'), entity('e_b', 'Bruno')],
        aliases: [{ key: 'ana', entityId: 'e_a', display: 'Ana' }, { key: 'ana', entityId: 'e_b', display: 'ana?' }, { key: 'bruno', entityId: 'e_b', display: 'Bruno' }],
      });
      const found = await store.entitiesByAliasKeys(NS, ['ana', 'bruno', 'carla', 'ana']);
      assert.deepEqual([...found.keys()].sort(), ['ana', 'bruno']);
      assert.equal(found.get('ana')!.id, 'e_a');
      assert.deepEqual(found.get('ana')!.aliases, ['Ana']);
      assert.equal((await store.entitiesByAliasKeys(OTHER, ['ana'])).size, 0);
      assert.equal((await store.entitiesByAliasKeys(NS, [])).size, 0);
    });

    it('entitiesByAliasPrefix: entities with an alias key starting with the prefix, each once, by type, at most limit', async () => {
      const store = current();
      await apply(store, {
        entities: [entity('e_a', 'Ana Souza'), entity('e_n', 'Anastasia'), entity('e_b', 'Bruno'), entity('e_w', 'Anaconda', { type: 'project' }), entity('e_p', 'an%_x')],
        aliases: [
          { key: 'ana souza', entityId: 'e_a', display: 'Ana Souza' }, { key: 'ana', entityId: 'e_a', display: 'Ana' },
          { key: 'anastasia', entityId: 'e_n', display: 'Anastasia' }, { key: 'bruno', entityId: 'e_b', display: 'Bruno' },
          { key: 'anaconda', entityId: 'e_w', display: 'Anaconda' }, { key: 'an%_x', entityId: 'e_p', display: 'an%_x' },
        ],
      });
      const ids = async (prefix: string, options: { type?: 'person'; limit: number }) => (await store.entitiesByAliasPrefix(NS, prefix, options)).map((e) => e.id).sort();
      assert.deepEqual(await ids('ana', { limit: 10 }), ['e_a', 'e_n', 'e_w'], 'Ana Souza once, though two of its keys match');
      assert.deepEqual(await ids('ana', { type: 'person', limit: 10 }), ['e_a', 'e_n']);
      assert.deepEqual(await store.entitiesByAliasPrefix(NS, 'ana s', { limit: 10 }), [{ id: 'e_a', name: 'Ana Souza', type: 'person', slug: 'ana-souza', relation: null }]);
      assert.equal((await store.entitiesByAliasPrefix(NS, 'ana', { limit: 2 })).length, 2);
      assert.deepEqual(await ids('ana', { limit: 0 }), []);
      assert.deepEqual(await ids('ana', { limit: Number.NaN }), []);
      assert.deepEqual(await ids('ana', { limit: -3 }), []);
      assert.deepEqual(await ids('ana', { limit: Number.POSITIVE_INFINITY }), ['e_a', 'e_n', 'e_w']);
      assert.deepEqual(await ids('an%', { limit: 10 }), ['e_p'], 'a pattern character is a character');
      assert.deepEqual(await ids('_', { limit: 10 }), []);
      assert.deepEqual(await ids('carla', { limit: 10 }), []);
      assert.deepEqual(await ids('', { limit: 10 }), ['e_a', 'e_b', 'e_n', 'e_p', 'e_w'], 'an empty prefix starts every key');
      assert.deepEqual(await ids('a'.repeat(10_000), { limit: 10 }), []);
      assert.deepEqual(await ids("ana' OR 1=1 --\u0000\u{10FFFF}", { limit: 10 }), []);
      assert.deepEqual((await store.entitiesByAliasPrefix(OTHER, 'ana', { limit: 10 })), []);
    });

    it('entity updates learn a longer name and a relation, but never rename a locked entity', async () => {
      const store = current();
      await apply(store, { entities: [entity('e_a', 'Ana'), entity('e_b', 'Bruno')] });
      await store.editEntities({ namespace: NS, update: [{ id: 'e_b', name: 'Bruno M.', slug: 'bruno-m', locked: true }], now: NOW });
      await apply(store, {
        now: at(40),
        entityUpdates: [{ id: 'e_a', name: 'Ana Souza', slug: 'ana-souza', relation: 'sister' }, { id: 'e_b', name: 'Bruno Mars', slug: 'bruno-mars', relation: 'client' }],
      });
      const a = (await store.getEntity(NS, 'e_a'))!.entity;
      assert.deepEqual([a.name, a.slug, a.relation, a.updatedAt], ['Ana Souza', 'ana-souza', 'sister', at(40)]);
      const b = (await store.getEntity(NS, 'bruno-m'))!.entity;
      assert.deepEqual([b.name, b.slug, b.relation, b.locked], ['Bruno M.', 'bruno-m', 'client', true]);
      await apply(store, { entityUpdates: [{ id: 'e_a', relation: null }] });
      assert.equal((await store.getEntity(NS, 'ana-souza'))!.entity.relation, null);
      assert.equal(await store.getEntity(NS, 'nobody'), null);
      assert.equal(await store.getEntity(OTHER, 'e_a'), null);
    });

    it('listEntities orders by mentions then name, and filters by type, prefix, minimum mentions, limit and offset', async () => {
      const store = current();
      const m = await Promise.all(['one', 'two', 'three'].map((w) => remember(store, `note ${w}`)));
      await remember(store, 'note one'); // a re-mention: the memory now counts 2
      await apply(store, {
        entities: [entity('e_z', 'Zed'), entity('e_y', 'Yara'), entity('e_w', 'Walrus', { type: 'project' }), entity('e_p', '100%_sure')],
        aliases: [{ key: 'yaya', entityId: 'e_y', display: 'Yaya' }],
        mentions: [{ entityId: 'e_z', memoryId: m[0]!.id }, { entityId: 'e_y', memoryId: m[1]!.id }, { entityId: 'e_y', memoryId: m[2]!.id }, { entityId: 'e_w', memoryId: m[2]!.id }],
      });
      const names = async (f?: Parameters<Store['listEntities']>[1]) => (await store.listEntities(NS, f)).map((e) => e.entity.name);
      assert.deepEqual(await names(), ['Yara', 'Zed', 'Walrus', '100%_sure']);
      assert.deepEqual((await store.listEntities(NS)).map((e) => e.stats.mentions), [2, 2, 1, 0]);
      assert.deepEqual(await names({ type: 'project' }), ['Walrus']);
      assert.deepEqual(await names({ prefix: 'ya' }), ['Yara'], 'by an alias key or the name');
      assert.deepEqual(await names({ prefix: '100%' }), ['100%_sure']);
      assert.deepEqual(await names({ prefix: '%' }), [], 'a wildcard is a character');
      assert.deepEqual(await names({ minMentions: 2 }), ['Yara', 'Zed']);
      assert.deepEqual(await names({ limit: 2, offset: 1 }), ['Zed', 'Walrus']);
      const lonely = (await store.getEntity(NS, 'e_p'))!.stats;
      assert.deepEqual(lonely, { mentions: 0, memories: 0, firstSeen: NOW, lastSeen: NOW, maxImportance: 0 });
    });

    it('entityMemoryIds: the memories naming any of the entities, newest first, current only unless asked', async () => {
      const store = current();
      const a = await remember(store, 'staging on 5433', {}, at(1));
      const b = await remember(store, 'Ana owns staging', {}, at(2));
      const c = await remember(store, 'Ana likes tea', {}, at(3));
      await apply(store, {
        entities: [entity('e_s', 'Staging', { type: 'project' }), entity('e_a', 'Ana')],
        mentions: [{ entityId: 'e_s', memoryId: a.id }, { entityId: 'e_s', memoryId: b.id }, { entityId: 'e_a', memoryId: b.id }, { entityId: 'e_a', memoryId: c.id }],
      });
      assert.deepEqual(await store.entityMemoryIds(NS, ['e_s', 'e_a'], 10), [c.id, b.id, a.id]);
      assert.deepEqual(await store.entityMemoryIds(NS, ['e_s'], 1), [b.id]);
      await apply(store, { retirements: [{ memoryId: a.id, by: b.id, validTo: at(4), reason: 'superseded' }] });
      assert.deepEqual(await store.entityMemoryIds(NS, ['e_s'], 10), [b.id]);
      assert.deepEqual(await store.entityMemoryIds(NS, ['e_s'], 10, { includeSuperseded: true }), [b.id, a.id]);
      assert.deepEqual(await store.entityMemoryIds(OTHER, ['e_s'], 10), []);
      assert.deepEqual(await store.entityMemoryIds(NS, [], 10), []);
    });

    it('facts: stored as given, listed oldest valid time first, filtered; updates close, link, count and add provenance (capped)', async () => {
      const store = current();
      const m1 = await remember(store, 'staging runs on port 5433');
      const m2 = await remember(store, 'we moved staging to port 6543');
      await apply(store, { entities: [entity('e_s', 'Staging', { type: 'project' })] });
      const old = fact({ id: 'f_old', memoryId: m1.id, entityId: 'e_s', provenance: [{ source: 'cli', turnIds: ['t_1'] }] });
      const next = fact({ id: 'f_new', memoryId: m2.id, value: '6543', validFrom: at(14), recordedAt: at(14) });
      const other = fact({ id: 'f_role', memoryId: m2.id, subject: 'ana', subjectName: 'Ana', attribute: 'role', value: 'manager', validFrom: at(3) });
      await apply(store, { facts: [next, old, other] });
      assert.deepEqual(await store.listFacts(NS), [old, other, next]);
      assert.deepEqual(await store.listFacts(NS, { subject: 'staging database', attribute: 'port' }), [old, next]);
      assert.deepEqual(await store.listFacts(NS, { entityId: 'e_s' }), [old]);
      assert.deepEqual((await store.listFacts(NS, { memoryIds: [m2.id] })).map((f) => f.id), ['f_role', 'f_new']);
      assert.deepEqual(await store.listFacts(NS, { memoryIds: [] }), []);
      assert.deepEqual((await store.listFacts(NS, { limit: 1 })).map((f) => f.id), ['f_old']);

      const many = Array.from({ length: 30 }, (_, i) => ({ source: 'cli', line: i }));
      await apply(store, { factUpdates: [{ id: 'f_old', validTo: at(14), supersededBy: 'f_new' }, { id: 'f_new', mentionsDelta: 2, provenance: many }] });
      assert.deepEqual((await store.listFacts(NS)).map((f) => f.id), ['f_role', 'f_new']);
      const all = await store.listFacts(NS, { includeSuperseded: true });
      const closed = all.find((f) => f.id === 'f_old')!;
      assert.deepEqual([closed.validTo, closed.supersededBy, closed.mentions], [at(14), 'f_new', 1]);
      const bumped = all.find((f) => f.id === 'f_new')!;
      assert.equal(bumped.mentions, 3);
      assert.equal(bumped.provenance.length, 20);
      assert.deepEqual(bumped.provenance[0], { source: 'cli', line: 0 });
      await apply(store, { factUpdates: [{ id: 'f_old', validTo: null, supersededBy: null }] });
      assert.deepEqual((await store.listFacts(NS)).map((f) => f.id), ['f_old', 'f_role', 'f_new'], 'an update can reopen a fact');
    });

    it('a superseded memory and the turns it came from stop being current at its validTo; as-of search still finds them', async () => {
      const store = current();
      const { inserted } = await store.addTurns([
        { namespace: NS, sessionId: 's', messageId: '1', role: 'user', text: 'staging database port 5433', timestamp: at(0) },
        { namespace: NS, sessionId: 's', messageId: '2', role: 'user', text: 'unrelated port chatter', timestamp: at(0) },
      ]);
      const old = await remember(store, 'the staging database uses port 5433', { provenance: [{ turnIds: [inserted[0]!.id] }] });
      const now = await remember(store, 'the staging database uses port 6543', {}, at(14));
      await apply(store, { retirements: [{ memoryId: old.id, by: now.id, validTo: at(14), reason: 'superseded' }] });
      const retired = (await store.getMemory(NS, old.id))!;
      assert.deepEqual([retired.validTo, retired.supersededBy, retired.updatedAt], [at(14), now.id, NOW]);
      assert.deepEqual((await store.memoryHistory(NS, now.id)).map((m) => m.id), [old.id, now.id], 'the successor links back');
      const search = async (filter: Parameters<Store['keywordSearch']>[3]) => refIds(store, NS, (await store.keywordSearch(NS, indexTerms(['5433']), 10, filter)).map((h) => h.seq));
      assert.deepEqual(await search(undefined), []);
      assert.deepEqual(await search({ validAt: at(7) }), [old.id, inserted[0]!.id].sort());
      assert.deepEqual(await search({ validAt: at(14) }), [], 'not current at the moment it stopped');
      assert.deepEqual(await search({ validAt: at(20) }), []);
      assert.deepEqual(await search({ includeSuperseded: true }), [old.id, inserted[0]!.id].sort());
      const seqs = await store.filterEntries(NS, { validAt: at(7), kinds: ['turn'] }, 10);
      assert.deepEqual(await refIds(store, NS, seqs), [inserted[0]!.id, inserted[1]!.id].sort());
      const [turnEntry] = (await store.getEntries(NS, seqs)).filter((e) => e.refId === inserted[0]!.id);
      assert.deepEqual([turnEntry!.current, turnEntry!.validTo], [false, at(14)]);
      const [kept] = (await store.getEntries(NS, seqs)).filter((e) => e.refId === inserted[1]!.id);
      assert.deepEqual([kept!.current, kept!.validTo], [true, null]);

      // Retiring it again (already retired) changes nothing.
      await apply(store, { retirements: [{ memoryId: old.id, by: 'm_elsewhere', validTo: at(30), reason: 'superseded' }, { memoryId: now.id, by: now.id, validTo: at(30), reason: 'duplicate' }] });
      assert.deepEqual(await store.getMemory(NS, old.id), retired);
      assert.equal((await store.getMemory(NS, now.id))!.validTo, null);
    });

    it('a duplicate is retired into its survivor, which takes its mentions, provenance (capped) and importance; its turns stay current', async () => {
      const store = current();
      const { inserted } = await store.addTurns([{ namespace: NS, sessionId: 's', messageId: '1', role: 'user', text: 'I drink cortado coffee', timestamp: at(0) }]);
      const survivor = await remember(store, 'Ana drinks cortado', { importance: 4, provenance: Array.from({ length: 15 }, (_, i) => ({ line: i })) });
      const dup = await remember(store, 'Ana usually has a cortado', { importance: 8, tags: ['coffee'], provenance: [{ turnIds: [inserted[0]!.id] }, ...Array.from({ length: 9 }, (_, i) => ({ line: 100 + i }))] });
      await remember(store, 'Ana usually has a cortado'); // dup mentioned twice
      await apply(store, { retirements: [{ memoryId: dup.id, by: survivor.id, validTo: at(3), reason: 'duplicate' }] });
      const s = (await store.getMemory(NS, survivor.id))!;
      assert.equal(s.mentions, 3);
      assert.equal(s.importance, 8);
      assert.deepEqual(s.tags, ['coffee']);
      assert.equal(s.provenance.length, 20);
      assert.deepEqual(s.provenance[15], { turnIds: [inserted[0]!.id] });
      const d = (await store.getMemory(NS, dup.id))!;
      assert.deepEqual([d.validTo, d.supersededBy], [at(3), survivor.id]);
      assert.equal(s.supersedes, null, 'a duplicate is not a change');
      assert.deepEqual(await refIds(store, NS, (await store.keywordSearch(NS, indexTerms(['cortado']), 10)).map((h) => h.seq)), [inserted[0]!.id, survivor.id].sort());
    });

    it('the memoryIds entry filter keeps only those memories\' entries (an empty list keeps nothing)', async () => {
      const store = current();
      const a = await remember(store, 'walrus alpha');
      const b = await remember(store, 'walrus beta');
      await store.addTurns([{ namespace: NS, sessionId: 's', messageId: '1', role: 'user', text: 'walrus turn', timestamp: at(0) }]);
      const hits = await store.keywordSearch(NS, indexTerms(['walrus']), 10, { memoryIds: [a.id, 'm_missing'] });
      assert.deepEqual(await refIds(store, NS, hits.map((h) => h.seq)), [a.id]);
      assert.deepEqual(await store.keywordSearch(NS, indexTerms(['walrus']), 10, { memoryIds: [] }), []);
      assert.deepEqual(await refIds(store, NS, await store.filterEntries(NS, { memoryIds: [b.id] }, 10)), [b.id]);
      const many = [...Array.from({ length: 10_000 }, (_, i) => `m_${i}`), b.id];
      assert.deepEqual(await refIds(store, NS, await store.filterEntries(NS, { memoryIds: many }, 10)), [b.id]);
      assert.deepEqual(await store.filterEntries(OTHER, { memoryIds: [a.id] }, 10), []);
    });

    it('a manual supersede and an imported retired memory are found as of a moment before they stopped', async () => {
      const store = current();
      const a = await remember(store, 'pelican budget is 10k', {}, at(0));
      await store.supersedeMemory(NS, a.id, { namespace: NS, text: 'pelican budget is 20k' }, { now: at(10) });
      const imported: Memory = { ...a, id: 'm_imported', text: 'pelican headcount is 3', validTo: at(5), supersededBy: a.id };
      assert.equal(await store.importMemory(imported), 'imported');
      const asOf = async (day: number) => refIds(store, NS, (await store.keywordSearch(NS, indexTerms(['pelican']), 10, { validAt: at(day), kinds: ['memory'] })).map((h) => h.seq));
      const b = (await store.listMemories({ namespace: NS })).find((m) => m.text === 'pelican budget is 20k')!;
      assert.deepEqual(await asOf(3), [a.id, b.id, 'm_imported'].sort());
      assert.deepEqual(await asOf(7), [a.id, b.id].sort());
      assert.deepEqual(await asOf(12), [b.id]);
    });
  });
}
