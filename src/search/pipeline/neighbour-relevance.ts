// Stage 6, relevance a turn borrows from the conversation: each turn's best own relevance, the
// best of the turns within reach of it, and which turns beside the strongest candidates become
// hits of their own.
import type { IndexEntry, NeighbourTurns } from '../../store/store.js';
import { within } from '../neighbours.js';

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
  let best = 0;
  for (const x of within(n, reach)) {
    const known = relevance.get(x.turn.id);
    const r = known ?? (x.entrySeq === null ? 0 : own(x.entrySeq));
    best = Math.max(best, r);
  }
  return best;
}
