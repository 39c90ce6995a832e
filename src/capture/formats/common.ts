// Pieces every transcript parser shares: the parser contract, reading one JSONL line into a
// record (reporting, never throwing), resolving timestamps with a fallback, collecting results,
// and flattening string-or-blocks message content.
import { createHash } from '../../core/lazy-crypto.js';
import { clip, cutOutsideMarkers, type Tally } from '../clean.js';
import { redact } from '../redact.js';
import type { ParseIssue, ParseResult, TurnDraft } from '../turn-draft.js';

/** Options every parser accepts. */
export interface ParserOptions {
  /**
   * Session id to use when the transcript does not name one: the file name stem, or the
   * `session_id` column of a transcript database. Also what makes resuming mid-file work for
   * OpenClaw, whose session id is only in the header line.
   */
  sessionId?: string;
  /** ISO time for records with no usable timestamp and no earlier one to borrow (e.g. file mtime). */
  fallbackTimestamp?: string;
  /** Longest turn text (default MAX_TURN_CHARS). */
  maxTextChars?: number;
  /** Length of tool result excerpts (default EXCERPT_CHARS). */
  excerptChars?: number;
}

/**
 * A streaming parser for one transcript. Feed lines as the file grows with `push`, collect what is
 * finished with `take`. Turns come out in line order. A parser that merges several lines into one
 * turn (Claude Code) holds the unfinished turn, and everything after it, until the merge is
 * closed by a later line or by `flush`.
 */
export interface TranscriptParser {
  /** Reads one line (without its newline); `lineNo` is its 1-based line or sequence number. */
  push(line: string, lineNo: number): void;
  /** End of input: closes any pending merge so `take` returns it. */
  flush(): void;
  /** Returns and forgets the turns, issues and skip count gathered since the last call. */
  take(): ParseResult;
  /**
   * First line still held back (not yet returned by `take`), or null. A checkpoint must not move
   * past it: resuming from this line rebuilds the held turns exactly.
   */
  pendingFrom(): number | null;
}

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value when it is a non-empty string, else undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Accumulates a parser's output between two `take` calls. */
export class Collector {
  private turns: TurnDraft[] = [];
  private issues: ParseIssue[] = [];
  private skipped = 0;

  emit(turn: TurnDraft): void {
    this.turns.push(turn);
  }

  issue(line: number, reason: string): void {
    // Reasons quote the values they complain about: redacted before they are cut, like turns.
    const redacted = redact(reason).text;
    this.issues.push({ line, reason: redacted.length > 160 ? `${cutOutsideMarkers(redacted, 159)}…` : redacted });
  }

  skip(count = 1): void {
    this.skipped += count;
  }

  take(): ParseResult {
    const result: ParseResult = { turns: this.turns, issues: this.issues, skipped: this.skipped };
    this.turns = [];
    this.issues = [];
    this.skipped = 0;
    return result;
  }
}

/**
 * Parses one JSONL line into an object. Blank lines give null silently (they are not records);
 * invalid JSON and non-object JSON give null with an issue.
 */
export function readRecord(line: string, lineNo: number, out: Collector): JsonRecord | null {
  const text = line.trim();
  if (text === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // Reported, not swallowed: the line is skipped and the rest of the transcript still read.
    // V8 quotes a cut piece of the line (`"sk-proj-ab"... is not valid JSON`): a cut we cannot
    // redact, so the quote is left out.
    out.issue(lineNo, `invalid JSON: ${(err as Error).message.replace(/"(?:[^"\\]|\\.)*"(?:\.\.\.)?/g, '…')}`);
    return null;
  }
  if (!isRecord(value)) {
    out.issue(lineNo, `not a JSON object (${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value})`);
    return null;
  }
  return value;
}

const MIN_MS = Date.UTC(1970, 0, 2);
const MAX_MS = Date.UTC(2200, 0, 1);

/**
 * An ISO string for an ISO-like date string or an epoch number (milliseconds; values below 1e11
 * are taken as seconds). Anything else, or a date outside 1970–2200, gives null.
 */
export function toIso(value: unknown): string | null {
  let ms: number;
  if (typeof value === 'number') ms = value < 1e11 ? value * 1000 : value;
  else if (typeof value === 'string' && value.length <= 64) {
    const trimmed = value.trim();
    if (/^\d{9,13}(\.\d+)?$/.test(trimmed)) return toIso(Number(trimmed));
    if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed)) return null;
    ms = Date.parse(trimmed);
  } else return null;
  if (!Number.isFinite(ms) || ms < MIN_MS || ms > MAX_MS) return null;
  return new Date(ms).toISOString();
}

