// The shared Store conformance suite: every backend (SQLite and PostgreSQL) must pass it unchanged.
// It talks to the store only through the `Store` interface — no SQL, no backend types. One file per
// topic (conformance-<topic>.ts); this one makes a fresh store per test and runs them all.
import { describe, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import type { NewMemory } from '../../src/core/types.js';
import type { Store } from '../../src/store/store.js';
import { indexTerms } from '../helpers/index-terms.js';
import { NS, type ConformanceContext } from './conformance-fixtures.js';
import { memoryConformance } from './conformance-memories.js';
import { turnConformance } from './conformance-turns.js';
import { judgmentConformance } from './conformance-judgments.js';
import { keywordSearchConformance } from './conformance-search.js';
import { vectorConformance } from './conformance-vectors.js';
import { documentConformance } from './conformance-documents.js';
import { stateConformance } from './conformance-state.js';
import { purgeConformance } from './conformance-purge.js';
import { digestConformance } from './conformance-digests.js';
import { knowledgeConformance } from './conformance-knowledge.js';
import { knowledgeEditConformance } from './conformance-knowledge-edits.js';

export type StoreFactory = () => Promise<{ store: Store; cleanup: () => Promise<void> }>;
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

    const ctx: ConformanceContext = { store: () => store, another, add, seqOf };
    memoryConformance(ctx);
    turnConformance(ctx);
    judgmentConformance(ctx);
    keywordSearchConformance(ctx);
    vectorConformance(ctx);
    documentConformance(ctx);
    stateConformance(ctx);
  });
}
