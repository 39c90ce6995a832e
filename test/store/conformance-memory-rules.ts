// The memory rules (src/memory/remember.ts) against a store: exact-duplicate merging, what a
// re-mention changes, supersede chains and refusals, import, judged memories, and that the
// database itself keeps one current memory per statement when writers race. Talks to the store
// only through the Store interface, so a second backend runs it unchanged with its own factory.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import type { Memory, NewMemory } from '../../src/core/types.js';
import { dedupKey } from '../../src/core/text.js';
import { MAX_PROVENANCE, newMemoryRecord, remember, retag, supersede } from '../../src/memory/remember.js';
import { MemoryKeyConflict, type MemoryUnit, type Store } from '../../src/store/store.js';
import { rejectsCode } from '../helpers/store-fixtures.js';

/** A fresh store, a second connection to the same database (another process's view of it), cleanup. */
export type SharedStoreFactory = () => Promise<{ store: Store; connect: () => Promise<Store>; cleanup: () => Promise<void> }>;

const NS = 'alpha';
const T0 = Date.parse('2026-01-10T12:00:00.000Z');
const at = (hours: number): string => new Date(T0 + hours * 3_600_000).toISOString();

async function current(store: Store, namespace = NS): Promise<Memory[]> {
  return store.listMemories({ namespace, limit: 1000 });
}

/** The store with the first `hide` lookups by content key answered "none": what a writer sees that read just before another committed. */
function staleReads(store: Store, hide: number): Store {
  let hidden = 0;
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'memoryUnit') return Reflect.get(target, prop, receiver) as unknown;
      return <T>(fn: (unit: MemoryUnit) => Promise<T>) =>
        target.memoryUnit((unit) =>
          fn({ ...unit, currentByKey: async (ns, key) => (hidden++ < hide ? null : unit.currentByKey(ns, key)) }),
        );
    },
  });
}

