// Text cleaning shared by every transcript parser, so a turn looks the same whichever agent wrote
// it: no control characters or broken UTF-16, tidy whitespace, bounded length, and one wording for
// tool activity. Only protocol noise is dropped here; whether "ok" or "thanks" matters is the
// judge's call, not capture's.
//
// Every cap here redacts before it cuts (issue 30 item 4): a cut through a key leaves a prefix no
// pattern recognises (`TOKEN=sk_live_k7jqev…`), so the text is redacted with what follows the cut
// and then cut at a marker boundary. What was redacted is added to the caller's tally, because the
// later redaction of the whole turn (to-turn.ts) sees only markers and cannot count them.
import { stripControl } from '../core/text.js';
import { redactHead } from './redact.js';

/** Longest turn text kept; longer texts are cut and end with a truncation marker. */
export const MAX_TURN_CHARS = 20_000;
/** Length of a tool result excerpt. */
export const EXCERPT_CHARS = 300;
/** Length of the target shown in a tool call summary. */
export const TARGET_CHARS = 120;

/**
 * Raw text is clipped to this many times the turn limit before any cleaning runs, so a
 * multi-megabyte record costs linear time and bounded memory. The headroom leaves room for
 * format metadata (OpenClaw context blocks) that cleaning strips off the front.
 */
const CLIP_FACTOR = 4;

/** Redactions per kind, added to as texts are cut. */
export type Tally = Record<string, number>;

export interface CleanOptions {
  /** Longest result, truncation marker included. Default MAX_TURN_CHARS. */
  maxChars?: number;
  /** Format-specific stripping, run on the clipped raw text before normalisation. */
  transform?: (text: string) => string;
  /** Where redactions made before a cut are counted. */
  tally?: Tally;
}

/** Cuts to at most `max` characters, before a `[REDACTED:…]` marker the cut would split. */
export function cutOutsideMarkers(text: string, max: number): string {
  const cut = cutAt(text, max);
  const open = cut.lastIndexOf('[');
  return open !== -1 && cut.indexOf(']', open) === -1 && text.startsWith('[REDACTED:', open) ? cut.slice(0, open) : cut;
}

/** Redacts `text` as far as a cut at `max` keeps it (counting into `tally`), then cuts. */
export function clip(text: string, max: number, tally?: Tally): string {
  const { text: redacted, counts } = redactHead(text, max);
  if (tally !== undefined) for (const [kind, n] of Object.entries(counts)) tally[kind] = (tally[kind] ?? 0) + n;
  return cutOutsideMarkers(redacted, max);
}

/**
 * Cleans one turn's text: clips, applies the format's transform, removes NUL and control
 * characters, repairs lone surrogates, collapses runs of U+FFFD, normalises line ends and blank
 * lines, and truncates with a marker naming the original length. Returns '' for empty text.
 */
export function cleanText(raw: string, options: CleanOptions = {}): string {
  const maxChars = Math.max(64, options.maxChars ?? MAX_TURN_CHARS);
  const clipAt = maxChars * CLIP_FACTOR;
  const clipped = raw.length > clipAt;
  let text = clipped ? clip(raw, clipAt, options.tally) : raw;
  if (options.transform) text = options.transform(text);
  text = normalizeWhitespace(sanitizeChars(text));
  if (text === '') return '';
  if (!clipped && text.length <= maxChars) return text;
  const marker = `…[truncated from ${raw.length} chars]`;
  const room = maxChars - marker.length - 1;
  const body = text.length > room ? clip(text, room, options.tally).trimEnd() : text;
  return `${body}\n${marker}`;
}

/** Removes NUL/C0 controls (keeping tab and newline), repairs lone surrogates, folds U+FFFD runs. */
export function sanitizeChars(text: string): string {
  return stripControl(text.replace(/\r\n?/g, '\n'))
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/\uFFFD{2,}/g, '\uFFFD')
    .normalize('NFC');
}

