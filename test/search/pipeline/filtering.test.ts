// Stage 7: ranking order, and which scored entries are hits.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { keepHits, promotedTurns, rankScored } from '../../../src/search/pipeline/filtering.js';
import type { ScoredEntry } from '../../../src/search/pipeline/types.js';
import type { IndexEntry } from '../../../src/store/store.js';
import { entry } from '../../helpers/search-entries.js';

const scoredAs = (e: IndexEntry, score: number): ScoredEntry => ({ e, score, parts: {} as ScoredEntry['parts'] });

describe('filtering stage', () => {
  it('ranks by score, the newer first on a tie', () => {
    const ranked = rankScored([
      scoredAs(entry(1, { time: '2026-01-01T00:00:00.000Z' }), 0.5),
      scoredAs(entry(2, { time: '2026-01-03T00:00:00.000Z' }), 0.5),
      scoredAs(entry(3), 0.9),
    ]);
    assert.deepEqual(ranked.map((s) => s.e.seq), [3, 2, 1]);
    assert.deepEqual(rankScored([]), []);
  });

  it('a term match stays at 0, a vector-only entry only above 0; noise only as a term match', () => {
    const bm25 = new Map([[1, 2.5], [3, 1]]);
    const kept = keepHits(
      [scoredAs(entry(1), 0), scoredAs(entry(2), 0), scoredAs(entry(4), 0.2), scoredAs(entry(3, { category: 'noise' }), 0.1), scoredAs(entry(5, { category: 'noise' }), 0.4)],
      bm25,
    );
    assert.deepEqual(kept.map((s) => s.e.seq), [1, 4, 3]);
  });

  it('a turn promoted to a memory among the hits is shown once, as the memory', () => {
    const memory = entry(1, { kind: 'memory', refId: 'm_1', provenance: [{ turnIds: ['t_2'] }] });
    const ranked = [scoredAs(entry(2), 0.9), scoredAs(memory, 0.5), scoredAs(entry(3), 0.4)];
    assert.deepEqual([...promotedTurns(ranked)], ['t_2']);
    assert.deepEqual(keepHits(ranked, new Map()).map((s) => s.e.refId), ['m_1', 't_3']);
  });
});
