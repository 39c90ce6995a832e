// Stage 1: the terms BM25 is asked for, the pool size, the exact-scan fallback.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { foldSpan } from '../../../src/search/pipeline/assembly.js';
import { candidatePool, expandTerms, MAX_EXPANDED_TERMS, needsExactScan, searchTerms, unseen } from '../../../src/search/pipeline/candidates.js';
import { queryTerms } from '../../../src/search/query-terms.js';
import type { QueryPeople } from '../../../src/search/speakers.js';
import { entry } from '../../helpers/search-entries.js';

const people = (...tokens: string[]): QueryPeople => ({ names: new Set(tokens), tokens: new Set(tokens), role: null });

describe('candidates: search terms', () => {
  it('leaves a named speaker out of BM25 and coverage, keeps every word for snippets', () => {
    const all = queryTerms('what did Bo say about chess');
    const t = searchTerms('what did Bo say about chess', people('bo'), 'en');
    assert.deepEqual(t.terms, all);
    assert.ok(all.includes('bo'));
    assert.deepEqual(t.bm25Terms, all.filter((x) => x !== 'bo'));
    assert.deepEqual(t.retrievalTerms, t.bm25Terms);
  });

  it('a query of nothing but the name still searches for the name', () => {
    const t = searchTerms('Bo', people('bo'), 'en');
    assert.deepEqual(t.bm25Terms, ['bo']);
  });

  it('an expansion widens retrieval only, without named speakers, its own terms first', () => {
    const t = searchTerms('chess', people('bo'), 'en', ['Bo plays chess at the club', 'board games']);
    assert.deepEqual(t.bm25Terms, queryTerms('chess'));
    assert.equal(t.retrievalTerms[0], t.bm25Terms[0]);
    assert.ok(!t.retrievalTerms.includes('bo'));
    assert.ok(t.retrievalTerms.length > t.bm25Terms.length);
    assert.equal(new Set(t.retrievalTerms).size, t.retrievalTerms.length);
  });

  it('an oversized expansion stops at MAX_EXPANDED_TERMS; empty input gives no terms', () => {
    const letter = (i: number) => String.fromCharCode(97 + (i % 26));
    const many = Array.from({ length: 200 }, (_, i) => `zq${letter(i)}${letter(Math.floor(i / 26))}`);
    const out = expandTerms(['own'], many, undefined);
    assert.equal(out.length, MAX_EXPANDED_TERMS);
    assert.equal(out[0], 'own');
    assert.deepEqual(expandTerms([], [], undefined), []);
    assert.deepEqual(searchTerms('', null, 'en').terms, []);
  });
});

describe('candidates: pool and fallback', () => {
  it('the pool is the configured size, or what the hits a search may fold need, or 3 × limit, whichever is most', () => {
    const grouped = { groupHits: 5, foldPages: 2, foldDepth: 20 };
    const single = { groupHits: 1, foldPages: 2, foldDepth: 20 };
    const pool = (floor: number, limit: number, o: typeof grouped) => candidatePool(floor, limit, foldSpan(o, limit), o.groupHits);
    assert.equal(candidatePool(200, 10, 20, 3), 200);
    // The defaults: 20 results' worth of five hits at limit 5 or 10, 40 at limit 20.
    assert.equal(pool(50, 5, grouped), 80);
    assert.equal(pool(50, 10, grouped), 80);
    assert.equal(pool(50, 20, grouped), 160);
    assert.equal(pool(50, 100, grouped), 800);
    // One hit a result: the floor, and never fewer candidates than 3 × limit.
    assert.equal(pool(50, 10, single), 50);
    assert.equal(pool(50, 100, single), 300);
    assert.equal(pool(10, 1, single), 10);
  });

  it('an exact scan only with vectors, a filter and too few candidates', () => {
    assert.equal(needsExactScan(true, { kinds: ['memory'] }, 3, 10), true);
    assert.equal(needsExactScan(true, { kinds: ['memory'] }, 10, 10), false);
    assert.equal(needsExactScan(false, { kinds: ['memory'] }, 0, 10), false);
    assert.equal(needsExactScan(true, {}, 0, 10), false);
  });

  it('unseen keeps the order of the scan and drops what is already there', () => {
    assert.deepEqual(unseen([entry(2), entry(5)], [9, 5, 1, 2]), [9, 1]);
    assert.deepEqual(unseen([], []), []);
  });
});
