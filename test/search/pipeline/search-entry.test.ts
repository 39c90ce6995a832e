// The search entry the facade calls (search/search.ts): the period a request's since/until/asOf
// make, the kinds a plain search covers, and a search run with its dependencies given directly
// (a real SQLite store, a clock, no embedder).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Cairn } from '../../../src/service/cairn.js';
import { defaultConfig } from '../../../src/core/config.js';
import { plainFilter, PLAIN_SEARCH_KINDS, searchNamespace, searchPeriod, type SearchDeps } from '../../../src/search/search.js';
import { tempDir } from '../../helpers/store-fixtures.js';

describe('search entry', () => {
  const tmp = tempDir();
  after(() => tmp.cleanup());

  it('since/until count back from the moment asked; asOf caps until', () => {
    const now = Date.parse('2026-02-01T00:00:00.000Z');
    assert.deepEqual(searchPeriod({ since: '7d' }, now), { since: '2026-01-25T00:00:00.000Z' });
    assert.deepEqual(searchPeriod({ asOf: '2026-01-15T00:00:00.000Z' }, now), { until: '2026-01-15T00:00:00.000Z' });
    assert.deepEqual(searchPeriod({ until: '2026-01-20T00:00:00.000Z', asOf: '2026-01-15T00:00:00.000Z' }, now), { until: '2026-01-15T00:00:00.000Z' });
    assert.deepEqual(searchPeriod({ until: '2026-01-10T00:00:00.000Z', asOf: '2026-01-15T00:00:00.000Z' }, now), { until: '2026-01-10T00:00:00.000Z' });
    assert.deepEqual(searchPeriod({}, now), {});
    assert.throws(() => searchPeriod({ since: 'not a time' }, now));
  });

  it('a filter naming no kind or layer leaves digests out', () => {
    assert.deepEqual(plainFilter({}).kinds, PLAIN_SEARCH_KINDS);
    assert.deepEqual(plainFilter({ kinds: ['digest'] }).kinds, ['digest']);
    assert.equal(plainFilter({ layers: [2] }).kinds, undefined);
  });

  it('runs on a store with a given clock: BM25 only without an embedder, recency from the clock', async () => {
    const cairn = await Cairn.open({ home: join(tmp.dir, 'h'), embedder: null });
    try {
      await cairn.store.addMemory({ namespace: 'default', text: 'We chose Postgres for billing', eventTime: '2026-01-10T10:00:00.000Z', importance: 5 });
      const deps = (now: number): SearchDeps => ({
        store: cairn.store,
        ranking: defaultConfig().search,
        timeZone: 'UTC',
        passages: 'windows',
        clock: () => now,
        embedder: null,
        rewrite: () => Promise.reject(new Error('not asked')),
        aliasKey: (n) => n.toLowerCase(),
      });
      const request = { query: 'Postgres billing', limit: 5, includeSuperseded: false, mode: 'hybrid' as const, strategy: 'flat' as const };
      const soon = await searchNamespace(deps(Date.parse('2026-01-11T00:00:00.000Z')), 'default', request);
      assert.equal(soon.mode, 'bm25');
      assert.equal(soon.degraded, 'no embedder configured: BM25 only');
      assert.equal(soon.results.length, 1);
      assert.equal(soon.results[0]!.parts.tier, 'hot');
      const later = await searchNamespace(deps(Date.parse('2027-01-11T00:00:00.000Z')), 'default', request);
      assert.equal(later.results[0]!.parts.tier, 'cold');
      assert.ok(later.results[0]!.score < soon.results[0]!.score);
      assert.deepEqual((await searchNamespace(deps(0), 'default', { ...request, query: 'zebra' })).results, []);
    } finally {
      await cairn.close();
    }
  });
});