export function runMemoryRuleConformance(name: string, makeStore: SharedStoreFactory): void {
  describe(`memory rules on the store: ${name}`, () => {
    let store: Store;
    let connect: () => Promise<Store>;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, connect, cleanup } = await makeStore());
    });
    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    it('the same statement (case, spacing, end punctuation) merges: mentions, tags, provenance appended, higher importance kept', async () => {
      const first = await remember(store, { namespace: NS, text: 'Staging runs on port 5433.', importance: 6, tags: ['ops'], provenance: [{ source: 'a', messageId: '1' }] }, at(0));
      const again = await remember(store, { namespace: NS, text: '  staging RUNS on   port 5433 ', importance: 4, tags: ['db', 'ops'], provenance: [{ source: 'b', messageId: '2' }] }, at(1));
      assert.equal(first.duplicate, false);
      assert.equal(again.duplicate, true);
      assert.equal(again.memory.id, first.memory.id);
      const [stored, ...rest] = await current(store);
      assert.equal(rest.length, 0);
      assert.equal(stored!.text, 'Staging runs on port 5433.', 'the first wording stays');
      assert.equal(stored!.mentions, 2);
      assert.deepEqual(stored!.tags, ['ops', 'db']);
      assert.deepEqual(stored!.provenance.map((p) => p.messageId), ['1', '2']);
      assert.equal(stored!.importance, 6, 'a weaker re-mention does not lower importance');
      assert.equal(stored!.updatedAt, at(1));
      assert.equal(stored!.createdAt, at(0));
      assert.deepEqual(stored, again.memory, 'what the rule returns is what was stored');
      const stronger = await remember(store, { namespace: NS, text: 'staging runs on port 5433', importance: 9 }, at(2));
      assert.equal(stronger.memory.importance, 9);
      assert.equal(stronger.memory.mentions, 3);
    });

    it('another namespace, or different words, is another memory', async () => {
      await remember(store, { namespace: NS, text: 'the deploy is on Fridays' }, at(0));
      const elsewhere = await remember(store, { namespace: 'beta', text: 'the deploy is on Fridays' }, at(0));
      const other = await remember(store, { namespace: NS, text: 'the deploy is on Mondays' }, at(0));
      assert.equal(elsewhere.duplicate, false);
      assert.equal(other.duplicate, false);
      assert.equal((await current(store)).length, 2);
      assert.equal((await current(store, 'beta'))[0]!.mentions, 1);
    });

    it(`provenance is capped at ${MAX_PROVENANCE} entries, the oldest kept; mentions keep counting`, async () => {
      const text = 'the build cache lives in /var/cache/ci';
      for (let i = 0; i < MAX_PROVENANCE + 5; i++) await remember(store, { namespace: NS, text, provenance: [{ messageId: String(i) }] }, at(i));
      const [m] = await current(store);
      assert.equal(m!.mentions, MAX_PROVENANCE + 5);
      assert.deepEqual(m!.provenance.map((p) => p.messageId), Array.from({ length: MAX_PROVENANCE }, (_, i) => String(i)));
      const many = await remember(store, { namespace: NS, text: 'a fresh statement', provenance: Array.from({ length: 50 }, (_, i) => ({ line: i })) }, at(0));
      assert.equal(many.memory.provenance.length, MAX_PROVENANCE);
    });

    it('a supersede chain: each step retires the current one, links both ways, history oldest first', async () => {
      const a = await remember(store, { namespace: NS, text: 'Ana lives in Porto', category: 'fact', importance: 7, tags: ['ana'], entities: ['Ana'] }, at(0));
      const ab = await supersede(store, NS, a.memory.id, { namespace: NS, text: 'Ana lives in Lisbon' }, at(1));
      assert.equal(ab.current.supersedes, a.memory.id);
      assert.equal(ab.current.category, 'fact', 'what the replacement leaves out is inherited');
      assert.equal(ab.current.importance, 7);
      assert.deepEqual(ab.current.tags, ['ana']);
      assert.deepEqual(ab.current.entities, ['Ana']);
      assert.deepEqual([ab.previous.validTo, ab.previous.supersededBy], [at(1), ab.current.id]);
      const bc = await supersede(store, NS, ab.current.id, { namespace: NS, text: 'Ana lives in Madrid', importance: 3 }, at(2));
      assert.equal(bc.current.importance, 3);
      const history = await store.memoryHistory(NS, ab.current.id);
      assert.deepEqual(history.map((m) => m.text), ['Ana lives in Porto', 'Ana lives in Lisbon', 'Ana lives in Madrid']);
      assert.deepEqual(history.map((m) => m.validTo), [at(1), at(2), null]);
      assert.deepEqual((await current(store)).map((m) => m.text), ['Ana lives in Madrid']);
      assert.deepEqual(await store.getMemory(NS, a.memory.id), { ...a.memory, validTo: at(1), supersededBy: ab.current.id, updatedAt: at(1) });
    });

    it('refusals: a superseded memory (CONFLICT naming its successor), an unknown id, the same statement; nothing written', async () => {
      const a = await remember(store, { namespace: NS, text: 'the API key rotates monthly' }, at(0));
      const ab = await supersede(store, NS, a.memory.id, { namespace: NS, text: 'the API key rotates weekly' }, at(1));
      const err = await rejectsCode(supersede(store, NS, a.memory.id, { namespace: NS, text: 'the API key rotates daily' }, at(2)), 'CONFLICT', /already superseded/);
      assert.equal(err.details?.supersededBy, ab.current.id);
      await rejectsCode(supersede(store, NS, 'm_nosuchmemory', { namespace: NS, text: 'x' }, at(2)), 'NOT_FOUND');
      await rejectsCode(supersede(store, 'beta', ab.current.id, { namespace: 'beta', text: 'x' }, at(2)), 'NOT_FOUND', /namespace beta/);
      await rejectsCode(supersede(store, NS, ab.current.id, { namespace: NS, text: 'The API key rotates WEEKLY.' }, at(2)), 'INVALID_INPUT', /same statement/);
      const all = await store.listMemories({ namespace: NS, includeSuperseded: true });
      assert.deepEqual(all.map((m) => [m.text, m.mentions, m.validTo]).sort(), [
        ['the API key rotates monthly', 1, at(1)],
        ['the API key rotates weekly', 1, null],
      ]);
    });

    it('tag edits: the current memory only (CONFLICT naming the successor for history), each tag once, through the unit of work', async () => {
      const a = await remember(store, { namespace: NS, text: 'the backup runs nightly', tags: ['ops'] }, at(0));
      const units: string[] = [];
      const counted = new Proxy(store, {
        get(target, prop, receiver) {
          if (prop !== 'memoryUnit') return Reflect.get(target, prop, receiver) as unknown;
          return <T>(fn: (unit: MemoryUnit) => Promise<T>) => target.memoryUnit((unit) => fn({ ...unit, updateMemory: (ns, id, fields) => (units.push(id), unit.updateMemory(ns, id, fields)) }));
        },
      });
      const tagged = await retag(counted, NS, a.memory.id, ['backup', 'ops', 'backup', 'nightly'], at(1));
      assert.deepEqual(units, [a.memory.id], 'one write, through the unit');
      assert.deepEqual([tagged.tags, tagged.updatedAt, tagged.mentions], [['backup', 'ops', 'nightly'], at(1), 1]);
      assert.deepEqual((await store.getMemory(NS, a.memory.id))?.tags, ['backup', 'ops', 'nightly']);
      await rejectsCode(retag(store, 'beta', a.memory.id, ['x'], at(2)), 'NOT_FOUND', /namespace beta/);
      await rejectsCode(retag(store, NS, 'm_nosuchmemory', ['x'], at(2)), 'NOT_FOUND');
      const ab = await supersede(store, NS, a.memory.id, { namespace: NS, text: 'the backup runs hourly' }, at(3));
      assert.deepEqual(ab.current.tags, ['backup', 'ops', 'nightly'], 'the successor inherits the edited tags');
      const err = await rejectsCode(retag(store, NS, a.memory.id, ['late'], at(4)), 'CONFLICT', /superseded/);
      assert.equal(err.details?.supersededBy, ab.current.id);
      assert.deepEqual((await store.getMemory(NS, a.memory.id))?.tags, ['backup', 'ops', 'nightly'], 'history keeps its tags');
      assert.deepEqual((await retag(store, NS, ab.current.id, [], at(5))).tags, []);
      // A rejected unit writes nothing: a unit whose update fails after the refusal check rolls back whole.
      await assert.rejects(retag(new Proxy(store, {
        get(target, prop, receiver) {
          if (prop !== 'memoryUnit') return Reflect.get(target, prop, receiver) as unknown;
          return <T>(fn: (unit: MemoryUnit) => Promise<T>) => target.memoryUnit(async (unit) => fn({ ...unit, updateMemory: async (ns, id, fields) => { await unit.updateMemory(ns, id, fields); throw new Error('disk full'); } }));
        },
      }), NS, ab.current.id, ['lost'], at(6)), /disk full/);
      assert.deepEqual((await store.getMemory(NS, ab.current.id))?.tags, [], 'rolled back');
    });

    it('superseding with a statement that is already current re-mentions that one as the successor', async () => {
      const old = await remember(store, { namespace: NS, text: 'billing uses MySQL' }, at(0));
      const twin = await remember(store, { namespace: NS, text: 'billing uses Postgres', tags: ['db'] }, at(0));
      const res = await supersede(store, NS, old.memory.id, { namespace: NS, text: 'Billing uses Postgres.', tags: ['decision'] }, at(1));
      assert.equal(res.current.id, twin.memory.id);
      assert.equal(res.current.mentions, 2);
      assert.deepEqual(res.current.tags, ['db', 'decision']);
      assert.equal(res.current.supersedes, null, 'a twin keeps its own history link');
      assert.equal(res.previous.supersededBy, twin.memory.id);
      assert.equal((await store.listMemories({ namespace: NS, includeSuperseded: true })).length, 2);
    });

    it('a statement stated again after it was superseded is a new current memory, not merged into history', async () => {
      const a = await remember(store, { namespace: NS, text: 'the office is in Berlin' }, at(0));
      await supersede(store, NS, a.memory.id, { namespace: NS, text: 'the office is in Hamburg' }, at(1));
      const back = await remember(store, { namespace: NS, text: 'the office is in Berlin' }, at(2));
      assert.equal(back.duplicate, false);
      assert.notEqual(back.memory.id, a.memory.id);
      assert.equal((await store.getMemory(NS, a.memory.id))!.mentions, 1);
    });

    it('import: a known id is left alone, a current equal statement merges its mentions, anything else is kept verbatim', async () => {
      const here = await remember(store, { namespace: NS, text: 'lunch is at noon' }, at(0));
      assert.equal(await store.importMemory(here.memory), 'exists');
      const twin = { ...newMemoryRecord({ namespace: NS, text: 'Lunch is at noon!', tags: ['food'] }, at(1)), mentions: 3 };
      assert.equal(await store.importMemory(twin), 'merged');
      const merged = await store.getMemory(NS, here.memory.id);
      assert.deepEqual([merged!.mentions, merged!.tags], [4, ['food']]);
      assert.equal(await store.getMemory(NS, twin.id), null);
      const history = { ...newMemoryRecord({ namespace: NS, text: 'lunch is at noon' }, at(-5)), validTo: at(-4), supersededBy: here.memory.id };
      assert.equal(await store.importMemory(history), 'imported', 'history never merges');
      assert.deepEqual(await store.getMemory(NS, history.id), history);
    });

    it('judged turns: a memory at the bar, the same statement from another turn merges, judging again updates without doubling', async () => {
      await store.addTurns(['1', '2'].map((id) => ({ namespace: NS, sessionId: 's', messageId: id, role: 'user', text: 'we moved staging to port 5433', timestamp: at(0) })));
      const turns = await store.turnsAfter(NS, 0, 10);
      const judge = { category: 'decision' as const, judge: 'test', reason: 'r', statement: null, needsRejudge: false };
      const memory: NewMemory = { namespace: NS, text: 'Staging moved to port 5433', provenance: [{ messageId: '1' }] };
      const first = await store.applyJudgments([
        { ...judge, turnId: turns[0]!.turn.id, importance: 7, memory },
        { ...judge, turnId: turns[1]!.turn.id, importance: 8, memory: { ...memory, provenance: [{ messageId: '2' }] } },
      ]);
      assert.deepEqual(first.map((r) => r.duplicate), [false, true]);
      assert.equal(first[0]!.memoryId, first[1]!.memoryId);
      const again = await store.applyJudgments([{ ...judge, turnId: turns[0]!.turn.id, importance: 2, category: 'fact', memory }]);
      assert.deepEqual(again, [{ turnId: turns[0]!.turn.id, memoryId: first[0]!.memoryId, duplicate: false }]);
      const [m, ...rest] = await current(store);
      assert.equal(rest.length, 0);
      assert.deepEqual([m!.mentions, m!.importance, m!.category], [2, 2, 'fact']);
      assert.deepEqual(m!.provenance.map((p) => p.messageId), ['1', '2']);
      await assert.rejects(store.applyJudgments([{ ...judge, turnId: 't_nosuchturn', importance: 5, memory }]), /no turn t_nosuchturn/);
    });

    it('the database refuses a second current memory with the same content key, and the unit rolls back whole', async () => {
      const first = await remember(store, { namespace: NS, text: 'keys are unique' }, at(0));
      await assert.rejects(
        store.memoryUnit(async (unit) => {
          await unit.insertMemory(newMemoryRecord({ namespace: NS, text: 'written before the clash' }, at(1)));
          await unit.insertMemory(newMemoryRecord({ namespace: NS, text: 'Keys are unique.' }, at(1)));
        }),
        (err: unknown) => err instanceof MemoryKeyConflict && err.namespace === NS && err.key === dedupKey('keys are unique'),
      );
      assert.deepEqual((await current(store)).map((m) => m.id), [first.memory.id]);
      await assert.rejects(store.memoryUnit(async (unit) => {
        await unit.insertMemory(newMemoryRecord({ namespace: NS, text: 'half a unit' }, at(1)));
        throw new Error('stop here');
      }), /stop here/);
      assert.deepEqual((await current(store)).map((m) => m.text), ['keys are unique']);
    });

    it('a writer that lost the race (read "none", then the insert clashed) retries and re-mentions instead', async () => {
      await remember(store, { namespace: NS, text: 'the race is won once', provenance: [{ messageId: 'a' }] }, at(0));
      const late = await remember(staleReads(store, 1), { namespace: NS, text: 'The race is won once', provenance: [{ messageId: 'b' }] }, at(1));
      assert.equal(late.duplicate, true);
      const [m, ...rest] = await current(store);
      assert.equal(rest.length, 0);
      assert.deepEqual([m!.mentions, m!.provenance.map((p) => p.messageId)], [2, ['a', 'b']]);
      await rejectsCode(remember(staleReads(store, 100), { namespace: NS, text: 'the race is won once' }, at(2)), 'CONFLICT', /retry/);
      assert.equal((await current(store))[0]!.mentions, 2, 'giving up writes nothing');
    });

    it('two connections storing the same statements at once: one memory each, every mention counted', async () => {
      const other = await connect();
      try {
        const texts = ['shared fact one', 'shared fact two', 'shared fact three'];
        const writes = Array.from({ length: 24 }, (_, i) => ({ via: i % 2 ? other : store, text: texts[i % 3]! }));
        const results = await Promise.all(writes.map(({ via, text }, i) => via.addMemory({ namespace: NS, text, provenance: [{ line: i }] }, { now: at(0) })));
        assert.equal(results.filter((r) => !r.duplicate).length, 3);
        const stored = await current(store);
        assert.deepEqual(stored.map((m) => m.text).sort(), [...texts].sort());
        assert.deepEqual(stored.map((m) => m.mentions), [8, 8, 8]);
        assert.equal((await store.namespaceStats()).find((s) => s.namespace === NS)?.memories, 3);
      } finally {
        await other.close();
      }
    });
  });
}
