// Conversation context around a hit. A turn rarely stands alone ("Yes, last Friday!" answers the
// turn before it), so a turn's relevance borrows from its neighbours, and a result shows them.
import type { Provenance, Turn } from '../core/types.js';
import type { IndexEntry, NeighbourTurn, NeighbourTurns } from '../store/store.js';
import { makeSnippet, oneLine } from './snippet.js';
import type { Language } from './text-analysis.js';

export interface ContextTurn {
  /**
   * Where it sits relative to the hit: negative before, positive after. Neighbours are exactly
   * −1/+1 (−2/+2…); another hit of the same session is −1 or +1 and marked `match`.
   */
  offset: number;
  /** True for another hit of the hit's session (it matched the query itself), false for a neighbour. */
  match: boolean;
  speaker: string | null;
  role: string;
  text: string;
  time: string;
  messageId: string;
}

/** A context turn as people and agents read it: who said it, then what. */
export function contextLine(c: Pick<ContextTurn, 'speaker' | 'role' | 'text' | 'match'>): string {
  if (c.match && c.speaker === null) return c.text;
  return `${c.speaker ?? c.role}: ${c.text}`;
}

/** The turn an entry stands for: the turn itself, or the one turn a promoted memory came from. */
export function anchorTurnId(e: IndexEntry): string | null {
  if (e.kind === 'turn') return e.refId;
  if (e.kind === 'memory' && e.provenance.length === 1) {
    const ids = e.provenance[0]!.turnIds;
    if (ids?.length === 1) return ids[0]!;
  }
  return null;
}

/**
 * Calls `visit` on each turn up to `reach` before and after a turn, the earlier first, without
 * building a list of them.
 */
export function forEachWithin(n: NeighbourTurns, reach: number, visit: (x: NeighbourTurn) => void): void {
  const { before, after } = n;
  for (let i = Math.max(0, before.length - reach); i < before.length; i++) visit(before[i]!);
  const end = Math.min(after.length, reach);
  for (let i = 0; i < end; i++) visit(after[i]!);
}

/**
 * The turns within `reach` of the `top` most relevant candidate turns that are not candidates
 * themselves (`known` entry seqs), each with the best relevance it sits beside: a reply found
 * through the question it answers.
 */
export function turnsBeside(
  relevance: ReadonlyMap<string, number>,
  neighbours: ReadonlyMap<string, NeighbourTurns>,
  known: ReadonlySet<number>,
  top: number,
  reach: number,
): { seqs: number[]; borrowed: Map<string, number> } {
  const seqs = new Set<number>();
  const borrowed = new Map<string, number>();
  for (const [turnId, r] of [...relevance].sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : 0)).slice(0, top)) {
    const n = neighbours.get(turnId);
    if (!n) continue;
    forEachWithin(n, reach, (x) => {
      if (x.entrySeq === null || known.has(x.entrySeq)) return;
      seqs.add(x.entrySeq);
      borrowed.set(x.id, Math.max(borrowed.get(x.id) ?? 0, r));
    });
  }
  return { seqs: [...seqs], borrowed };
}

export function neighbourIndex(rows: readonly NeighbourTurns[]): Map<string, NeighbourTurns> {
  return new Map(rows.map((r) => [r.turnId, r]));
}

/** Turns that carry conversation (tool activity is context for nobody); the store tells NeighbourTurn.conversational the same way. */
export function conversational(t: Pick<Turn, 'role' | 'meta'>): boolean {
  return t.meta.kind !== 'tool' && t.role !== 'tool';
}

function clip(text: string, maxChars: number): string {
  const flat = oneLine(text);
  return flat.length > maxChars ? `${flat.slice(0, maxChars - 1).trimEnd()}…` : flat;
}

/** A turn picked to show beside a hit, by id: where it sits (−1 right before the hit, +1 right after). */
export interface ContextPick {
  id: string;
  offset: number;
}

/** The turns shown with a hit: up to `radius` conversational turns on each side. */
export function contextFor(n: NeighbourTurns | undefined, radius: number): ContextPick[] {
  if (!n || radius <= 0) return [];
  const before = n.before.filter((x) => x.conversational).slice(-radius);
  const after = n.after.filter((x) => x.conversational).slice(0, radius);
  return [...before.map((x, i) => ({ id: x.id, offset: i - before.length })), ...after.map((x, i) => ({ id: x.id, offset: i + 1 }))];
}

/** A picked context turn as a result shows it, from the whole turn: clipped to `maxChars`. */
export function contextTurn(t: Turn, offset: number, maxChars: number): ContextTurn {
  return { offset, match: false, speaker: t.speaker, role: t.role, text: clip(t.text, maxChars), time: t.timestamp, messageId: t.messageId };
}

/**
 * Another hit of the same session, shown inside the session's best result as a preview: the part
 * of its text around the query's words (or its passage closest to the query, `focus`), at most
 * `maxChars` (the full text is one `get` away).
 */
export function matchTurn(e: IndexEntry, terms: readonly string[], maxChars: number, side: number, focus?: string, language?: Language): ContextTurn {
  const p = e.provenance[0];
  // A promoted turn's memory text already names the speaker ("Ana: …"): keep it as it reads.
  const speaker = e.kind === 'memory' ? null : (p?.speaker ?? null);
  return { offset: side, match: true, speaker, role: p?.role ?? 'user', text: makeSnippet(e.text, terms, maxChars, focus, language), time: e.time, messageId: p?.messageId ?? '' };
}

/** Provenance of a context turn, marked so a reader can tell it from the hit itself. */
export function contextProvenance(t: Turn, base: Provenance | undefined): Provenance {
  const p: Provenance = { sessionId: t.sessionId, messageId: t.messageId, role: t.role, timestamp: t.timestamp, turnIds: [t.id], context: true };
  if (base?.source) p.source = base.source;
  if (base?.path) p.path = base.path;
  if (t.speaker) p.speaker = t.speaker;
  if (t.line !== null) p.line = t.line;
  return p;
}
