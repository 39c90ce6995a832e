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
