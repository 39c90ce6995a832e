// How many of a query's words a text contains. BM25 over an OR query can rank a text that repeats
// one rare word above one that has every word; coverage says how much of the question it answers.
import { LRUCache } from 'lru-cache';
import { analyse, termOf, type Language } from './text-analysis.js';

/** Whether a word of a text (as `words` gives it) is one of the query's terms, read in the query's language. */
export function matchesTerm(word: string, terms: readonly string[], language: Language = 'en'): boolean {
  // Every word of every snippet comes here; most have no apostrophe to strip.
  const bare = APOSTROPHE.test(word) ? word.replace(/['’]s$/, '').replace(/['’]/g, '') : word;
  return terms.includes(termOf(bare, language));
}

const APOSTROPHE = /['’]/;

/**
 * Which of a query's terms a text has. One per search: each text is read once however often it
 * is asked about (a candidate's own coverage, its neighbours', the terms' rarity). A text whose
 * entry's index terms the search was given (`held`: which terms the keyword index holds for it,
 * by text, indexed like `terms`; its arrays are the answers, taken as they are, a repeated term
 * cleared) is answered from them: the words keyword search finds it by. Any other text's words
 * are analysed in the query's language: a question matches a text in its own language (and
 * English in any).
 */
export class TermFinder {
  /** Each distinct term once, between spaces as termsOf gives them, with the index of its first place among `terms`. */
  private readonly distinct: string[] = [];
  private readonly at: number[] = [];
  /** The indexes of terms asked again: a text has a term at its first index only. */
  private readonly repeats: number[] = [];
  private readonly seen = new Map<string, Uint8Array>();

  constructor(
    readonly terms: readonly string[],
    readonly language: Language = 'en',
    private readonly held?: ReadonlyMap<string, Uint8Array>,
  ) {
    const first = new Set<string>();
    terms.forEach((t, i) => {
      if (first.has(t)) return void this.repeats.push(i);
      first.add(t);
      this.distinct.push(` ${t} `);
      this.at.push(i);
    });
  }

  /** 1 at each term's index the text has, else 0. */
  in(text: string): Uint8Array {
    let found = this.seen.get(text);
    if (found) return found;
    const held = this.held?.get(text);
    if (held && held.length === this.terms.length) {
      // The index's answer itself (heldByText's, made for this search), its repeats cleared.
      for (let k = 0; k < this.repeats.length; k++) held[this.repeats[k]!] = 0;
      this.seen.set(text, held);
      return held;
    }
    found = new Uint8Array(this.terms.length);
    if (held) for (let k = 0; k < this.at.length; k++) found[this.at[k]!] = held[this.at[k]!]!;
    // No terms: nothing to look for, so the text is not even tokenized.
    else if (this.distinct.length > 0) {
      const terms = termsOf(text, this.language);
      // ~800 texts a search: a plain loop, no entry arrays of a map's iterator.
      for (let k = 0; k < this.distinct.length; k++) if (terms.includes(this.distinct[k]!)) found[this.at[k]!] = 1;
    }
    this.seen.set(text, found);
    return found;
  }
}

/**
 * Texts' analysed terms, kept across searches: analysing a long message (segmenting, stemming)
 * costs ~0.4 ms, and the same candidates come back search after search in a namespace; on agent
 * transcripts analysing them anew was a third of a search. Bounded by the characters it holds
 * (texts and their terms), the least recently asked dropped first: lru-cache, because a Map
 * evicted from its front by iteration, as this was, walks over every slot deleted since it last
 * rehashed (a text's terms went from ~12 to ~44 µs once the cache was full).
 */
const TERM_CACHE_CHARS = 8_000_000;
/** A text's terms per language it was read in (searches rarely switch language: mostly one). */
type TermsByLanguage = Partial<Record<Language, string>>;
/**
 * Keyed by the text itself: a text's hash is kept in the string once computed, where a key joining
 * language and text was a new string to build and hash at every lookup (~1,000 a search at 50k
 * chat turns). A text's terms are one string (termsOf): a search at 50k chat turns adds ~200
 * texts, and the young-generation collections that copy them into the old generation copy a flat
 * string without reading it, where a Set was a table of pointers to follow.
 */
const termCache = new LRUCache<string, TermsByLanguage>({
  maxSize: TERM_CACHE_CHARS,
  maxEntrySize: TERM_CACHE_CHARS / 100,
  sizeCalculation: (terms, text) => {
    let size = text.length + 1;
    for (const t of Object.values(terms)) size += t.length;
    return size;
  },
});

/**
 * The distinct index-form terms of a text read in `language`, each between spaces (" cat dog "),
 * from the cache when it has them. No term has a space (text-analysis.ts cuts words at them).
 */
export function termsOf(text: string, language: Language): string {
  const known = termCache.get(text);
  const hit = known?.[language];
  if (hit !== undefined) return hit;
  const distinct = new Set(analyse(text, language));
  // " " for none: "  " would read as holding the empty term (a lone combining mark's).
  const terms = distinct.size > 0 ? ` ${[...distinct].join(' ')} ` : ' ';
  termCache.set(text, { ...known, [language]: terms });
  return terms;
}

/** The distinct index-form terms of a text read in `language` (termsOf, as a set). */
export function termSet(text: string, language: Language): ReadonlySet<string> {
  const terms = termsOf(text, language);
  return new Set(terms === ' ' ? [] : terms.slice(1, -1).split(' '));
}

/** How much each term counts towards coverage, by the term's index: null counts every term alike. */
export type TermWeights = Float64Array | null;

/**
 * Each term's inverse document frequency among the texts being ranked, ln(1 + (n + 1) / (df + 1)).
 * "What job might Maria pursue in the future?": among the candidates "future" is in many texts
 * and "job" in few, so a text with "job" has more of what sets the question apart than one with
 * "future". Counted over the candidates, not the whole index, because that is where it ranks,
 * and the same on every store. A term no candidate has tells none of them apart: weight 0.
 */
export function candidateIdf(finder: TermFinder, texts: Iterable<string>): Float64Array {
  const df = new Float64Array(finder.terms.length);
  let n = 0;
  for (const text of texts) {
    n++;
    const found = finder.in(text);
    for (let i = 0; i < found.length; i++) df[i]! += found[i]!;
  }
  return df.map((d) => (d === 0 ? 0 : Math.log(1 + (n + 1) / (d + 1))));
}

/**
 * The share of the finder's terms a turn has (1 with no terms), read with the turns right around
 * it: a word found only there counts `aroundWeight` of a word the turn has itself. "Yes, last
 * Friday!" answers a question whose other words are in the turn it replies to. With `weights`, a
 * term counts its weight, not 1.
 */
export function windowCoverage(finder: TermFinder, text: string, around: readonly string[], aroundWeight: number, weights: TermWeights = null): number {
  const n = finder.terms.length;
  if (n === 0) return 1;
  const own = finder.in(text);
  // Runs for every candidate and neighbour of every search: no arrays or closures made per call.
  const nearCount = aroundWeight > 0 ? around.length : 0;
  const near0 = nearCount > 0 ? finder.in(around[0]!) : null;
  const near1 = nearCount > 1 ? finder.in(around[1]!) : null;
  const more = nearCount > 2 ? around.slice(2).map((a) => finder.in(a)) : null;
  let sum = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const w = weights ? weights[i]! : 1;
    if (w === 0) continue;
    total += w;
    const nearby = near0?.[i] === 1 || near1?.[i] === 1 || (more !== null && more.some((x) => x[i] === 1));
    sum += w * (own[i] === 1 ? 1 : nearby ? aroundWeight : 0);
  }
  return total > 0 ? sum / total : 1;
}
