// One term's part of FTS5's bm25() in every entry holding it, computed here from the term's
// frequencies instead of by bm25() itself. FTS5 scores a match at ~2 µs (for each row, the
// function call and a read of the row's length from the docsize table); the term's instances read
// through an fts5vocab table cost ~0.2 µs a match, and every entry's length, read once per
// connection until the next write, ~0.2 µs an entry. A common word matching 5,000 of 100k entries
// is then scored in ~1.5 ms instead of ~10.
//
// The part is bm25()'s own expression (sqlite/ext/fts5/fts5_aux.c, fts5Bm25Function) in its order
// of operations, with its inputs: the row count and token total from FTS5's averages record, each
// row's token count summed over its columns, the term's count in the row over all columns (every
// column weighs 1), idf through SQLite's own ln(). The same doubles as bm25() where SQLite is built
// without fused multiply-add contraction (x86-64); elsewhere the last bit may differ.
import type { Database } from 'better-sqlite3';
import { stmt } from './statements.js';
import { inTempSchema } from './temp-schema.js';

/** (entry, score) of one term, ascending by entry. */
export interface Postings {
  seqs: Float64Array;
  scores: Float64Array;
}

/** What every term's part needs besides its own frequencies; read together, once per change. */
export interface DocumentLengths {
  /** FTS5's row count (its averages record), the N of the idf. */
  rows: number;
  /** Tokens per row over all columns. */
  avgdl: number;
  /** Tokens of each entry over all columns, by seq; 0 for a seq with no row. */
  lengths: Uint32Array;
}

/** FTS5's bm25() constants (fts5_aux.c). */
const K1 = 1.2;
const B = 0.75;

/**
 * Lengths are kept in an array indexed by seq: not when the seqs are so sparse (many entries
 * deleted) that it would be mostly empty; bm25() itself then scores.
 */
const MAX_SLOTS_PER_ROW = 8;

const VOCAB = 'CREATE VIRTUAL TABLE IF NOT EXISTS temp.cairn_fts_instances USING fts5vocab(main, entries_fts, instance)';

/** Whether this connection holds the instance table (false when it was refused). */
function hasVocab(db: Database): boolean {
  return inTempSchema(db, 'fts-instances', (d) => {
    d.exec(VOCAB);
    stmt(d, 'SELECT ln(2)').get(); // a SQLite built without its math functions: bm25() scores
  });
}

/** FTS5's row count (its averages record); 0 for an empty or unreadable one. */
export function indexedRows(db: Database): number {
  return decodeVarints(averagesRecord(db))?.[0] ?? 0;
}

function averagesRecord(db: Database): Buffer | undefined {
  // FTS5_AVERAGES_ROWID: the row count, then each column's token total.
  return stmt(db, 'SELECT block FROM entries_fts_data WHERE id = 1').pluck().get() as Buffer | undefined;
}

/**
 * Every entry's length and the table's totals, from one snapshot; null when this connection cannot
 * compute parts (no instance table, sparse seqs, a record it does not read).
 */
export function readDocumentLengths(db: Database): DocumentLengths | null {
  if (!hasVocab(db)) return null;
  return db.transaction(() => {
    const totals = decodeVarints(averagesRecord(db));
    if (!totals || totals.length < 2 || totals[0]! <= 0) return null;
    const rows = totals[0]!;
    let tokens = 0;
    for (let i = 1; i < totals.length; i++) tokens += totals[i]!;
    const maxSeq = (stmt(db, 'SELECT max(id) FROM entries_fts_docsize').pluck().get() as number | null) ?? 0;
    if (maxSeq + 1 > rows * MAX_SLOTS_PER_ROW + 1024) return null;
    const lengths = new Uint32Array(maxSeq + 1);
    // One string for the whole table: a row each (an array and a Buffer per row) cost ~5× as much.
    const all = stmt(db, "SELECT group_concat(id || ' ' || hex(sz), ' ') FROM entries_fts_docsize").pluck().get() as string | null;
    if (all !== null && !parseLengths(all, lengths)) return null;
    return { rows, avgdl: tokens / rows, lengths };
  })();
}

/**
 * The term's part of bm25() in every entry holding it. `term` is as the index holds it (case
 * folded). Null when its instances are not what this expects (not ascending by entry, or an entry
 * whose length was not read: a write from another connection since), so bm25() itself scores it.
 */
export function termParts(db: Database, doc: DocumentLengths, term: string): Postings | null {
  const instances = stmt(db, 'SELECT doc FROM temp.cairn_fts_instances WHERE term = ?').pluck().all(term) as number[];
  const seqs = new Float64Array(instances.length);
  const counts = new Float64Array(instances.length);
  let n = 0;
  for (let i = 0; i < instances.length; i++) {
    const seq = instances[i]!;
    if (n > 0 && seqs[n - 1] === seq) counts[n - 1]!++;
    else if (n > 0 && seq < seqs[n - 1]!) return null;
    else {
      if (!(doc.lengths[seq]! > 0)) return null;
      seqs[n] = seq;
      counts[n++] = 1;
    }
  }
  const scores = new Float64Array(n);
  if (n > 0) {
    let idf = stmt(db, 'SELECT ln(?)').pluck().get((doc.rows - n + 0.5) / (n + 0.5)) as number;
    if (idf <= 0.0) idf = 1e-6;
    for (let i = 0; i < n; i++) {
      const f = counts[i]!;
      const D = doc.lengths[seqs[i]!]!;
      // fts5Bm25Function's expression, operation for operation (its sum starts at 0.0: adds nothing).
      scores[i] = idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * D) / doc.avgdl)));
    }
  }
  return { seqs: seqs.subarray(0, n), scores };
}

/** FTS5's varints (SQLite's: big-endian 7-bit groups); null past 8 bytes, which no count here reaches. */
function decodeVarints(block: Uint8Array | undefined): number[] | null {
  if (!block) return null;
  const out: number[] = [];
  let v = 0;
  let width = 0;
  for (const byte of block) {
    v = v * 128 + (byte & 0x7f);
    if (++width > 8) return null;
    if (byte < 0x80) {
      out.push(v);
      v = 0;
      width = 0;
    }
  }
  return width === 0 ? out : null;
}

function nibble(c: number): number {
  return c <= 57 ? c - 48 : c - 55; // '0'–'9', 'A'–'F' (hex() writes upper case)
}

/** "seq HEX seq HEX …": each row's column sizes as varints in hex, summed into `lengths`. */
function parseLengths(all: string, lengths: Uint32Array): boolean {
  const n = all.length;
  let i = 0;
  while (i < n) {
    let seq = 0;
    for (let c = all.charCodeAt(i); c !== 32; c = all.charCodeAt(++i)) {
      if (c < 48 || c > 57 || i >= n) return false; // a negative or malformed seq
      seq = seq * 10 + (c - 48);
    }
    i++;
    let total = 0;
    let v = 0;
    for (; i < n; i += 2) {
      const hi = all.charCodeAt(i);
      if (hi === 32) break;
      const byte = nibble(hi) * 16 + nibble(all.charCodeAt(i + 1));
      v = v * 128 + (byte & 0x7f);
      if (byte < 0x80) {
        total += v;
        v = 0;
      }
    }
    i++;
    if (seq >= lengths.length) return false;
    lengths[seq] = total;
  }
  return true;
}
