// The one step between a parser's draft and the store: redact the text, the speaker and every
// string kept for provenance, count what was redacted, and attach namespace and source.
import type { NewTurn } from '../core/types.js';
import { redact } from './redact.js';
import type { TurnDraft } from './turn-draft.js';

export interface TurnTarget {
  namespace: string;
  sourceId: number;
  /** Format name kept in the turn's meta as its provenance `source` (openclaw, claude-code, jsonl). */
  source: string;
  /** The file or database the turn was read from, kept in meta for provenance. */
  path?: string;
}

/** Adds `counts` into `into` (per kind). */
export function addCounts(into: Record<string, number>, counts: Readonly<Record<string, number>>): void {
  for (const [kind, n] of Object.entries(counts)) into[kind] = (into[kind] ?? 0) + n;
}

/**
 * A redacted NewTurn for `draft`. Redaction counts are added to `redactions` (per kind) and kept
 * in the turn's meta, so status can say how many secrets were replaced and where.
 */
export function draftToTurn(draft: TurnDraft, target: TurnTarget, redactions: Record<string, number>): NewTurn {
  const { text, counts } = redact(draft.text);
  const metaCounts: Record<string, number> = { ...counts };
  addCounts(metaCounts, draft.redactions ?? {});
  const meta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(draft.meta)) {
    if (typeof value !== 'string') meta[key] = value;
    else {
      const r = redact(value);
      meta[key] = r.text;
      addCounts(metaCounts, r.counts);
    }
  }
  addCounts(redactions, metaCounts);
  const speaker = draft.speaker === null ? null : redact(draft.speaker).text;
  return {
    namespace: target.namespace,
    sourceId: target.sourceId,
    sessionId: draft.sessionId,
    messageId: draft.messageId,
    role: draft.role,
    speaker,
    text,
    timestamp: draft.timestamp,
    line: draft.line,
    meta: { ...meta, kind: draft.kind, source: target.source, ...(target.path ? { path: target.path } : {}), ...(Object.keys(metaCounts).length ? { redactions: metaCounts } : {}) },
  };
}
