// The shared Store conformance suite: every backend (SQLite now, PostgreSQL later) must pass it
// unchanged. It talks to the store only through the `Store` interface — no SQL, no backend types.
import { createHash } from 'node:crypto';
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { CairnError } from '../../src/core/errors.js';
import type { Memory, NewMemory, NewTurn } from '../../src/core/types.js';
import type { ReplaceDocumentInput, Store } from '../../src/store/store.js';
import { collect, rejectsCode } from '../helpers/store-fixtures.js';
import { decodeVector, quantisedBytes } from '../../src/store/vector-codec.js';
import { purgeConformance } from './conformance-purge.js';
import { digestConformance } from './conformance-digests.js';
import { knowledgeConformance } from './conformance-knowledge.js';
import { knowledgeEditConformance } from './conformance-knowledge-edits.js';
import { indexTerms } from '../helpers/index-terms.js';

export type StoreFactory = () => Promise<{ store: Store; cleanup: () => Promise<void> }>;

const NS = 'alpha';
const OTHER = 'beta';
const T0 = Date.parse('2026-01-10T12:00:00.000Z');
/** A fixed clock: `at(3)` is three hours after T0. */
const at = (hours: number): string => new Date(T0 + hours * 3_600_000).toISOString();

function vec(...values: number[]): Float32Array {
  return Float32Array.from(values);
}

/**
 * A vector read back equals the one stored to within the store's quantisation (int8 with a scale
 * per block of 128 values: half a step of max |value| / 127).
 */
function assertVectorNear(actual: Float32Array | undefined, expected: readonly number[]): void {
  assert.ok(actual instanceof Float32Array, 'a Float32Array');
  assert.equal(actual.length, expected.length);
  const step = Math.max(0, ...expected.map(Math.abs)) / 127;
  expected.forEach((e, i) => assert.ok(Math.abs(actual[i]! - e) <= step / 2 + 1e-6, `value ${i}: ${actual[i]} vs ${e}`));
}

function turn(over: Partial<NewTurn> & { messageId: string }): NewTurn {
  return {
    namespace: NS,
    sessionId: 's1',
    role: 'user',
    text: `message ${over.messageId}`,
    timestamp: at(0),
    ...over,
  };
}

