// Shared fixtures of the Store conformance suite (conformance.ts and its per-topic files): a fixed
// clock, small vectors, a turn builder, and the context each topic's suite reads its store from.
import assert from 'node:assert/strict';
import type { NewMemory, NewTurn } from '../../src/core/types.js';
import type { Store } from '../../src/store/store.js';

export const NS = 'alpha';
export const OTHER = 'beta';
export const T0 = Date.parse('2026-01-10T12:00:00.000Z');
/** A fixed clock: `at(3)` is three hours after T0. */
export const at = (hours: number): string => new Date(T0 + hours * 3_600_000).toISOString();

export function vec(...values: number[]): Float32Array {
  return Float32Array.from(values);
}

/**
 * A vector read back equals the one stored to within the store's quantisation (int8 with a scale
 * per block of 128 values: half a step of max |value| / 127).
 */
export function assertVectorNear(actual: Float32Array | undefined, expected: readonly number[]): void {
  assert.ok(actual instanceof Float32Array, 'a Float32Array');
  assert.equal(actual.length, expected.length);
  const step = Math.max(0, ...expected.map(Math.abs)) / 127;
  expected.forEach((e, i) => assert.ok(Math.abs(actual[i]! - e) <= step / 2 + 1e-6, `value ${i}: ${actual[i]} vs ${e}`));
}

export function turn(over: Partial<NewTurn> & { messageId: string }): NewTurn {
  return {
    namespace: NS,
    sessionId: 's1',
    role: 'user',
    text: `message ${over.messageId}`,
    timestamp: at(0),
    ...over,
  };
}

/** What every topic's suite gets: the test's store (a fresh one per test) and helpers bound to it. */
export interface ConformanceContext {
  store: () => Store;
  /** A second, independent store (for round trips); cleaned up after the test. */
  another: () => Promise<Store>;
  add: (text: string, over?: Partial<NewMemory>, now?: string) => ReturnType<Store['addMemory']>;
  /** Seq of the index entry of a memory or turn id, found through keyword search on its words. */
  seqOf: (namespace: string, refId: string, words: string[]) => Promise<number>;
}
