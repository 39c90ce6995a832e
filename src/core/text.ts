// Text helpers shared by dedup and indexing: one normalisation so "the same statement" means the
// same thing everywhere.
import { sha256 as sha256Bytes } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { createHash } from './lazy-crypto.js';

/** Lower-cases, folds Unicode compatibility forms, collapses whitespace, drops trailing punctuation. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.!?;:,]+$/u, '');
}

/**
 * Up to this many characters a text is hashed in JavaScript (@noble/hashes: ~3–7 µs for a query),
 * longer ones by node:crypto (5–10× faster on kilobytes). Loading node:crypto costs a fresh process
 * ~6 ms of its main thread, on the path of a cold hybrid `cairn search`, which hashes only its
 * query (the embedding cache's key). Both give the same digest: lone surrogates become U+FFFD in
 * both encoders.
 */
const HASHED_IN_JS_CHARS = 1024;

export function sha256(text: string): string {
  if (text.length <= HASHED_IN_JS_CHARS) return bytesToHex(sha256Bytes(utf8ToBytes(text)));
  return createHash('sha256').update(text).digest('hex');
}

/** Hash used for exact-duplicate detection. */
export function dedupKey(text: string): string {
  return sha256(normalizeText(text));
}

/** An unpaired UTF-16 surrogate: it has no UTF-8 form, so SQLite would store invalid bytes. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// eslint-disable-next-line no-control-regex
const C0_BUT_TAB_NEWLINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
// eslint-disable-next-line no-control-regex
const LINE_BREAKS = /[\t\n\r\u000B\u000C\u0085\u2028\u2029]+/g;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001F\u007F-\u009F]/g;

/** Replaces unpaired surrogates with U+FFFD, as a UTF-8 decoder would. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** Removes NUL and other C0 control characters except tab and newline; repairs unpaired surrogates. */
export function stripControl(text: string): string {
  return wellFormed(text).replace(C0_BUT_TAB_NEWLINE, '');
}

/**
 * A one-line label (speaker, tag, source name, other metadata): line breaks and tabs become one
 * space, every other control character (C0, DEL, C1) goes, unpaired surrogates become U+FFFD.
 */
export function cleanLabel(text: string): string {
  return wellFormed(text).replace(LINE_BREAKS, ' ').replace(ANY_CONTROL, '').trim();
}

/** Whether an id holds a control character or an unpaired surrogate (what `escapeIdChars` rewrites). */
export function hasUnsafeIdChars(id: string): boolean {
  LONE_SURROGATE.lastIndex = 0;
  ANY_CONTROL.lastIndex = 0;
  return LONE_SURROGATE.test(id) || ANY_CONTROL.test(id);
}

/**
 * An id read from a transcript with its control characters and unpaired surrogates written as
 * `\uXXXX`: valid UTF-8 and printable, and ids that differ only in those characters stay
 * distinct (removing them would merge two messages into one and drop the second).
 */
export function escapeIdChars(id: string): string {
  const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return id.replace(LONE_SURROGATE, escape).replace(ANY_CONTROL, escape);
}
