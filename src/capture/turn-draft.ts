// What transcript parsing produces: cleaned turns that do not yet belong to a namespace or a
// source, plus the problems met on the way. Redaction, the store and checkpoints come later; this
// type is the hand-off between the pure parsers and the capture layer that does those.

/** Who said a turn. `tool` is a tool result; `summary` is a compaction or branch summary. */
export const DRAFT_ROLES = ['user', 'assistant', 'system', 'tool', 'summary'] as const;
export type DraftRole = (typeof DRAFT_ROLES)[number];

/**
 * What kind of record a turn came from: a conversation `message`, a `compaction` (or branch)
 * summary, or `tool` activity (a tool result, or an assistant turn made only of tool calls).
 */
export type DraftKind = 'message' | 'compaction' | 'tool';

/** One cleaned turn, ready for redaction and storage. */
export interface TurnDraft {
  sessionId: string;
  /** Stable id of the message within the session; the store deduplicates on (session, message). */
  messageId: string;
  role: DraftRole;
  /** Human name when the transcript says who spoke (chat sender, generic `speaker`), else null. */
  speaker: string | null;
  text: string;
  /** ISO 8601 time of the original message. */
  timestamp: string;
  /** 1-based line number (files) or sequence number (databases) of the record the turn starts at. */
  line: number;
  kind: DraftKind;
  /** Small, JSON-serialisable facts kept for provenance (cwd, model, tool name, …). */
  meta: Record<string, unknown>;
  /**
   * Secrets already replaced while the text was cut to size (per kind): a cut redacts first, so
   * the turn's own redaction sees only their markers and would not count them.
   */
  redactions?: Record<string, number>;
}

/** A line that could not be read as-is. The reason says what was wrong and what was done. */
export interface ParseIssue {
  line: number;
  reason: string;
}

/** What a parser produced since it was last asked. */
export interface ParseResult {
  turns: TurnDraft[];
  issues: ParseIssue[];
  /** Records dropped on purpose: noise types, unknown types, empty or protocol-only turns. */
  skipped: number;
}
