// A term's part of BM25 computed from its frequencies and every entry's length
// (store/sqlite/term-frequencies.ts) must be what FTS5's bm25() gives: the same entries, the same
// doubles on x86-64 (helpers/bm25-hits.ts: within a last-place unit elsewhere), after writes of every
// kind, from this connection or another; and where it cannot compute (lengths not read, sparse
// seqs, a transaction), bm25() itself scores, so the answers stay the same.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readDocumentLengths, termParts } from '../../src/store/sqlite/term-frequencies.js';
import { topHits } from '../../src/store/sqlite/term-scores.js';
import type { KeywordHit } from '../../src/store/store.js';
import { assertSameHits, assertSameParts } from '../helpers/bm25-hits.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { seeded } from '../helpers/prng.js';

// The store's index table (migrations.ts, V14): two columns, contentless, deletes allowed.
const FTS = `CREATE VIRTUAL TABLE entries_fts USING fts5(
  body, keys, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`;
const WORDS = ['deploy', 'staging', 'database', 'note', 'error', 'timeout', 'cache', 'index', 'review', 'budget', 'alpha7', 'beta9'];
const ALL = { lengthsAfter: 0 };

function reference(db: Database.Database, terms: readonly string[], k: number): KeywordHit[] {
  const q = terms.map((t) => `"${t}"`).join(' OR ');
  return db.prepare('SELECT rowid AS seq, -bm25(entries_fts) AS score FROM entries_fts WHERE entries_fts MATCH ? ORDER BY bm25(entries_fts) LIMIT ?').all(q, k) as KeywordHit[];
}

function bm25Of(db: Database.Database, term: string): Array<[number, number]> {
  const rows = db.prepare('SELECT rowid, bm25(entries_fts) FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rowid').raw().all(`"${term}"`) as Array<[number, number]>;
  return rows.map(([seq, score]) => [seq, -score]);
}

