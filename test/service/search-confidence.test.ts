// A search that says "no good match" instead of returning noise, through the real facade on a real
// home with the bundled embedder (the model the confidence was fitted for): an unrelated question
// finds nothing good, a related one returns results with their confidence; search.minConfidence 0
// turns the cut off; BM25-only and an empty namespace still answer with a defined confidence.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Cairn } from '../../src/service/cairn.js';
import { tempDir } from '../helpers/store-fixtures.js';

const FACTS = [
  'The staging database moved to port 5433 after the Postgres upgrade',
  'We decided to use pnpm instead of npm for every install in the monorepo',
  'The nightly backup job runs at 02:00 UTC and keeps fourteen days of snapshots',
  'Ana prefers code reviews before lunch; Bo reviews in the evening',
];

describe('search confidence and "no good match" (real facade, use-lite)', () => {
  const tmp = tempDir();
  let cairn: Cairn;

  before(async () => {
    cairn = await Cairn.open({ home: tmp.dir });
    for (const text of FACTS) await cairn.remember({ text });
    await cairn.remember({ text: 'Deploys to the eu cluster need two approvals', namespace: 'other' });
  });
  after(async () => {
    await cairn.close();
    tmp.cleanup();
  });

  it('a related question returns results, each with a confidence in [0, 1] and its signals', async () => {
    const res = await cairn.search('which port does the staging database use');
    assert.equal(res.noGoodMatch, false);
    assert.ok(res.results.length > 0);
    assert.match(res.results[0]!.text, /5433/);
    for (const r of res.results) {
      assert.ok(r.confidence >= 0.04 && r.confidence <= 1, `confidence ${r.confidence}`);
      assert.equal(typeof r.signals.cover, 'number');
      assert.equal(typeof r.signals.cosine, 'number');
    }
    assert.ok(res.results[0]!.confidence > 0.3, `the right answer is confident: ${res.results[0]!.confidence}`);
  });

  it('an unrelated question says "no good match" and returns nothing', async () => {
    const res = await cairn.search('What is the boiling point of tungsten?');
    assert.equal(res.noGoodMatch, true);
    assert.deepEqual(res.results, []);
    assert.ok(res.belowConfidence > 0, 'what was found and left out is counted');
  });

  it('search.minConfidence 0 keeps every result and never says "no good match"', async () => {
    await cairn.close();
    const uncut = await Cairn.open({ home: tmp.dir, config: { search: { minConfidence: 0 } } });
    const res = await uncut.search('What is the boiling point of tungsten?');
    assert.equal(res.noGoodMatch, false);
    assert.equal(res.belowConfidence, 0);
    assert.ok(res.results.length > 0, 'the noise is there when asked for');
    assert.ok(res.results.every((r) => r.confidence < 0.04), `all weak: ${res.results.map((r) => r.confidence.toFixed(3))}`);
    await uncut.close();
    cairn = await Cairn.open({ home: tmp.dir });
  });

  it('BM25-only searches have a confidence too (no cosine)', async () => {
    const hit = await cairn.search('pnpm install monorepo', { mode: 'bm25' });
    assert.equal(hit.mode, 'bm25');
    assert.equal(hit.noGoodMatch, false);
    assert.equal(hit.results[0]!.signals.cosine, null);
    assert.ok(hit.results[0]!.confidence > 0.5, `${hit.results[0]!.confidence}`);
    // One word of five: found by BM25, but far less sure than a match of every word.
    const weak = await cairn.search('nightly weather in tungsten mines', { mode: 'bm25' });
    assert.ok(weak.results.length === 0 || weak.results[0]!.confidence < hit.results[0]!.confidence / 4, JSON.stringify(weak.results.map((r) => r.confidence)));
  });

  it('an empty namespace has no results (not "no good match"), and hostile queries still answer with the fields', async () => {
    const empty = await cairn.search('anything at all', { namespace: 'nobody-here' });
    assert.deepEqual({ results: empty.results, noGoodMatch: empty.noGoodMatch, belowConfidence: empty.belowConfidence }, { results: [], noGoodMatch: false, belowConfidence: 0 });
    for (const q of ['"', '*', 'AND OR NOT', 'x'.repeat(2000), '的的的', '🙂🙂']) {
      const res = await cairn.search(q);
      assert.equal(typeof res.noGoodMatch, 'boolean', q.slice(0, 20));
      for (const r of res.results) assert.ok(Number.isFinite(r.confidence));
    }
  });
});
