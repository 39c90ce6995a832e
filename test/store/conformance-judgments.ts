// Store conformance, judgments, feedback and usage. Called from conformance.ts inside every backend's
// suite; talks to the store only through the `Store` interface.
import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/store.js';
import { rejectsCode } from '../helpers/store-fixtures.js';
import { indexTerms } from '../helpers/index-terms.js';
import { NS, OTHER, turn, type ConformanceContext } from './conformance-fixtures.js';

export function judgmentConformance(ctx: ConformanceContext): void {
  const { add } = ctx;
  describe('judgments, feedback, usage', () => {
    let store: Store;
    beforeEach(() => {
      store = ctx.store();
    });

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

}
