// Stage 6, relevance a turn borrows from the conversation: each turn's best own relevance, the
// best of the turns within reach of it, and which turns beside the strongest candidates become
// hits of their own.
import type { IndexEntry, NeighbourTurn, NeighbourTurns } from '../../store/store.js';

/** A turn's relevance is the best of the entries that stand for it (the turn, its memory). */
export function turnRelevance(entries: readonly IndexEntry[], anchors: ReadonlyMap<number, string>, own: (seq: number) => number): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of entries) {
    const id = anchors.get(e.seq);
    if (id) out.set(id, Math.max(out.get(id) ?? 0, own(e.seq)));
  }
  return out;
}

/**
 * Turns beside a strong candidate that neither side returned ("My kids have so much and others
 * don't" after a question about money) rank on what they borrow from it. Only the strongest lend
 * enough to place a neighbour among the hits a search gathers from: the neighbours of all 200
 * candidates at limit 20 found no more evidence on LoCoMo.
 */
export function wantsNeighbourHits(neighbourHits: boolean, lambda: number, neighbours: number): boolean {
  return neighbourHits && lambda > 0 && neighbours > 0;
}

/**
 * The best relevance among the turns within `reach` of a turn (a turn fetched as a neighbour hit
 * has no neighbours read: it keeps what it borrowed). Two turns out is the speaker's own previous
 * or next turn: a thread they go on with after the other's reply (LoCoMo: 132 of 297 pieces of
 * evidence missed at limit 20 sat one or two turns from a hit shown; reach 2 took @20 0.923 →
 * 0.929, bench/results/locomo.md).
 */
export function neighbourRelevance(
  turnId: string | undefined,
  neighbours: ReadonlyMap<string, NeighbourTurns>,
  relevance: ReadonlyMap<string, number>,
  borrowed: ReadonlyMap<string, number>,
  reach: number,
  own: (seq: number) => number,
): number {
  const n = turnId ? neighbours.get(turnId) : undefined;
  if (!n) return turnId ? (borrowed.get(turnId) ?? 0) : 0;
  // Runs for every scored entry of every search: plain loops, no list of the turns within reach.
  const { before, after } = n;
  let best = 0;
  for (let i = Math.max(0, before.length - reach); i < before.length; i++) best = Math.max(best, relevanceOf(before[i]!, relevance, own));
  const end = Math.min(after.length, reach);
  for (let i = 0; i < end; i++) best = Math.max(best, relevanceOf(after[i]!, relevance, own));
  return best;
}

/** A neighbour's relevance: its turn's, or its entry's own when it is no candidate's turn. */
function relevanceOf(x: NeighbourTurn, relevance: ReadonlyMap<string, number>, own: (seq: number) => number): number {
  const known = relevance.get(x.id);
  return known ?? (x.entrySeq === null ? 0 : own(x.entrySeq));
}