/**
 * Picks each record's time: the first usable candidate, else the last good time seen in this
 * transcript (closest to the truth for a record in the middle of a session), else the caller's
 * fallback (file mtime), else the time the parser was created.
 */
export class Timestamps {
  private last: string | null = null;
  private readonly fallback: string;

  constructor(fallback?: string) {
    this.fallback = toIso(fallback) ?? new Date().toISOString();
  }

  /**
   * `candidates` in order of preference. With `optional`, a record that has no timestamp at all
   * is not an issue (generic JSONL); a present but unreadable one always is.
   */
  resolve(candidates: unknown[], lineNo: number, out: Collector, optional = false): string {
    for (const candidate of candidates) {
      const iso = toIso(candidate);
      if (iso) {
        this.last = iso;
        return iso;
      }
    }
    const present = candidates.find((c) => c !== undefined && c !== null);
    if (present !== undefined) out.issue(lineNo, `invalid timestamp ${preview(present)}; used fallback`);
    else if (!optional) out.issue(lineNo, 'missing timestamp; used fallback');
    return this.last ?? this.fallback;
  }
}

/** A short printable form of a bad value, for issue reasons. */
export function preview(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(clip(value, 40));
  if (value === null) return 'null';
  if (typeof value === 'object') return Array.isArray(value) ? 'array' : 'object';
  return String(value).slice(0, 40);
}

/**
 * Text of message content that is a string or an array of blocks: `text` blocks (and bare strings)
 * joined by blank lines, `image` blocks as `[image]`, other blocks ignored. Null when the content
 * is neither a string nor an array (the caller reports it).
 */
export function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isRecord(block) && block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
    else if (isRecord(block) && block.type === 'image') parts.push('[image]');
  }
  return parts.join('\n\n');
}

/** Joins turn pieces: consecutive tool lines one per line, anything else separated by a blank line. */
export function joinPieces(pieces: Array<{ text: string; tool: boolean }>): string {
  let out = '';
  let prevTool = false;
  for (const piece of pieces) {
    if (piece.text === '') continue;
    if (out !== '') out += prevTool && piece.tool ? '\n' : '\n\n';
    out += piece.text;
    prevTool = piece.tool;
  }
  return out;
}

/** A copy without undefined and null values, so meta stays small and compares cleanly. */
export function compact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

/** The value when it is a string, finite number or boolean (small enough to keep in meta), else undefined. */
export function scalar(value: unknown, maxChars = 200): string | number | boolean | undefined {
  if (typeof value === 'string') return value.length <= maxChars ? value : undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return value;
  return undefined;
}

/**
 * Id for a record that has none: its line number plus a hash of its content. A file truncated and
 * rewritten with other lines at the same numbers then never collides with what was captured
 * before (the store dedups by id), while re-reading the same line gives the same id.
 */
export function fallbackMessageId(lineNo: number, rec: unknown): string {
  return `line-${lineNo}-${createHash('sha256').update(contentKey(rec)).digest('hex').slice(0, 8)}`;
}

/** JSON of a record; one nested too deep for JSON.stringify (a hostile line) gets a depth-capped form. */
function contentKey(rec: unknown): string {
  try {
    return JSON.stringify(rec) ?? '';
  } catch {
    return `deep:${cappedJson(rec, 64)}`;
  }
}

function cappedJson(value: unknown, depth: number): string {
  if (depth === 0) return '…';
  if (Array.isArray(value)) return `[${value.map((v) => cappedJson(v, depth - 1)).join(',')}]`;
  if (isRecord(value)) return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${cappedJson(v, depth - 1)}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** `draft` with the redactions its cuts made (see TurnDraft.redactions), when there were any. */
export function withRedactions(draft: TurnDraft, tally: Tally): TurnDraft {
  return Object.keys(tally).length === 0 ? draft : { ...draft, redactions: { ...tally } };
}

/** Adds `from` into `into`, per kind. */
export function addTally(into: Tally, from: Tally): void {
  for (const [kind, n] of Object.entries(from)) into[kind] = (into[kind] ?? 0) + n;
}
