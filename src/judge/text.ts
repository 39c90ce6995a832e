// Input normalisation for the judge: bounded, control-free text split into sentences. Everything
// downstream scans only what this returns, which is what keeps judging linear and cheap on a
// megabyte-long turn.

/** Head and tail kept for scanning: facts lead a message, and tool output puts its errors last. */
export const SCAN_HEAD = 4000;
export const SCAN_TAIL = 1000;

/** Most sentences a turn is judged on; past this, more text only repeats the kinds already seen. */
export const MAX_SENTENCES = 60;

export function coerceText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  try {
    return String(value);
  } catch {
    return '';
  }
}

/** Caps, strips control characters and lone surrogates, folds whitespace, unifies apostrophes. */
export function scanText(raw: string): string {
  let text = raw.length > SCAN_HEAD + SCAN_TAIL ? `${raw.slice(0, SCAN_HEAD)}\n${raw.slice(-SCAN_TAIL)}` : raw;
  text = text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/[\u2018\u2019\u02BC\u2032]/g, "'")
    .replace(/[\u201C\u201D\u2033]/g, '"')
    .replace(/[ \t\r\f\v\u00A0]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim();
  return text;
}

/** Sentence pieces: split after . ! ? followed by a space, and at line breaks ("3.5" stays whole). */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(/(?<=[.!?]["')\]]?)\s+|\n+/)) {
    const s = piece.trim();
    if (s !== '') out.push(s);
    if (out.length >= MAX_SENTENCES) break;
  }
  return mergeFragments(out);
}

/** "3." and "e.g." style splits leave fragments without letters; glue them to the previous sentence. */
function mergeFragments(parts: string[]): string[] {
  const out: string[] = [];
  for (const p of parts) {
    if (out.length > 0 && !/\p{L}{2,}/u.test(p) && !/^[\p{Extended_Pictographic}\s]+$/u.test(p)) out[out.length - 1] += ` ${p}`;
    else out.push(p);
  }
  return out;
}

/** Whether the text has a letter or a digit: "is there any language here at all" (no array of every letter made). */
export function hasWordChars(text: string): boolean {
  return WORD_CHAR.test(text);
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Letters and digits in the text, a cheap proxy for "is there any language here at all". */
export function countWordChars(text: string): number {
  const m = text.match(/[\p{L}\p{N}]/gu);
  return m ? m.length : 0;
}
