// TermFinder searches ASCII text for the query's terms without tokenizing it: it must find exactly
// what matching tokenize()'s words found (apostrophes, digits, case, prefixes, word edges).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TermFinder, matchesTerm } from '../../src/search/coverage.js';
import { tokenize } from '../../src/search/query-terms.js';
import { seeded } from '../helpers/prng.js';

/** What the finder answered before it scanned: a term is in a text when one of its words matches. */
function reference(terms: readonly string[], text: string): number[] {
  const words = tokenize(text);
  return terms.map((t) => (words.some((w) => matchesTerm(w, [t])) ? 1 : 0));
}

describe('TermFinder', () => {
  it('finds what tokenized matching finds, on 20,000 random texts and term lists', () => {
    const rand = seeded(2929);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    const pieces = ['dog', 'dogs', 'Dogged', 'ana', "ana's", "o'neil", 'neil', '90', "90's", 'a1', "x'1", 'decide', 'decided', 'Decision', "'", '’', ' ', '  ', '.', ',', '-', '_', '\n', 'café', 'K', 'ß', '日本'];
    const termPool = ['dog', 'dogs', 'ana', 'neil', 'o', 's', '90', '1', 'a1', 'decide', 'decision', 'decided', 'x', 'café', 'k', 'Dog', "o'neil", 'ne il', ''];
    for (let k = 0; k < 20_000; k++) {
      const text = Array.from({ length: Math.floor(rand() * 12) }, () => pick(pieces)).join(rand() < 0.5 ? '' : ' ');
      const terms = [...new Set(Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(termPool)))];
      assert.deepEqual([...new TermFinder(terms).in(text)], reference(terms, text), JSON.stringify({ text, terms }));
    }
  });

  it('reads long, empty and hostile texts', () => {
    const long = `${'lorem ipsum '.repeat(50_000)}the decided outcome`;
    assert.deepEqual([...new TermFinder(['decide', 'outcome', 'zebra']).in(long)], [1, 1, 0]);
    assert.deepEqual([...new TermFinder(['decide']).in('')], [0]);
    assert.deepEqual([...new TermFinder([]).in('anything')], []);
    assert.deepEqual([...new TermFinder(['dog']).in('\u0000dog\u0000')], [1]);
    assert.deepEqual([...new TermFinder(['dog']).in("dog's bowl")], [0]);
    assert.deepEqual([...new TermFinder(['dogs']).in("dog's bowl")], [0]);
    assert.deepEqual([...new TermFinder(['neil']).in("o'neil")], [0]);
    assert.deepEqual([...new TermFinder(['neil']).in("'neil")], [1]);
  });
});
