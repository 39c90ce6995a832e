// Store conformance, memories: add, dedup, supersede, history, export/import. Called from conformance.ts inside every backend's
// suite; talks to the store only through the `Store` interface.
import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { Memory } from '../../src/core/types.js';
import type { Store } from '../../src/store/store.js';
import { collect, rejectsCode } from '../helpers/store-fixtures.js';
import { indexTerms } from '../helpers/index-terms.js';
import { NS, OTHER, at, type ConformanceContext } from './conformance-fixtures.js';

export function memoryConformance(ctx: ConformanceContext): void {
  const { add, another } = ctx;
  describe('memories', () => {
    let store: Store;
    beforeEach(() => {
      store = ctx.store();
    });

    it('addMemory applies defaults and returns what getMemory returns', async () => {
      const { memory, duplicate } = await add('The deploy port is 8080', {}, at(0));
      assert.equal(duplicate, false);
      assert.match(memory.id, /^m_[A-Za-z0-9_-]+$/);
      assert.equal(memory.namespace, NS);
      assert.equal(memory.text, 'The deploy port is 8080');
      assert.equal(memory.category, 'note');
      assert.equal(memory.importance, 5);
      assert.deepEqual(memory.tags, []);
      assert.deepEqual(memory.entities, []);
      assert.deepEqual(memory.provenance, []);
      assert.equal(memory.eventTime, null);
      assert.equal(memory.createdAt, at(0));
      assert.equal(memory.updatedAt, at(0));
      assert.equal(memory.validFrom, at(0));
      assert.equal(memory.validTo, null);
      assert.equal(memory.supersededBy, null);
      assert.equal(memory.supersedes, null);
      assert.equal(memory.mentions, 1);
      assert.deepEqual(await store.getMemory(NS, memory.id), memory);
    });

    it('addMemory keeps category, importance, event time, tags and entities (deduplicated) and provenance', async () => {
      const provenance = [{ source: 'cli', sessionId: 'sess-1', messageId: 'msg-9', line: 12, turnIds: ['t_abc'] }];
      const { memory } = await add('Ana prefers dark mode', {
        category: 'preference',
        importance: 8,
        eventTime: '2025-12-24T08:00:00.000Z',
        tags: ['ui', 'ui', 'settings'],
        entities: ['Ana', 'Ana'],
        provenance,
      });
      assert.equal(memory.category, 'preference');
      assert.equal(memory.importance, 8);
      assert.equal(memory.eventTime, '2025-12-24T08:00:00.000Z');
      assert.deepEqual(memory.tags, ['ui', 'settings']);
      assert.deepEqual(memory.entities, ['Ana']);
      assert.deepEqual(memory.provenance, provenance);
      assert.deepEqual(await store.getMemory(NS, memory.id), memory);
    });

    it('addMemories adds in order with the same dedup rules, within the batch too', async () => {
      const existing = (await add('Coffee at nine', {}, at(0))).memory;
      const results = await store.addMemories(
        [
          { namespace: NS, text: 'First of the batch', tags: ['b'] },
          { namespace: NS, text: 'coffee at nine!', tags: ['x'] },
          { namespace: OTHER, text: 'First of the batch' },
          { namespace: NS, text: 'first of the batch.', importance: 9 },
        ],
        { now: at(1) },
      );
      assert.deepEqual(results.map((r) => r.duplicate), [false, true, false, true]);
      assert.equal(results[1]!.memory.id, existing.id);
      assert.equal(results[1]!.memory.mentions, 2);
      assert.equal(results[3]!.memory.id, results[0]!.memory.id);
      assert.equal(results[3]!.memory.mentions, 2);
      assert.equal(results[3]!.memory.importance, 9);
      assert.notEqual(results[2]!.memory.id, results[0]!.memory.id);
      assert.equal(results[0]!.memory.createdAt, at(1));
      assert.deepEqual(await store.getMemory(NS, results[0]!.memory.id), results[3]!.memory);
      assert.deepEqual((await store.listMemories({ namespace: NS })).map((m) => m.text).sort(), ['Coffee at nine', 'First of the batch']);
      assert.deepEqual(await store.addMemories([]), []);
    });

    it('ids are unique across many adds', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 20; i++) ids.add((await add(`fact number ${i}`, {}, at(0))).memory.id);
      for (const r of await store.addMemories(Array.from({ length: 30 }, (_, i) => ({ namespace: NS, text: `batch fact ${i}` })), { now: at(0) })) {
        ids.add(r.memory.id);
      }
      assert.equal(ids.size, 50);
    });

    it('exact dedup on normalised text: same id, mentions raised, tags and provenance merged', async () => {
      const first = await add('The deploy port is 8080.', { tags: ['infra'], importance: 4, provenance: [{ source: 'a' }] }, at(0));
      const again = await add('  the DEPLOY   port is\n8080!! ', { tags: ['ports', 'infra'], importance: 7, provenance: [{ source: 'b' }] }, at(1));
      assert.equal(again.duplicate, true);
      assert.equal(again.memory.id, first.memory.id);
      assert.equal(again.memory.mentions, 2);
      assert.deepEqual(again.memory.tags, ['infra', 'ports']);
      assert.equal(again.memory.importance, 7, 'a re-mention may raise importance, never lower it');
      assert.deepEqual(again.memory.provenance, [{ source: 'a' }, { source: 'b' }]);
      assert.equal(again.memory.text, 'The deploy port is 8080.', 'the first wording is kept');
      assert.equal(again.memory.updatedAt, at(1));
      assert.equal(again.memory.createdAt, at(0));
      const third = await add('the deploy port is 8080', { importance: 2 }, at(2));
      assert.equal(third.memory.id, first.memory.id);
      assert.equal(third.memory.mentions, 3);
      assert.equal(third.memory.importance, 7);
      assert.deepEqual(await store.getMemory(NS, first.memory.id), third.memory);
      assert.equal((await store.listMemories({ namespace: NS })).length, 1);
      // The merged tag is searchable.
      const hits = await store.keywordSearch(NS, indexTerms(['ports']), 10);
      assert.equal(hits.length, 1);
    });

    it('dedup does not cross namespaces, and different statements are not merged', async () => {
      const a = await add('Use tabs for indentation');
      const b = await store.addMemory({ namespace: OTHER, text: 'Use tabs for indentation' });
      const c = await add('Use tabs for indentation in Makefiles');
      assert.equal(b.duplicate, false);
      assert.equal(c.duplicate, false);
      assert.notEqual(a.memory.id, b.memory.id);
      assert.notEqual(a.memory.id, c.memory.id);
      assert.equal((await store.getMemory(NS, a.memory.id))!.mentions, 1);
    });

    it('namespaces are walls: getMemory from another namespace is null', async () => {
      const { memory } = await add('secret of alpha');
      assert.equal(await store.getMemory(OTHER, memory.id), null);
      assert.equal(await store.getMemory(NS, 'm_doesnotexist'), null);
      assert.deepEqual(await store.listMemories({ namespace: OTHER }), []);
      assert.deepEqual(await store.memoryHistory(OTHER, memory.id), []);
      await rejectsCode(store.supersedeMemory(OTHER, memory.id, { namespace: OTHER, text: 'stolen' }), 'NOT_FOUND');
      assert.equal((await store.getMemory(NS, memory.id))!.validTo, null);
    });

    it('listMemories: newest first, limit and offset', async () => {
      for (let i = 0; i < 5; i++) await add(`memory number ${i}`, {}, at(i));
      const all = await store.listMemories({ namespace: NS });
      assert.deepEqual(all.map((m) => m.text), [4, 3, 2, 1, 0].map((i) => `memory number ${i}`));
      const page = await store.listMemories({ namespace: NS, limit: 2, offset: 1 });
      assert.deepEqual(page.map((m) => m.text), ['memory number 3', 'memory number 2']);
      assert.deepEqual(await store.listMemories({ namespace: NS, limit: 2, offset: 10 }), []);
    });

    it('listMemories: categories and minImportance filters', async () => {
      await add('decided on postgres', { category: 'decision', importance: 8 });
      await add('found a memory leak', { category: 'discovery', importance: 6 });
      await add('likes green tea', { category: 'preference', importance: 3 });
      const texts = async (f: object) => (await store.listMemories({ namespace: NS, ...f })).map((m) => m.text).sort();
      assert.deepEqual(await texts({ categories: ['decision', 'preference'] }), ['decided on postgres', 'likes green tea']);
      assert.deepEqual(await texts({ minImportance: 6 }), ['decided on postgres', 'found a memory leak']);
      assert.deepEqual(await texts({ categories: ['discovery'], minImportance: 7 }), []);
      assert.deepEqual(await texts({ categories: [] }), ['decided on postgres', 'found a memory leak', 'likes green tea']);
    });

    it('listMemories: since/until are inclusive and use event time, else creation time', async () => {
      await add('created early', {}, at(0));
      await add('created late', {}, at(10));
      await add('happened long ago', { eventTime: at(-100) }, at(20));
      const texts = async (f: object) => (await store.listMemories({ namespace: NS, ...f })).map((m) => m.text).sort();
      assert.deepEqual(await texts({ since: at(0) }), ['created early', 'created late']);
      assert.deepEqual(await texts({ since: at(1) }), ['created late']);
      assert.deepEqual(await texts({ until: at(0) }), ['created early', 'happened long ago']);
      assert.deepEqual(await texts({ since: at(-100), until: at(-100) }), ['happened long ago']);
      assert.deepEqual(await texts({ since: at(0), until: at(10) }), ['created early', 'created late']);
    });

    it('supersedeMemory closes the old one, links both ways, and inherits unspecified fields', async () => {
      const old = await add('The API runs on port 8080', { category: 'decision', importance: 7, tags: ['api'], entities: ['API'] }, at(0));
      const { previous, current } = await store.supersedeMemory(NS, old.memory.id, { namespace: NS, text: 'The API runs on port 9090' }, { now: at(5) });
      assert.equal(previous.id, old.memory.id);
      assert.equal(previous.validTo, at(5));
      assert.equal(previous.supersededBy, current.id);
      assert.equal(current.supersedes, previous.id);
      assert.equal(current.validTo, null);
      assert.equal(current.validFrom, at(5));
      assert.equal(current.category, 'decision');
      assert.equal(current.importance, 7);
      assert.deepEqual(current.tags, ['api']);
      assert.deepEqual(current.entities, ['API']);
      assert.deepEqual(await store.getMemory(NS, previous.id), previous);
      assert.deepEqual(await store.getMemory(NS, current.id), current);
      assert.deepEqual((await store.listMemories({ namespace: NS })).map((m) => m.id), [current.id]);
      const withOld = await store.listMemories({ namespace: NS, includeSuperseded: true });
      assert.deepEqual(withOld.map((m) => m.id).sort(), [current.id, previous.id].sort());
    });

    it('history is the whole chain oldest → newest from any member id', async () => {
      const a = (await add('Team lunch is on Monday', {}, at(0))).memory;
      const b = (await store.supersedeMemory(NS, a.id, { namespace: NS, text: 'Team lunch is on Tuesday' }, { now: at(1) })).current;
      const c = (await store.supersedeMemory(NS, b.id, { namespace: NS, text: 'Team lunch is on Friday' }, { now: at(2) })).current;
      for (const id of [a.id, b.id, c.id]) {
        const chain = await store.memoryHistory(NS, id);
        assert.deepEqual(chain.map((m) => m.text), ['Team lunch is on Monday', 'Team lunch is on Tuesday', 'Team lunch is on Friday'], `from ${id}`);
      }
      const chain = await store.memoryHistory(NS, b.id);
      assert.deepEqual(chain.map((m) => m.validTo), [at(1), at(2), null]);
      assert.deepEqual(await store.memoryHistory(NS, 'm_unknown'), []);
    });

    it('supersede errors: already superseded → CONFLICT, unknown → NOT_FOUND, same statement → INVALID_INPUT', async () => {
      const a = (await add('Build with make')).memory;
      const b = (await store.supersedeMemory(NS, a.id, { namespace: NS, text: 'Build with ninja' })).current;
      const conflict = await rejectsCode(store.supersedeMemory(NS, a.id, { namespace: NS, text: 'Build with bazel' }), 'CONFLICT');
      assert.equal(conflict.details?.supersededBy, b.id);
      await rejectsCode(store.supersedeMemory(NS, 'm_nothere', { namespace: NS, text: 'x y z' }), 'NOT_FOUND');
      await rejectsCode(store.supersedeMemory(NS, b.id, { namespace: NS, text: '  build WITH ninja!' }), 'INVALID_INPUT');
      // None of the failures changed anything.
      const all = await store.listMemories({ namespace: NS, includeSuperseded: true });
      assert.deepEqual(all.map((m) => m.text).sort(), ['Build with make', 'Build with ninja']);
      assert.equal((await store.getMemory(NS, b.id))!.validTo, null);
      assert.equal((await store.keywordSearch(NS, indexTerms(['bazel']), 10, { includeSuperseded: true })).length, 0);
    });

    it('superseding into the text of another current memory merges into it', async () => {
      const a = (await add('The office is in Berlin', {}, at(0))).memory;
      const b = (await add('The office is in Hamburg', {}, at(1))).memory;
      const { previous, current } = await store.supersedeMemory(NS, a.id, { namespace: NS, text: 'the office is in hamburg.' }, { now: at(2) });
      assert.equal(current.id, b.id);
      assert.equal(current.mentions, 2);
      assert.equal(previous.supersededBy, b.id);
      assert.equal(previous.validTo, at(2));
      const current_ = await store.listMemories({ namespace: NS });
      assert.deepEqual(current_.map((m) => m.id), [b.id]);
      assert.equal(current_[0]!.mentions, 2);
      assert.deepEqual((await store.memoryHistory(NS, a.id)).map((m) => m.id), [a.id, b.id]);
    });

    it('a superseded text can be stored again as a new current memory', async () => {
      const a = (await add('Deploys happen on Fridays')).memory;
      await store.supersedeMemory(NS, a.id, { namespace: NS, text: 'Deploys never happen on Fridays' });
      const again = await add('Deploys happen on Fridays');
      assert.equal(again.duplicate, false);
      assert.notEqual(again.memory.id, a.id);
      assert.equal((await store.listMemories({ namespace: NS })).length, 2);
    });

    it('exportMemories yields every memory of the namespace, superseded included, oldest first', async () => {
      const a = (await add('first fact', {}, at(0))).memory;
      await add('second fact', {}, at(1));
      await store.supersedeMemory(NS, a.id, { namespace: NS, text: 'first fact, corrected' }, { now: at(2) });
      await store.addMemory({ namespace: OTHER, text: 'not exported' });
      const exported = await collect(store.exportMemories(NS));
      assert.deepEqual(exported.map((m) => m.text), ['first fact', 'second fact', 'first fact, corrected']);
      assert.equal(exported[0]!.supersededBy, exported[2]!.id);
      assert.deepEqual(await collect(store.exportMemories('gamma')), []);
    });

    it('exportMemories pages through many memories without losing or doubling any', async () => {
      await store.addMemories(Array.from({ length: 1203 }, (_, i) => ({ namespace: NS, text: `bulk memory ${i}` })), { now: at(0) });
      const exported = await collect(store.exportMemories(NS));
      assert.equal(exported.length, 1203);
      assert.equal(new Set(exported.map((m) => m.id)).size, 1203);
      assert.equal(exported[1202]!.text, 'bulk memory 1202');
    });

    it('importMemory: imported, then exists; a new id with the text of a current memory merges', async () => {
      const record: Memory = {
        id: 'm_imported000000000001',
        namespace: NS,
        text: 'Imported fact about llamas',
        category: 'fact',
        importance: 6,
        tags: ['animals'],
        entities: ['llama'],
        eventTime: '2025-05-01T00:00:00.000Z',
        createdAt: '2025-05-02T00:00:00.000Z',
        updatedAt: '2025-05-03T00:00:00.000Z',
        validFrom: '2025-05-02T00:00:00.000Z',
        validTo: null,
        supersededBy: null,
        supersedes: null,
        mentions: 3,
        provenance: [{ source: 'import', line: 4 }],
      };
      assert.equal(await store.importMemory(record), 'imported');
      assert.deepEqual(await store.getMemory(NS, record.id), record);
      assert.equal(await store.importMemory(record), 'exists');
      assert.equal(await store.importMemory({ ...record, text: 'changed text, same id' }), 'exists');
      assert.deepEqual(await store.getMemory(NS, record.id), record, 'an existing id is never overwritten');
      const merged = await store.importMemory({ ...record, id: 'm_imported000000000002', text: 'imported fact about LLAMAS.', mentions: 2, tags: ['zoo'] });
      assert.equal(merged, 'merged');
      const after = await store.getMemory(NS, record.id);
      assert.equal(after!.mentions, 5);
      assert.deepEqual(after!.tags, ['animals', 'zoo']);
      assert.equal(await store.getMemory(NS, 'm_imported000000000002'), null);
      assert.equal((await store.listMemories({ namespace: NS, includeSuperseded: true })).length, 1);
      // Imported memories are searchable in their namespace only.
      assert.equal((await store.keywordSearch(NS, indexTerms(['llamas']), 10)).length, 1);
      assert.equal((await store.keywordSearch(OTHER, indexTerms(['llamas']), 10)).length, 0);
    });

    it('export → import into a fresh store is lossless (deepEqual, supersede links included)', async () => {
      const a = (await add('Standup at 9', { category: 'plan', importance: 4, tags: ['team'], provenance: [{ source: 'cli', sessionId: 'x' }] }, at(0))).memory;
      await add('Standup at 9!', {}, at(1)); // mention 2
      await store.supersedeMemory(NS, a.id, { namespace: NS, text: 'Standup at 10', eventTime: at(3) }, { now: at(4) });
      await add('Unrelated but kept', { entities: ['Bob'] }, at(5));
      const original = await collect(store.exportMemories(NS));
      assert.equal(original.length, 3);

      const fresh = await another();
      for (const m of original) assert.equal(await fresh.importMemory(m), 'imported');
      const copied = await collect(fresh.exportMemories(NS));
      assert.deepEqual(copied, original);
      for (const m of original) assert.deepEqual(await fresh.getMemory(NS, m.id), m);
      assert.deepEqual((await fresh.memoryHistory(NS, a.id)).map((m) => m.text), ['Standup at 9', 'Standup at 10']);
      assert.deepEqual((await fresh.listMemories({ namespace: NS })).map((m) => m.text).sort(), ['Standup at 10', 'Unrelated but kept']);
      // The superseded one is indexed as not current in the fresh store too.
      assert.equal((await fresh.keywordSearch(NS, indexTerms(['standup']), 10)).length, 1);
      assert.equal((await fresh.keywordSearch(NS, indexTerms(['standup']), 10, { includeSuperseded: true })).length, 2);
      // Importing the same export again changes nothing.
      for (const m of original) assert.equal(await fresh.importMemory(m), 'exists');
      assert.deepEqual(await collect(fresh.exportMemories(NS)), original);
    });
  });
}
