// Store.keywordSearch takes terms in the index's form (search/text-analysis.ts), as queryTerms
// gives them: words read as an English question would read them.
import { termOf } from '../../src/search/text-analysis.js';

export function indexTerms(words: readonly string[]): string[] {
  return words.map((w) => termOf(w.toLowerCase(), 'en'));
}
