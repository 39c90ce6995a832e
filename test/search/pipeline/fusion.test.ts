// Stage 4: min-max spans, scaling, and the fused, coverage-scaled relevance of an entry.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fusionOf, range, scaled, sidesOf } from '../../../src/search/pipeline/fusion.js';
import { entry } from '../../helpers/search-entries.js';

const W = { bm25Weight: 0.4, vectorWeight: 0.6, minRange: 0 };

describe('fusion stage', () => {
  it('a span is the values\' own, widened downwards to a share of the top; none for no values', () => {
    assert.deepEqual(range([2, 5, 3], 0), { min: 2, max: 5 });
    assert.deepEqual(range([4, 5], 0.5), { min: 2.5, max: 5 });
    assert.deepEqual(range([-1, -2], 0.5), { min: -2, max: -1 });
    assert.deepEqual(range([], 0.5), { min: Infinity, max: -Infinity });
  });

  it('scales into [0, 1], clamps outsiders, a single value is 1 and an empty span 0', () => {
    assert.equal(scaled(3.5, { min: 2, max: 5 }), 0.5);
    assert.equal(scaled(9, { min: 2, max: 5 }), 1);
    assert.equal(scaled(-9, { min: 2, max: 5 }), 0);
    assert.equal(scaled(4, { min: 4, max: 4 }), 1);
    assert.equal(scaled(3, { min: 4, max: 4 }), 0);
    assert.equal(scaled(1, { min: Infinity, max: -Infinity }), 0);
  });

  it('fuses both scaled sides with their weights, times the coverage factor', () => {
    const f = fusionOf([entry(1), entry(2), entry(3)], new Map([[1, 10], [2, 5]]), new Map([[1, 0.2], [2, 0.6], [3, 0.4]]), W, false);
    const one = sidesOf(f, 1, 1, 0.5);
    assert.deepEqual({ b: one.b, v: one.v, cos: one.cos }, { b: 1, v: 0, cos: 0.2 });
    assert.ok(Math.abs(one.own - 0.4) < 1e-12);
    // Half the query covered at weight 0.5: 0.75 of the fused relevance.
    const two = sidesOf(f, 2, 0.5, 0.5);
    assert.ok(Math.abs(two.own - 0.6 * 0.75) < 1e-12);
    // Neither side knows it: nothing.
    assert.deepEqual(sidesOf(f, 99, 1, 0), { b: 0, v: 0, cos: null, own: 0 });
  });

  it('without any vectors BM25 alone is the relevance', () => {
    const f = fusionOf([entry(1), entry(2)], new Map([[1, 10], [2, 5]]), new Map(), W, false);
    assert.equal(sidesOf(f, 1, 1, 0).own, 1);
  });

  it('vector mode ranks by raw cosine, negative ones at 0, and ignores BM25', () => {
    const f = fusionOf([entry(1), entry(2)], new Map([[1, 10]]), new Map([[1, 0.3], [2, -0.2]]), W, true);
    assert.deepEqual(sidesOf(f, 1, 1, 0), { b: 0, v: 0.3, cos: 0.3, own: 0.3 });
    assert.equal(sidesOf(f, 2, 1, 0).own, 0);
  });
});
