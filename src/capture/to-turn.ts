// The one step between a parser's draft and the store: redact the text, the speaker and every
// string kept for provenance, count what was redacted, fold ids too long to store whole, and
// attach namespace and source. It is also the capture boundary for characters: ids, session,
// speaker and metadata leave it as valid UTF-8 without control characters, whichever parser made
// the draft.
import { foldLongId } from '../core/ids.js';
import { cleanLabel, escapeIdChars } from '../core/text.js';
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
      const r = redact(cleanLabel(value));
      meta[key] = r.text;
      addCounts(metaCounts, r.counts);
    }
  }
  addCounts(redactions, metaCounts);
  const name = draft.speaker === null ? '' : cleanLabel(draft.speaker);
  const speaker = name === '' ? null : redact(name).text;
  return {
    namespace: target.namespace,
    sourceId: target.sourceId,
    // Every format's ids pass here: a long id keeps its start and a hash of the whole, never a cut.
    sessionId: foldLongId(escapeIdChars(draft.sessionId)),
    messageId: foldLongId(escapeIdChars(draft.messageId)),
    role: draft.role,
    speaker,
    text,
    timestamp: draft.timestamp,
    line: draft.line,
    meta: { ...meta, kind: draft.kind, source: target.source, ...(target.path ? { path: target.path } : {}), ...(Object.keys(metaCounts).length ? { redactions: metaCounts } : {}) },
  };
}
