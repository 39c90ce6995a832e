// A namespace's BM25 top hits from the per-term scores among its own entries
// (store/sqlite/namespace-members.ts, term-scores.ts topHitsAmong) must be exactly what the OR query
// joined with the namespace's entries returns: the same entries, the same scores to the last bit,
// equal scores in the same order; for the filters it answers, and after every kind of write.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { membersAnswer, namespaceMembers } from '../../src/store/sqlite/namespace-members.js';
import { topHitsAmong } from '../../src/store/sqlite/term-scores.js';
import type { EntryFilter, KeywordHit } from '../../src/store/store.js';
import type { NewTurn } from '../../src/core/types.js';
import { assertSameHits } from '../helpers/bm25-hits.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { seeded } from '../helpers/prng.js';

const NAMESPACES = ['alpha', 'beta', 'gamma'];
// A few common words and many rare ones: entries of equal length and counts tie exactly.
const WORDS = ['deploy', 'staging', 'database', 'note', 'error', 'timeout', 'cache', 'index', 'review', 'budget', 'alpha7', 'beta9'];

function reference(db: Database.Database, namespace: string, terms: readonly string[], k: number, filter: EntryFilter): KeywordHit[] {
  const where = [filter.includeSuperseded ? '' : 'AND e.current = 1', filter.kinds?.length ? `AND e.kind IN (${filter.kinds.map((x) => `'${x}'`).join(', ')})` : ''].join(' ');
  const sql = `SELECT e.seq AS seq, -bm25(entries_fts) AS score FROM entries_fts JOIN entries e ON e.seq = entries_fts.rowid
    WHERE entries_fts MATCH ? AND e.namespace = ? ${where} ORDER BY bm25(entries_fts) LIMIT ?`;
  return db.prepare(sql).all(terms.map((t) => `"${t}"`).join(' OR '), namespace, k) as KeywordHit[];
}

const turn = (namespace: string, i: number, text: string): NewTurn => ({
  namespace, sessionId: `s${i % 3}`, messageId: `m${i}`, role: 'user', speaker: null, text, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), line: null, meta: {},
});

const FILTERS: EntryFilter[] = [{}, { kinds: ['memory', 'turn', 'document'] }, { kinds: ['turn'] }, { includeSuperseded: true }, { kinds: ['memory'], includeSuperseded: true, validAt: '2026-01-01T00:00:00Z' }];

