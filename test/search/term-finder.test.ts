// TermFinder answers which query terms a text has from the text's analysed terms, kept in a
// bounded cache across searches: the cached answer must be exactly what analysing finds.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TermFinder, termSet } from '../../src/search/coverage.js';
import { heldByText } from '../../src/search/pipeline/factors.js';
import { analyse, type Language } from '../../src/search/text-analysis.js';
import { seeded } from '../helpers/prng.js';

/** What analysing the text finds, term by term. */
function reference(terms: readonly string[], text: string, language: Language): number[] {
  const found = new Set(analyse(text, language));
  return terms.map((t) => (found.has(t) ? 1 : 0));
}

describe('TermFinder', () => {
  it('finds what analysing the text finds, on 5,000 random texts and term lists, asked twice', () => {
    const rand = seeded(2929);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    const pieces = ['dog', 'dogs', 'Dogged', 'ana', "ana's", "o'neil", 'neil', '90', "90's", 'a1', 'decide', 'decided', 'Decision', "'", ' ', '.', ',', '-', '\n', 'café', 'Häuser', 'ß', '日本', '数据库', 'машина'];
    const termPool = ['dog', 'ana', 'neil', '90', 'a1', 'decid', 'decis', 'cafe', 'haus', 'hauser', '日本', '数据库', 'машин'];
    for (let k = 0; k < 5_000; k++) {
      const text = Array.from({ length: Math.floor(rand() * 12) }, () => pick(pieces)).join(rand() < 0.5 ? '' : ' ');
      const terms = [...new Set(Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(termPool)))];
      const language = pick<Language>(['en', 'de', 'ru']);
      const want = reference(terms, text, language);
      assert.deepEqual([...new TermFinder(terms, language).in(text)], want, JSON.stringify({ text, terms, language }));
      // A second finder (another search) reads the cached terms.
      assert.deepEqual([...new TermFinder(terms, language).in(text)], want);
    }
  });

  it('a text is read in the query language: the cache keeps languages apart', () => {
    const text = 'Wir haben die Häuser verkauft';
    assert.deepEqual([...termSet(text, 'de')].sort(), [...new Set(analyse(text, 'de'))].sort());
    assert.deepEqual([...termSet(text, 'en')].sort(), [...new Set(analyse(text, 'en'))].sort());
  });

  it('reads long, empty and hostile texts', () => {
    const long = `${'lorem ipsum '.repeat(50_000)}the decided outcome`;
    assert.deepEqual([...new TermFinder(['decid', 'outcom', 'zebra'], 'en').in(long)], [1, 1, 0]);
    assert.deepEqual([...new TermFinder(['dog'], 'en').in('')], [0]);
    assert.deepEqual([...new TermFinder([], 'en').in('anything')], []);
    assert.deepEqual([...new TermFinder(['dog'], 'en').in('\u0000\uFFFF🐕 DOG')], [1]);
    // A lone combining mark is a word whose index form is empty: found where it is, nowhere else.
    for (const text of ['\u0301', 'a \u0301', '\u0301 a', '', 'a']) {
      assert.deepEqual([...new TermFinder(['', 'a'], 'en').in(text)], reference(['', 'a'], text, 'en'), JSON.stringify(text));
      assert.deepEqual([...termSet(text, 'en')].sort(), [...new Set(analyse(text, 'en'))].sort());
    }
  });

  it('answers a text the index terms were given for from them, without reading it; any other text by analysing it', () => {
    // The index holds "budget" for this turn (it was indexed with more than it shows): given, not analysed.
    const held = new Map([['sure, sounds good', Uint8Array.from([1, 0, 1])]]);
    const finder = new TermFinder(['budget', 'dog', 'budget'], 'en', held);
    assert.deepEqual([...finder.in('sure, sounds good')], [1, 0, 0], 'a term repeated counts at its first place only, as analysed texts do');
    assert.deepEqual([...finder.in('the dogs and the budget')], [1, 1, 0]);
    assert.deepEqual([...finder.in('')], [0, 0, 0]);
    // Given for other terms (another length): only the positions it shares are read, into an array of the finder's own length.
    assert.deepEqual([...new TermFinder(['budget'], 'en', new Map([['sure', Uint8Array.from([1, 0, 1])]])).in('sure')], [1]);
  });

  it('heldByText: entries sharing a text hold what either holds; entries without a text are left out', () => {
    const bySeq = new Map([
      [1, Uint8Array.from([1, 0, 0])],
      [2, Uint8Array.from([0, 0, 1])],
      [3, Uint8Array.from([0, 1, 0])],
      [4, Uint8Array.from([1, 1, 1])],
    ]);
    const texts = new Map([[1, 'same'], [2, 'same'], [3, 'other']]);
    const out = heldByText(bySeq, texts);
    assert.deepEqual([...out.keys()].sort(), ['other', 'same']);
    assert.deepEqual([...out.get('same')!], [1, 0, 1]);
    assert.deepEqual([...out.get('other')!], [0, 1, 0]);
    assert.equal(out.get('same'), bySeq.get(1), "the store's arrays are taken, not copied: a text's first one is its answer");
    assert.equal(out.get('other'), bySeq.get(3));
    assert.deepEqual(heldByText(new Map(), texts), new Map());
  });
});
