// How text becomes searchable words, the same for what is indexed and for what is asked: words
// cut by Unicode word boundaries (Intl.Segmenter, whose ICU dictionaries cut Chinese and Japanese,
// which write no spaces), each stemmed by its language's Snowball stemmer, then lower-cased and
// stripped of diacritics the way FTS5's unicode61 remove_diacritics 2 folds them. The keyword
// index stores these tokens (store/sqlite/fts-text.ts); query terms, coverage and snippets
// analyse with the same functions, so a word asked is found in any form the text has it.
import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';
import { stemmer as porter } from 'stemmer';
import { hasOtherLatinFunctionWord } from './function-words.js';
import { ENGLISH, LATIN_STOP_WORD_LANGUAGES, hasStopWordOf } from './stop-words.js';

// tinyld unpacks its n-gram tables as it loads (~250 ms of CPU, the largest part of a cold
// `cairn search`) and snowball-stemmers is 700 KB of every language's stemmer: each is loaded on
// the first text that needs it, synchronously like the rest of the analysis. English texts and
// queries, most of them, need neither.
const lazyRequire = createRequire(import.meta.url);
type DetectAll = typeof import('tinyld').detectAll;
let detectAllOnce: DetectAll | undefined;
function detectAll(...args: Parameters<DetectAll>): ReturnType<DetectAll> {
  detectAllOnce ??= (lazyRequire('tinyld') as typeof import('tinyld')).detectAll;
  return detectAllOnce(...args);
}
function newStemmer(algorithm: string): { stem(word: string): string } {
  return (lazyRequire('snowball-stemmers') as typeof import('snowball-stemmers')).newStemmer(algorithm);
}

/** A language words are stemmed in: ISO 639-1. Russian is told by its script, the others by tinyld. */
export type Language = 'en' | 'de' | 'es' | 'fr' | 'it' | 'pt' | 'nl' | 'ru';

const LATIN_LANGUAGES: readonly Language[] = ['en', 'de', 'es', 'fr', 'it', 'pt', 'nl'];
const SNOWBALL: Readonly<Record<Exclude<Language, 'en'>, string>> = {
  de: 'german',
  es: 'spanish',
  fr: 'french',
  it: 'italian',
  pt: 'portuguese',
  nl: 'dutch',
  ru: 'russian',
};

// English keeps the Porter stemmer FTS5's porter tokenizer applied before, so English texts and
// questions meet as they did.
const stemmers = new Map<Language, (word: string) => string>([['en', porter]]);
function stemmerOf(language: Language): (word: string) => string {
  let stem = stemmers.get(language);
  if (!stem) {
    const snowball = newStemmer(SNOWBALL[language as Exclude<Language, 'en'>]);
    stem = (word) => snowball.stem(word);
    stemmers.set(language, stem);
  }
  return stem;
}

// Scripts written without spaces between words: only these need the (slow, ~3 µs a character)
// dictionary segmenter; everywhere else a word is a run of letters and digits, which is what the
// segmenter returns there too.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu;
// Made on first use: building it loads ICU's word-break data, ~25 ms of every cold command that
// imports this module, though only text in the scripts above ever needs it.
let segmenter: Intl.Segmenter | undefined;

const ASCII = /^[\x00-\x7f]*$/;

function lowerNfkc(text: string): string {
  const lower = text.toLowerCase();
  // NFKC changes only non-ASCII text; skipping it for ASCII keeps scoring hundreds of candidates cheap.
  return ASCII.test(lower) ? lower : lower.normalize('NFKC');
}

/** A word of a text and where it starts (in the text as given). */
export interface WordSpan {
  word: string;
  index: number;
}

/**
 * The words of a text with their positions: lower-case, NFKC, letters, digits and marks with inner
 * apostrophes ("ana's"). Positions are into `text` as given for text NFKC leaves alone (all but
 * compatibility characters such as full-width Latin, where a position may be a character off).
 */
export function wordSpans(text: string): WordSpan[] {
  const out: WordSpan[] = [];
  forEachWord(text, (word, index) => void out.push({ word, index }));
  return out;
}

/** WORD's own instance for forEachWord's exec loop (exec moves a global regex's lastIndex). */
const WORD_AT = new RegExp(WORD.source, WORD.flags);

