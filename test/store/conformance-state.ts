// Store conformance, hot state, API tokens, namespaces and health. Called from conformance.ts inside every backend's
// suite; talks to the store only through the `Store` interface.
import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { CairnError } from '../../src/core/errors.js';
import type { Store } from '../../src/store/store.js';
import { rejectsCode } from '../helpers/store-fixtures.js';
import { NS, OTHER, at, turn, type ConformanceContext } from './conformance-fixtures.js';

export function stateConformance(ctx: ConformanceContext): void {
  const { add } = ctx;
  describe('hot state and API tokens', () => {
    let store: Store;
    beforeEach(() => {
      store = ctx.store();
    });

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
    let store: Store;
    beforeEach(() => {
      store = ctx.store();
    });

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
}
