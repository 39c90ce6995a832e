// FTS5's BM25 top hits of an OR query, from each term's scores kept per connection. FTS5 scores
// every entry an OR query matches (~2 µs each, a docsize read and the bm25 function: 3–7 ms of a
// search at 100k memories, where counting the same matches takes 0.2 ms), and a query's common
// words match thousands. bm25() is a sum over the query's phrases, each term's part depending only
// on that term and the entry (its idf, its count in the entry, the entry's length, the table's
// average length), so a term's part of every entry is what the query of that term alone returns,
// or what term-frequencies.ts computes from the term's instances once the connection has read
// every entry's length. Kept per term, a search adds them up in the query's phrase order, the
// order FTS5 adds them in: the same doubles, so the same scores and the same order. Emptied on any
// write (changeToken), which moves the idfs and the average length.
import type { Database } from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { emptyTermsHeld } from '../held-terms.js';
import type { KeywordHit } from '../store.js';
import { changeToken, indexOf } from './context.js';
import { ftsQuery } from './fts-text.js';
import { stmt } from './statements.js';
import { indexedRows, readDocumentLengths, termParts, type DocumentLengths, type Postings } from './term-frequencies.js';

/**
 * Postings (entry, score) kept per connection, ~16 bytes each: 8 MB. A term matching more is read
 * each time it is asked for; the least recently asked terms go first (lru-cache: moving a term to
 * a Map's end and evicting from its front by iteration walked over every slot deleted since the
 * map last rehashed).
 */
export const MAX_CACHED_POSTINGS = 500_000;

/**
 * Terms this path answers: one unicode61 token for certain (ASCII letters and digits: every other
 * ASCII character separates tokens). Anything else (non-ASCII, a term FTS5 reads as a phrase) is
 * left to FTS5's own OR query.
 */
const SINGLE_TOKEN = /^[A-Za-z0-9]+$/;

/**
 * Every entry's length is read (~0.2 µs an entry) once bm25() has scored this share of the table's
 * rows since the last write (~2 µs a match, against ~0.2 from the lengths and frequencies): a
 * one-off search pays nothing more, and a process that keeps searching pays for the lengths
 * about what it spent without them.
 */
const LENGTHS_AFTER_SHARE = 0.25;

export interface TermScoreOptions {
  /** Postings kept per connection (MAX_CACHED_POSTINGS). */
  maxPostings?: number;
  /** Matches bm25() scores before every entry's length is read (LENGTHS_AFTER_SHARE of the rows); 0 at once, Infinity never. */
  lengthsAfter?: number;
}

interface TermCache {
  token: string;
  bound: number;
  terms: LRUCache<string, Postings>;
  /** Every entry's length; undefined until read, null when term-frequencies.ts cannot score here. */
  lengths: DocumentLengths | null | undefined;
  /** Matches bm25() has scored since the cache was made. */
  scoredByFts: number;
  /** The index's row count (an estimate, for when to read lengths), read once. */
  rows: number | undefined;
  /** Entries holding a term topHits does not answer (not one ASCII token), ascending: no scores. */
  holders: LRUCache<string, Float64Array>;
}

const caches = new WeakMap<Database, TermCache>();

/** Whether topHits answers this OR query (otherwise null is returned and FTS5 is asked directly). */
export function answersQuery(terms: readonly string[]): boolean {
  return terms.length > 0 && terms.every((t) => SINGLE_TOKEN.test(t));
}

function termPostings(db: Database, cache: TermCache, term: string, lengthsAfter: number): Postings {
  // Case folds in the index: "Note" and "note" are one term.
  const key = term.toLowerCase();
  const kept = cache.terms.get(key);
  if (kept) return kept;
  if (cache.lengths === undefined && cache.scoredByFts >= lengthsAfter) cache.lengths = readDocumentLengths(db);
  const postings = (cache.lengths && termParts(db, cache.lengths, key)) ?? scoredByFts(db, cache, term);
  // A term of more postings than the bound is not kept (the cache's maxEntrySize); an empty one counts 1.
  cache.terms.set(key, postings);
  return postings;
}

