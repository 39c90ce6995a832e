// keywordSearch in a home of many namespaces: after the FTS-only fast path falls short for a
// namespace, searches go straight to the join for a while. Every search must still return the
// namespace's own top hits, in BM25 order, as the namespace grows and shrinks.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { NewTurn } from '../../src/core/types.js';
import { tempDir } from '../helpers/store-fixtures.js';

const turn = (namespace: string, i: number, text: string): NewTurn => ({
  namespace, sessionId: 's', messageId: `m${i}`, role: 'user', speaker: null, text, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), line: null, meta: {},
});

/** The namespace's matching entries ranked by BM25, read without any fast path. */
function reference(store: SqliteStore, namespace: string, term: string, limit: number): number[] {
  return store.db
    .prepare(`SELECT e.seq FROM entries_fts JOIN entries e ON e.seq = entries_fts.rowid WHERE entries_fts MATCH ? AND e.namespace = ? AND e.current = 1 ORDER BY bm25(entries_fts), e.seq LIMIT ?`)
    .pluck()
    .all(`"${term}"`, namespace, limit) as number[];
}

describe('keywordSearch across namespaces', () => {
  let dir: { dir: string; cleanup: () => void };
  let store: SqliteStore;
  before(() => {
    dir = tempDir('cairn-kw-ns-');
    store = new SqliteStore(join(dir.dir, 'cairn.db'));
  });
  after(async () => {
    await store.close();
    dir.cleanup();
  });

  it('returns the namespace top hits on every search, whichever path it takes', async () => {
    // Twenty namespaces share the word; "small" holds few of its matches.
    const list: NewTurn[] = [];
    for (let n = 0; n < 20; n++) for (let i = 0; i < 40; i++) list.push(turn(`ns${n}`, i, `harbour ${'word '.repeat(i % 7)}${i}`));
    for (let i = 0; i < 15; i++) list.push(turn('small', i, `harbour trip ${'x '.repeat(i)}`));
    await store.addTurns(list);
    const check = async (limit: number) => {
      const got = (await store.keywordSearch('small', ['harbour'], limit, {})).map((h) => h.seq);
      assert.deepEqual([...got].sort((a, b) => a - b), [...reference(store, 'small', 'harbour', limit)].sort((a, b) => a - b));
      assert.ok(got.length === Math.min(limit, reference(store, 'small', 'harbour', 1000).length));
    };
    for (let k = 0; k < 40; k++) await check(k % 2 ? 10 : 3);
    // The namespace grows until it holds most matches: still exact, on either path.
    await store.addTurns(Array.from({ length: 2000 }, (_, i) => turn('small', 100 + i, `harbour ${i}`)));
    for (let k = 0; k < 40; k++) await check(10);
    assert.deepEqual(await store.keywordSearch('nowhere', ['harbour'], 10, {}), []);
  });
});