export function runStoreConformance(name: string, makeStore: StoreFactory): void {
  describe(`Store conformance: ${name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    const extra: Array<() => Promise<void>> = [];

    beforeEach(async () => {
      ({ store, cleanup } = await makeStore());
    });
    afterEach(async () => {
      await store.close();
      await cleanup();
      while (extra.length) await extra.pop()!();
    });

    /** A second, independent store (for round trips); cleaned up after the test. */
    async function another(): Promise<Store> {
      const made = await makeStore();
      extra.push(async () => {
        await made.store.close();
        await made.cleanup();
      });
      return made.store;
    }

    const add = (text: string, over: Partial<NewMemory> = {}, now?: string) =>
      store.addMemory({ namespace: NS, text, ...over }, now ? { now } : undefined);

    /** Seq of the index entry of a memory or turn id, found through keyword search on its words. */
    async function seqOf(namespace: string, refId: string, words: string[]): Promise<number> {
      const hits = await store.keywordSearch(namespace, indexTerms(words), 50, { includeSuperseded: true });
      const entries = await store.getEntries(namespace, hits.map((h) => h.seq));
      const entry = entries.find((e) => e.refId === refId);
      assert.ok(entry, `no entry for ${refId} via ${words.join(' ')}`);
      return entry.seq;
    }

    purgeConformance(() => store);
    digestConformance(() => store);
    knowledgeConformance(() => store);
    knowledgeEditConformance(() => store);

    describe('memories', () => {
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

    describe('turns, sources and checkpoints', () => {
      it('speakers counts named speakers per namespace, duplicates not counted twice', async () => {
        await store.addTurns([
          turn({ messageId: 'a1', speaker: 'Ana' }),
          turn({ messageId: 'a2', speaker: 'Ana' }),
          turn({ messageId: 'b1', speaker: 'Bo' }),
          turn({ messageId: 'n1' }),
          turn({ messageId: 'x1', speaker: 'Ana', namespace: OTHER }),
        ]);
        await store.addTurns([turn({ messageId: 'a1', speaker: 'Ana' }), turn({ messageId: 'a3', speaker: 'Ana' })]);
        assert.deepEqual(await store.speakers(NS), [{ name: 'Ana', turns: 3 }, { name: 'Bo', turns: 1 }]);
        assert.deepEqual(await store.speakers(OTHER), [{ name: 'Ana', turns: 1 }]);
        assert.deepEqual(await store.speakers('nobody-here'), []);
      });

      it('turnNeighbours returns the turns around each turn within its session, in order, with entry seqs', async () => {
        const { inserted } = await store.addTurns([
          turn({ messageId: 'm1' }),
          turn({ messageId: 'm2' }),
          turn({ messageId: 'o1', sessionId: 's2' }),
          turn({ messageId: 'm3' }),
          turn({ messageId: 'm4' }),
        ]);
        const [m1, m2, , m3, m4] = inserted;
        const rows = await store.turnNeighbours(NS, [m3!.id, m1!.id, 't_unknown'], 2);
        assert.equal(rows.length, 2);
        const around3 = rows.find((r) => r.turnId === m3!.id)!;
        assert.deepEqual(around3.before.map((x) => x.id), [m1!.id, m2!.id]);
        assert.deepEqual(around3.after.map((x) => x.id), [m4!.id]);
        for (const x of [...around3.before, ...around3.after]) assert.equal(typeof x.entrySeq, 'number');
        const around1 = rows.find((r) => r.turnId === m1!.id)!;
        assert.deepEqual(around1.before, []);
        assert.deepEqual(around1.after.map((x) => x.id), [m2!.id, m3!.id]);
        // Namespaces are walls: the same ids asked for from another namespace find nothing.
        assert.deepEqual(await store.turnNeighbours(OTHER, [m3!.id], 2), []);
        assert.deepEqual(await store.turnNeighbours(NS, [], 2), []);
        // Bytes of a neighbour's indexed text bound its length from above (search reads passages by it).
        const text = 'Café ☕ at noon';
        const [accented, next] = (await store.addTurns([turn({ messageId: 'a1', sessionId: 's3', text }), turn({ messageId: 'a2', sessionId: 's3' })])).inserted;
        const near = (await store.turnNeighbours(NS, [next!.id], 1, { entryBytes: true }))[0]!.before[0];
        assert.equal(near!.id, accented!.id);
        assert.equal(near!.text, text);
        assert.equal(near!.entryBytes, Buffer.byteLength(text));
        assert.ok(near!.entryBytes! > text.length);
      });

      it('turnNeighbours tells tool activity from conversation, by role or meta.kind', async () => {
        const { inserted } = await store.addTurns([
          turn({ messageId: 'c1', sessionId: 'tools' }),
          turn({ messageId: 'c2', sessionId: 'tools', role: 'tool' }),
          turn({ messageId: 'c3', sessionId: 'tools' }),
          turn({ messageId: 'c4', sessionId: 'tools', meta: { kind: 'tool', exit: 0 } }),
          turn({ messageId: 'c5', sessionId: 'tools', meta: { kind: 'message' } }),
        ]);
        const [around] = await store.turnNeighbours(NS, [inserted[2]!.id], 2);
        assert.deepEqual([...around!.before, ...around!.after].map((x) => [x.id, x.conversational]), [
          [inserted[0]!.id, true],
          [inserted[1]!.id, false],
          [inserted[3]!.id, false],
          [inserted[4]!.id, true],
        ]);
      });

      it('getTurns returns whole turns of one namespace, in the order asked, each once', async () => {
        const { inserted } = await store.addTurns([
          turn({ messageId: 'g1', speaker: 'Ana', meta: { model: 'x' } }),
          turn({ messageId: 'g2', role: 'assistant' }),
          turn({ messageId: 'g3', namespace: OTHER }),
        ]);
        const [g1, g2, g3] = inserted;
        assert.deepEqual(await store.getTurns(NS, [g2!.id, 't_unknown', g1!.id, g2!.id, g3!.id]), [g2, g1]);
        assert.deepEqual(await store.getTurns(OTHER, [g1!.id, g3!.id]), [g3]);
        assert.deepEqual(await store.getTurns(NS, []), []);
        assert.deepEqual(await store.getTurns(NS, [`'); DROP TABLE turns; --`, '"]', '\u0000']), []);
      });

      it('addTurns inserts, counts duplicates by namespace + session + message id, getTurn returns them', async () => {
        const src = await store.addSource(NS, 'jsonl', '/tmp/chat.jsonl');
        const first = await store.addTurns([
          turn({ messageId: 'm1', sourceId: src.id, line: 1, speaker: 'Ana', meta: { model: 'x' } }),
          turn({ messageId: 'm2', sourceId: src.id, line: 2, role: 'assistant' }),
        ]);
        assert.equal(first.inserted.length, 2);
        assert.equal(first.duplicates, 0);
        const t1 = first.inserted[0]!;
        assert.match(t1.id, /^t_/);
        assert.equal(t1.namespace, NS);
        assert.equal(t1.sourceId, src.id);
        assert.equal(t1.sessionId, 's1');
        assert.equal(t1.messageId, 'm1');
        assert.equal(t1.role, 'user');
        assert.equal(t1.speaker, 'Ana');
        assert.equal(t1.line, 1);
        assert.deepEqual(t1.meta, { model: 'x' });
        assert.equal(first.inserted[1]!.speaker, null);
        assert.deepEqual(await store.getTurn(NS, t1.id), t1);
        assert.equal(await store.getTurn(OTHER, t1.id), null);

        const second = await store.addTurns([
          turn({ messageId: 'm1', text: 'changed text, same message' }),
          turn({ messageId: 'm2' }),
          turn({ messageId: 'm1', sessionId: 's2' }),
          turn({ messageId: 'm1', namespace: OTHER }),
          turn({ messageId: 'm3' }),
          turn({ messageId: 'm3' }),
        ]);
        assert.equal(second.duplicates, 3);
        assert.deepEqual(second.inserted.map((t) => `${t.namespace}/${t.sessionId}/${t.messageId}`), ['alpha/s2/m1', 'beta/s1/m1', 'alpha/s1/m3']);
        assert.equal((await store.getTurn(NS, t1.id))!.text, 'message m1', 'a duplicate never overwrites');
        const stats = Object.fromEntries((await store.namespaceStats()).map((s) => [s.namespace, s.turns]));
        assert.deepEqual(stats, { alpha: 4, beta: 1 });
      });

      it('addTurns saves the checkpoint in the same call, and a failing call stores nothing', async () => {
        const src = await store.addSource(NS, 'jsonl', '/tmp/a.jsonl');
        assert.equal(await store.getCheckpoint(src.id, 'offset'), null);
        await store.addTurns([turn({ messageId: 'a' })], { sourceId: src.id, key: 'offset', state: { bytes: 120, inode: 7 } });
        assert.deepEqual(await store.getCheckpoint(src.id, 'offset'), { bytes: 120, inode: 7 });
        // Only a checkpoint (no turns) also moves.
        await store.addTurns([], { sourceId: src.id, key: 'offset', state: { bytes: 240 } });
        assert.deepEqual(await store.getCheckpoint(src.id, 'offset'), { bytes: 240 });
        // A checkpoint for a source that does not exist cannot be saved: the turns must not land either.
        await assert.rejects(store.addTurns([turn({ messageId: 'b', text: 'orphan zebra' })], { sourceId: 987654, key: 'offset', state: { bytes: 1 } }));
        assert.equal((await store.keywordSearch(NS, indexTerms(['zebra']), 10)).length, 0);
        assert.equal((await store.namespaceStats()).find((s) => s.namespace === NS)!.turns, 1);
        assert.equal(await store.getCheckpoint(987654, 'offset'), null);
      });

      it('addTurns can make the checkpoint from what it stored (new vs duplicate turns)', async () => {
        const src = await store.addSource(NS, 'jsonl', '/tmp/b.jsonl');
        const seen: Array<{ inserted: number; duplicates: number }> = [];
        const state = (added: { inserted: number; duplicates: number }) => {
          seen.push(added);
          return { stored: added.inserted };
        };
        await store.addTurns([turn({ messageId: 'x1' }), turn({ messageId: 'x2' })], { sourceId: src.id, key: 'k', state });
        assert.deepEqual(await store.getCheckpoint(src.id, 'k'), { stored: 2 });
        await store.addTurns([turn({ messageId: 'x1' }), turn({ messageId: 'x2' }), turn({ messageId: 'x3' })], { sourceId: src.id, key: 'k', state });
        assert.deepEqual(await store.getCheckpoint(src.id, 'k'), { stored: 1 });
        assert.deepEqual(seen, [{ inserted: 2, duplicates: 0 }, { inserted: 1, duplicates: 2 }]);
      });

      it('sources: add is idempotent per namespace/kind/path (options updated), list filters, remove', async () => {
        const a = await store.addSource(NS, 'jsonl', '/data/a.jsonl', { follow: true });
        assert.equal(a.namespace, NS);
        assert.equal(a.kind, 'jsonl');
        assert.equal(a.path, '/data/a.jsonl');
        assert.deepEqual(a.options, { follow: true });
        assert.ok(!Number.isNaN(Date.parse(a.createdAt)));
        const again = await store.addSource(NS, 'jsonl', '/data/a.jsonl', { follow: false });
        assert.equal(again.id, a.id);
        assert.deepEqual(again.options, { follow: false });
        const b = await store.addSource(OTHER, 'jsonl', '/data/a.jsonl');
        assert.notEqual(b.id, a.id);
        assert.deepEqual(b.options, {});
        const c = await store.addSource(NS, 'markdown', '/notes');
        assert.deepEqual((await store.listSources(NS)).map((s) => s.id), [a.id, c.id]);
        assert.deepEqual((await store.listSources(OTHER)).map((s) => s.id), [b.id]);
        assert.deepEqual((await store.listSources()).map((s) => s.id).sort((x, y) => x - y), [a.id, b.id, c.id].sort((x, y) => x - y));
        assert.deepEqual(await store.listSources('gamma'), []);

        await store.putCheckpoint({ sourceId: a.id, key: 'k', state: { n: 1 } });
        assert.equal(await store.removeSource(a.id), true);
        assert.equal(await store.removeSource(a.id), false);
        assert.deepEqual((await store.listSources(NS)).map((s) => s.id), [c.id]);
        assert.equal(await store.getCheckpoint(a.id, 'k'), null, 'checkpoints go with their source');
      });

      it('checkpoints: put, overwrite, keys are separate', async () => {
        const src = await store.addSource(NS, 'jsonl', '/x');
        await store.putCheckpoint({ sourceId: src.id, key: 'a', state: { offset: 1, nested: { ok: true }, list: [1, 2] } });
        await store.putCheckpoint({ sourceId: src.id, key: 'b', state: { offset: 2 } });
        assert.deepEqual(await store.getCheckpoint(src.id, 'a'), { offset: 1, nested: { ok: true }, list: [1, 2] });
        await store.putCheckpoint({ sourceId: src.id, key: 'a', state: { offset: 3 } });
        assert.deepEqual(await store.getCheckpoint(src.id, 'a'), { offset: 3 });
        assert.deepEqual(await store.getCheckpoint(src.id, 'b'), { offset: 2 });
        assert.equal(await store.getCheckpoint(src.id, 'c'), null);
        const listed = await store.listCheckpoints(src.id);
        assert.deepEqual(listed.map((c) => [c.key, c.state]), [['a', { offset: 3 }], ['b', { offset: 2 }]]);
        assert.ok(listed.every((c) => !Number.isNaN(Date.parse(c.updatedAt))));
        assert.deepEqual(await store.listCheckpoints(987654), []);
      });

      it('turnsAfter pages a namespace in insertion order; sourceTurnCounts counts per source', async () => {
        const src = await store.addSource(NS, 'jsonl', '/follow');
        const mk = (i: number, ns = NS) => ({ namespace: ns, sourceId: src.id, sessionId: 's', messageId: `m${i}`, role: 'user', speaker: null, text: `turn ${i}`, timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), line: i, meta: {} });
        await store.addTurns([mk(1), mk(2), mk(3)]);
        await store.addTurns([mk(1, OTHER)]);
        const first = await store.turnsAfter(NS, 0, 2);
        assert.deepEqual(first.map((t) => t.turn.text), ['turn 1', 'turn 2']);
        assert.ok(first[0]!.seq < first[1]!.seq);
        const rest = await store.turnsAfter(NS, first[1]!.seq, 10);
        assert.deepEqual(rest.map((t) => t.turn.text), ['turn 3']);
        assert.deepEqual(await store.turnsAfter(NS, rest[0]!.seq, 10), []);
        assert.equal((await store.sourceTurnCounts()).get(src.id), 4);
        await store.removeSource(src.id);
        assert.equal((await store.sourceTurnCounts()).get(src.id), undefined);
        assert.equal((await store.turnsAfter(NS, 0, 10)).length, 3, 'turns outlive their source');
      });
    });

    describe('judgments, feedback, usage', () => {
      const turn = (i: number, ns = NS, session = 's') => ({ namespace: ns, sessionId: session, messageId: `j${i}`, role: 'user', speaker: null, text: `We decided thing number ${i}`, timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), line: i, meta: {} });
      const verdict = (turnId: string, importance: number, memory?: string) => ({
        turnId, importance, category: 'decision' as const, judge: 'heuristic@t', reason: 'test', statement: null, needsRejudge: false,
        ...(memory ? { memory: { namespace: NS, text: memory, category: 'decision' as const, importance } } : {}),
      });

      it('unjudged turns page in order; a judgment (with its memory) removes a turn from them, atomically', async () => {
        const { inserted } = await store.addTurns([turn(1), turn(2), turn(3)]);
        await store.addTurns([turn(1, OTHER)]);
        const page = await store.unjudgedTurns(NS, 0, 10);
        assert.deepEqual(page.map((p) => p.turn.id), inserted.map((t) => t.id));
        const res = await store.applyJudgments([verdict(inserted[0]!.id, 8, 'We decided thing number 1'), verdict(inserted[1]!.id, 2)]);
        assert.ok(res[0]!.memoryId);
        assert.equal(res[1]!.memoryId, null);
        assert.deepEqual((await store.unjudgedTurns(NS, 0, 10)).map((p) => p.turn.id), [inserted[2]!.id]);
        assert.equal((await store.unjudgedTurns(OTHER, 0, 10)).length, 1, 'namespaces stay apart');
        const mem = await store.getMemory(NS, res[0]!.memoryId!);
        assert.equal(mem?.importance, 8);
        const j = await store.getJudgment(inserted[0]!.id);
        assert.equal(j?.memoryId, res[0]!.memoryId);
        assert.equal(j?.judge, 'heuristic@t');
        // A failing item rolls the whole batch back: nothing half-applied.
        await assert.rejects(store.applyJudgments([verdict(inserted[2]!.id, 9, 'We decided thing number 3'), verdict('t_missing', 5)]));
        assert.equal(await store.getJudgment(inserted[2]!.id), null);
        assert.equal((await store.listMemories({ namespace: NS })).length, 1);
      });

      it('re-judging replaces the judgment and updates its memory, never duplicating it', async () => {
        const { inserted } = await store.addTurns([turn(1)]);
        const id = inserted[0]!.id;
        const first = await store.applyJudgments([{ ...verdict(id, 6, 'We decided thing number 1'), needsRejudge: true }]);
        assert.equal((await store.judgedTurns(NS, 0, 10, { onlyNeedsRejudge: true })).length, 1);
        const again = await store.applyJudgments([verdict(id, 9, 'We decided thing number 1')]);
        assert.equal(again[0]!.memoryId, first[0]!.memoryId);
        assert.equal((await store.listMemories({ namespace: NS })).length, 1);
        assert.equal((await store.getMemory(NS, first[0]!.memoryId!))?.importance, 9);
        assert.equal((await store.judgedTurns(NS, 0, 10, { onlyNeedsRejudge: true })).length, 0);
        const all = await store.judgedTurns(NS, 0, 10);
        assert.equal(all[0]!.judgment.importance, 9);
        assert.equal((await store.judgedTurns(NS, 0, 10, { since: '2030-01-01T00:00:00.000Z' })).length, 0);
      });

      it('tool turns and turns judged noise need no vector; a turn judged again as worth keeping does', async () => {
        const tool = { ...turn(1), messageId: 'tool1', text: '→ tool exec npm test', meta: { kind: 'tool' } };
        const { inserted } = await store.addTurns([tool, turn(2), turn(3)]);
        const missing = async () => (await store.entriesMissingVector('m@1', 10, NS)).map((e) => e.text);
        assert.deepEqual(await missing(), ['We decided thing number 2', 'We decided thing number 3']);
        await store.applyJudgments([{ ...verdict(inserted[1]!.id, 1), category: 'noise' }]);
        assert.deepEqual(await missing(), ['We decided thing number 3']);
        assert.equal((await store.vectorStats('m@1')).find((v) => v.namespace === NS)?.missing, 1);
        await store.applyJudgments([verdict(inserted[1]!.id, 6)]);
        assert.deepEqual(await missing(), ['We decided thing number 2', 'We decided thing number 3']);
        await store.applyJudgments([verdict(inserted[0]!.id, 6)]);
        assert.equal((await missing()).length, 2, 'tool activity stays without a vector whatever its judgment');
      });

      it('setMemoryImportance changes a current memory only, in its namespace', async () => {
        const m = (await add('Rotate the deploy keys monthly', { importance: 8 })).memory;
        assert.equal(await store.setMemoryImportance(OTHER, m.id, 2), false);
        assert.equal(await store.setMemoryImportance(NS, m.id, 3), true);
        assert.equal((await store.getMemory(NS, m.id))?.importance, 3);
        assert.equal(await store.setMemoryImportance(NS, 'm_missing', 3), false);
      });

      it('setMemoryTags replaces the tags of a current memory only, in its namespace, and reindexes them', async () => {
        const m = (await add('Rotate the deploy keys monthly', { tags: ['ops', 'security'] })).memory;
        await rejectsCode(store.setMemoryTags(OTHER, m.id, ['stolen']), 'NOT_FOUND');
        await rejectsCode(store.setMemoryTags(NS, 'm_missing', ['x']), 'NOT_FOUND');
        const updated = await store.setMemoryTags(NS, m.id, ['quarterly', 'ops', 'quarterly']);
        assert.deepEqual(updated.tags, ['quarterly', 'ops']);
        assert.deepEqual((await store.getMemory(NS, m.id))?.tags, ['quarterly', 'ops']);
        assert.equal((await store.keywordSearch(NS, indexTerms(['quarterly']), 10)).length, 1, 'a new tag is searchable');
        assert.equal((await store.keywordSearch(NS, indexTerms(['security']), 10)).length, 0, 'a removed tag is not');
        assert.deepEqual((await store.setMemoryTags(NS, m.id, [])).tags, []);
        const { current } = await store.supersedeMemory(NS, m.id, { namespace: NS, text: 'Rotate the deploy keys weekly' });
        await rejectsCode(store.setMemoryTags(NS, m.id, ['late']), 'CONFLICT', /superseded/);
        assert.deepEqual((await store.getMemory(NS, m.id))?.tags, [], 'a superseded version keeps its tags');
        assert.deepEqual((await store.setMemoryTags(NS, current.id, ['weekly'])).tags, ['weekly']);
      });

      it('judge stats, turnsBefore, feedback and usage', async () => {
        const { inserted } = await store.addTurns([turn(1), turn(2), turn(3), turn(4, NS, 'other')]);
        await store.applyJudgments([verdict(inserted[0]!.id, 7, 'We decided thing number 1')]);
        const stats = (await store.judgeStats()).find((s) => s.namespace === NS)!;
        assert.equal(stats.judged, 1);
        assert.equal(stats.pending, 3);
        assert.equal(stats.promoted, 1);
        assert.deepEqual(stats.byJudge, { 'heuristic@t': 1 });
        const seq3 = (await store.unjudgedTurns(NS, 0, 10)).find((p) => p.turn.id === inserted[2]!.id)!.seq;
        assert.deepEqual((await store.turnsBefore(NS, 's', seq3, 5)).map((t) => t.id), [inserted[0]!.id, inserted[1]!.id]);
        assert.deepEqual((await store.turnsBefore(NS, 's', seq3, 1)).map((t) => t.id), [inserted[1]!.id]);
        const fb = await store.addFeedback({ namespace: NS, refId: inserted[0]!.id, text: 'x', category: 'decision', important: true });
        await store.addFeedback({ namespace: NS, refId: inserted[1]!.id, text: 'y', category: null, important: false });
        const list = await store.listFeedback(NS, 10);
        assert.deepEqual(list.map((f) => f.important), [false, true]);
        assert.equal(list[1]!.id, fb.id);
        assert.deepEqual(await store.listFeedback(OTHER, 10), []);
        assert.deepEqual(await store.usageGet(NS, '2026-01-01'), { calls: 0, failures: 0, fallbacks: 0, tokensIn: 0, tokensOut: 0, costUsd: 0 });
        await store.usageAdd(NS, '2026-01-01', { calls: 2, tokensIn: 100, tokensOut: 20, costUsd: 0.25 });
        await store.usageAdd(NS, '2026-01-01', { calls: 1, failures: 1, costUsd: 0.125 });
        assert.deepEqual(await store.usageGet(NS, '2026-01-01'), { calls: 3, failures: 1, fallbacks: 0, tokensIn: 100, tokensOut: 20, costUsd: 0.375 });
        assert.equal((await store.usageList('2026-01-01')).length, 1);
        assert.equal((await store.usageList('2026-01-02')).length, 0);
      });
    });

    describe('keyword search and entries', () => {
      it('finds by stemmed word ("decided" ~ "decide"), best first, within the limit', async () => {
        const a = (await add('We decided to use PostgreSQL for the queue')).memory;
        const b = (await add('Decisions are hard; we decide later')).memory;
        await add('Nothing related here');
        for (const term of ['decide', 'decided', 'deciding', 'DECIDED']) {
          const hits = await store.keywordSearch(NS, indexTerms([term.toLowerCase()]), 10);
          const entries = await store.getEntries(NS, hits.map((h) => h.seq));
          assert.deepEqual(entries.map((e) => e.refId).sort(), [a.id, b.id].sort(), `term ${term}`);
        }
        const hits = await store.keywordSearch(NS, indexTerms(['postgresql', 'queue', 'decided']), 10);
        assert.ok(hits.length === 2);
        for (const h of hits) assert.ok(Number.isFinite(h.score) && h.score > 0, `score ${h.score}`);
        assert.ok(hits[0]!.score >= hits[1]!.score, 'higher score first');
        assert.equal((await store.getEntries(NS, [hits[0]!.seq]))[0]!.refId, a.id, 'the entry matching more terms ranks first');
        // What the index holds: the text, and a memory's tags and entities with it.
        const tagged = (await add('Queue retries are capped', { tags: ['ops'], entities: ['RabbitMQ'] })).memory;
        const [taggedEntry] = await store.getEntries(NS, [await seqOf(NS, tagged.id, ['retries'])]);
        assert.equal(taggedEntry!.indexedChars, 'Queue retries are capped\nops\nRabbitMQ'.length);
        assert.equal((await store.keywordSearch(NS, indexTerms(['decided']), 1)).length, 1);
        assert.deepEqual(await store.keywordSearch(NS, indexTerms([]), 10), []);
      });

      it('tags and entities are searchable', async () => {
        const { memory } = await add('Weekly sync notes', { tags: ['kanban'], entities: ['Zanzibar'] });
        for (const term of ['kanban', 'zanzibar']) {
          const hits = await store.keywordSearch(NS, indexTerms([term]), 10);
          assert.deepEqual((await store.getEntries(NS, hits.map((h) => h.seq))).map((e) => e.refId), [memory.id]);
        }
      });

      it('namespace wall: keyword search and getEntries never cross namespaces', async () => {
        await add('alpha knows about quokkas');
        const other = await store.addMemory({ namespace: OTHER, text: 'beta knows about quokkas too' });
        await store.addTurns([turn({ messageId: 'q', namespace: OTHER, text: 'quokkas in a turn' })]);
        const alphaHits = await store.keywordSearch(NS, indexTerms(['quokkas']), 10);
        assert.equal(alphaHits.length, 1);
        const betaHits = await store.keywordSearch(OTHER, indexTerms(['quokkas']), 10);
        assert.equal(betaHits.length, 2);
        assert.deepEqual(await store.getEntries(NS, betaHits.map((h) => h.seq)), [], 'beta seqs are invisible from alpha');
        const betaEntries = await store.getEntries(OTHER, [...alphaHits, ...betaHits].map((h) => h.seq));
        assert.equal(betaEntries.length, 2);
        assert.ok(betaEntries.every((e) => e.namespace === OTHER));
        assert.ok(betaEntries.some((e) => e.refId === other.memory.id));
        assert.deepEqual(await store.keywordSearch('gamma', indexTerms(['quokkas']), 10), []);
      });

      it('filters: kinds, categories, minImportance, since/until, superseded excluded by default', async () => {
        const dec = (await add('otter decision', { category: 'decision', importance: 9, eventTime: at(-48) })).memory;
        const fact = (await add('otter fact', { category: 'fact', importance: 3 }, at(0))).memory;
        const old = (await add('otter plan old', { category: 'plan', importance: 6 }, at(1))).memory;
        const neu = (await store.supersedeMemory(NS, old.id, { namespace: NS, text: 'otter plan new' }, { now: at(2) })).current;
        const [t] = (await store.addTurns([turn({ messageId: 'o1', text: 'otter turn', timestamp: at(24) })])).inserted;
        const ids = async (filter: object) => {
          const hits = await store.keywordSearch(NS, indexTerms(['otter']), 50, filter);
          return (await store.getEntries(NS, hits.map((h) => h.seq))).map((e) => e.refId).sort();
        };
        const sorted = (...xs: string[]) => xs.sort();
        assert.deepEqual(await ids({}), sorted(dec.id, fact.id, neu.id, t!.id));
        assert.deepEqual(await ids({ includeSuperseded: true }), sorted(dec.id, fact.id, old.id, neu.id, t!.id));
        assert.deepEqual(await ids({ kinds: ['turn'] }), [t!.id]);
        assert.deepEqual(await ids({ kinds: ['memory'] }), sorted(dec.id, fact.id, neu.id));
        assert.deepEqual(await ids({ kinds: ['document'] }), []);
        assert.deepEqual(await ids({ categories: ['decision', 'plan'] }), sorted(dec.id, neu.id));
        assert.deepEqual(await ids({ categories: ['plan'], includeSuperseded: true }), sorted(old.id, neu.id));
        assert.deepEqual(await ids({ minImportance: 6 }), sorted(dec.id, neu.id), 'turns have no importance: excluded by minImportance');
        assert.deepEqual(await ids({ since: at(0) }), sorted(fact.id, neu.id, t!.id));
        assert.deepEqual(await ids({ since: at(2), until: at(2) }), [neu.id]);
        assert.deepEqual(await ids({ until: at(0) }), sorted(dec.id, fact.id), 'event time counts, not creation time');
        assert.deepEqual(await ids({ since: at(24), kinds: ['turn', 'memory'] }), [t!.id]);
      });

      it('hostile query terms never throw and never act as query syntax', async () => {
        await add('plain words: alpha beta gamma, or near the end');
        await add('Le café est fermé à Zürich');
        await add('Deploy went 🚀 smoothly');
        const hostile = [
          '"', '""', "'", '*', 'OR', 'AND', 'NOT', 'NEAR(', 'NEAR', ')', '(', '-', '-alpha', '^', ':', 'body:alpha',
          '{alpha}', 'alpha*', '\\', '%', '_', ';', '--', "'; DROP TABLE memories; --", '\u0000', 'ß', '日本語',
          '🚀', '👩‍👩‍👧', 'x'.repeat(5000), ' ', '',
        ];
        for (const term of hostile) {
          const hits = await store.keywordSearch(NS, indexTerms([term]), 10);
          assert.ok(Array.isArray(hits), `term ${JSON.stringify(term.slice(0, 20))}`);
          for (const h of hits) assert.ok(Number.isFinite(h.score));
        }
        const all = await store.keywordSearch(NS, hostile, 10);
        assert.ok(Array.isArray(all));
        // Syntax words are plain words: "OR"/"NEAR" match only texts containing them.
        assert.equal((await store.keywordSearch(NS, indexTerms(['or']), 10)).length, 1);
        assert.equal((await store.keywordSearch(NS, indexTerms(['near']), 10)).length, 1);
        assert.equal((await store.keywordSearch(NS, indexTerms(['alpha*']), 10)).length, 1, 'alpha* is the word alpha, not a prefix query');
        assert.equal((await store.keywordSearch(NS, indexTerms(['alp*']), 10)).length, 0, 'no prefix expansion');
        assert.equal((await store.keywordSearch(NS, indexTerms(['-alpha']), 10)).length, 1, 'a leading minus does not negate');
        // Unicode words are found.
        assert.equal((await store.keywordSearch(NS, indexTerms(['café']), 10)).length, 1);
        assert.equal((await store.keywordSearch(NS, indexTerms(['zürich']), 10)).length, 1);
        // The store is intact after all of it.
        assert.equal((await store.listMemories({ namespace: NS })).length, 3);
      });

      it('getEntries: memory and turn metadata, turn provenance from its source', async () => {
        const src = await store.addSource(NS, 'claude-code', '/logs/session.jsonl');
        const mem = (await add('walrus memory', { category: 'fact', importance: 7, provenance: [{ source: 'cli', messageId: 'x1' }] }, at(0))).memory;
        const [t] = (
          await store.addTurns([turn({ messageId: 'w1', sessionId: 'sess-9', sourceId: src.id, line: 42, speaker: 'Ana', role: 'user', text: 'walrus turn', timestamp: at(3) })])
        ).inserted;
        const [noSrc] = (await store.addTurns([turn({ messageId: 'w2', text: 'walrus turn without source', timestamp: at(4) })])).inserted;
        const hits = await store.keywordSearch(NS, indexTerms(['walrus']), 10);
        const entries = await store.getEntries(NS, hits.map((h) => h.seq));
        const byRef = new Map(entries.map((e) => [e.refId, e]));
        const m = byRef.get(mem.id)!;
        assert.equal(m.kind, 'memory');
        assert.equal(m.namespace, NS);
        assert.equal(m.text, 'walrus memory');
        assert.equal(m.time, at(0));
        assert.equal(m.createdAt, at(0));
        assert.equal(m.category, 'fact');
        assert.equal(m.importance, 7);
        assert.equal(m.current, true);
        assert.equal(m.validTo, null);
        assert.deepEqual(m.provenance, [{ source: 'cli', messageId: 'x1' }]);
        const e = byRef.get(t!.id)!;
        assert.equal(e.kind, 'turn');
        assert.equal(e.text, 'walrus turn');
        assert.equal(e.time, at(3));
        assert.equal(e.category, null);
        assert.equal(e.importance, null);
        assert.equal(e.current, true);
        assert.deepEqual(e.provenance, [
          { source: 'claude-code', path: '/logs/session.jsonl', sessionId: 'sess-9', messageId: 'w1', line: 42, role: 'user', speaker: 'Ana', timestamp: at(3) },
        ]);
        const n = byRef.get(noSrc!.id)!;
        assert.deepEqual(n.provenance, [{ sessionId: 's1', messageId: 'w2', role: 'user', timestamp: at(4) }]);
        assert.deepEqual(await store.getEntries(NS, []), []);
        assert.deepEqual(await store.getEntries(NS, [987654321]), []);
      });

      it('a turn indexes indexText but shows its text', async () => {
        const [t] = (await store.addTurns([turn({ messageId: 'i1', text: 'sure, sounds good', indexText: 'Ana: sure, sounds good (about the flamingo budget)' })])).inserted;
        const hits = await store.keywordSearch(NS, indexTerms(['flamingo']), 10);
        const [e] = await store.getEntries(NS, hits.map((h) => h.seq));
        assert.equal(e!.refId, t!.id);
        assert.equal(e!.text, 'sure, sounds good');
      });

      it('getEntries of a superseded memory says so', async () => {
        const a = (await add('heron v1')).memory;
        const { current } = await store.supersedeMemory(NS, a.id, { namespace: NS, text: 'heron v2' }, { now: at(9) });
        const seq = await seqOf(NS, a.id, ['heron']);
        const [e] = await store.getEntries(NS, [seq]);
        assert.equal(e!.current, false);
        assert.equal(e!.validTo, at(9));
        const [c] = await store.getEntries(NS, [await seqOf(NS, current.id, ['heron'])]);
        assert.equal(c!.current, true);
      });

      it('filterEntries: newest first by time, filters, limit, namespace wall', async () => {
        const a = (await add('one', { category: 'fact', importance: 2 }, at(0))).memory;
        const b = (await add('two', { category: 'decision', importance: 8 }, at(2))).memory;
        const c = (await add('three', { category: 'fact', importance: 9, eventTime: at(-10) }, at(3))).memory;
        const [t] = (await store.addTurns([turn({ messageId: 'f1', text: 'four', timestamp: at(1) })])).inserted;
        await store.addMemory({ namespace: OTHER, text: 'other ns' }, { now: at(5) });
        const refs = async (filter: object, limit = 50) => {
          const seqs = await store.filterEntries(NS, filter, limit);
          const entries = await store.getEntries(NS, seqs);
          const byseq = new Map(entries.map((e) => [e.seq, e.refId]));
          assert.equal(entries.length, seqs.length, 'every seq belongs to the namespace');
          return seqs.map((s) => byseq.get(s));
        };
        assert.deepEqual(await refs({}), [b.id, t!.id, a.id, c.id]);
        assert.deepEqual(await refs({}, 2), [b.id, t!.id]);
        assert.deepEqual(await refs({ kinds: ['memory'], categories: ['fact'] }), [a.id, c.id]);
        assert.deepEqual(await refs({ minImportance: 8 }), [b.id, c.id]);
        assert.deepEqual(await refs({ since: at(0), until: at(1) }), [t!.id, a.id]);
        await store.supersedeMemory(NS, b.id, { namespace: NS, text: 'two, revised' }, { now: at(6) });
        const now = await refs({ kinds: ['memory'] });
        assert.ok(!now.includes(b.id));
        assert.ok((await refs({ kinds: ['memory'], includeSuperseded: true })).includes(b.id));
        assert.deepEqual(await store.filterEntries('gamma', {}, 10), []);
      });
    });

    describe('vectors and cache', () => {
      it('a busy namespace crowding the best keyword hits never hides another namespace\'s matches', async () => {
        // OTHER's memories all outscore NS's (the word twice, short texts), so the global top hits
        // are all OTHER's: NS must still get its own, in BM25 order, and filters still apply.
        await store.addMemories(Array.from({ length: 60 }, (_, i) => ({ namespace: OTHER, text: `walrus walrus ${i}` })));
        const weak = (await add('a long note that mentions a walrus once among many other unrelated words here', { importance: 2 })).memory;
        const strong = (await add('walrus facts: the walrus eats clams', { importance: 9 })).memory;
        const hits = await store.keywordSearch(NS, indexTerms(['walrus']), 2);
        const entries = await store.getEntries(NS, hits.map((h) => h.seq));
        assert.deepEqual(hits.map((h) => entries.find((e) => e.seq === h.seq)!.refId), [strong.id, weak.id]);
        const filtered = await store.keywordSearch(NS, indexTerms(['walrus']), 5, { minImportance: 5 });
        assert.deepEqual((await store.getEntries(NS, filtered.map((h) => h.seq))).map((e) => e.refId), [strong.id]);
        assert.equal((await store.keywordSearch(OTHER, indexTerms(['walrus']), 100)).length, 60);
      });

      it('entriesMissingVector → putVectors → vectorsAfter with monotonic ids and watermark paging', async () => {
        const texts = ['v one', 'v two', 'v three', 'v four', 'v five'];
        for (const [i, text] of texts.entries()) await add(text, {}, at(i));
        await store.addMemory({ namespace: OTHER, text: 'v other' });
        const missing = await store.entriesMissingVector('model-a', 100, NS);
        assert.deepEqual(missing.map((m) => m.text), texts, 'oldest first, only this namespace');
        assert.ok(missing.every((m) => m.namespace === NS));
        assert.equal((await store.entriesMissingVector('model-a', 100)).length, 6, 'all namespaces without a filter');
        assert.deepEqual((await store.entriesMissingVector('model-a', 2, NS)).map((m) => m.text), texts.slice(0, 2));
        const page2 = await store.entriesMissingVector('model-a', 2, NS, missing[1]!.seq);
        assert.deepEqual(page2.map((m) => m.text), texts.slice(2, 4), 'afterSeq pages past the cursor');
        const entry = await store.entryFor('memory', (await store.listMemories({ namespace: NS, limit: 1 }))[0]!.id);
        assert.equal(entry?.text, 'v five');
        assert.equal(await store.entryFor('memory', 'm_doesnotexist'), null);

        await store.putVectors('model-a', missing.slice(0, 3).map((m, i) => ({ seq: m.seq, vector: vec(i, 1, 0) })));
        assert.deepEqual((await store.entriesMissingVector('model-a', 100, NS)).map((m) => m.text), texts.slice(3));
        assert.equal((await store.entriesMissingVector('model-b', 100, NS)).length, 5, 'other models are separate');
        await store.putVectors('model-a', missing.slice(3).map((m, i) => ({ seq: m.seq, vector: vec(i + 3, 1, 0) })));
        assert.deepEqual(await store.entriesMissingVector('model-a', 100, NS), []);

        const all = await store.vectorsAfter(NS, 'model-a', 0, 100);
        assert.equal(all.length, 5);
        for (let i = 1; i < all.length; i++) assert.ok(all[i]!.id > all[i - 1]!.id, 'ids strictly increase');
        assert.deepEqual(all.map((v) => v.seq), missing.map((m) => m.seq));
        assertVectorNear(all[4]!.vector, [4, 1, 0]);
        // Paging by watermark sees each vector exactly once.
        const paged: number[] = [];
        for (let mark = 0; ; ) {
          const page = await store.vectorsAfter(NS, 'model-a', mark, 2);
          if (page.length === 0) break;
          assert.ok(page.length <= 2);
          paged.push(...page.map((p) => p.seq));
          mark = page[page.length - 1]!.id;
        }
        assert.deepEqual(paged, all.map((v) => v.seq));
        // A re-embedded entry comes back past the watermark with a newer id.
        const watermark = all[4]!.id;
        await store.putVectors('model-a', [{ seq: all[0]!.seq, vector: vec(9, 9, 9) }]);
        const after = await store.vectorsAfter(NS, 'model-a', watermark, 10);
        assert.equal(after.length, 1);
        assert.equal(after[0]!.seq, all[0]!.seq);
        assert.ok(after[0]!.id > watermark);
        assertVectorNear(after[0]!.vector, [9, 9, 9]);
        assert.equal((await store.vectorsAfter(NS, 'model-a', 0, 100)).length, 5, 'replaced, not doubled');
        assert.deepEqual(await store.vectorsAfter(OTHER, 'model-a', 0, 100), [], 'namespace wall');
      });

      it('getVectors returns Float32 values by seq for one model (within int8 quantisation)', async () => {
        await add('g one');
        await add('g two');
        const [a, b] = await store.entriesMissingVector('m', 10, NS);
        const va = vec(0.1, -0.25, 1e-7, 3.4e38);
        await store.putVectors('m', [{ seq: a!.seq, vector: va }, { seq: b!.seq, vector: vec(1, 2, 3, 4) }]);
        // A vector view with an offset inside a larger buffer is stored by value.
        const big = new Float32Array([7, 7, 0.5, 0.25, 0.125, 0.0625]);
        await store.putVectors('other-model', [{ seq: a!.seq, vector: big.subarray(2) }]);
        const got = await store.getVectors('m', [a!.seq, b!.seq, 424242]);
        assert.equal(got.size, 2);
        assert.ok(got.get(a!.seq) instanceof Float32Array);
        assertVectorNear(got.get(a!.seq), [...va]);
        assertVectorNear(got.get(b!.seq), [1, 2, 3, 4]);
        assertVectorNear((await store.getVectors('other-model', [a!.seq])).get(a!.seq), [0.5, 0.25, 0.125, 0.0625]);
        assert.equal((await store.getVectors('nope', [a!.seq])).size, 0);
        assert.equal((await store.getVectors('m', [])).size, 0);
      });

      it('getQuantisedVectors returns the stored bytes, decoding to what getVectors returns', async () => {
        await add('q one');
        await add('q two');
        const [a, b] = await store.entriesMissingVector('m', 10, NS);
        await store.putVectors('m', [{ seq: a!.seq, vector: vec(0.1, -0.25, 1e-7, 3.4e38) }, { seq: b!.seq, vector: vec(1, 2, 3, 4, 5) }]);
        await store.putVectors('other-model', [{ seq: a!.seq, vector: vec(0.5, 0.25) }]);
        assert.ok(store.getQuantisedVectors, 'both backends read stored bytes');
        const got = await store.getQuantisedVectors('m', [a!.seq, b!.seq, 424242, a!.seq]);
        const decoded = await store.getVectors('m', [a!.seq, b!.seq]);
        assert.deepEqual([...got.keys()].sort(), [a!.seq, b!.seq].sort());
        for (const [seq, bytes] of got) {
          assert.ok(bytes instanceof Uint8Array);
          assert.deepEqual([...decodeVector(bytes)], [...decoded.get(seq)!], `seq ${seq}`);
        }
        assert.equal(got.get(b!.seq)!.byteLength, quantisedBytes(5));
        assert.deepEqual([...decodeVector((await store.getQuantisedVectors('other-model', [a!.seq])).get(a!.seq)!)], [...(await store.getVectors('other-model', [a!.seq])).get(a!.seq)!]);
        assert.equal((await store.getQuantisedVectors('nope', [a!.seq])).size, 0);
        assert.equal((await store.getQuantisedVectors('m', [])).size, 0);
      });

      it('changeMark, where offered, changes with every write through the store', async () => {
        if (!store.changeMark) return;
        const marks = [await store.changeMark()];
        await add('mark one');
        marks.push(await store.changeMark());
        const [a] = await store.entriesMissingVector('m', 10, NS);
        await store.putVectors('m', [{ seq: a!.seq, vector: vec(1, 2) }]);
        marks.push(await store.changeMark());
        await store.putVectors('m', [{ seq: a!.seq, vector: vec(2, 1) }]);
        marks.push(await store.changeMark());
        for (let i = 1; i < marks.length; i++) assert.notEqual(marks[i], marks[i - 1], `write ${i}`);
        assert.equal(typeof marks[0], 'string');
      });

      it('putVectors for an unknown entry is skipped', async () => {
        await store.putVectors('m', [{ seq: 999999, vector: vec(1) }]);
        assert.deepEqual(await store.vectorModels(), []);
      });

      it('vectorStats, vectorModels and dropVectorsExcept', async () => {
        await store.ensureNamespace('empty');
        for (const t of ['s1', 's2', 's3']) await add(t);
        await store.addMemory({ namespace: OTHER, text: 'b1' });
        await store.addTurns([turn({ messageId: 'vt', namespace: OTHER })]);
        const alpha = await store.entriesMissingVector('old', 10, NS);
        const beta = await store.entriesMissingVector('old', 10, OTHER);
        await store.putVectors('old', [...alpha, ...beta].map((e) => ({ seq: e.seq, vector: vec(1, 0, 0, 0) })));
        await store.putVectors('new', alpha.slice(0, 1).map((e) => ({ seq: e.seq, vector: vec(1, 0) })));

        const statsOld = await store.vectorStats('old');
        const pick = (s: typeof statsOld) => Object.fromEntries(s.map((x) => [x.namespace, { vectors: x.vectors, missing: x.missing, model: x.model }]));
        assert.deepEqual(pick(statsOld), {
          alpha: { vectors: 3, missing: 0, model: 'old' },
          beta: { vectors: 2, missing: 0, model: 'old' },
          empty: { vectors: 0, missing: 0, model: 'old' },
        });
        assert.deepEqual(pick(await store.vectorStats('new')), {
          alpha: { vectors: 1, missing: 2, model: 'new' },
          beta: { vectors: 0, missing: 2, model: 'new' },
          empty: { vectors: 0, missing: 0, model: 'new' },
        });
        assert.deepEqual(await store.vectorModels(), [
          { model: 'new', dimensions: 2, vectors: 1 },
          { model: 'old', dimensions: 4, vectors: 5 },
        ]);
        // A packed row (several vectors end to end) and an empty one are stored as they are.
        const [a0, a1] = [alpha[0]!.seq, alpha[1]!.seq];
        await store.putVectors('new#passages', [{ seq: a0, vector: new Float32Array([1, 0, 0, 1]) }, { seq: a1, vector: new Float32Array(0) }]);
        const packed = await store.getVectors('new#passages', [a0, a1]);
        assert.deepEqual([...packed.get(a0)!], [1, 0, 0, 1]);
        assert.equal(packed.get(a1)!.length, 0);
        assert.equal(await store.dropVectorsExcept(['new', 'new#passages']), 5);
        assert.deepEqual((await store.vectorModels()).map((m) => m.model), ['new', 'new#passages']);
        assert.deepEqual(await store.vectorsAfter(NS, 'old', 0, 10), []);
        assert.equal((await store.entriesMissingVector('old', 10)).length, 5);
        assert.equal(await store.dropVectorsExcept(['new']), 2);
        assert.equal(await store.dropVectorsExcept(['new']), 0);
        assert.equal(await store.dropVectorsExcept([]), 1);
        assert.deepEqual(await store.vectorModels(), []);
      });

      it('cacheGet / cachePut by model and text hash', async () => {
        assert.equal((await store.cacheGet('m', ['h1'])).size, 0);
        await store.cachePut('m', [
          { textHash: 'h1', vector: vec(1, 2) },
          { textHash: 'h2', vector: vec(0.5, -0.5) },
        ]);
        await store.cachePut('m2', [{ textHash: 'h1', vector: vec(9, 9, 9) }]);
        const got = await store.cacheGet('m', ['h1', 'h2', 'h3']);
        assert.deepEqual([...got.keys()].sort(), ['h1', 'h2']);
        assertVectorNear(got.get('h1'), [1, 2]);
        assertVectorNear(got.get('h2'), [0.5, -0.5]);
        assertVectorNear((await store.cacheGet('m2', ['h1'])).get('h1'), [9, 9, 9]);
        assert.equal((await store.cacheGet('m', [])).size, 0);
        // Many hashes in one call.
        const many = Array.from({ length: 1200 }, (_, i) => ({ textHash: `bulk-${i}`, vector: vec(i) }));
        await store.cachePut('m', many);
        const back = await store.cacheGet('m', many.map((m) => m.textHash));
        assert.equal(back.size, 1200);
        assertVectorNear(back.get('bulk-1199'), [1199]);
      });

      it('a vector stored with its text hash is that text\'s cached vector; it stays cached when its row goes; a purge of the hash forgets it', async () => {
        const sha = (t: string) => createHash('sha256').update(t).digest('hex');
        const [a, b, c] = ['cache one', 'cache two', 'cache three'];
        for (const t of [a, b, c]) await add(t);
        const seqOf = new Map((await store.entriesMissingVector('m', 10, NS)).map((m) => [m.text, m.seq]));
        // b was cached before its row was written (with the same bytes): one copy is enough, it still reads back.
        await store.cachePut('m', [{ textHash: sha(b), vector: vec(0, 1) }]);
        await store.putVectors('m', [
          { seq: seqOf.get(a)!, vector: vec(1, 0), textHash: sha(a) },
          { seq: seqOf.get(b)!, vector: vec(0, 1), textHash: sha(b) },
          { seq: seqOf.get(c)!, vector: vec(0.6, 0.8) },
        ]);
        let got = await store.cacheGet('m', [sha(a), sha(b), sha(c), 'not-a-hash', '']);
        assert.deepEqual([...got.keys()].sort(), [sha(a), sha(b)].sort(), 'a row without a hash is not a cache entry');
        assertVectorNear(got.get(sha(a)), [1, 0]);
        assertVectorNear(got.get(sha(b)), [0, 1]);
        assert.equal((await store.cacheGet('other-model', [sha(a)])).size, 0, 'by model');
        // The row of a replaced by another text's vector, and b's row dropped with its model: both stay cached.
        await store.putVectors('m', [{ seq: seqOf.get(a)!, vector: vec(0.8, 0.6), textHash: sha('cache one, edited') }]);
        await store.dropVectorsExcept(['kept-model']);
        got = await store.cacheGet('m', [sha(a), sha(b), sha('cache one, edited')]);
        assert.equal(got.size, 3);
        assertVectorNear(got.get(sha(a)), [1, 0]);
        assertVectorNear(got.get(sha(b)), [0, 1]);
        assertVectorNear(got.get(sha('cache one, edited')), [0.8, 0.6]);
        // A purge forgets a text's cached vector wherever it is, and keeps the vector of an entry that holds it.
        await store.putVectors('m', [{ seq: seqOf.get(c)!, vector: vec(0.6, 0.8), textHash: sha(c) }]);
        assert.ok((await store.dropCachedVectors([sha(a), sha(c)])) >= 2);
        got = await store.cacheGet('m', [sha(a), sha(b), sha(c)]);
        assert.deepEqual([...got.keys()], [sha(b)]);
        assertVectorNear((await store.getVectors('m', [seqOf.get(c)!])).get(seqOf.get(c)!), [0.6, 0.8]);
        // Hashes that only share their first half are one key: the store keeps 16 bytes of a sha256.
        assert.equal((await store.cacheGet('m', [sha(b).slice(0, 32) + '0'.repeat(32)])).size, 1);
      });

      it('entries keep working with more seqs than one query can bind', async () => {
        await store.addMemories(Array.from({ length: 1100 }, (_, i) => ({ namespace: NS, text: `bulk narwhal ${i}` })), { now: at(0) });
        const seqs = await store.filterEntries(NS, {}, 5000);
        assert.equal(seqs.length, 1100);
        assert.equal((await store.getEntries(NS, seqs)).length, 1100);
        await store.putVectors('m', seqs.map((seq) => ({ seq, vector: vec(seq) })));
        const vectors = await store.getVectors('m', seqs);
        assert.equal(vectors.size, 1100);
        assertVectorNear(vectors.get(seqs[17]!), [seqs[17]!]);
      });
    });

    describe('documents', () => {
      const PATH = '/notes/MEMORY.md';
      const chunk = (heading: string, text: string, startLine: number, endLine = startLine) => ({ heading, text, startLine, endLine });
      const doc = (over: Partial<ReplaceDocumentInput> = {}): ReplaceDocumentInput => ({
        namespace: NS,
        sourceId: null,
        path: PATH,
        fileHash: 'hash-1',
        time: at(0),
        chunks: [chunk('Projects > Staging', 'The staging database listens on port 5433', 3, 4), chunk('Projects > Pets', 'Our cat is called Marmalade', 7)],
        ...over,
      });
      /** Texts of the namespace's document entries matching a word, best first. */
      const found = async (namespace: string, word: string) => {
        const hits = await store.keywordSearch(namespace, indexTerms([word]), 20, { kinds: ['document'] });
        return (await store.getEntries(namespace, hits.map((h) => h.seq))).map((e) => e.text);
      };

      it('replaceDocument inserts, then is a no-op for the same hash, then replaces on a new hash', async () => {
        assert.deepEqual(await store.replaceDocument(doc()), { inserted: 2, removed: 0, unchanged: false });
        assert.deepEqual(await store.documentFiles(NS), [{ path: PATH, fileHash: 'hash-1', chunks: 2 }]);
        assert.deepEqual(await store.replaceDocument(doc({ chunks: [chunk('', 'ignored: the hash says nothing changed', 1)] })), {
          inserted: 0,
          removed: 0,
          unchanged: true,
        });
        assert.deepEqual(await found(NS, 'marmalade'), ['Our cat is called Marmalade']);
        assert.deepEqual(await found(NS, 'ignored'), []);

        const changed = await store.replaceDocument(doc({ fileHash: 'hash-2', time: at(5), chunks: [chunk('Pets', 'Our dog is called Biscuit', 2, 3)] }));
        assert.deepEqual(changed, { inserted: 1, removed: 2, unchanged: false });
        assert.deepEqual(await found(NS, 'marmalade'), []);
        assert.deepEqual(await found(NS, 'staging'), []);
        assert.deepEqual(await found(NS, 'biscuit'), ['Our dog is called Biscuit']);
        assert.deepEqual(await store.documentFiles(NS), [{ path: PATH, fileHash: 'hash-2', chunks: 1 }]);
        assert.equal((await store.namespaceStats()).find((s) => s.namespace === NS)!.documents, 1);
      });

      it('getEntries and getDocumentChunk give the chunk text, its path, lines, heading and file time', async () => {
        await store.replaceDocument(doc({ time: at(-24) }));
        const hits = await store.keywordSearch(NS, indexTerms(['staging']), 10);
        const [e] = await store.getEntries(NS, hits.map((h) => h.seq));
        assert.equal(e!.kind, 'document');
        assert.equal(e!.text, 'The staging database listens on port 5433');
        assert.equal(e!.time, at(-24));
        assert.equal(e!.current, true);
        assert.equal(e!.category, null);
        assert.equal(e!.importance, null);
        assert.deepEqual(e!.provenance, [{ source: 'markdown', path: PATH, line: 3, endLine: 4, heading: 'Projects > Staging' }]);
        const c = await store.getDocumentChunk(NS, e!.refId);
        assert.ok(c);
        assert.equal(c.id, e!.refId);
        assert.equal(c.namespace, NS);
        assert.equal(c.sourceId, null);
        assert.equal(c.path, PATH);
        assert.equal(c.chunk, 0);
        assert.equal(c.heading, 'Projects > Staging');
        assert.equal(c.text, 'The staging database listens on port 5433');
        assert.equal(c.startLine, 3);
        assert.equal(c.endLine, 4);
        assert.equal(c.fileHash, 'hash-1');
        assert.equal(c.time, at(-24));
        assert.ok(!Number.isNaN(Date.parse(c.createdAt)));
        assert.equal(await store.getDocumentChunk(OTHER, e!.refId), null);
        assert.equal(await store.getDocumentChunk(NS, 'x_doesnotexist'), null);
        // Headings are searchable too, and the chunk's time is what since/until filter on.
        assert.deepEqual((await found(NS, 'projects')).sort(), ['Our cat is called Marmalade', 'The staging database listens on port 5433']);
        assert.equal((await store.keywordSearch(NS, indexTerms(['staging']), 10, { since: at(0) })).length, 0);
        assert.equal((await store.keywordSearch(NS, indexTerms(['staging']), 10, { kinds: ['memory', 'turn'] })).length, 0);
        assert.equal((await store.entryFor('document', e!.refId))?.seq, e!.seq);
      });

      it('removeDocument drops a file\'s chunks and entries; other files stay', async () => {
        await store.replaceDocument(doc());
        await store.replaceDocument(doc({ path: '/notes/memory/2026-01-10.md', chunks: [chunk('', 'Marmalade visited the vet', 1)] }));
        assert.equal(await store.removeDocument(NS, PATH), 2);
        assert.equal(await store.removeDocument(NS, PATH), 0);
        assert.deepEqual(await found(NS, 'marmalade'), ['Marmalade visited the vet']);
        assert.deepEqual((await store.documentFiles(NS)).map((f) => f.path), ['/notes/memory/2026-01-10.md']);
        assert.equal((await store.namespaceStats()).find((s) => s.namespace === NS)!.documents, 1);
        // Re-adding after removal indexes it again even with the old hash.
        assert.deepEqual(await store.replaceDocument(doc()), { inserted: 2, removed: 0, unchanged: false });
      });

      it('an emptied file loses its chunks; an empty file never indexed is unchanged', async () => {
        assert.deepEqual(await store.replaceDocument(doc({ chunks: [] })), { inserted: 0, removed: 0, unchanged: true });
        await store.replaceDocument(doc());
        assert.deepEqual(await store.replaceDocument(doc({ fileHash: 'empty', chunks: [] })), { inserted: 0, removed: 2, unchanged: false });
        assert.deepEqual(await store.documentFiles(NS), []);
        assert.deepEqual(await store.replaceDocument(doc({ fileHash: 'empty', chunks: [] })), { inserted: 0, removed: 0, unchanged: true });
      });

      it('namespaces are walls: same path in two namespaces, separate chunks', async () => {
        await store.replaceDocument(doc());
        await store.replaceDocument(doc({ namespace: OTHER, fileHash: 'other', chunks: [chunk('', 'Beta has a parrot named Marmalade', 1)] }));
        assert.deepEqual(await found(NS, 'marmalade'), ['Our cat is called Marmalade']);
        assert.deepEqual(await found(OTHER, 'marmalade'), ['Beta has a parrot named Marmalade']);
        const betaSeqs = (await store.keywordSearch(OTHER, indexTerms(['marmalade']), 10)).map((h) => h.seq);
        assert.deepEqual(await store.getEntries(NS, betaSeqs), []);
        assert.equal(await store.removeDocument(OTHER, PATH), 1);
        assert.deepEqual(await found(NS, 'marmalade'), ['Our cat is called Marmalade']);
        assert.deepEqual(await store.documentFiles(OTHER), []);
        assert.deepEqual(await store.documentFiles('gamma'), []);
      });

      it('documentFiles filters by source; unsourced with null', async () => {
        const a = await store.addSource(NS, 'markdown', '/notes');
        const b = await store.addSource(NS, 'markdown', '/vault');
        await store.replaceDocument(doc({ sourceId: a.id }));
        await store.replaceDocument(doc({ sourceId: b.id, path: '/vault/b.md', fileHash: 'b' }));
        await store.replaceDocument(doc({ sourceId: null, path: '/loose.md', fileHash: 'c' }));
        const paths = async (sourceId?: number | null) => (await store.documentFiles(NS, sourceId)).map((f) => f.path);
        assert.deepEqual(await paths(), ['/loose.md', '/notes/MEMORY.md', '/vault/b.md']);
        assert.deepEqual(await paths(a.id), ['/notes/MEMORY.md']);
        assert.deepEqual(await paths(b.id), ['/vault/b.md']);
        assert.deepEqual(await paths(null), ['/loose.md']);
        assert.deepEqual(await paths(987654), []);
      });

      it('chunks survive removal of their source (unsourced), and a source re-added takes them back', async () => {
        const src = await store.addSource(NS, 'markdown', '/notes');
        await store.replaceDocument(doc({ sourceId: src.id }));
        assert.equal(await store.removeSource(src.id), true);
        assert.deepEqual(await found(NS, 'marmalade'), ['Our cat is called Marmalade']);
        assert.deepEqual((await store.documentFiles(NS, null)).map((f) => f.path), [PATH]);
        const hits = await store.keywordSearch(NS, indexTerms(['marmalade']), 10);
        const [e] = await store.getEntries(NS, hits.map((h) => h.seq));
        assert.equal((await store.getDocumentChunk(NS, e!.refId))!.sourceId, null);
        const again = await store.addSource(NS, 'markdown', '/notes');
        assert.deepEqual(await store.replaceDocument(doc({ sourceId: again.id })), { inserted: 0, removed: 0, unchanged: true });
        assert.deepEqual((await store.documentFiles(NS, again.id)).map((f) => f.path), [PATH]);
        assert.equal((await store.getDocumentChunk(NS, e!.refId))!.sourceId, again.id);
      });

      it('vectors of replaced or removed chunks are gone; new chunks need vectors', async () => {
        await store.replaceDocument(doc());
        const first = await store.entriesMissingVector('m', 10, NS);
        assert.deepEqual(first.map((x) => x.text), ['Projects > Staging\nThe staging database listens on port 5433', 'Projects > Pets\nOur cat is called Marmalade']);
        await store.putVectors('m', first.map((x, i) => ({ seq: x.seq, vector: vec(i, 1) })));
        assert.equal((await store.vectorsAfter(NS, 'm', 0, 10)).length, 2);
        await store.replaceDocument(doc({ fileHash: 'hash-2', chunks: [chunk('', 'Only one chunk now', 1)] }));
        assert.deepEqual(await store.vectorsAfter(NS, 'm', 0, 10), []);
        assert.equal((await store.getVectors('m', first.map((x) => x.seq))).size, 0);
        assert.deepEqual((await store.entriesMissingVector('m', 10, NS)).map((x) => x.text), ['Only one chunk now']);
        const [only] = await store.entriesMissingVector('m', 10, NS);
        await store.putVectors('m', [{ seq: only!.seq, vector: vec(1, 1) }]);
        assert.equal(await store.removeDocument(NS, PATH), 1);
        assert.deepEqual(await store.vectorsAfter(NS, 'm', 0, 10), []);
        assert.deepEqual(await store.vectorModels(), []);
      });

      it('bad chunk lines are INVALID_INPUT and store nothing', async () => {
        await rejectsCode(store.replaceDocument(doc({ chunks: [chunk('', 'x', 0)] })), 'INVALID_INPUT');
        await rejectsCode(store.replaceDocument(doc({ chunks: [chunk('', 'x', 5, 4)] })), 'INVALID_INPUT');
        assert.deepEqual(await store.documentFiles(NS), []);
      });
    });

    describe('hot state and API tokens', () => {
      it('getHotState is null until set; mergeHotState merges key by key and creates the namespace', async () => {
        assert.equal(await store.getHotState(NS), null);
        const first = await store.mergeHotState(NS, { objective: 'ship', blockers: ['a', 'b'] }, { now: at(0) });
        assert.deepEqual(first, { namespace: NS, state: { objective: 'ship', blockers: ['a', 'b'] }, updatedAt: at(0) });
        assert.deepEqual(await store.getHotState(NS), first);
        assert.ok((await store.namespaceStats()).some((s) => s.namespace === NS), 'the namespace exists');
        const second = await store.mergeHotState(NS, { blockers: [], notes: 'n', objective: undefined }, { now: at(1) });
        assert.deepEqual(second.state, { objective: 'ship', blockers: [], notes: 'n' });
        assert.equal(second.updatedAt, at(1));
        const third = await store.mergeHotState(NS, { objective: null });
        assert.deepEqual(third.state, { objective: null, blockers: [], notes: 'n' });
        assert.deepEqual(await store.getHotState(NS), third);
      });

      it('hot state is per namespace', async () => {
        await store.mergeHotState(NS, { objective: 'alpha goal' });
        await store.mergeHotState(OTHER, { objective: 'beta goal' });
        assert.equal((await store.getHotState(NS))!.state.objective, 'alpha goal');
        assert.equal((await store.getHotState(OTHER))!.state.objective, 'beta goal');
        assert.equal(await store.getHotState('gamma'), null);
      });

      const token = (id: string, hash: string, namespaces: string[] = [NS], createdAt = at(0)) => ({ id, hash, label: null, namespaces, createdAt });

      it('addApiToken / listApiTokens / revokeApiToken / hasApiTokens', async () => {
        assert.equal(await store.hasApiTokens(), false);
        assert.equal(await store.hasApiTokens({ includeRevoked: true }), false);
        assert.deepEqual(await store.listApiTokens(), []);
        const a = await store.addApiToken({ ...token('tok_a', 'aa'.repeat(32), [NS, OTHER]), label: 'ci' });
        assert.deepEqual(a, { id: 'tok_a', hash: 'aa'.repeat(32), label: 'ci', namespaces: [NS, OTHER], createdAt: at(0), lastUsedAt: null, revokedAt: null });
        await store.addApiToken(token('tok_b', 'bb'.repeat(32), ['*'], at(1)));
        assert.equal(await store.hasApiTokens(), true);
        assert.deepEqual((await store.listApiTokens()).map((t) => t.id), ['tok_a', 'tok_b']);
        assert.deepEqual((await store.listApiTokens())[0], a);
        assert.equal(await store.revokeApiToken('tok_a', { now: at(2) }), true);
        assert.equal(await store.revokeApiToken('tok_a'), false, 'revoking twice');
        assert.equal(await store.revokeApiToken('tok_missing'), false);
        assert.deepEqual((await store.listApiTokens()).map((t) => t.id), ['tok_b']);
        const all = await store.listApiTokens({ includeRevoked: true });
        assert.deepEqual(all.map((t) => [t.id, t.revokedAt]), [['tok_a', at(2)], ['tok_b', null]]);
        assert.equal(await store.revokeApiToken('tok_b'), true);
        assert.equal(await store.hasApiTokens(), false);
        assert.equal(await store.hasApiTokens({ includeRevoked: true }), true, 'the home remembers it had tokens');
      });

      it('a duplicate token hash or id → CONFLICT', async () => {
        await store.addApiToken(token('tok_a', 'aa'.repeat(32)));
        await rejectsCode(store.addApiToken(token('tok_b', 'aa'.repeat(32))), 'CONFLICT');
        await rejectsCode(store.addApiToken(token('tok_a', 'cc'.repeat(32))), 'CONFLICT');
        assert.equal((await store.listApiTokens()).length, 1);
      });

      it('touchApiToken updates last use only when older than the threshold, never for revoked tokens', async () => {
        await store.addApiToken(token('tok_a', 'aa'.repeat(32)));
        assert.equal(await store.touchApiToken('tok_a', at(1), at(0)), true);
        assert.equal((await store.listApiTokens())[0]!.lastUsedAt, at(1));
        assert.equal(await store.touchApiToken('tok_a', at(1.5), at(0.9)), false, 'used recently: no write');
        assert.equal((await store.listApiTokens())[0]!.lastUsedAt, at(1));
        assert.equal(await store.touchApiToken('tok_a', at(3), at(2)), true);
        assert.equal((await store.listApiTokens())[0]!.lastUsedAt, at(3));
        await store.revokeApiToken('tok_a');
        assert.equal(await store.touchApiToken('tok_a', at(9), at(8)), false);
        assert.equal(await store.touchApiToken('tok_missing', at(9), at(8)), false);
      });
    });

    describe('namespaces and health', () => {
      it('namespaceStats counts memories, current memories, turns and documents per namespace', async () => {
        assert.deepEqual(await store.namespaceStats(), []);
        await store.ensureNamespace('empty');
        await store.ensureNamespace('empty');
        const a = (await add('n1')).memory;
        await add('n2');
        await store.supersedeMemory(NS, a.id, { namespace: NS, text: 'n1 revised' });
        await store.addMemory({ namespace: OTHER, text: 'b' });
        await store.addTurns([turn({ messageId: '1', namespace: OTHER }), turn({ messageId: '2', namespace: OTHER })]);
        assert.deepEqual(await store.namespaceStats(), [
          { namespace: 'alpha', memories: 3, currentMemories: 2, turns: 0, documents: 0 },
          { namespace: 'beta', memories: 1, currentMemories: 1, turns: 2, documents: 0 },
          { namespace: 'empty', memories: 0, currentMemories: 0, turns: 0, documents: 0 },
        ]);
      });

      it('health reports ok with the backend name and a schema version', async () => {
        const health = await store.health();
        assert.equal(health.ok, true, health.problems.join('; '));
        assert.equal(health.backend, store.backend);
        assert.deepEqual(health.problems, []);
        assert.ok(Number.isInteger(health.schemaVersion) && health.schemaVersion >= 1);
        assert.equal(typeof health.location, 'string');
        assert.ok(health.location.length > 0);
      });

      it('errors from the store are CairnErrors with stable codes', async () => {
        const err = await rejectsCode(store.supersedeMemory(NS, 'm_missing', { namespace: NS, text: 'x' }), 'NOT_FOUND');
        assert.ok(err instanceof CairnError);
      });
    });
  });
}
