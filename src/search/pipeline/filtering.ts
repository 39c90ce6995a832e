// Stage 7, which scored entries are hits: ranked by score (newer first on a tie), without
// accidental resemblances and without a turn twice.
import type { ScoredEntry } from './types.js';

/**
 * Best first; on equal scores the newer entry first. Sorts in place and returns the array. Times
 * are ISO strings of one shape, so code-unit order is time order (localeCompare gave the same
 * order at the cost of loading ICU's collation: ~20 ms CPU of a cold `cairn search`).
 */
export function rankScored<T extends ScoredEntry>(scored: T[]): T[] {
  // Compared, not subtracted: a difference of doubles returned to the sort is boxed, one per comparison.
  return scored.sort((a, b) => (b.score > a.score ? 1 : b.score < a.score ? -1 : b.e.time < a.e.time ? -1 : b.e.time > a.e.time ? 1 : 0));
}

/** Turn ids a memory among the scored carries: the turns it was promoted from. */
export function promotedTurns(scored: readonly ScoredEntry[]): Set<string> {
  const promoted = new Set<string>();
  for (const s of scored) if (s.e.kind === 'memory') for (const p of s.e.provenance) for (const id of p.turnIds ?? []) promoted.add(id);
  return promoted;
}

/**
 * The hits among the ranked entries. A term match always stays (min-max puts the weakest genuine
 * match at 0); a vector-only neighbour stays only when it scores above the weakest candidate. A
 * turn the judge called noise ("ok", "thanks") only ever resembles a query by accident. A turn
 * promoted to a memory would appear twice (as itself and as the memory): the memory, which carries
 * the turn's provenance, stands for both.
 */
export function keepHits<T extends ScoredEntry>(ranked: readonly T[], bm25: ReadonlyMap<number, number>): T[] {
  const promoted = promotedTurns(ranked);
  return ranked
    .filter((s) => s.score > 0 || bm25.has(s.e.seq))
    .filter((s) => bm25.has(s.e.seq) || s.e.category !== 'noise')
    .filter((s) => !(s.e.kind === 'turn' && promoted.has(s.e.refId)));
}
