// BM25's top hits summed from each term's scores kept per connection (store/sqlite/term-scores.ts)
// must be what FTS5's own OR query returns: the same entries, the same scores (to the last bit on
// x86-64: helpers/bm25-hits.ts), equal scores in the same order; and never scores of a table
// another write has changed.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { answersQuery, termsHeld, topHits } from '../../src/store/sqlite/term-scores.js';
import type { KeywordHit } from '../../src/store/store.js';
import { assertSameHits } from '../helpers/bm25-hits.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { seeded } from '../helpers/prng.js';

const NS = 'default';
// A few common words and many rare ones: entries of equal length and counts tie exactly.
const WORDS = ['deploy', 'staging', 'database', 'note', 'error', 'timeout', 'cache', 'index', 'review', 'budget', 'alpha7', 'beta9'];

function reference(db: Database.Database, terms: readonly string[], k: number): KeywordHit[] {
  const q = terms.map((t) => `"${t}"`).join(' OR ');
  return db.prepare('SELECT rowid AS seq, -bm25(entries_fts) AS score FROM entries_fts WHERE entries_fts MATCH ? ORDER BY bm25(entries_fts) LIMIT ?').all(q, k) as KeywordHit[];
}

describe('BM25 top hits from per-term scores', () => {
  let dir: { dir: string; cleanup: () => void };
  let path: string;
  let store: SqliteStore;
  let other: SqliteStore;
  let raw: Database.Database;
  const rnd = seeded(29);
  const text = () => Array.from({ length: 2 + Math.floor(rnd() * 6) }, () => WORDS[Math.floor(rnd() * (rnd() < 0.5 ? 4 : WORDS.length))]!).join(' ');
  const queries = () => Array.from({ length: 60 }, () => Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => WORDS[Math.floor(rnd() * WORDS.length)]!));

  before(async () => {
    dir = tempDir('cairn-term-scores-');
    path = join(dir.dir, 'cairn.db');
    store = new SqliteStore(path);
    other = new SqliteStore(path);
    await store.addMemories(Array.from({ length: 400 }, () => ({ namespace: NS, text: text() })));
    raw = new Database(path, { readonly: true });
  });
  after(async () => {
    raw.close();
    await store.close();
    await other.close();
    dir.cleanup();
  });

  it('returns what FTS5 returns: entries, scores and the order of ties, for any k and repeated terms', () => {
    let ties = 0;
    for (const terms of [...queries(), ['note', 'note', 'deploy'], ['NOTE', 'Deploy'], ['absentword'], ['absentword', 'beta9']]) {
      for (const k of [1, 7, 40, 1000]) {
        const want = reference(raw, terms, k);
        for (let i = 1; i < want.length; i++) if (want[i]!.score === want[i - 1]!.score) ties++;
        assertSameHits(topHits(raw, terms, k), want, `${terms.join(' ')} k=${k}`);
      }
    }
    assert.ok(ties > 100, `the data must tie often to test their order (${ties})`);
  });

  it('answers only terms that are one ASCII token; others go to FTS5 itself', () => {
    assert.equal(answersQuery(['deploy', 'alpha7']), true);
    for (const terms of [[], ['café'], ['数据库'], ['x.y'], ['a"b'], ['deploy', 'staging-db'], ['']]) {
      assert.equal(answersQuery(terms), false, JSON.stringify(terms));
      assert.equal(topHits(raw, terms, 10), null);
    }
  });

  it('never answers from scores a write has changed: its own connection, or another', async () => {
    const terms = ['deploy', 'budget'];
    const ask = () => store.keywordSearch(NS, terms, 20);
    assertSameHits(await ask(), reference(raw, terms, 20), 'before');
    // A new entry moves every idf and the average length: all scores change.
    await store.addMemories([{ namespace: NS, text: 'budget budget budget' }]);
    assertSameHits(await ask(), reference(raw, terms, 20), 'after a write');
    await other.addMemories([{ namespace: NS, text: 'deploy deploy budget' }]);
    const after = await ask();
    assertSameHits(after, reference(raw, terms, 20), 'after another connection wrote');
  });

  it('keeps its answers right past the postings it may hold', () => {
    // A bound below the common words' postings: they are read each time, the rare ones kept and
    // evicted in turn; the answers stay exact.
    const df = raw.prepare('SELECT count(*) FROM entries_fts WHERE entries_fts MATCH ?').pluck();
    const sizes = WORDS.map((w) => df.get(`"${w}"`) as number);
    const bound = Math.max(...sizes.filter((n) => n < Math.max(...sizes)));
    assert.ok(sizes.some((n) => n > bound) && sizes.filter((n) => n <= bound).length > 1);
    for (const terms of queries()) assertSameHits(topHits(raw, terms, 25, { maxPostings: bound }), reference(raw, terms, 25), terms.join(' '));
  });

  it('termsHeld: what a match of each term finds, whether or not a search scored the term, and after writes', async () => {
    const holders = (term: string) => new Set(raw.prepare('SELECT rowid FROM entries_fts WHERE entries_fts MATCH ?').pluck().all(`"${term.replace(/"/g, '""')}"`) as number[]);
    const check = (terms: readonly string[], seqs: readonly number[], bound?: number) => {
      const held = termsHeld(raw, terms, seqs, bound);
      assert.deepEqual([...held.keys()], seqs);
      terms.forEach((t, i) => {
        const want = holders(t);
        for (const seq of seqs) assert.equal(held.get(seq)![i], want.has(seq) ? 1 : 0, `${t} in ${seq}`);
      });
    };
    const all = raw.prepare('SELECT rowid FROM entries_fts ORDER BY rowid').pluck().all() as number[];
    const some = (n: number) => [...new Set(Array.from({ length: n }, () => all[Math.floor(rnd() * all.length)]!).concat([0, 10_000_000]))];
    // Terms no search scored yet (read by matching alone), then the same once topHits scored them.
    const fresh = ['review', 'budget', 'Cache', 'absentword', 'x.y', 'café', 'a"b', ''];
    check(fresh, some(80));
    topHits(raw, ['review', 'budget', 'cache'], 10);
    check(fresh, some(80));
    for (const terms of queries().slice(0, 20)) check(terms, some(40), 7);
    // Another connection writes: the next answer sees the new entry.
    const [added] = (await other.addMemories([{ namespace: NS, text: 'review budget cache' }])).map((r) => r.memory);
    assert.ok(added);
    const newest = raw.prepare('SELECT max(rowid) FROM entries_fts').pluck().get() as number;
    check(['review', 'budget', 'cache', 'absentword'], [newest, ...some(10)]);
  });
});
