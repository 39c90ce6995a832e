// Stage 3: cosines from stored vectors, which texts have passages, and the passage blend.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { blendPassages, cosinesOf, dot, longTexts, vectorSeqs } from '../../../src/search/pipeline/cosines.js';
import { PASSAGE_CHARS, packVectors } from '../../../src/embed/passages.js';
import { beside, entry, row, turn } from '../../helpers/search-entries.js';

const v = (...xs: number[]) => Float32Array.from(xs);

describe('cosines stage', () => {
  it('dot products of the query with each vector; another model\'s size is left out', () => {
    const got = cosinesOf(v(1, 0), new Map([[1, v(0.6, 0.8)], [2, v(1, 0, 0)], [3, v(-1, 0)]]));
    assert.deepEqual([...got], [[1, dot(v(1, 0), v(0.6, 0.8))], [3, -1]]);
    assert.equal(cosinesOf(v(1), new Map()).size, 0);
  });

  it('dot sums the products in index order, bit for bit the plain loop, at any length', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    for (const n of [0, 1, 2, 3, 4, 5, 7, 9, 512, 513]) {
      const a = Float32Array.from({ length: n }, rand);
      const b = Float32Array.from({ length: n }, rand);
      let plain = 0;
      for (let i = 0; i < n; i++) plain += a[i]! * b[i]!;
      assert.equal(dot(a, b), plain, `length ${n}`);
    }
  });

  it('reads vectors of the candidates and of the neighbours with entries, each once', () => {
    const n = new Map([['t_1', row('t_1', [beside(turn('a'), 1)], [beside(turn('b'), 5), beside(turn('c'), null)])]]);
    assert.deepEqual(vectorSeqs([entry(1), entry(2)], n), [1, 2, 5]);
  });

  it('only texts past PASSAGE_CHARS have passages; a neighbour is measured by its bytes, unknown counts as long', () => {
    const long = entry(1, { indexedChars: PASSAGE_CHARS + 1 });
    const short = entry(2, { indexedChars: PASSAGE_CHARS });
    const n = new Map([['t_1', row('t_1', [beside(turn('a'), 3, PASSAGE_CHARS + 10)], [beside(turn('b'), 4, 5), beside(turn('c'), 6, null)])]]);
    const cos = new Map([[1, 0.1], [2, 0.2], [3, 0.3], [4, 0.4], [6, 0.5], [9, 0.9]]);
    assert.deepEqual(longTexts(cos, [long, short], n), [1, 3, 6, 9]);
  });

  it('blends the closest passage in at the weight given and remembers which passage it was', () => {
    const q = v(1, 0);
    const passages = new Map([[1, packVectors([v(0, 1), v(1, 0)])], [2, new Float32Array(0)], [7, packVectors([v(1, 0)])]]);
    const cos = new Map([[1, 0.2], [2, 0.5]]);
    const out = blendPassages(cos, q, passages, 0.25);
    assert.ok(Math.abs(out.cosines.get(1)! - (0.75 * 0.2 + 0.25 * 1)) < 1e-7);
    assert.equal(out.cosines.get(2), 0.5);
    assert.deepEqual([...out.focus], [[1, 1]]);
    // A passage row without a whole-text cosine is not scored; the input map is not changed.
    assert.equal(out.cosines.has(7), false);
    assert.equal(cos.get(1), 0.2);
  });

  it('windows rows hold the windows after the first: the own cosine is window 0, a tie stays with it, an empty row leaves the text alone', () => {
    const q = v(1, 0);
    const passages = new Map([[1, packVectors([v(0.6, 0.8), v(0.9, 0.1)])], [2, packVectors([v(0.1, 1)])], [3, packVectors([v(0.5, 0)])], [4, new Float32Array(0)], [5, new Float32Array(3)]]);
    const cos = new Map([[1, 0.5], [2, 0.3], [3, 0.5], [4, 0.7], [5, 0.6]]);
    const out = blendPassages(cos, q, passages, 0.5, true);
    assert.ok(Math.abs(out.cosines.get(1)! - (0.5 * 0.5 + 0.5 * 0.9)) < 1e-6);
    assert.equal(out.focus.get(1), 2, 'the second stored window is the text\'s third');
    assert.ok(Math.abs(out.cosines.get(2)! - 0.3) < 1e-7);
    assert.equal(out.focus.get(2), 0, 'the own vector is closer: window 0');
    assert.equal(out.focus.get(3), 0, 'a tie goes to the earlier window');
    assert.equal(out.cosines.get(4), 0.7);
    assert.equal(out.cosines.get(5), 0.6, 'a malformed row is not read');
    assert.deepEqual([...out.focus.keys()].sort(), [1, 2, 3]);
  });
});
