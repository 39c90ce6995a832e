// Turns a natural-language query into BM25 terms: its content words without stop words, in the
// index's form (text-analysis.ts), so "what did we decide about the port" searches for "decid" and
// "port", not for "the", and "Wo hat meine Schwester gewohnt?" finds "Meine Schwester wohnt…".
import { ENGLISH, isQueryStopWord } from './stop-words.js';
import { detectLanguage, termOf, words, type Language } from './text-analysis.js';

// Words a person uses to ask their agent to remember ("can you remind me…", "in our previous
// conversation…", "I mentioned earlier…"): they are about the asking, not about what is asked, and as
// keywords they pull in every turn where someone says "remember". Dropped like stop words. Measured on
// LoCoMo with each question wrapped in such a phrase (the first 5 results of a search for 20):
// recall 0.828 → 0.836; on the plain questions 0.840 → 0.839.
const ASKING_WORDS = new Set(
  `remind remember recall mention mentioned mentions earlier previous previously conversation conversations
  tell told again`
    .split(/\s+/)
    .filter(Boolean),
);

const MAX_TERMS = 32;

/** Splits text into lower-case words (letters, digits, inner apostrophes; Chinese and Japanese cut by dictionary). */
export function tokenize(text: string): string[] {
  return words(text);
}

/**
 * The languages of recent queries. One search asks for its query's language several times (its
 * terms, its focus, the time it names) and detection (tinyld) costs ~0.5 ms of CPU a time: asked
 * once per query text. Detection is a pure function of the text, so a kept answer never goes stale.
 */
const RECENT_LANGUAGES = 512;
const recentLanguages = new Map<string, Language>();

/** The language a query's words are stemmed in (text-analysis.ts detectLanguage). */
export function queryLanguage(query: string): Language {
  let language = recentLanguages.get(query);
  if (language === undefined) {
    language = detectLanguage(query);
    recentLanguages.set(query, language);
    if (recentLanguages.size > RECENT_LANGUAGES) recentLanguages.delete(recentLanguages.keys().next().value!);
  }
  return language;
}

/**
 * A query's content words as written (lower-case): stop words and asking words dropped unless
 * nothing else is left, possessives and apostrophes taken off, deduplicated. What the query's
 * focus embeds; queryTerms is these in the index's form.
 */
export function queryWords(query: string, language: Language = queryLanguage(query)): string[] {
  const tokens = tokenize(query).map((t) => t.replace(/’/g, "'"));
  const content = tokens.filter((t) => !isQueryStopWord(t, language) && !ASKING_WORDS.has(t) && (t.length > 1 || /\d/.test(t) || /[^\x00-\x7f]/.test(t)));
  const chosen = content.length > 0 ? content : tokens;
  // Possessives ("ana's") index as "ana" + "s": search the word itself.
  const cleaned = chosen.map((t) => t.replace(/'s$/, '').replace(/'/g, ''));
  return [...new Set(cleaned.filter(Boolean))].slice(0, MAX_TERMS);
}

/** Query terms for keyword search: queryWords in the index's form, deduplicated. */
export function queryTerms(query: string, language: Language = queryLanguage(query)): string[] {
  return [...new Set(queryWords(query, language).map((w) => termOf(w, language)))];
}

export function isStopWord(word: string): boolean {
  return ENGLISH.has(word);
}