describe('BM25 top hits among a namespace’s entries', () => {
  let dir: { dir: string; cleanup: () => void };
  let store: SqliteStore;
  let raw: Database.Database;
  const rnd = seeded(41);
  const text = () => Array.from({ length: 2 + Math.floor(rnd() * 6) }, () => WORDS[Math.floor(rnd() * (rnd() < 0.5 ? 4 : WORDS.length))]!).join(' ');
  const queries = () => Array.from({ length: 30 }, () => Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => WORDS[Math.floor(rnd() * WORDS.length)]!));

  const checkAll = (label: string) => {
    let ties = 0;
    for (const terms of [...queries(), ['note', 'note', 'deploy'], ['absentword']]) {
      for (const ns of [...NAMESPACES, 'nowhere']) {
        for (const filter of FILTERS) {
          for (const k of [1, 10, 500]) {
            const want = reference(raw, ns, terms, k, filter);
            for (let i = 1; i < want.length; i++) if (want[i]!.score === want[i - 1]!.score) ties++;
            assertSameHits(topHitsAmong(raw, terms, k, namespaceMembers(raw, ns, filter)!), want, `${label}: ${ns} ${terms.join(' ')} ${JSON.stringify(filter)} k=${k}`);
          }
        }
      }
    }
    assert.ok(ties > 100, `the data must tie often to test their order (${ties})`);
  };

  before(async () => {
    dir = tempDir('cairn-ns-top-hits-');
    store = new SqliteStore(join(dir.dir, 'cairn.db'));
    for (const ns of NAMESPACES) {
      await store.addMemories(Array.from({ length: 150 }, () => ({ namespace: ns, text: text() })));
      await store.addTurns(Array.from({ length: 100 }, (_, i) => turn(ns, i, text())));
    }
    raw = new Database(join(dir.dir, 'cairn.db'), { readonly: true });
  });
  after(async () => {
    raw.close();
    await store.close();
    dir.cleanup();
  });

  it('returns what the joined query returns, for every namespace and filter it answers', () => {
    checkAll('as stored');
  });

  it('follows writes: new entries, superseded memories', async () => {
    await store.addMemories(Array.from({ length: 40 }, () => ({ namespace: 'beta', text: text() })));
    await store.addTurns(Array.from({ length: 30 }, (_, i) => turn('gamma', 500 + i, text())));
    checkAll('after adding');
    const old = (await store.listMemories({ namespace: 'alpha', limit: 20 })).slice(0, 10);
    for (const m of old) await store.supersedeMemory('alpha', m.id, { namespace: 'alpha', text: `${m.text} budget` });
    checkAll('after superseding');
  });

  it('keeps no list beyond its bound: the first search of a larger namespace uses it, later ones join', () => {
    const size = namespaceMembers(raw, 'beta', {})!.length;
    assert.ok(size > 100);
    const first = namespaceMembers(raw, 'beta', {}, 100);
    assert.equal(first?.length, size);
    assert.equal(namespaceMembers(raw, 'beta', {}, 100), null);
    // Another namespace under the bound is kept and answered.
    assert.deepEqual(namespaceMembers(raw, 'nowhere', {}, 100), new Float64Array(0));
    assert.ok(namespaceMembers(raw, 'beta', {}) !== null);
  });

  it('leaves terms it cannot answer, empty and hostile ones among them, to the join, with the same hits', async () => {
    const members = namespaceMembers(raw, 'alpha', {})!;
    for (const terms of [[], ['café'], ['a"b'], ['deploy', 'x OR y'], ['*'], ['NEAR(deploy'], ['\u0000']]) {
      assert.equal(topHitsAmong(raw, terms, 10, members), null, JSON.stringify(terms).slice(0, 60));
    }
    // A huge single ASCII token is one FTS5 term like any other: answered, with no match.
    assert.deepEqual(topHitsAmong(raw, ['deploy'.repeat(5000)], 10, members), []);
    // Through the store: the same hits as the join, whichever path answers.
    for (const terms of [['café', 'deploy'], ['a"b', 'note'], ['deploy'.repeat(5000)]]) {
      const got = await store.keywordSearch('alpha', terms, 10, {});
      const want = raw
        .prepare(`SELECT e.seq AS seq, -bm25(entries_fts) AS score FROM entries_fts JOIN entries e ON e.seq = entries_fts.rowid WHERE entries_fts MATCH ? AND e.namespace = 'alpha' AND e.current = 1 ORDER BY bm25(entries_fts) LIMIT 10`)
        .all(terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ')) as KeywordHit[];
      assert.deepEqual(got.map((h) => h.seq).sort(), want.map((h) => h.seq).sort(), JSON.stringify(terms).slice(0, 60));
    }
  });

  it('answers only filters of kinds and superseded entries; the rest go to SQL', () => {
    for (const f of [undefined, {}, { kinds: ['memory' as const] }, { includeSuperseded: true }, { includeSuperseded: false }, { validAt: '2026-01-01', includeSuperseded: true }, { kinds: [] }]) {
      assert.equal(membersAnswer(f), true, JSON.stringify(f));
    }
    const asked: EntryFilter[] = [{ validAt: '2026-01-01' }, { since: '2026-01-01' }, { until: '2026-01-01' }, { minImportance: 5 }, { categories: ['decision'] }, { layers: [3] }, { memoryIds: [] }, { memoryIds: ['x'] }, { allTerms: true }];
    for (const f of asked) assert.equal(membersAnswer(f), false, JSON.stringify(f));
  });
});