/**
 * Each word of a text and where it starts, as wordSpans gives them, without a list: snippets read
 * every word of each result's text at each search, and an object per word (and matchAll's
 * iterator results) was a tenth of what a search allocates.
 */
export function forEachWord(text: string, visit: (word: string, index: number) => void): void {
  if (!UNSPACED.test(text)) return wordsAt(text, 0, visit);
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  for (const s of segmenter.segment(text)) if (s.isWordLike) wordsAt(s.segment, s.index, visit);
}

function wordsAt(text: string, offset: number, visit: (word: string, index: number) => void): void {
  WORD_AT.lastIndex = 0;
  for (let m = WORD_AT.exec(text); m !== null; m = WORD_AT.exec(text)) {
    const at = WORD_AT.lastIndex;
    visit(lowerNfkc(m[0]), offset + m.index);
    // A visit that reads other text the same way moves lastIndex: go on from here.
    WORD_AT.lastIndex = at;
  }
}

/** The words of a text (see wordSpans). */
export function words(text: string): string[] {
  if (!UNSPACED.test(text)) return lowerNfkc(text).match(WORD) ?? [];
  return wordSpans(text).map((w) => w.word);
}

const CYRILLIC = /\p{Script=Cyrillic}/gu;
// A Latin letter English does not write (é, ü, ñ, ß…): Latin script outside ASCII. Arrows,
// dashes, curly quotes and emoji are not one: English prose and tool output have them too.
const ACCENTED_LATIN = /[^\P{Script=Latin}\x00-\x7f]/u;
const LATIN = /\p{Script=Latin}/gu;
// Cyrillic keeps its marks: й is a letter of its own, not и with a diacritic.
const FOLDED_SCRIPTS = /^[\p{Script=Latin}\p{Script=Greek}\p{M}\p{N}]+$/u;
const MARKS = /\p{M}+/gu;

/** Detection reads this much of a text: enough to tell a language, bounded for long messages. */
const SAMPLE_CHARS = 600;

/**
 * Texts analysed lately, within a budget of characters (text and result alike), the least recently
 * asked dropped first. Capture analyses each new text two to four times: the turn's index row when
 * its page is stored (up to 1,000 lines), its memory's when that page is judged, the memory's row
 * again when the knowledge pass sets its entities, the near-duplicate lookup. The budget spans
 * such a page of long messages; a daemon holds at most a few MB for it. One huge text is not kept
 * (it must not empty the rest). lru-cache: a Map evicted from its front by iteration walks over
 * every slot deleted since it last rehashed, which grows with the map.
 */
function recentTexts<V extends {}>(budget: number): LRUCache<string, V> {
  return new LRUCache<string, V>({ maxSize: budget, maxEntrySize: budget / 64 });
}

/** What an entry costs beside its characters (map slot, boxes), counted so tiny texts are bounded too. */
const ENTRY_OVERHEAD = 64;
const recentLanguages = recentTexts<Language>(1_000_000);
const recentIndexTexts = recentTexts<string>(3_000_000);

/**
 * The language a text's Latin-script words are stemmed in, and Russian for a text mostly in
 * Cyrillic. English unless tinyld finds another language it is clearly more sure of (its score at
 * least twice English's): a misread English text would be stemmed apart from English questions.
 * A text whose words are mostly English stop words is English without asking tinyld (~0.4 ms of
 * CPU a text, the bulk of indexing a chat turn otherwise).
 */
export function detectLanguage(text: string): Language {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  // Capture reads the same text several times (the turn's index row, its memory's, the memory's
  // row again when its entities are set, the near-duplicate lookup): detection reads only the
  // sample, so one answer per sample serves them all.
  const known = recentLanguages.get(sample);
  if (known !== undefined) return known;
  const language = detectSample(sample);
  recentLanguages.set(sample, language, { size: sample.length + ENTRY_OVERHEAD });
  return language;
}