describe('BM25 parts from term frequencies and entry lengths', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: Database.Database;
  let other: Database.Database;
  const rnd = seeded(31);
  // Lengths from 1 to ~300 tokens (two-byte varints past 127), some words in the second column.
  const text = (max: number) => Array.from({ length: 1 + Math.floor(rnd() * max) }, () => WORDS[Math.floor(rnd() * (rnd() < 0.5 ? 4 : WORDS.length))]!).join(' ');
  const row = () => [rnd() < 0.1 ? text(300) : text(8), rnd() < 0.3 ? text(3) : ''] as const;
  const queries = () => Array.from({ length: 40 }, () => Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => WORDS[Math.floor(rnd() * WORDS.length)]!));
  let nextSeq = 1;
  const insert = (conn: Database.Database, n: number) => {
    const add = conn.prepare('INSERT INTO entries_fts (rowid, body, keys) VALUES (?, ?, ?)');
    conn.transaction(() => {
      for (let i = 0; i < n; i++) add.run(nextSeq++, ...row());
    })();
  };
  const sameAsFts = (label: string, conn = db) => {
    for (const terms of [...queries(), ['note', 'note', 'deploy'], ['NOTE', 'Deploy'], ['absentword'], ['absentword', 'beta9']]) {
      for (const k of [1, 9, 1000]) assertSameHits(topHits(conn, terms, k, ALL), reference(conn, terms, k), `${label}: ${terms.join(' ')} k=${k}`);
    }
  };

  before(() => {
    dir = tempDir('cairn-term-frequencies-');
    const path = join(dir.dir, 'cairn.db');
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.exec(FTS);
    insert(db, 500);
    other = new Database(path);
  });
  after(() => {
    other.close();
    db.close();
    dir.cleanup();
  });

  it('gives each term bm25()\'s own doubles, entry by entry, long entries and the second column included', () => {
    const lengths = readDocumentLengths(db);
    assert.ok(lengths, 'the lengths are read');
    assert.equal(lengths.rows, 500);
    assert.ok(lengths.lengths.some((n) => n > 127), 'some entries need a two-byte varint');
    for (const term of [...WORDS, 'absentword']) {
      const parts = termParts(db, lengths, term);
      assert.ok(parts, term);
      assertSameParts(Array.from(parts.seqs, (seq, i) => [seq, parts.scores[i]!] as const), bm25Of(db, term), term);
    }
  });

  it('sums them into what FTS5\'s OR query returns, and so does bm25() alone', () => {
    sameAsFts('from frequencies');
    for (const terms of queries()) assert.deepEqual(topHits(db, terms, 20, { lengthsAfter: Infinity }), reference(db, terms, 20), terms.join(' '));
  });

  it('stays exact after inserts, rewrites and deletes by this connection', () => {
    insert(db, 40);
    sameAsFts('after inserts');
    // A rewrite is a delete and an insert of the same rowid (the entries_au trigger); the length changes.
    const rewrite = db.prepare('INSERT INTO entries_fts (rowid, body, keys) VALUES (?, ?, ?)');
    for (const seq of [3, 77, 200, 431]) {
      db.prepare('DELETE FROM entries_fts WHERE rowid = ?').run(seq);
      rewrite.run(seq, text(200), 'deploy deploy');
    }
    sameAsFts('after rewrites');
    for (const seq of [5, 6, 7, 300]) db.prepare('DELETE FROM entries_fts WHERE rowid = ?').run(seq);
    sameAsFts('after deletes');
  });

  it('stays exact after another connection writes', () => {
    sameAsFts('before');
    insert(other, 25);
    other.prepare('DELETE FROM entries_fts WHERE rowid = ?').run(8);
    sameAsFts('after the other connection');
  });

  it('leaves scoring to bm25() where it cannot read lengths, with the same answers', () => {
    // Inside a transaction the temp table is not made (a rollback would take it away).
    const fresh = new Database(db.name);
    try {
      fresh.transaction(() => {
        for (const terms of queries().slice(0, 10)) assert.deepEqual(topHits(fresh, terms, 15, ALL), reference(fresh, terms, 15), terms.join(' '));
      })();
      sameAsFts('after the transaction', fresh);
    } finally {
      fresh.close();
    }
    // A read-only connection makes its temp table (or leaves scoring to bm25(): either way exact).
    const readOnly = new Database(db.name, { readonly: true });
    try {
      sameAsFts('read-only', readOnly);
    } finally {
      readOnly.close();
    }
    // Seqs so sparse that an array by seq would be mostly empty: not read.
    db.prepare('INSERT INTO entries_fts (rowid, body, keys) VALUES (?, ?, ?)').run(50_000_000, 'deploy budget', '');
    assert.equal(readDocumentLengths(db), null);
    sameAsFts('sparse seqs');
    db.prepare('DELETE FROM entries_fts WHERE rowid = ?').run(50_000_000);
    assert.ok(readDocumentLengths(db));
    // A negative rowid (FTS5 takes any integer; the store never writes one): not an array slot.
    db.prepare('INSERT INTO entries_fts (rowid, body, keys) VALUES (?, ?, ?)').run(-7, 'deploy note', 'budget');
    assert.equal(readDocumentLengths(db), null);
    sameAsFts('a negative rowid');
    db.prepare('DELETE FROM entries_fts WHERE rowid = ?').run(-7);
    assert.ok(readDocumentLengths(db));
  });

  it('answers an empty index with nothing', () => {
    const empty = new Database(':memory:');
    try {
      empty.exec(FTS);
      assert.equal(readDocumentLengths(empty), null);
      assert.deepEqual(topHits(empty, ['deploy', 'note'], 10, ALL), []);
      empty.prepare('INSERT INTO entries_fts (rowid, body, keys) VALUES (1, ?, ?)').run('', '');
      assert.deepEqual(topHits(empty, ['deploy'], 10, ALL), []);
    } finally {
      empty.close();
    }
  });
});