/** The term's part as bm25() gives it, row by row. */
function scoredByFts(db: Database, cache: TermCache, term: string): Postings {
  const rows = stmt(db, 'SELECT rowid, bm25(entries_fts) FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rowid').raw().all(`"${term}"`) as Array<[number, number]>;
  const seqs = new Float64Array(rows.length);
  const scores = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    seqs[i] = rows[i]![0];
    // bm25() returns −1.0 × the sum; a sum of one part negated back is that part, exactly.
    scores[i] = -rows[i]![1];
  }
  cache.scoredByFts += rows.length;
  return { seqs, scores };
}

/**
 * The `k` best entries of the OR query of `terms` as `SELECT rowid, -bm25(entries_fts) ... ORDER
 * BY bm25(entries_fts) LIMIT k` returns them: highest score first, equal scores in ascending
 * rowid (the order FTS5 yields them to SQLite's stable sorter). Null when answersQuery is false.
 */
export function topHits(db: Database, terms: readonly string[], k: number, options: TermScoreOptions = {}): KeywordHit[] | null {
  const all = summedPostings(db, terms, options);
  return all && best(all.seqs, all.scores, k);
}

/**
 * topHits among `members` only (ascending seqs, namespace-members.ts): what the OR query joined
 * with the entries of those seqs returns, `ORDER BY bm25(entries_fts) LIMIT k`. The scores are the
 * whole table's (FTS5 scores a match the same whatever it is joined with), so the same doubles.
 */
export function topHitsAmong(db: Database, terms: readonly string[], k: number, members: Float64Array, options: TermScoreOptions = {}): KeywordHit[] | null {
  const all = summedPostings(db, terms, options);
  if (!all) return null;
  const { seqs, scores } = among(all, members);
  return best(seqs, scores, k);
}

/** Every match of the OR query of `terms` with its BM25 score, ascending by entry; null when answersQuery is false. */
function summedPostings(db: Database, terms: readonly string[], options: TermScoreOptions): Postings | null {
  if (!answersQuery(terms)) return null;
  const cache = termCache(db, options.maxPostings ?? MAX_CACHED_POSTINGS);
  const lengthsAfter = options.lengthsAfter ?? LENGTHS_AFTER_SHARE * ftsRows(db, cache);
  const lists = terms.map((t) => termPostings(db, cache, t, lengthsAfter));
  return summed(lists);
}

function ftsRows(db: Database, cache: TermCache): number {
  return (cache.rows ??= indexedRows(db));
}

/** The connection's term cache, emptied when the table changed (or its bound did) since it was made. */
function termCache(db: Database, maxPostings: number): TermCache {
  const token = changeToken(db);
  let cache = caches.get(db);
  if (!cache || cache.token !== token || cache.bound !== maxPostings) {
    const size = { maxSize: Math.max(1, maxPostings) };
    const terms = new LRUCache<string, Postings>({ ...size, sizeCalculation: (p) => Math.max(1, p.seqs.length) });
    const holders = new LRUCache<string, Float64Array>({ ...size, sizeCalculation: (seqs) => Math.max(1, seqs.length) });
    caches.set(db, (cache = { token, bound: maxPostings, terms, holders, lengths: undefined, scoredByFts: 0, rows: undefined }));
  }
  return cache;
}

/**
 * For each of `seqs`, which of `terms` the keyword index holds for its entry (1 at the term's
 * index), as a query of that term alone matches it: the entries' postings, which a keyword search
 * of the same terms has mostly read already, instead of analysing each text again.
 */
export function termsHeld(db: Database, terms: readonly string[], seqs: readonly number[], maxPostings = MAX_CACHED_POSTINGS): Map<number, Uint8Array> {
  const found = emptyTermsHeld(seqs, terms.length);
  if (found.size > 0) {
    const cache = termCache(db, maxPostings);
    terms.forEach((term, i) => {
      const held = entriesHolding(db, cache, term);
      found.forEach((row, seq) => {
        if (indexOf(held, seq) >= 0) row[i] = 1;
      });
    });
  }
  return found;
}

