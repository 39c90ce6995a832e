// A short excerpt of a result around the query's words, so a person (or an agent with a token
// budget) sees why it matched without reading the whole text.

import { matchesTerm } from './coverage.js';
import { forEachWord, type Language } from './text-analysis.js';

const DEFAULT_WIDTH = 240;

/**
 * Whitespace only where it is not already one space: a run of two or more, or a tab or line break.
 * /\s+/ also matches every single space, so replacing with it built a new copy of every text
 * (each search folds every result's text and its neighbours'); a text with nothing to fold is now
 * returned as it is.
 */
const EXTRA_SPACE = /\s{2,}|[^\S ]/g;

/** The text on one line: each run of whitespace one space, the ends trimmed. */
export function oneLine(text: string): string {
  return text.replace(EXTRA_SPACE, ' ').trim();
}

/**
 * The excerpt of at most `width` characters around the query's words. `focus`, a passage of the
 * text (the one closest to the query by meaning, embed/passages.ts), is where the excerpt goes
 * when it holds a query word or the text holds none: a long text found by meaning alone would
 * otherwise show its opening lines, which are often about something else.
 */
export function makeSnippet(text: string, terms: readonly string[], width = DEFAULT_WIDTH, focus?: string, language: Language = 'en'): string {
  const flat = oneLine(text);
  if (flat.length <= width) return flat;
  const hits = termPositions(flat, terms, language);
  const passage = focus === undefined ? '' : oneLine(focus);
  // Found by its opening: a passage skips lines with no words, so it may not be a substring.
  const at = passage ? flat.indexOf(passage.slice(0, 80)) : -1;
  if (at >= 0) {
    const end = at + passage.length;
    const inFocus = hits.filter((h) => h >= at && h < end);
    if (inFocus.length > 0) return excerpt(flat, densest(flat, inFocus, width), width, inFocus);
    if (hits.length === 0) return excerpt(flat, at, width);
  }
  if (hits.length === 0) return excerpt(flat, 0, width);
  return excerpt(flat, densest(flat, hits, width), width, hits);
}

/** Where the text's words that are query terms start (words cut and stemmed as the index does). */
function termPositions(flat: string, terms: readonly string[], language: Language): number[] {
  const at: number[] = [];
  if (terms.length > 0) forEachWord(flat, (word, index) => void (matchesTerm(word, terms, language) && at.push(index)));
  return at;
}

/**
 * Where a window should start to cover the most hits: at the start of the sentence that holds the
 * first of them when that is near enough to keep them all, else a little before the first. A
 * sentence read from its start says who did what; one cut mid-way often loses the subject or the
 * object the query asks about.
 */
function densest(flat: string, hits: readonly number[], width: number): number {
  let first = hits[0]!;
  let last = first;
  let bestCount = 0;
  for (let i = 0, j = 0; i < hits.length; i++) {
    while (hits[j]! < hits[i]! - width * 0.7) j++;
    if (i - j + 1 > bestCount) {
      bestCount = i - j + 1;
      first = hits[j]!;
      last = hits[i]!;
    }
  }
  const sentence = sentenceStart(flat, first, Math.floor(width * 0.7));
  if (sentence >= 0 && last < sentence + width * 0.85) return sentence;
  return Math.max(0, first - Math.floor(width * 0.2));
}

/** The start of the sentence holding `at`, or -1 when it starts more than `reach` before it. */
function sentenceStart(flat: string, at: number, reach: number): number {
  const from = Math.max(0, at - reach);
  let start = from === 0 ? 0 : -1;
  for (const m of flat.slice(from, at).matchAll(SENTENCE_END)) start = from + m.index + m[0].length;
  return start;
}

// A sentence ends at . ! ? or … and any closing quote or bracket after it.
const TERMINATOR = String.raw`[.!?…]["'”’)\]]*`;
const SENTENCE_END = new RegExp(`${TERMINATOR}\\s+`, 'gu');
const SENTENCE_CUT = new RegExp(`${TERMINATOR}(?=\\s)`, 'gu');

function excerpt(flat: string, from: number, width: number, hits: readonly number[] = []): string {
  let start = from;
  if (start + width > flat.length) start = Math.max(0, flat.length - width);
  // Do not cut a word in half at the start.
  if (start > 0 && /[\p{L}\p{N}]/u.test(flat[start - 1]!)) {
    const space = flat.indexOf(' ', start);
    if (space !== -1 && space - start < 20) start = space + 1;
  }
  let end = Math.min(flat.length, start + width);
  if (end < flat.length) end = cleanEnd(flat, start, end, hits);
  return (start > 0 ? '…' : '') + flat.slice(start, end).trim() + (end < flat.length ? '…' : '');
}

/**
 * Where a cut excerpt ends: after the last sentence in its second half, else at the last word
 * break, never before a query word it shows (a half sentence or word reads worse and costs more
 * tokens than it tells).
 */
function cleanEnd(flat: string, start: number, end: number, hits: readonly number[]): number {
  let keep = start + Math.floor((end - start) / 2);
  for (const h of hits) if (h >= start && h < end) keep = Math.max(keep, h + 1);
  const span = flat.slice(keep, end + 1);
  let sentence = -1;
  for (const m of span.matchAll(SENTENCE_CUT)) sentence = keep + m.index + m[0].length;
  if (sentence > keep) return sentence;
  if (/[\p{L}\p{N}]/u.test(flat[end] ?? '')) {
    const space = flat.lastIndexOf(' ', end);
    if (space > keep) return space;
  }
  return end;
}
