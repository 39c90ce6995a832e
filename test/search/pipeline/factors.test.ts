// Stage 5: each factor on its own, and how they combine.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { coverageFactor, coverageFor, coverageOf, entityFactor, relevanceOf, speakerFactor, SUPERSEDED_FACTOR, supersededFactor, whenFactor } from '../../../src/search/pipeline/factors.js';
import type { QueryPeople } from '../../../src/search/speakers.js';
import type { TimeWindow } from '../../../src/search/query-time.js';
import { entry } from '../../helpers/search-entries.js';

describe('factors stage', () => {
  it('coverage: off for one word or weight 0; weighted by rarity with idf; 1 for an unknown text', () => {
    assert.equal(coverageFor(['dog'], 0.5, true, ['dog'], 'en').on, false);
    assert.equal(coverageFor(['dog', 'cat'], 0, true, ['dog'], 'en').on, false);
    const plain = coverageFor(['dog', 'cat'], 0.5, false, ['a dog', 'a cat'], 'en');
    assert.equal(plain.weights, null);
    assert.equal(coverageOf(plain, 'a dog', [], 0), 0.5);
    assert.equal(coverageOf(plain, undefined, [], 0), 1);
    assert.equal(coverageOf(plain, 'the dog', ['a cat'], 0.5), 0.75);
    const idf = coverageFor(['dog', 'cat'], 0.5, true, ['a dog', 'dog food', 'a cat'], 'en');
    assert.ok(coverageOf(idf, 'a cat', [], 0) > 0.5);
    assert.equal(coverageOf(coverageFor(['dog', 'cat'], 0, true, [], 'en'), 'nothing', [], 0), 1);
    assert.equal(coverageFactor(0, 0.4), 0.6);
    assert.equal(coverageFactor(1, 0.4), 1);
  });

  it('speaker: what a named person said, or the role a pronoun points at', () => {
    const bo: QueryPeople = { names: new Set(['Bo']), tokens: new Set(['bo']), role: null };
    const mine: QueryPeople = { names: new Set(), tokens: new Set(), role: 'user' };
    const said = (speaker: string, role = 'user') => entry(1, { provenance: [{ speaker, role }] });
    assert.equal(speakerFactor(bo, said('Bo'), 0.5), 1.5);
    assert.equal(speakerFactor(bo, said('Ana'), 0.5), 1);
    assert.equal(speakerFactor(null, said('Bo'), 0.5), 1);
    assert.equal(speakerFactor(mine, said('Ana', 'user'), 0.5), 1.5);
    assert.equal(speakerFactor(mine, said('Ana', 'assistant'), 0.5), 1);
    assert.equal(speakerFactor(bo, entry(1, { provenance: [] }), 0.5), 1);
  });

  it('when: from the time named (with a grace of days after), and stating a time when asked when', () => {
    const window: TimeWindow = { kind: 'days', from: '2026-01-10', to: '2026-01-16', text: 'last week' };
    const q = { window, askedWhen: false, timeZone: 'UTC' };
    assert.equal(whenFactor(q, entry(1, { time: '2026-01-12T10:00:00.000Z' }), 0.3, 0.2), 1.3);
    assert.equal(whenFactor(q, entry(1, { time: '2026-01-20T10:00:00.000Z' }), 0.3, 0.2), 1.3);
    assert.equal(whenFactor(q, entry(1, { time: '2026-01-09T10:00:00.000Z' }), 0.3, 0.2), 1);
    assert.equal(whenFactor(q, entry(1, { time: '2026-03-01T10:00:00.000Z' }), 0.3, 0.2), 1);
    const asked = { window: null, askedWhen: true, timeZone: 'UTC' };
    assert.equal(whenFactor(asked, entry(1, { text: 'We met yesterday at noon' }), 0.3, 0.2), 1.2);
    assert.equal(whenFactor(asked, entry(1, { text: 'We met' }), 0.3, 0.2), 1);
  });

  it('entity: a memory about a named entity; superseded: what is no longer current', () => {
    const ids = new Set(['m_1']);
    assert.equal(entityFactor(entry(1, { kind: 'memory', refId: 'm_1' }), ids, 0.25), 1.25);
    assert.equal(entityFactor(entry(1, { kind: 'turn', refId: 'm_1' }), ids, 0.25), 1);
    assert.equal(entityFactor(entry(1, { kind: 'memory', refId: 'm_1' }), undefined, 0.25), 1);
    assert.equal(supersededFactor(entry(1), undefined), 1);
    assert.equal(supersededFactor(entry(1, { current: false, validTo: '2026-01-05T00:00:00.000Z' }), undefined), SUPERSEDED_FACTOR);
    // As of a moment before it was replaced, it was current then.
    assert.equal(supersededFactor(entry(1, { current: false, validTo: '2026-01-05T00:00:00.000Z' }), '2026-01-04T00:00:00.000Z'), 1);
  });

  it('relevance blends own and neighbours at lambda, then multiplies the factors', () => {
    const ones = { speaker: 1, when: 1, about: 1, stale: 1 };
    assert.equal(relevanceOf(0.8, 0.2, 0, ones), 0.8);
    assert.equal(relevanceOf(0.8, 0.2, 1, ones), 0.5);
    assert.equal(relevanceOf(0.5, 0, 0, { speaker: 2, when: 1.5, about: 1, stale: 0.5 }), 0.75);
  });
});
