// The function words (articles, pronouns, prepositions, auxiliaries) of the Latin-script languages
// other than English that text analysis stems, from the stopword package's lists. Language
// detection asks them for evidence: a sentence in German, Spanish, French, Italian, Portuguese or
// Dutch has some of its own, while code, tool output and terse English notes, whose letters
// tinyld reads as Dutch or Portuguese now and then, have none. Loaded on the first text that asks
// (the package holds 62 languages' lists).
import { createRequire } from 'node:module';
import { ENGLISH } from './stop-words.js';

let otherLatin: ReadonlySet<string> | undefined;

function otherLatinFunctionWords(): ReadonlySet<string> {
  if (otherLatin) return otherLatin;
  const lists = createRequire(import.meta.url)('stopword') as typeof import('stopword');
  const out = new Set<string>();
  for (const list of [lists.deu, lists.spa, lists.fra, lists.ita, lists.por, lists.nld]) {
    // English's own function words say nothing ("in", "so", "was"), and single letters ("a", "e",
    // "o", "y") are variable names and list markers in code as often as conjunctions.
    for (const word of list) if (word.length >= 2 && !ENGLISH.has(word)) out.add(word);
  }
  return (otherLatin = out);
}

/** Whether any of these lower-case words is a function word of another Latin-script language than English. */
export function hasOtherLatinFunctionWord(words: readonly string[]): boolean {
  const set = otherLatinFunctionWords();
  return words.some((w) => set.has(w));
}
