// Index entries are kept per connection between searches (store/sqlite/entry-cache.ts). getEntries
// must return what a fresh read returns, in the same order, and never an entry another writer has
// changed since: not this Store's own writes, not another Store's (another process) on the file.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { cachedEntries } from '../../src/store/sqlite/entry-cache.js';
import type { IndexEntry } from '../../src/store/store.js';
import { tempDir } from '../helpers/store-fixtures.js';

const NS = 'default';

describe('getEntries: cached per connection', () => {
  let dir: { dir: string; cleanup: () => void };
  let path: string;
  let store: SqliteStore;
  let other: SqliteStore;
  let seqs: number[];
  /** What a fresh connection reads: the reference the cached answers must equal. */
  const fresh = async (ns: string, asked: readonly number[]): Promise<IndexEntry[]> => {
    const s = new SqliteStore(path);
    try {
      return await s.getEntries(ns, asked);
    } finally {
      await s.close();
    }
  };
  before(async () => {
    dir = tempDir('cairn-entry-cache-');
    path = join(dir.dir, 'cairn.db');
    store = new SqliteStore(path);
    other = new SqliteStore(path);
    const made = await store.addMemories(Array.from({ length: 30 }, (_, i) => ({ namespace: NS, text: `note ${i} about the staging database`, importance: 5 })));
    await store.addMemories([{ namespace: 'elsewhere', text: 'a note of another namespace' }]);
    const rows = new Database(path, { readonly: true });
    seqs = rows.prepare('SELECT seq FROM entries WHERE namespace = ? ORDER BY seq').pluck().all(NS) as number[];
    rows.close();
    assert.equal(made.length, 30);
  });
  after(async () => {
    await store.close();
    await other.close();
    dir.cleanup();
  });

  it('answers as a fresh read does, in ascending seq order, each once, whatever order and repeats asked', async () => {
    const asked = [seqs[9]!, seqs[2]!, seqs[9]!, seqs[20]!, 99_999];
    const first = await store.getEntries(NS, asked);
    assert.deepEqual(first.map((e) => e.seq), [seqs[2], seqs[9], seqs[20]]);
    assert.deepEqual(await store.getEntries(NS, asked), first, 'served from the cache');
    assert.deepEqual(first, await fresh(NS, asked));
    assert.deepEqual(await store.getEntries(NS, []), []);
  });

  it("leaves out another namespace's entries, cached or not", async () => {
    const theirs = (await fresh('elsewhere', [...seqs, seqs[seqs.length - 1]! + 1])).map((e) => e.seq);
    assert.equal(theirs.length, 1);
    await store.getEntries('elsewhere', theirs);
    assert.deepEqual((await store.getEntries(NS, [seqs[0]!, theirs[0]!])).map((e) => e.seq), [seqs[0]]);
  });

  it('a caller changing what it got does not change what the next caller gets', async () => {
    const [e] = await store.getEntries(NS, [seqs[3]!]);
    e!.text = 'changed by a caller';
    e!.provenance.push({ source: 'x' });
    const [again] = await store.getEntries(NS, [seqs[3]!]);
    assert.equal(again!.text, 'note 3 about the staging database');
    assert.deepEqual(again, (await fresh(NS, [seqs[3]!]))[0]);
  });

  it("never serves an entry this Store's own write or another Store's changed", async () => {
    const target = (await store.getEntries(NS, seqs)).find((e) => e.text === 'note 5 about the staging database')!;
    assert.equal(target.current, true);
    const replaced = await store.supersedeMemory(NS, target.refId, { namespace: NS, text: 'note 5 about the production database' });
    assert.ok(replaced);
    const [mine] = await store.getEntries(NS, [target.seq]);
    assert.equal(mine!.current, false, "this Store's write");
    const next = (await store.getEntries(NS, seqs)).find((e) => e.text === 'note 6 about the staging database')!;
    await store.getEntries(NS, [next.seq]);
    await other.supersedeMemory(NS, next.refId, { namespace: NS, text: 'note 6 about the production database' });
    const [theirs] = await store.getEntries(NS, [next.seq]);
    assert.equal(theirs!.current, false, "another Store's write");
    assert.deepEqual(await store.getEntries(NS, seqs), await fresh(NS, seqs));
  });
});

describe('cachedEntries: a full cache', () => {
  const entry = (seq: number): IndexEntry => ({
    seq, namespace: NS, kind: 'memory', refId: `m${seq}`, text: `text ${seq}`, time: '2026-01-01T00:00:00.000Z', createdAt: '2026-01-01T00:00:00.000Z',
    category: null, importance: 5, current: true, validTo: null, provenance: [], indexedChars: 7, layer: 3,
  });
  const read = (asked: readonly number[]) => asked.map(entry);

  it('returns every asked entry, the least recently asked too, before making room for the ones just read', () => {
    const db = new Database(':memory:');
    try {
      // Room for three entries: the first three asked fill it.
      const budget = 3 * (7 + 300);
      assert.deepEqual(cachedEntries(db, NS, [1, 2, 3], read, budget).map((e) => e.seq), [1, 2, 3]);
      // 1 and 2 are cached and asked again; keeping 4 and 5 overflows the budget: out go 3, the
      // least recently asked, then 1. The answer has them all.
      assert.deepEqual(cachedEntries(db, NS, [1, 2, 4, 5], read, budget).map((e) => e.seq), [1, 2, 4, 5]);
      const reread = (asked: number[]) => {
        let seen: number[] = [];
        cachedEntries(db, NS, asked, (missing) => ((seen = [...missing]), read(missing)), budget);
        return seen;
      };
      assert.deepEqual(reread([2, 4, 5]), [], 'the most recently asked stay');
      assert.deepEqual(reread([1]), [1], 'the least recently asked went once the answer was taken');
      assert.deepEqual(reread([3]), [3]);
    } finally {
      db.close();
    }
  });
});
