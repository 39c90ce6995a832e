// How many of a query's words a text contains. BM25 over an OR query can rank a text that repeats
// one rare word above one that has every word; coverage says how much of the question it answers.
import { tokenize } from './query-terms.js';

/** Prefix match approximates the porter stemming the index uses ("decided" ~ "decide"). */
export function matchesTerm(word: string, terms: readonly string[]): boolean {
  return terms.some((t) => word === t || (t.length >= 4 && word.startsWith(t.slice(0, Math.max(4, t.length - 2)))));
}

/** The fraction of `terms` found in `text` (1 when there are no terms to find). */
export function termCoverage(text: string, terms: readonly string[]): number {
  if (terms.length === 0) return 1;
  const words = new Set(tokenize(text));
  let found = 0;
  for (const t of terms) {
    for (const w of words) {
      if (matchesTerm(w, [t])) {
        found++;
        break;
      }
    }
  }
  return found / terms.length;
}
