// Reads generic JSONL chat, one `{role, content, timestamp?, id?, session?, speaker?}` message per
// line: the simplest way for any agent loop, or benchmark data, to feed Cairn. Every line is one
// turn, so nothing is held back.
import { MAX_TURN_CHARS, clip, cleanText, stripProtocolTokens, type Tally } from '../clean.js';
import type { DraftRole } from '../turn-draft.js';
import { Collector, Timestamps, contentText, preview, readRecord, scalar, withRedactions, type JsonRecord, type ParserOptions, type TranscriptParser, fallbackMessageId } from './common.js';

const ROLES: Readonly<Record<string, DraftRole>> = { user: 'user', assistant: 'assistant', system: 'system', tool: 'tool' };
const KNOWN_FIELDS = new Set(['role', 'content', 'timestamp', 'id', 'session', 'speaker']);
const MAX_EXTRA_FIELDS = 20;

/** Session id used when neither the line nor the options name one. */
export const DEFAULT_SESSION = 'default';

/**
 * A parser for generic JSONL chat.
 *
 * - `role` is user, assistant, system or tool (any case); missing or other roles are issues.
 * - `content` is a string or an array of `{type:'text', text}` blocks; other types are issues.
 * - `id` (string or number) is the messageId; without one it is `line-<n>-<content hash>`, stable as long as the
 *   file is only appended to (the usual case for a chat log), so re-reading never doubles a turn.
 * - `session` names the session, else `options.sessionId` (e.g. the file name), else "default".
 * - `timestamp` (ISO or epoch seconds/milliseconds) is optional: without it the previous line's
 *   time, else `options.fallbackTimestamp` (file mtime), is used; a present but unreadable one is
 *   an issue. `speaker` is kept; other small scalar fields go to meta.
 */
export function createGenericJsonlParser(options: ParserOptions = {}): TranscriptParser {
  const out = new Collector();
  const times = new Timestamps(options.fallbackTimestamp);
  const maxChars = options.maxTextChars ?? MAX_TURN_CHARS;

  function field(rec: JsonRecord, key: 'id' | 'session' | 'speaker', lineNo: number): string | undefined {
    const value = rec[key];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'string') {
      if (value.trim() === '') return undefined;
      // Ids are kept whole here (capture folds a long one into a distinct stored id); the speaker is
      // text a person wrote: redacted before its cut, like the turn's text.
      return key === 'speaker' ? clip(value.trim(), 200) : value.trim();
    }
    if (typeof value === 'number' && Number.isFinite(value) && key === 'id') return String(value);
    out.issue(lineNo, `${key} is ${preview(value)}; ignored`);
    return undefined;
  }

  function push(line: string, lineNo: number): void {
    const rec = readRecord(line, lineNo, out);
    if (!rec) return;
    if (rec.role === undefined || rec.role === null) return out.issue(lineNo, 'missing role');
    const role = typeof rec.role === 'string' ? ROLES[rec.role.trim().toLowerCase()] : undefined;
    if (!role) return out.issue(lineNo, `unknown role ${preview(rec.role)}`);
    const raw = contentText(rec.content);
    if (raw === null) return out.issue(lineNo, rec.content === undefined ? 'missing content' : `content is ${preview(rec.content)}, not text`);
    const tally: Tally = {};
    const cleaned = cleanText(raw, { maxChars, tally });
    const text = role === 'assistant' ? stripProtocolTokens(cleaned) : cleaned;
    if (text === '') return out.skip();
    const extra: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rec)) {
      if (KNOWN_FIELDS.has(key) || Object.keys(extra).length >= MAX_EXTRA_FIELDS) continue;
      const kept = scalar(value);
      if (kept !== undefined) extra[key] = kept;
    }
    out.emit(withRedactions({
      sessionId: field(rec, 'session', lineNo) ?? options.sessionId ?? DEFAULT_SESSION,
      messageId: field(rec, 'id', lineNo) ?? fallbackMessageId(lineNo, rec),
      role,
      speaker: field(rec, 'speaker', lineNo) ?? null,
      text,
      timestamp: times.resolve([rec.timestamp], lineNo, out, true),
      line: lineNo,
      kind: role === 'tool' ? 'tool' : 'message',
      meta: extra,
    }, tally));
  }

  return { push, flush(): void {}, take: () => out.take(), pendingFrom: () => null };
}
