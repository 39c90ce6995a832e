// Stage 9: absolute signals of a result, the confidence a logistic model makes of them, and the
// cut that turns results below search.minConfidence into "no good match".
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TermFinder } from '../../../src/search/coverage.js';
import { confidenceOf, confidenceWeights, cutByConfidence, sigmoid, termShare, withConfidence, type ConfidenceModel } from '../../../src/search/pipeline/confidence.js';
import type { AssembledResult } from '../../../src/search/pipeline/types.js';

const MODELS: { hybrid: ConfidenceModel; bm25: ConfidenceModel } = {
  hybrid: { bias: -4, cosine: 6, cover: 1, sessionCover: 1, speaker: 1 },
  bm25: { bias: -2, cosine: 0, cover: 2, sessionCover: 1, speaker: 1 },
};

const result = (text: string, cosine: number | null, matches: string[] = [], speaker = 1, bm25 = 1): AssembledResult => ({
  id: `t_${text.length}`, kind: 'turn', namespace: 'x', text, snippet: text, score: 1,
  parts: { bm25, vector: 1, cosine, own: 1, neighbours: 0, speaker, when: 1, relevance: 1, importance: 1, recency: 1, tier: 'cold' },
  time: '2026-01-01T00:00:00.000Z', createdAt: '2026-01-01T00:00:00.000Z', validTo: null, current: true, category: null, importance: null, provenance: [],
  context: matches.map((m, i) => ({ offset: i + 1, match: true, speaker: null, role: 'user', text: m, time: '2026-01-01T00:00:00.000Z', messageId: `m${i}` })),
});