/**
 * The entries whose index holds `term`, ascending: from its scored postings when a keyword search
 * read them, else from FTS5's match alone (scoring costs ~2 µs an entry, matching a tenth of it: a
 * vector-mode search reads no postings, and its common terms match thousands).
 */
function entriesHolding(db: Database, cache: TermCache, term: string): Float64Array {
  if (term.length === 0) return new Float64Array(0);
  const scored = SINGLE_TOKEN.test(term) ? cache.terms.get(term.toLowerCase()) : undefined;
  if (scored) return scored.seqs;
  const kept = cache.holders.get(term);
  if (kept) return kept;
  const rows = stmt(db, 'SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rowid').pluck().all(ftsQuery([term])) as number[];
  const seqs = Float64Array.from(rows);
  cache.holders.set(term, seqs);
  return seqs;
}

/** The postings whose entries are among `members`: two ascending lists walked side by side. */
function among(p: Postings, members: Float64Array): Postings {
  const seqs = new Float64Array(Math.min(p.seqs.length, members.length));
  const scores = new Float64Array(seqs.length);
  let n = 0;
  for (let i = 0, j = 0; i < p.seqs.length && j < members.length; ) {
    const a = p.seqs[i]!;
    const b = members[j]!;
    if (a < b) i++;
    else if (a > b) j++;
    else {
      seqs[n] = a;
      scores[n++] = p.scores[i]!;
      i++;
      j++;
    }
  }
  return { seqs: seqs.subarray(0, n), scores: scores.subarray(0, n) };
}

/**
 * Each entry's sum of its terms' parts, in the terms' order (a term the entry lacks adds 0, as in
 * FTS5, where it adds idf × 0): a merge of the ascending lists.
 */
function summed(lists: readonly Postings[]): Postings {
  let total = 0;
  for (const l of lists) total += l.seqs.length;
  const seqs = new Float64Array(total);
  const scores = new Float64Array(total);
  const at = new Array<number>(lists.length).fill(0);
  let n = 0;
  for (;;) {
    let next = Infinity;
    for (let i = 0; i < lists.length; i++) {
      const l = lists[i]!;
      if (at[i]! < l.seqs.length && l.seqs[at[i]!]! < next) next = l.seqs[at[i]!]!;
    }
    if (next === Infinity) break;
    let sum = 0;
    for (let i = 0; i < lists.length; i++) {
      const l = lists[i]!;
      if (at[i]! < l.seqs.length && l.seqs[at[i]!] === next) sum += l.scores[at[i]!++]!;
    }
    seqs[n] = next;
    scores[n++] = sum;
  }
  return { seqs: seqs.subarray(0, n), scores: scores.subarray(0, n) };
}

/** The k highest scores, ties by ascending seq. */
function best(seqs: Float64Array, scores: Float64Array, k: number): KeywordHit[] {
  const n = seqs.length;
  if (n === 0 || k <= 0) return [];
  // The k-th highest score bounds what is sorted: only entries at or above it (ties included).
  let floor = -Infinity;
  if (n > k) floor = Float64Array.from(scores).sort()[n - k]!;
  const picked: number[] = [];
  for (let i = 0; i < n; i++) if (scores[i]! >= floor) picked.push(i);
  // Compared, not subtracted: a comparator returning a difference of doubles boxes each one (a
  // HeapNumber a comparison, ~1,500 a search at 100k memories); only the sign counts.
  picked.sort((a, b) => (scores[b]! > scores[a]! ? 1 : scores[b]! < scores[a]! ? -1 : seqs[a]! - seqs[b]!));
  return picked.slice(0, k).map((i) => ({ seq: seqs[i]!, score: scores[i]! }));
}
