// How many of a query's words a text contains. BM25 over an OR query can rank a text that repeats
// one rare word above one that has every word; coverage says how much of the question it answers.
import { tokenize } from './query-terms.js';

/** The part of a term its other forms start with: porter stemming, approximated ("decided" ~ "decide"). */
function stemPrefix(term: string): string | null {
  return term.length >= 4 ? term.slice(0, Math.max(4, term.length - 2)) : null;
}

/** Prefix match approximates the porter stemming the index uses ("decided" ~ "decide"). */
export function matchesTerm(word: string, terms: readonly string[]): boolean {
  return terms.some((t) => {
    const prefix = stemPrefix(t);
    return word === t || (prefix !== null && word.startsWith(prefix));
  });
}

/**
 * Which of a query's terms a text has. One per search: each text is read once however often it
 * is asked about (a candidate's own coverage, its neighbours', the terms' rarity).
 */
export class TermFinder {
  private readonly prefixes: ReadonlyArray<string | null>;
  private readonly seen = new Map<string, Uint8Array>();
  /** Every term and prefix is plain word characters: ASCII text can be searched without tokenizing it. */
  private readonly scannable: boolean;

  constructor(readonly terms: readonly string[]) {
    this.prefixes = terms.map(stemPrefix);
    this.scannable = terms.every((t) => WORD.test(t));
  }

  /** 1 at each term's index the text has, else 0. */
  in(text: string): Uint8Array {
    let found = this.seen.get(text);
    if (found) return found;
    found = new Uint8Array(this.terms.length);
    // No terms: nothing to look for, so the text is not even read.
    if (this.terms.length > 0) {
      const lower = text.toLowerCase();
      if (this.scannable && ASCII.test(lower)) this.scan(lower, found);
      else this.match(tokenize(text), found);
    }
    this.seen.set(text, found);
    return found;
  }

  private match(words: readonly string[], found: Uint8Array): void {
    let left = this.terms.length;
    for (const word of new Set(words)) {
      for (let i = 0; i < this.terms.length && left > 0; i++) {
        if (found[i] === 1) continue;
        const prefix = this.prefixes[i];
        if (word === this.terms[i] || (prefix != null && word.startsWith(prefix))) {
          found[i] = 1;
          left--;
        }
      }
      if (left === 0) break;
    }
  }

  /**
   * The same answer as matching tokenize()'s words, found by searching the lower-cased ASCII text
   * for each term (or its prefix) where a word starts: tokenizing a long message (1–5k characters)
   * with a Unicode regular expression was a third of a search over agent transcripts.
   */
  private scan(lower: string, found: Uint8Array): void {
    for (let i = 0; i < this.terms.length; i++) {
      const prefix = this.prefixes[i];
      const needle = prefix ?? this.terms[i]!;
      for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + 1)) {
        if (startsWord(lower, at) && (prefix !== null || endsWord(lower, at + needle.length))) {
          found[i] = 1;
          break;
        }
      }
    }
  }
}

const ASCII = /^[\x00-\x7f]*$/;
const WORD = /^[\p{L}\p{N}]+$/u;
const isWordCode = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
const isLetterCode = (c: number) => c >= 97 && c <= 122;
const APOSTROPHE = 39;

/** Whether a word of tokenize() starts at `at` of lower-cased ASCII text (a word char there). */
function startsWord(s: string, at: number): boolean {
  if (at === 0) return true;
  const prev = s.charCodeAt(at - 1);
  if (isWordCode(prev)) return isLetterCode(prev) && !isLetterCode(s.charCodeAt(at)) && afterContinuation(s, at - 1);
  // "o'neil": a letter after an apostrophe that follows a word goes on with that word.
  return !(prev === APOSTROPHE && at >= 2 && isWordCode(s.charCodeAt(at - 2)) && isLetterCode(s.charCodeAt(at)));
}

/**
 * Whether the letters ending at `last` follow an apostrophe inside a word ("ana's"): such a run
 * takes letters only, so a digit after it ("ana's90") starts a word of its own.
 */
function afterContinuation(s: string, last: number): boolean {
  let b = last;
  while (b >= 0 && isLetterCode(s.charCodeAt(b))) b--;
  return b >= 1 && s.charCodeAt(b) === APOSTROPHE && isWordCode(s.charCodeAt(b - 1));
}

/** Whether a word of tokenize() that runs up to `end` ends there. */
function endsWord(s: string, end: number): boolean {
  if (end >= s.length) return true;
  const next = s.charCodeAt(end);
  if (isWordCode(next)) return false;
  return !(next === APOSTROPHE && end + 1 < s.length && isLetterCode(s.charCodeAt(end + 1)));
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
  const near = aroundWeight > 0 ? around.map((a) => finder.in(a)) : [];
  let sum = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const w = weights ? weights[i]! : 1;
    if (w === 0) continue;
    total += w;
    sum += w * (own[i] === 1 ? 1 : near.some((x) => x[i] === 1) ? aroundWeight : 0);
  }
  return total > 0 ? sum / total : 1;
}
