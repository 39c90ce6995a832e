// What a promoted turn becomes: a memory whose text reads on its own (the judge's restatement, or
// the turn with its speaker named), with provenance back to the exact turn it came from.
import type { Category, NewMemory, Provenance, Turn } from '../core/types.js';

export interface PromotedTurn {
  turn: Turn;
  importance: number;
  category: Category;
  /** The judge's self-contained restatement, when it wrote one. */
  statement: string | null;
}

export function provenanceOf(turn: Turn): Provenance {
  const meta = turn.meta;
  const p: Provenance = {
    source: typeof meta.source === 'string' ? meta.source : undefined,
    path: typeof meta.path === 'string' ? meta.path : undefined,
    sessionId: turn.sessionId,
    messageId: turn.messageId,
    line: turn.line ?? undefined,
    role: turn.role,
    speaker: turn.speaker ?? undefined,
    timestamp: turn.timestamp,
    turnIds: [turn.id],
  };
  for (const k of Object.keys(p) as Array<keyof Provenance>) if (p[k] === undefined) delete p[k];
  return p;
}

/** The memory text: the restatement, else the turn prefixed with who said it (when a name is known). */
export function memoryText(turn: Turn, statement: string | null, maxChars: number): string {
  const base = statement ?? (turn.speaker && turn.role !== 'tool' ? `${turn.speaker}: ${turn.text}` : turn.text);
  return base.length > maxChars ? `${base.slice(0, maxChars - 1)}…` : base;
}

/**
 * The speaker's name and the turn's text of a memory text made by memoryText from a named turn, or
 * null when the text has no such prefix. Only a guess from the text: a caller that needs to know
 * checks that the rest is a turn's text (the indexer: that the rest already has a vector).
 */
export function speakerPrefixed(text: string): { speaker: string; text: string } | null {
  const at = text.indexOf(': ');
  if (at <= 0 || at > MAX_SPEAKER_CHARS) return null;
  const speaker = text.slice(0, at);
  if (speaker.trim() !== speaker || /[\n\r]/.test(speaker)) return null;
  return { speaker, text: text.slice(at + 2) };
}

/** A longer "name" before ': ' is a sentence, not a speaker. */
const MAX_SPEAKER_CHARS = 64;

export function memoryFromTurn(p: PromotedTurn, maxChars: number): NewMemory {
  return {
    namespace: p.turn.namespace,
    text: memoryText(p.turn, p.statement, maxChars),
    category: p.category,
    importance: p.importance,
    eventTime: p.turn.timestamp,
    provenance: [provenanceOf(p.turn)],
  };
}
