// BM25 hits computed in JavaScript (store/sqlite/term-frequencies.ts) against FTS5's own: the same
// doubles where SQLite is built without fused multiply-add contraction (x86-64, this project's
// machines), within a few units in the last place elsewhere (arm64 compilers contract
// `f + k1 * x` into one rounding). There a near tie may also swap two entries, so the check is
// the sorted scores' closeness and each entry's own score.
import assert from 'node:assert/strict';
import type { KeywordHit } from '../../src/store/store.js';

const EXACT = process.arch === 'x64' || process.arch === 'ia32';
const TOLERANCE = 1e-12;

const close = (a: number, b: number) => Math.abs(a - b) <= TOLERANCE * Math.max(1, Math.abs(b));

export function assertSameHits(got: readonly KeywordHit[] | null, want: readonly KeywordHit[], message: string): void {
  if (EXACT || got === null) return assert.deepEqual(got, want, message);
  assert.equal(got.length, want.length, message);
  const wanted = new Map(want.map((h) => [h.seq, h.score]));
  got.forEach((h, i) => {
    assert.ok(close(h.score, want[i]!.score), `${message}: score ${i}`);
    const own = wanted.get(h.seq);
    // An entry past the reference's cut may only be there by a near tie with its last.
    assert.ok(own === undefined ? close(h.score, want[want.length - 1]!.score) : close(h.score, own), `${message}: entry ${h.seq}`);
  });
}

/** One term's (seq, score) pairs, in seq order. */
export function assertSameParts(got: ReadonlyArray<readonly [number, number]>, want: ReadonlyArray<readonly [number, number]>, message: string): void {
  if (EXACT) return assert.deepEqual(got, want, message);
  assert.deepEqual(got.map(([seq]) => seq), want.map(([seq]) => seq), message);
  got.forEach(([, score], i) => assert.ok(close(score, want[i]![1]), `${message}: entry ${got[i]![0]}`));
}
