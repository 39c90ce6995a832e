// Stage 2: which turn an entry stands for, whether neighbours are read, and their texts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { anchorsOf, aroundTexts, forEachIndexedNeighbour, neighbourRadius, textsOf, wantsNeighbours } from '../../../src/search/pipeline/conversation.js';
import { DEFAULT_RANKING } from './ranking-defaults.js';
import { beside, entry, row, turn } from '../../helpers/search-entries.js';

describe('conversation stage', () => {
  it('a turn stands for itself, a memory of one turn for that turn, anything else for none', () => {
    const entries = [
      entry(1),
      entry(2, { kind: 'memory', refId: 'm_a', provenance: [{ turnIds: ['t_9'] }] }),
      entry(3, { kind: 'memory', refId: 'm_b', provenance: [{ turnIds: ['t_1', 't_2'] }] }),
      entry(4, { kind: 'document', refId: 'x_1', provenance: [] }),
    ];
    assert.deepEqual([...anchorsOf(entries)], [[1, 't_1'], [2, 't_9']]);
    assert.equal(anchorsOf([]).size, 0);
  });

  it('neighbours are read when a setting uses them, never in vector mode or without turns', () => {
    const off = { ...DEFAULT_RANKING, neighbourWeight: 0, contextTurns: 0, neighbourCoverage: 0 };
    assert.equal(wantsNeighbours('hybrid', DEFAULT_RANKING, 3), true);
    assert.equal(wantsNeighbours('vector', DEFAULT_RANKING, 3), false);
    assert.equal(wantsNeighbours('hybrid', DEFAULT_RANKING, 0), false);
    assert.equal(wantsNeighbours('bm25', off, 3), false);
    assert.equal(wantsNeighbours('bm25', { ...off, neighbourCoverage: 0.5 }, 3), true);
    assert.equal(wantsNeighbours('bm25', { ...off, neighbourCoverage: 0.5, coverageWeight: 0 }, 3), false);
    assert.equal(neighbourRadius({ neighbourReach: 2, contextTurns: 1 }), 2);
    assert.equal(neighbourRadius({ neighbourReach: 0, contextTurns: 0 }), 1);
  });

  it('texts: a candidate keeps its own, neighbours with entries add theirs; around is the adjacent pair', () => {
    const n = new Map([['t_1', row('t_1', [beside(turn('a', { text: 'before far' }), 7), beside(turn('b', { text: 'before' }), null)], [beside(turn('c', { text: 'after' }), 1), beside(turn('d'), 8)])]]);
    const seen: number[] = [];
    forEachIndexedNeighbour(n, (x) => seen.push(x.entrySeq));
    assert.deepEqual(seen, [7, 1, 8]);
    const texts = textsOf([entry(1, { text: 'own' })], n);
    assert.deepEqual([...texts], [[1, 'own'], [7, 'before far'], [8, 'text of d']]);
    const anchors = new Map([[1, 't_1']]);
    assert.deepEqual(aroundTexts(1, anchors, n, 0.5), ['before', 'after']);
    assert.deepEqual(aroundTexts(1, anchors, n, 0), []);
    assert.deepEqual(aroundTexts(2, anchors, n, 0.5), []);
    const lonely = new Map([['t_1', row('t_1', [], [])]]);
    assert.deepEqual(aroundTexts(1, anchors, lonely, 0.5), ['', '']);
  });
});