function detectSample(sample: string): Language {
  const latin = sample.match(LATIN)?.length ?? 0;
  const cyrillic = sample.match(CYRILLIC)?.length ?? 0;
  if (cyrillic > latin) return 'ru';
  if (latin < 3) return 'en';
  const plainLatin = !ACCENTED_LATIN.test(sample);
  if (plainLatin) {
    const all = words(sample);
    let stop = 0;
    for (const w of all) if (ENGLISH.has(w)) stop++;
    if (stop >= 2 && stop * 4 >= all.length) return 'en';
    // Below, such a text can only be read as another language with one of its stop words (the
    // evidence rule): without any, it is English whatever tinyld says, so tinyld is not asked.
    if (all.length < 8) {
      if (!LATIN_STOP_WORD_LANGUAGES.some((lang) => hasStopWordOf(all, lang))) return 'en';
    } else if (!hasOtherLatinFunctionWord(all)) {
      // A longer one needs a function word of some other language (its evidence rule): what
      // tinyld reads as Dutch or Portuguese in a text without one is code, tool output or a
      // terse English note. tinyld is not asked (~0.2 ms a text).
      return 'en';
    }
  }
  const ranked = detectAll(sample, { only: LATIN_LANGUAGES as unknown as string[] });
  const top = ranked[0];
  if (!top || top.lang === 'en') return 'en';
  const english = ranked.find((r) => r.lang === 'en')?.accuracy ?? 0;
  if (top.accuracy < 2 * english) return 'en';
  // A few plain words ("tiles clients") read as anything: another language needs a letter English
  // does not write, one of its stop words, or a sentence's length with another language's
  // function words in it (settled above).
  const all = words(sample);
  const evidence = !plainLatin || all.length >= 8 || hasStopWordOf(all, top.lang);
  return evidence ? (top.lang as Language) : 'en';
}

// Stems by language and word, kept across searches: a corpus repeats its words, and stemming
// every candidate's words on every search would cost more than the search's SQL. One map per
// language, keyed by the word itself: a key joining the two was a string built and hashed for
// every word of every text analysed.
const MEMO_LIMIT = 50_000;
const memo = new Map<Language, Map<string, string>>();
let memoSize = 0;

/**
 * The index form of one word (from `words`) in a text of `language`: Cyrillic words stemmed as
 * Russian, Latin ones in the text's language (English in a Russian text), other scripts as they
 * are; then diacritics removed from Latin and Greek. Apostrophes are dropped by the
 * caller, which splits there as the index does.
 */
export function termOf(word: string, language: Language): string {
  let forms = memo.get(language);
  if (!forms) memo.set(language, (forms = new Map()));
  const hit = forms.get(word);
  if (hit !== undefined) return hit;
  let out = word;
  // The Russian stemmer knows е, not ё (which most texts write as е anyway).
  if (/\p{Script=Cyrillic}/u.test(word)) out = stemmerOf('ru')(word.replace(/ё/g, 'е'));
  else if (/\p{Script=Latin}/u.test(word)) out = stemmerOf(language === 'ru' ? 'en' : language)(word);
  if (!ASCII.test(out) && FOLDED_SCRIPTS.test(out)) out = out.normalize('NFKD').replace(MARKS, '').normalize('NFC');
  if (memoSize >= MEMO_LIMIT) {
    for (const m of memo.values()) m.clear();
    memoSize = 0;
  }
  forms.set(word, out);
  memoSize++;
  return out;
}

const APOSTROPHES = /['’]/;

/** The index forms of a text's words, in order ("Ana's" gives "ana" and "s", as unicode61 splits). */
export function analyse(text: string, language: Language = detectLanguage(text)): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (!APOSTROPHES.test(w)) out.push(termOf(w, language));
    else for (const part of w.split(APOSTROPHES)) if (part) out.push(termOf(part, language));
  }
  return out;
}

/**
 * What the keyword index stores for a text: its index forms, space-separated. A Latin-script text
 * in another language than English also keeps each word in its English index form where that
 * differs from its own stem: a query of a word or two reads as English (too short to tell), and
 * "café" or "gewohnt" asked alone should still find the French or German text that has it.
 */
export function indexText(text: string, language: Language = detectLanguage(text)): string {
  const key = `${language}\u0000${text}`;
  const known = recentIndexTexts.get(key);
  if (known !== undefined) return known;
  const out = indexTextOf(text, language);
  recentIndexTexts.set(key, out, { size: key.length + out.length + ENTRY_OVERHEAD });
  return out;
}

function indexTextOf(text: string, language: Language): string {
  const forms = analyse(text, language);
  if (language === 'en' || language === 'ru') return forms.join(' ');
  const english = analyse(text, 'en');
  const out: string[] = [];
  for (let i = 0; i < forms.length; i++) {
    out.push(forms[i]!);
    if (english[i] !== forms[i]) out.push(english[i]!);
  }
  return out.join(' ');
}
