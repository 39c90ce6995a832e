// Turns a natural-language query into BM25 terms: lower-cased words without stop words, so
// "what did we decide about the port" searches for "decide" and "port", not for "the".

const STOP_WORDS = new Set(
  `a about above after again against all am an and any are aren't as at be because been before being below
  between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each
  few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself
  him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't
  my myself no nor not of off on once only or other ought our ours ourselves out over own same shan't she she'd
  she'll she's should shouldn't so some such than that that's the their theirs them themselves then there
  there's these they they'd they'll they're they've this those through to too under until up very was wasn't we
  we'd we'll we're we've were weren't what what's when when's where where's which while who who's whom why
  why's with won't would wouldn't you you'd you'll you're you've your yours yourself yourselves
  also just will shall may might must yes ok okay really quite`
    .split(/\s+/)
    .filter(Boolean),
);

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

const ASCII = /^[\x00-\x7f]*$/;

/** Splits text into lower-case word tokens (letters, digits, inner apostrophes). */
export function tokenize(text: string): string[] {
  // NFKC changes only non-ASCII text; skipping it for ASCII keeps scoring hundreds of candidates cheap.
  const lower = text.toLowerCase();
  return (ASCII.test(lower) ? lower : lower.normalize('NFKC')).match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu) ?? [];
}

/** Query terms for keyword search: stop words and asking words dropped unless nothing else is left; deduplicated. */
export function queryTerms(query: string): string[] {
  const tokens = tokenize(query).map((t) => t.replace(/’/g, "'"));
  const content = tokens.filter((t) => !STOP_WORDS.has(t) && !ASKING_WORDS.has(t) && (t.length > 1 || /\d/.test(t)));
  const chosen = content.length > 0 ? content : tokens;
  // Possessives ("ana's") index as "ana" + "s" under unicode61; search the stem word.
  const cleaned = chosen.map((t) => t.replace(/'s$/, '').replace(/'/g, ''));
  return [...new Set(cleaned.filter(Boolean))].slice(0, MAX_TERMS);
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}
