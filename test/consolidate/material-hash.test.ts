// The material hash decides whether a digest job is skipped. It is stored with each digest, so it
// must stay exactly the sha256 of the parts' JSON (a home made by an earlier version then redoes
// nothing), however it is computed: arrays are hashed from their elements' JSON, kept per object.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { materialHash } from '../../src/consolidate/material.js';
import { item } from './items.js';

function reference(parts: readonly unknown[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(JSON.stringify(p) ?? 'undefined').update('\n');
  return h.digest('hex');
}

describe('materialHash', () => {
  it('is the sha256 of each part as JSON, for arrays with holes, undefined, functions and nested objects', () => {
    const shared = { a: 1, nested: [1, { b: 'x' }], gone: undefined, when: new Date(0) };
    // eslint-disable-next-line no-sparse-arrays
    const sparse = [, 1];
    const cases: unknown[][] = [
      [],
      [1, 'a', null, undefined, true],
      [[], [undefined, () => 1, Symbol('s'), null, 2, 'x', shared, [shared, [1]]]],
      [shared, { toJSON: () => undefined }, [{ toJSON: () => undefined }], sparse],
      [[item({ id: 'm_1', time: '2026-03-02T08:15:00Z', text: 'We moved the staging database to port 6543.' }), item({ id: 't_2', time: '2026-03-02T08:16:00Z', kind: 'turn', text: 'ok' })]],
    ];
    for (const parts of cases) assert.equal(materialHash(parts), reference(parts));
  });

  it('gives the same hash when the same objects are hashed again, alone or in other arrays', () => {
    const a = item({ id: 'm_a', time: '2026-03-02T09:00:00Z', text: 'Fixed the backup cron.' });
    const b = item({ id: 'm_b', time: '2026-03-02T10:00:00Z', text: 'Deployed v2 to staging.' });
    const first = materialHash(['daily', [a, b]]);
    assert.equal(materialHash(['daily', [a, b]]), first);
    assert.equal(materialHash(['review', [b], [a, b, a]]), reference(['review', [b], [a, b, a]]));
    assert.notEqual(materialHash(['daily', [b, a]]), first);
  });

  it('changes when an item that was not hashed before differs in any field', () => {
    const a = item({ id: 'm_a', time: '2026-03-02T09:00:00Z', text: 'Fixed the backup cron.' });
    const h = materialHash([[a]]);
    assert.notEqual(materialHash([[{ ...a, current: !a.current }]]), h);
    assert.notEqual(materialHash([[{ ...a, text: `${a.text} ` }]]), h);
  });
});
