// Stage 6: a turn's relevance, what it borrows from the turns within reach, when neighbours become hits.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { neighbourRelevance, turnRelevance, wantsNeighbourHits } from '../../../src/search/pipeline/neighbour-relevance.js';
import { beside, entry, row, turn } from '../../helpers/search-entries.js';

describe('neighbour relevance stage', () => {
  it('a turn is as relevant as the best entry that stands for it', () => {
    const own = new Map([[1, 0.3], [2, 0.7], [3, 0.9]]);
    const anchors = new Map([[1, 't_a'], [2, 't_a'], [3, 't_b']]);
    const got = turnRelevance([entry(1), entry(2), entry(3), entry(4)], anchors, (s) => own.get(s) ?? 0);
    assert.deepEqual([...got], [['t_a', 0.7], ['t_b', 0.9]]);
    assert.equal(turnRelevance([], anchors, () => 1).size, 0);
  });

  it('borrows the best within reach: known turns by their relevance, others by their entry, entryless as 0', () => {
    const n = new Map([['t_x', row('t_x', [beside(turn('t_far'), 9), beside(turn('t_prev'), 5)], [beside(turn('t_next'), null), beside(turn('t_far2'), 6)])]]);
    const relevance = new Map([['t_prev', 0.4]]);
    const own = new Map([[9, 0.95], [6, 0.5]]);
    const ownOf = (s: number) => own.get(s) ?? 0;
    assert.equal(neighbourRelevance('t_x', n, relevance, new Map(), 1, ownOf), 0.4);
    assert.equal(neighbourRelevance('t_x', n, relevance, new Map(), 2, ownOf), 0.95);
  });

  it('a turn without neighbours read keeps what it borrowed; no turn borrows nothing', () => {
    const borrowed = new Map([['t_hit', 0.6]]);
    assert.equal(neighbourRelevance('t_hit', new Map(), new Map(), borrowed, 1, () => 1), 0.6);
    assert.equal(neighbourRelevance('t_other', new Map(), new Map(), borrowed, 1, () => 1), 0);
    assert.equal(neighbourRelevance(undefined, new Map(), new Map(), borrowed, 1, () => 1), 0);
  });

  it('neighbour hits need the setting, a neighbour weight and neighbours', () => {
    assert.equal(wantsNeighbourHits(true, 0.3, 2), true);
    assert.equal(wantsNeighbourHits(false, 0.3, 2), false);
    assert.equal(wantsNeighbourHits(true, 0, 2), false);
    assert.equal(wantsNeighbourHits(true, 0.3, 0), false);
  });
});