describe('confidence stage', () => {
  it('a term no candidate has weighs the most, unlike ranking\'s coverage where it weighs nothing', () => {
    const finder = new TermFinder(['databas', 'port', 'kubernet']);
    const w = confidenceWeights(finder, ['the database port is 5433', 'the port is open', 'nothing here']);
    assert.ok(w[2]! > w[0]! && w[0]! > w[1]!, `weights ${[...w]}`);
    assert.equal(w[2], Math.log(1 + 4 / 1));
  });

  it('the share counts a term once if any text has it, weighted; a query without terms is fully covered', () => {
    const finder = new TermFinder(['databas', 'port']);
    const w = new Float64Array([3, 1]);
    assert.equal(termShare(finder, ['the port'], w), 0.25);
    assert.equal(termShare(finder, ['the port', 'a database'], w), 1);
    assert.equal(termShare(finder, [], w), 0);
    assert.equal(termShare(new TermFinder([]), ['anything'], new Float64Array()), 1);
  });

  it('confidence rises with the raw cosine and the words covered; without a cosine the BM25 model answers', () => {
    const s = { cosine: 0.2, cover: 0.5, sessionCover: 0.5, speaker: 0 };
    assert.ok(confidenceOf({ ...s, cosine: 0.7 }, MODELS) > confidenceOf(s, MODELS));
    assert.ok(confidenceOf({ ...s, cover: 1 }, MODELS) > confidenceOf(s, MODELS));
    assert.equal(confidenceOf({ ...s, cosine: null }, MODELS), sigmoid(-2 + 1 + 0.5));
    assert.equal(confidenceOf({ ...s, cosine: Number.NaN }, MODELS), 0);
  });

  it('each result gets its signals from its own text, its session\'s shown hits and the speaker a query names', () => {
    const out = withConfidence(
      [result('the staging database moved', 0.6, ['it listens on port 5433 now'], 2), result('lunch was good', 0.1, [], 1, 0)],
      { terms: ['stage', 'databas', 'port'], language: 'en', namesPerson: true, calibratedCosine: true },
      ['the staging database moved', 'it listens on port 5433 now', 'lunch was good'],
      MODELS,
    );
    assert.equal(out.length, 2);
    assert.ok(out[0]!.signals.cover > 0.5 && out[0]!.signals.cover < 1);
    assert.equal(out[0]!.signals.sessionCover, 1);
    assert.equal(out[0]!.signals.speaker, 1);
    assert.deepEqual(out[1]!.signals, { cosine: 0.1, cover: 0, sessionCover: 0, speaker: 0 });
    assert.ok(out[0]!.confidence > out[1]!.confidence);
    for (const r of out) assert.ok(r.confidence >= 0 && r.confidence <= 1);
  });

  it('a keyword match on none of the text\'s words (a memory\'s tags or entity names) counts as covering the query', () => {
    const q = { terms: ['souza'], language: 'en' as const, namesPerson: false, calibratedCosine: true };
    const [byName] = withConfidence([result('Ana wants the release notes', 0.2)], q, ['Ana wants the release notes'], MODELS);
    assert.equal(byName!.signals.cover, 1);
    const [stray] = withConfidence([result('Ana wants the release notes', 0.2, [], 1, 0)], q, ['Ana wants the release notes'], MODELS);
    assert.equal(stray!.signals.cover, 0, 'found by meaning alone: no words covered');
  });

  it('reuses the search\'s term finder only when it looks for the same terms in the same language', () => {
    const results = [result('the staging database moved', 0.6, ['it listens on port 5433 now'], 2), result('lunch was good', 0.1, [], 1, 0)];
    const texts = ['the staging database moved', 'it listens on port 5433 now', 'lunch was good'];
    const q = { terms: ['stage', 'databas', 'port'], language: 'en' as const, namesPerson: true, calibratedCosine: true };
    const own = withConfidence(results, q, texts, MODELS);
    const shared = new TermFinder(['stage', 'databas', 'port'], 'en');
    shared.in('the staging database moved'); // already asked by ranking: its answer is kept
    assert.deepEqual(withConfidence(results, { ...q, finder: shared }, texts, MODELS), own);
    // A finder of other terms (coverage off: none) or another language would read other words: not used.
    assert.deepEqual(withConfidence(results, { ...q, finder: new TermFinder([], 'en') }, texts, MODELS), own);
    assert.deepEqual(withConfidence(results, { ...q, finder: new TermFinder(['stage', 'port', 'databas'], 'en') }, texts, MODELS), own);
    assert.deepEqual(withConfidence(results, { ...q, finder: new TermFinder(['stage', 'databas', 'port'], 'de') }, texts, MODELS), own);
  });

  it('a role the query is about (a speaker factor above 1 without a named person) is not a speaker match', () => {
    const [r] = withConfidence([result('my database', 0.5, [], 2)], { terms: ['databas'], language: 'en', namesPerson: false, calibratedCosine: true }, ['my database'], MODELS);
    assert.equal(r!.signals.speaker, 0);
  });

  it('cosines of another model than the one fitted are kept as a signal but judged by the model without a cosine', () => {
    const q = { terms: ['stage', 'databas'], language: 'en' as const, namesPerson: false };
    const texts = ['the staging database'];
    const [fitted] = withConfidence([result('the staging database', 0.9)], { ...q, calibratedCosine: true }, texts, MODELS);
    const [other] = withConfidence([result('the staging database', 0.9)], { ...q, calibratedCosine: false }, texts, MODELS);
    assert.equal(other!.signals.cosine, 0.9);
    assert.equal(other!.confidence, confidenceOf({ ...other!.signals, cosine: null }, MODELS));
    assert.notEqual(fitted!.confidence, other!.confidence);
  });

  it('BM25-only results (no cosine) still get a confidence; no results give none', () => {
    const [r] = withConfidence([result('the staging database', null)], { terms: ['stage', 'databas'], language: 'en', namesPerson: false, calibratedCosine: true }, ['the staging database'], MODELS);
    assert.equal(r!.signals.cosine, null);
    assert.ok(r!.confidence > 0.5);
    assert.deepEqual(withConfidence([], { terms: ['x'], language: 'en', namesPerson: false, calibratedCosine: true }, []), []);
  });

  it('the cut is all or nothing: every result stays when one reaches the threshold, none when none does', () => {
    const rs = [{ confidence: 0.9 }, { confidence: 0.3 }, { confidence: 0.1 }];
    assert.deepEqual(cutByConfidence(rs, 0.25), { results: rs, belowConfidence: 0, noGoodMatch: false });
    assert.deepEqual(cutByConfidence([{ confidence: 0.1 }, { confidence: 0.3 }], 0.25), { results: [{ confidence: 0.1 }, { confidence: 0.3 }], belowConfidence: 0, noGoodMatch: false });
    assert.deepEqual(cutByConfidence(rs, 0.95), { results: [], belowConfidence: 3, noGoodMatch: true });
    assert.deepEqual(cutByConfidence([], 0.2), { results: [], belowConfidence: 0, noGoodMatch: false }, 'nothing found is no results, as before');
  });

  it('threshold 0 turns the cut off: everything kept, never "no good match"', () => {
    const rs = [{ confidence: 0 }, { confidence: 0.01 }];
    assert.deepEqual(cutByConfidence(rs, 0), { results: rs, belowConfidence: 0, noGoodMatch: false });
    assert.deepEqual(cutByConfidence([], 0), { results: [], belowConfidence: 0, noGoodMatch: false });
  });
});
