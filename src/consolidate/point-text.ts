// A record's words made fit for one line of a digest: one line, cut at a sentence end, with nothing
// that Markdown would read as structure (a heading, a quote, a table, an unclosed code span or an
// HTML tag). Also the word tokens near-duplicate detection compares, for any script.
import { STOPWORDS } from '../judge/lexicon.js';
import { stripControl } from '../core/text.js';

/** Longest point, in characters (before Markdown escapes): a line a person reads at a glance. */
export const POINT_MAX_CHARS = 220;

/** Only the head of a record is read: a point never needs more, and a megabyte turn stays cheap. */
const READ_CHARS = 2000;

// ICU's rules (UAX #29 plus dictionaries for Chinese, Japanese, Thai …) find sentence and word ends
// in any language; the locale only tunes abbreviations, so one fixed locale keeps output stable.
const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });
const WORDS = new Intl.Segmenter('en', { granularity: 'word' });
const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * C1 controls, zero-width spaces, byte-order marks and bidirectional overrides (which can make a
 * line display in another order than it reads). Zero-width joiners stay: emoji sequences and
 * several scripts need them.
 */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0080-\u009F\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/g;

/** The record's text on one line: control characters gone, all whitespace one space. */
export function oneLineText(text: unknown): string {
  const raw = typeof text === 'string' ? text.slice(0, READ_CHARS) : '';
  return stripControl(raw).replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}

/** The point in the record's own words: one line, at most ~220 characters, safe inside a Markdown list item. */
export function pointText(text: unknown, maxChars = POINT_MAX_CHARS): string {
  const line = stripBlockMarkers(oneLineText(text));
  return neutraliseInline(cutAtSentence(line, maxChars));
}

/**
 * Whole sentences up to `max` characters. When the first sentence alone is longer, it is cut at a
 * word end instead (between graphemes when it has no word breaks) and ends in "…".
 */
export function cutAtSentence(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  for (const { segment } of SENTENCES.segment(text)) {
    if ((out + segment).trimEnd().length > max) break;
    out += segment;
  }
  out = out.trimEnd();
  if (out !== '') return out;
  return cutAtWord(text, max - 1) + '…';
}

function cutAtWord(text: string, max: number): string {
  let lastWordEnd = 0;
  let lastGrapheme = 0;
  for (const { segment, index, isWordLike } of WORDS.segment(text.slice(0, max + 1))) {
    const end = index + segment.length;
    if (end > max) break;
    if (isWordLike) lastWordEnd = end;
  }
  // A run without word breaks (a 10k-character token) is cut between graphemes, never inside one.
  for (const { segment, index } of GRAPHEMES.segment(text.slice(0, max + 8))) {
    if (index + segment.length > max) break;
    lastGrapheme = index + segment.length;
  }
  const end = lastWordEnd >= max / 2 ? lastWordEnd : lastGrapheme;
  return text.slice(0, end).trimEnd();
}

/** Leading `#`, `>`, list markers and rules would make a heading, quote or list of their own. */
function stripBlockMarkers(line: string): string {
  let out = line;
  for (;;) {
    const next = out.replace(/^(?:#{1,6}(?=\s|$)|>+|[-*+](?=\s)|\d{1,9}[.)](?=\s)|[=_*-]{3,})\s*/, '');
    if (next === out) return out;
    out = next;
  }
}

/** Record and digest ids (`m_…`, `t_…`, `g_…`): the shape a citation has. */
const ID_SHAPE = /^\s*[mtdxg]_[\w-]+\s*$/;

/**
 * Inline structure that could leak past the line: backticks are kept only as balanced single pairs
 * (a stray one would swallow the citation), pipes are escaped (a table), and anything that looks
 * like an HTML tag or comment is escaped (an unclosed `<details>` would fold the rest of the page).
 */
function neutraliseInline(line: string): string {
  const ticks = line.match(/`/g)?.length ?? 0;
  const keepCode = ticks > 0 && ticks % 2 === 0 && !/``|\\`/.test(line);
  const text = keepCode ? line : line.replace(/ ?`+ ?/g, (m) => (m.startsWith(' ') || m.endsWith(' ') ? ' ' : ''));
  const escape = (plain: string): string => plain.replace(/\\(?=[|<])/g, '\\\\').replace(/\|/g, '\\|').replace(/<(?=[A-Za-z/!?])/g, '&lt;');
  // A code span holding a record id would read as a citation: the id stays, its backticks go.
  return text
    .split('`')
    .map((part, i) => (i % 2 === 0 ? escape(part) : ID_SHAPE.test(part) ? escape(part) : `\`${part}\``))
    .join('')
    .trim();
}

/** Word-like segments of a text, lower case with compatibility forms folded (any script). */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const { segment, isWordLike } of WORDS.segment(text.slice(0, READ_CHARS).normalize('NFKC').toLowerCase())) if (isWordLike) out.push(segment);
  return out;
}

/** The comparable form of a word: simple English endings trimmed ("backups", "backup" → "backup"). */
export function stemWord(word: string): string {
  return /^[a-z']{5,}$/.test(word) ? word.replace(/(?:ing|ed|es|s)$/, '') : word;
}

/** Whether a word says nothing on its own: a stop word, or a single Latin letter. */
export function isStopWord(word: string): boolean {
  return /^[a-z']+$/.test(word) && (word.length < 2 || STOPWORDS.has(word));
}

/**
 * The words a text is compared on: lower case, compatibility forms folded, stop words dropped,
 * simple English endings trimmed. Chinese and Japanese come out as dictionary words.
 */
export function contentTokens(text: string): Set<string> {
  return new Set(wordsOf(text).filter((w) => !isStopWord(w)).map(stemWord));
}

/** Jaccard similarity of two token sets (0 when either is empty). */
export function similarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const t of small) if (large.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Shared tokens over the smaller set: how much of the shorter text the longer one covers. */
export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const t of small) if (large.has(t)) shared++;
  return shared / small.size;
}

/** Normalised text for exact-duplicate detection: "Deployed v2!" and "deployed v2" are one record. */
export function duplicateKey(text: string): string {
  return oneLineText(text).normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}
