// Plain index entries, turns and neighbour rows for the search pipeline's stage tests: the shapes
// the store returns, built by hand so a stage can be run without a database.
import type { Turn } from '../../src/core/types.js';
import type { IndexEntry, NeighbourTurn, NeighbourTurns } from '../../src/store/store.js';
import { conversational } from '../../src/search/neighbours.js';

export function entry(seq: number, over: Partial<IndexEntry> = {}): IndexEntry {
  const text = over.text ?? `entry ${seq}`;
  return {
    seq, namespace: 'ns', kind: 'turn', refId: `t_${seq}`, text, time: '2026-01-01T10:00:00.000Z', createdAt: '2026-01-01T10:00:00.000Z',
    category: null, importance: null, current: true, validTo: null, indexedChars: text.length, layer: 4,
    provenance: [{ sessionId: 's1', messageId: `m${seq}`, role: 'user', speaker: 'Ana', turnIds: [over.refId ?? `t_${seq}`] }],
    ...over,
  };
}

export function turn(id: string, over: Partial<Turn> = {}): Turn {
  return { id, namespace: 'ns', sourceId: null, sessionId: 's1', messageId: `msg_${id}`, role: 'user', speaker: 'Ana', text: `text of ${id}`, timestamp: '2026-01-01T10:00:00.000Z', line: null, createdAt: '2026-01-01T10:00:00.000Z', meta: {}, ...over };
}

/** A neighbour row as the store gives it for `t` (what ranking reads of it). */
export function beside(t: Turn, entrySeq: number | null, entryBytes: number | null = t.text.length): NeighbourTurn {
  return { id: t.id, text: t.text, conversational: conversational(t), entrySeq, entryBytes };
}

export function row(turnId: string, before: NeighbourTurn[], after: NeighbourTurn[]): NeighbourTurns {
  return { turnId, before, after };
}