/** Trims line ends, keeps at most one blank line between paragraphs, trims the whole text. */
export function normalizeWhitespace(text: string): string {
  // Line by line rather than one regex: a long run of spaces must not cost quadratic time.
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Cuts to at most `max` UTF-16 units without splitting a surrogate pair. */
export function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * A one-line excerpt: whitespace collapsed, at most `max` characters, ending in … when cut. The
 * text is redacted before each cut, the second time after collapsing (which joins lines).
 */
export function excerpt(text: string, max = EXCERPT_CHARS, tally?: Tally): string {
  const flat = sanitizeChars(clip(text, max * CLIP_FACTOR, tally)).replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat; // uncut: the turn's own redaction reads it whole
  return `${clip(flat, max - 1, tally).trimEnd()}…`;
}

/** Removes every `open … close` span (tags included), in linear time; an unclosed span is kept. */
export function removeTagged(text: string, open: string, close: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const start = text.indexOf(open, from);
    if (start < 0) break;
    const end = text.indexOf(close, start + open.length);
    if (end < 0) break;
    out += text.slice(from, start);
    from = end + close.length;
  }
  return from === 0 ? text : out + text.slice(from);
}

const PROTOCOL_TOKEN = '(?:HEARTBEAT_OK|NO_REPLY)';
const LEADING_TOKEN = new RegExp(`^[\\s*_\`]*${PROTOCOL_TOKEN}[\\s*_\`.!]*`);
const TRAILING_TOKEN = new RegExp(`[\\s*_\`]*${PROTOCOL_TOKEN}[\\s*_\`.!]*$`);

/**
 * Removes an agent protocol token (HEARTBEAT_OK, NO_REPLY) at the start or end of a reply, the
 * way OpenClaw itself does before delivering; what remains is real content.
 */
export function stripProtocolTokens(text: string): string {
  let t = text.trim().replace(LEADING_TOKEN, '');
  const tail = t.slice(-64);
  const match = TRAILING_TOKEN.exec(tail);
  if (match) t = t.slice(0, t.length - tail.length + match.index);
  return t.trim();
}

/** True when a reply is nothing but a protocol token (or empty): it carries no memory. */
export function isProtocolNoise(text: string): boolean {
  return stripProtocolTokens(text) === '';
}

/** Argument names tried in order for a tool call's target; the first string value wins. */
const TARGET_KEYS = [
  'file_path', 'filePath', 'notebook_path', 'command', 'cmd', 'url', 'query', 'pattern', 'path',
  'description', 'prompt',
] as const;

/**
 * One line naming a tool call and its most telling argument:
 * `→ tool Read /home/ana/proj/src/fetch.ts`, `→ tool Bash npm test`. Arguments that are not an
 * object (a raw JSON string from some providers) are shown as they are, shortened.
 */
export function toolCallSummary(name: unknown, args: unknown, tally?: Tally): string {
  const tool = typeof name === 'string' && name.trim() !== '' ? excerpt(name, 60, tally) : 'unknown';
  const target = toolTarget(args, tally);
  return target ? `→ tool ${tool} ${target}` : `→ tool ${tool}`;
}

function toolTarget(args: unknown, tally: Tally | undefined): string {
  if (typeof args === 'string') return excerpt(args, TARGET_CHARS, tally);
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return '';
  const record = args as Record<string, unknown>;
  for (const key of TARGET_KEYS) {
    const value = targetValue(record[key], tally);
    if (value) return value;
  }
  for (const value of Object.values(record)) {
    const text = typeof value === 'string' ? excerpt(value, TARGET_CHARS, tally) : '';
    if (text) return text;
  }
  return '';
}

function targetValue(value: unknown, tally: Tally | undefined): string {
  if (typeof value === 'string') return excerpt(value, TARGET_CHARS, tally);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return excerpt(value.join(' '), TARGET_CHARS, tally);
  return '';
}

/**
 * One line for a tool result: `← edit: Edited memory/2026-03-02.md`, `← Bash (error): …`.
 * Returns null when the result has no text (pure tool noise).
 */
export function toolResultLine(name: string | null, text: string, isError: boolean, max = EXCERPT_CHARS, tally?: Tally): string | null {
  const body = excerpt(text, max, tally);
  if (body === '') return null;
  const label = `${name ? ` ${excerpt(name, 60, tally)}` : ''}${isError ? ' (error)' : ''}`;
  return label ? `←${label}: ${body}` : `← ${body}`;
}
