// How many of a query's words a text contains. BM25 over an OR query can rank a text that repeats
// one rare word above one that has every word; coverage says how much of the question it answers.
import { tokenize } from './query-terms.js';

/** Prefix match approximates the porter stemming the index uses ("decided" ~ "decide"). */
export function matchesTerm(word: string, terms: readonly string[]): boolean {
  return terms.some((t) => word === t || (t.length >= 4 && word.startsWith(t.slice(0, Math.max(4, t.length - 2)))));
}

/**
 * The share of `terms` a turn has (1 with no terms), read with the turns right around it: a word found only there counts
 * `aroundWeight` of a word the turn has itself. "Yes, last Friday!" answers a question whose
 * other words are in the turn it replies to.
 */
export function windowCoverage(text: string, around: readonly string[], terms: readonly string[], aroundWeight: number): number {
  if (terms.length === 0) return 1;
  const own = new Set(tokenize(text));
  const near = aroundWeight > 0 ? new Set(around.flatMap((a) => tokenize(a))) : new Set<string>();
  let sum = 0;
  for (const t of terms) sum += found(own, t) ? 1 : found(near, t) ? aroundWeight : 0;
  return sum / terms.length;
}

function found(words: ReadonlySet<string>, term: string): boolean {
  for (const w of words) if (matchesTerm(w, [term])) return true;
  return false;
}
