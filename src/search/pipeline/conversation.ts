// Stage 2, the conversation around the candidates: which turn each entry stands for, whether a
// search needs the turns beside them, and the neighbour turns that have index entries of their own.
import type { IndexEntry, NeighbourTurn, NeighbourTurns } from '../../store/store.js';
import { anchorTurnId } from '../neighbours.js';
import type { SearchMode, SearchRanking } from './types.js';

/** The turn each entry stands for (entry seq → turn id), for entries that stand for one. */
export function anchorsOf(entries: readonly IndexEntry[]): Map<number, string> {
  const anchors = new Map<number, string>();
  for (const e of entries) {
    const id = anchorTurnId(e);
    if (id) anchors.set(e.seq, id);
  }
  return anchors;
}

/** Whether anything in the ranking or the results reads the turns beside a hit (vector mode ranks texts alone). */
export function wantsNeighbours(mode: SearchMode, r: SearchRanking, anchors: number): boolean {
  return mode !== 'vector' && (r.neighbourWeight > 0 || r.contextTurns > 0 || (r.neighbourCoverage > 0 && r.coverageWeight > 0)) && anchors > 0;
}

/** Turns read on each side of a candidate: enough for both borrowing relevance and showing context. */
export function neighbourRadius(r: Pick<SearchRanking, 'neighbourReach' | 'contextTurns'>): number {
  return Math.max(1, r.neighbourReach, r.contextTurns);
}

/**
 * Calls `visit` on every neighbour turn that has an index entry, in the order the rows list them
 * (before, then after): ~600 a search, so no generator (an object per turn) and no list.
 */
export function forEachIndexedNeighbour(neighbours: ReadonlyMap<string, NeighbourTurns>, visit: (x: NeighbourTurn & { entrySeq: number }) => void): void {
  for (const n of neighbours.values()) {
    for (const x of n.before) if (x.entrySeq !== null) visit(x as NeighbourTurn & { entrySeq: number });
    for (const x of n.after) if (x.entrySeq !== null) visit(x as NeighbourTurn & { entrySeq: number });
  }
}

/** The text of every candidate and of every neighbour with an entry (a candidate's own text wins). */
export function textsOf(entries: readonly IndexEntry[], neighbours: ReadonlyMap<string, NeighbourTurns>): Map<number, string> {
  const textOf = new Map<number, string>();
  for (const e of entries) textOf.set(e.seq, e.text);
  forEachIndexedNeighbour(neighbours, (x) => {
    if (!textOf.has(x.entrySeq)) textOf.set(x.entrySeq, x.text);
  });
  return textOf;
}

/** The texts of the turns right before and after an entry's turn, read for coverage (none when neighbourCoverage is 0). */
export function aroundTexts(seq: number, anchors: ReadonlyMap<number, string>, neighbours: ReadonlyMap<string, NeighbourTurns>, neighbourCoverage: number): string[] {
  const turnId = anchors.get(seq);
  const n = turnId && neighbourCoverage > 0 ? neighbours.get(turnId) : undefined;
  return n ? [n.before.at(-1)?.text ?? '', n.after[0]?.text ?? ''] : [];
}
