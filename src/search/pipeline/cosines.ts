// Stage 3, closeness by meaning: exact cosines from stored vectors for every candidate (and every
// neighbour that may be scored), and for long texts their closest passage blended in.
import type { IndexEntry, NeighbourTurns } from '../../store/store.js';
import { bestPassage, PASSAGE_CHARS } from '../../embed/passages.js';
import { forEachIndexedNeighbour } from './conversation.js';

/**
 * Four products a step, added one by one in index order: the same sum, bit for bit, as the plain
 * loop (each float32 product is exact in a double), with a quarter of its loop checks. A search
 * takes ~350 cosines on LoCoMo and ~800 on 50k chat turns.
 */
export function dot(a: Float32Array, b: Float32Array, at = 0): number {
  const n = a.length;
  let s = 0;
  let i = 0;
  // `at`: where `a`'s partner starts in `b` (a row of a matrix, read without a view made for it).
  for (; i + 3 < n; i += 4) {
    s += a[i]! * b[at + i]!;
    s += a[i + 1]! * b[at + i + 1]!;
    s += a[i + 2]! * b[at + i + 2]!;
    s += a[i + 3]! * b[at + i + 3]!;
  }
  for (; i < n; i++) s += a[i]! * b[at + i]!;
  return s;
}

/** The entries whose vectors a search reads: the candidates and the neighbours with entries. */
export function vectorSeqs(entries: readonly IndexEntry[], neighbours: ReadonlyMap<string, NeighbourTurns>): number[] {
  const seqs = new Set(entries.map((e) => e.seq));
  forEachIndexedNeighbour(neighbours, (x) => seqs.add(x.entrySeq));
  return [...seqs];
}

/** The cosine of each stored vector with the query's; a vector of another size (another model's) is left out. */
export function cosinesOf(query: Float32Array, vectors: ReadonlyMap<number, Float32Array>): Map<number, number> {
  const cosines = new Map<number, number>();
  for (const [seq, v] of vectors) if (v.length === query.length) cosines.set(seq, dot(query, v));
  return cosines;
}

/**
 * The scored texts that have passages (longer than PASSAGE_CHARS; a shorter one's row is empty,
 * and reading those rows cost ~0.5 ms a search at 100k memories). A neighbour's length is bounded
 * by its bytes.
 */
export function longTexts(cosines: ReadonlyMap<number, number>, entries: readonly IndexEntry[], neighbours: ReadonlyMap<string, NeighbourTurns>): number[] {
  const indexed = new Map<number, number>(entries.map((e) => [e.seq, e.indexedChars]));
  forEachIndexedNeighbour(neighbours, (x) => {
    if (!indexed.has(x.entrySeq)) indexed.set(x.entrySeq, x.entryBytes ?? Infinity);
  });
  return [...cosines.keys()].filter((seq) => (indexed.get(seq) ?? Infinity) > PASSAGE_CHARS);
}

/**
 * A long text counts as close as its whole and its closest passage together (weight `w` on the
 * passage); the passage's index is where its snippet goes. With `firstIsOwn` (the 'windows'
 * policy) a row holds the windows after the first, the first being the text's own vector: its
 * cosine stands for window 0. A text whose row is empty (no passages) is left as it is. Returns new maps (the same cosines when there are no passages).
 */
export function blendPassages(
  cosines: ReadonlyMap<number, number>,
  query: Float32Array,
  passages: ReadonlyMap<number, Float32Array>,
  w: number,
  firstIsOwn = false,
): { cosines: ReadonlyMap<number, number>; focus: Map<number, number> } {
  const focus = new Map<number, number>();
  // Nothing to blend (no text long enough to have passages: every text at 100k short memories):
  // the cosines as they are, not a copy of ~250 of them.
  if (passages.size === 0) return { cosines, focus };
  const out = new Map(cosines);
  for (const [seq, packed] of passages) {
    const closest = bestPassage(query, packed);
    const own = out.get(seq);
    if (closest === null || own === undefined) continue;
    // Ties go to the earlier window, as when the first window was stored in the row.
    const best = firstIsOwn ? (closest.score > own ? { index: closest.index + 1, score: closest.score } : { index: 0, score: own }) : closest;
    out.set(seq, (1 - w) * own + w * best.score);
    focus.set(seq, best.index);
  }
  return { cosines: out, focus };
}
