// Vectors and the embedding cache on PostgreSQL. `vector` holds the int8 codec's bytes
// (store/vector-codec.ts), bit for bit what SQLite holds; `embedding` the same values decoded, as a
// pgvector halfvec, for the HNSW index that answers nearestVectors over large namespaces.
//
// Following the table (vectorsAfter) across machines: a row's id is its writing transaction's id
// times ROWS_PER_TX plus its place in that transaction, so ids order rows by (tx, place). Writers
// commit out of transaction order, so a reader only takes rows of transactions below the horizon:
// the oldest transaction still writing vectors (each holds a shared advisory lock, WRITER_LOCK, for
// its whole length), or the next transaction id when none is. Every row below the horizon is
// committed and visible, and every row still to come has a higher id, so a watermark (the last id
// read) never skips one. Unrelated transactions never hold the reader back.
import pg from 'pg';
import pgvector from 'pgvector';
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import type { StoredVector, VectorRow, VectorStats } from '../store.js';
import { keysOf, textHashKey } from '../text-hash-key.js';
import { decodeVector, encodeVector } from '../vector-codec.js';
import { poolOf, transaction, type Db } from './connect.js';

/** Rows one transaction may write; ids stay below 2^53 up to 2^41 transaction ids. */
export const ROWS_PER_TX = 4096;
/** Advisory lock (two-key form) every vector-writing transaction holds shared: classid, objid = hashtext(schema). */
const WRITER_LOCK = 0x43_76_65_63; // "Cvec"
/** pgvector's HNSW indexes halfvec up to this many dimensions; wider or empty rows get no embedding. */
const MAX_ANN_DIMENSIONS = 4000;

type Row = VectorRow;

/** The latest vector per seq, in first-seen order (one upsert may not touch a row twice). */
function latestPerSeq(rows: ReadonlyArray<Row>): Row[] {
  const bySeq = new Map<number, Row>();
  for (const r of rows) {
    bySeq.delete(r.seq);
    bySeq.set(r.seq, r);
  }
  return [...bySeq.values()];
}

/**
 * The halfvec of a row: its decoded values scaled to unit length, which keeps any finite vector
 * within half precision's range (±65,504) and leaves cosine distances as they were. Null for an
 * empty, zero, non-finite or too wide vector, which no HNSW index holds.
 */
export function embeddingOf(bytes: Buffer, length: number): string | null {
  if (length < 1 || length > MAX_ANN_DIMENSIONS) return null;
  return unitSql(decodeVector(bytes));
}

function unitSql(values: Float32Array): string | null {
  let sum = 0;
  for (const x of values) sum += x * x;
  const norm = Math.sqrt(sum);
  if (!(norm > 0) || !Number.isFinite(norm)) return null;
  return pgvector.toSql(Array.from(values, (x) => x / norm));
}

/**
 * Stores vectors (replacing an entry's vector of the same model, which then takes a new id past
 * every watermark, as SQLite's delete and insert). Entries that vanished are skipped. A row with a
 * text hash serves the cache for that text: a cache row of the very same bytes goes, and the
 * replaced row's vector moves to the cache (trigger, migration step 3). Each ROWS_PER_TX rows are
 * one transaction; call with the pool (PgStore does), not inside another transaction.
 */
export async function putVectors(db: Db, model: string, rows: ReadonlyArray<Row>): Promise<void> {
  const list = latestPerSeq(rows);
  for (let from = 0; from < list.length; from += ROWS_PER_TX) {
    const chunk = list.slice(from, from + ROWS_PER_TX);
    const bytes = chunk.map((r) => encodeVector(r.vector));
    const keys = chunk.map((r) => (r.textHash === undefined ? null : textHashKey(r.textHash)));
    await transaction(db, async (c) => {
      // Registered as a writer before the transaction has an id (the insert assigns it): see the top.
      await c.query('SELECT pg_advisory_xact_lock_shared($1, hashtext(current_schema()))', [WRITER_LOCK]);
      await c.query(
        `INSERT INTO vectors AS v (id, entry_seq, namespace, model, dim, vector, embedding, tx, text_hash)
         SELECT pg_current_xact_id()::text::bigint * ${ROWS_PER_TX} + r.n - 1, r.seq, e.namespace, $1, r.dim, r.vec, r.emb::halfvec, pg_current_xact_id(), r.key
         FROM unnest($2::bigint[], $3::int[], $4::bytea[], $5::text[], $6::bytea[]) WITH ORDINALITY AS r(seq, dim, vec, emb, key, n)
         JOIN entries e ON e.seq = r.seq
         ON CONFLICT (entry_seq, model) DO UPDATE SET id = excluded.id, namespace = excluded.namespace, dim = excluded.dim,
           vector = excluded.vector, embedding = excluded.embedding, tx = excluded.tx, text_hash = excluded.text_hash`,
        [model, chunk.map((r) => r.seq), chunk.map((r) => r.vector.length), bytes, chunk.map((r, i) => embeddingOf(bytes[i]!, r.vector.length)), keys],
      );
      const held = keys.flatMap((k, i) => (k ? [{ key: k, vec: bytes[i]! }] : []));
      if (held.length) {
        await c.query(
          'DELETE FROM embed_cache c USING unnest($2::bytea[], $3::bytea[]) AS r(key, vec) WHERE c.model = $1 AND c.text_hash = r.key AND c.vector = r.vec',
          [model, held.map((h) => h.key), held.map((h) => h.vec)],
        );
      }
    });
  }
}

/** The transaction id below which every vector row is committed and visible to a statement that starts now. */
async function horizon(db: Db): Promise<number> {
  // pg_locks shows 32-bit xids: widened with the epoch of the next id (an older xid of the same
  // low bits belongs to the epoch before).
  const row = (await db.query<{ horizon: number }>(
    `WITH next AS (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS x),
     writers AS (
       SELECT DISTINCT pid FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid = hashtext(current_schema())::oid AND objsubid = 2
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
     ),
     xids AS (
       SELECT l.transactionid::text::bigint AS low FROM pg_locks l JOIN writers w ON w.pid = l.pid
       WHERE l.locktype = 'transactionid' AND l.mode = 'ExclusiveLock' AND l.granted
     )
     SELECT least(n.x, min(CASE WHEN x.low <= (n.x & 4294967295) THEN ((n.x >> 32) << 32) + x.low ELSE (((n.x >> 32) - 1) << 32) + x.low END)) AS horizon
     FROM next n LEFT JOIN xids x ON TRUE GROUP BY n.x`,
    [WRITER_LOCK],
  )).rows[0]!;
  return row.horizon;
}

export async function vectorsAfter(db: Db, namespace: string, model: string, afterId: number, limit: number): Promise<StoredVector[]> {
  // The horizon first, the rows in a later statement (a later snapshot): a writer that commits in
  // between is below the horizon and visible; one that registers after has a higher id.
  const below = await horizon(db);
  const rows = (await db.query<{ id: number; seq: number; vector: Buffer }>(
    `SELECT id, entry_seq AS seq, vector FROM vectors
     WHERE model = $1 AND namespace = $2 AND id > $3 AND tx < $4::text::xid8 ORDER BY id LIMIT $5`,
    [model, namespace, afterId, String(below), limit],
  )).rows;
  return rows.map((r) => ({ id: r.id, seq: r.seq, vector: decodeVector(r.vector) }));
}

export async function getVectors(db: Db, model: string, seqs: readonly number[]): Promise<Map<number, Float32Array>> {
  const out = new Map<number, Float32Array>();
  if (seqs.length === 0) return out;
  const rows = (await db.query<{ seq: number; vector: Buffer }>('SELECT entry_seq AS seq, vector FROM vectors WHERE model = $1 AND entry_seq = ANY($2::bigint[])', [model, [...new Set(seqs)]])).rows;
  for (const r of rows) out.set(r.seq, decodeVector(r.vector));
  return out;
}

export async function getQuantisedVectors(db: Db, model: string, seqs: readonly number[]): Promise<Map<number, Uint8Array>> {
  const out = new Map<number, Uint8Array>();
  if (seqs.length === 0) return out;
  const rows = (await db.query<{ seq: number; vector: Buffer }>('SELECT entry_seq AS seq, vector FROM vectors WHERE model = $1 AND entry_seq = ANY($2::bigint[])', [model, [...new Set(seqs)]])).rows;
  for (const r of rows) out.set(r.seq, r.vector);
  return out;
}

export async function vectorStats(db: Db, model: string): Promise<VectorStats[]> {
  return (await db.query<VectorStats>(
    `SELECT n.id AS namespace, $1::text AS model,
       (SELECT count(*) FROM vectors v WHERE v.model = $1 AND v.namespace = n.id)::int AS vectors,
       greatest(0, (SELECT count(*) FROM entries e WHERE e.namespace = n.id AND e.embed = 1) -
         (SELECT count(*) FROM vectors v WHERE v.model = $1 AND v.namespace = n.id))::int AS missing
     FROM namespaces n ORDER BY n.id`,
    [model],
  )).rows;
}

export async function vectorModels(db: Db): Promise<Array<{ model: string; dimensions: number; vectors: number }>> {
  const models = (await db.query<{ model: string }>('SELECT DISTINCT model FROM vectors ORDER BY model')).rows.map((r) => r.model);
  const out: Array<{ model: string; dimensions: number; vectors: number }> = [];
  for (const model of models) {
    const row = (await db.query<{ dimensions: number; vectors: number }>(
      'SELECT (SELECT dim FROM vectors WHERE model = $1 LIMIT 1) AS dimensions, (SELECT count(*) FROM vectors WHERE model = $1)::int AS vectors',
      [model],
    )).rows[0]!;
    out.push({ model, ...row });
  }
  return out;
}

export async function dropVectorsExcept(db: Db, keep: readonly string[]): Promise<number> {
  return (await db.query('DELETE FROM vectors WHERE NOT (model = ANY($1::text[]))', [[...keep]])).rowCount ?? 0;
}

/** Cached vectors by text hash: a cache row's, or a stored vector made of that very text (step 3). */
export async function cacheGet(db: Db, model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  if (hashes.length === 0) return out;
  const { keys, hashesOf } = keysOf(hashes);
  const rows = (await db.query<{ key: Buffer; vector: Buffer }>(
    `SELECT text_hash AS key, vector FROM vectors WHERE model = $1 AND text_hash = ANY($2::bytea[])
     UNION ALL
     SELECT text_hash, vector FROM embed_cache WHERE model = $1 AND text_hash = ANY($2::bytea[])`,
    [model, keys],
  )).rows;
  for (const r of rows) {
    const vector = decodeVector(r.vector);
    for (const h of hashesOf.get(r.key.toString('hex')) ?? []) out.set(h, vector);
  }
  return out;
}

export async function cachePut(db: Db, model: string, entries: ReadonlyArray<{ textHash: string; vector: Float32Array }>): Promise<void> {
  if (entries.length === 0) return;
  // First writer wins, as SQLite's INSERT OR IGNORE (the same text embeds to the same vector).
  await db.query(
    `INSERT INTO embed_cache (model, text_hash, vector) SELECT $1, h, v FROM unnest($2::bytea[], $3::bytea[]) AS r(h, v)
     ON CONFLICT (model, text_hash) DO NOTHING`,
    [model, entries.map((e) => textHashKey(e.textHash)), entries.map((e) => encodeVector(e.vector))],
  );
}

/** (model, dimensions) → the build of its HNSW index by this pool (resolved once it is valid). */
const annBuilds = new WeakMap<pg.Pool, Map<string, Promise<void>>>();

function annIndexName(model: string, dimensions: number): string {
  // Index names are identifiers: a digest of the model name keeps any model name out of the DDL text.
  let h = 0x811c9dc5;
  for (const ch of `${model}\u0000${dimensions}`) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
  return `vectors_ann_${dimensions}_${h.toString(16)}`;
}

/**
 * Builds the HNSW index of one model and width unless it exists (once per pool; a failed build
 * is tried again on the next call): a partial expression index, so each model's vectors form a
 * graph of their own. CONCURRENTLY, so writers go on while it builds (it waits for transactions
 * older than itself to end); a session advisory lock lets one process build while others wait.
 */
export function buildAnnIndex(db: Db, model: string, dimensions: number): Promise<void> {
  const pool = poolOf(db);
  if (!pool) throw new CairnError(ERROR_CODES.INTERNAL, 'The HNSW index is built through the pool, not a client inside a transaction');
  const key = `${model}\u0000${dimensions}`;
  let builds = annBuilds.get(pool);
  if (!builds) annBuilds.set(pool, (builds = new Map()));
  let build = builds.get(key);
  if (!build) {
    builds.set(key, (build = createAnnIndex(pool, model, dimensions)));
    build.catch(() => builds.delete(key));
  }
  return build;
}

/** Gives rows written without an embedding (copied by cairn migrate) theirs, from their bytes. */
async function fillEmbeddings(pool: pg.Pool, model: string, dimensions: number): Promise<void> {
  for (;;) {
    const rows = (await pool.query<{ id: number; vector: Buffer }>(
      'SELECT id, vector FROM vectors WHERE model = $1 AND dim = $2 AND embedding IS NULL LIMIT 1000',
      [model, dimensions],
    )).rows;
    if (rows.length === 0) return;
    await pool.query(
      'UPDATE vectors v SET embedding = r.emb::halfvec FROM unnest($1::bigint[], $2::text[]) AS r(id, emb) WHERE v.id = r.id',
      [rows.map((r) => r.id), rows.map((r) => embeddingOf(r.vector, dimensions))],
    );
  }
}

async function createAnnIndex(pool: pg.Pool, model: string, dimensions: number): Promise<void> {
  const name = annIndexName(model, dimensions);
  await fillEmbeddings(pool, model, dimensions);
  // A connection of its own, not a pool slot: the build may wait minutes for older transactions.
  const client = new pg.Client(pool.options as pg.ClientConfig);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [WRITER_LOCK + 1, `${name}`]);
    try {
      const state = (await client.query<{ valid: boolean }>(
        'SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace',
        [name],
      )).rows[0];
      // A build that died half way leaves an invalid index behind: dropped and built again.
      if (state && !state.valid) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
      if (!state || !state.valid) {
        // pgvector's defaults (m 16, ef_construction 64), not the in-process graph's m 32 / 96: the
        // index is maintained on every insert, and m 32 cost 24 ms of server CPU per vector here
        // against 6.9 at m 16 (issue 26 report); recall comes back at query time (ef_search 256).
        await client.query(
          `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON vectors USING hnsw ((embedding::halfvec(${dimensions})) halfvec_cosine_ops)
           WITH (m = 16, ef_construction = 64) WHERE model = ${client.escapeLiteral(model)} AND dim = ${dimensions}`,
        );
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [WRITER_LOCK + 1, `${name}`]);
    }
  } finally {
    await client.end();
  }
}

/**
 * The k nearest vectors of a namespace by cosine distance, from the model's HNSW index. The first
 * call starts building the index in the background and is answered exactly (the same statement
 * without a valid index sorts the namespace's rows), as is every call until the build is done.
 * pgvector's iterative scan keeps reading the graph until k rows of this namespace are found,
 * so a small namespace beside a large one still gets k answers.
 */
export async function nearestVectors(db: Db, namespace: string, model: string, query: Float32Array, k: number): Promise<Array<{ seq: number; distance: number }>> {
  const dimensions = query.length;
  if (dimensions < 1 || dimensions > MAX_ANN_DIMENSIONS || k <= 0) return [];
  buildAnnIndex(db, model, dimensions).catch(() => undefined);
  const q = unitSql(query);
  if (q === null) return [];
  return transaction(db, async (c) => {
    // The in-process usearch graph's settings (search/vector-index.ts: M 32, 96 on add, 256 on search).
    await c.query(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(256, 2 * Math.trunc(k)))}`);
    await c.query('SET LOCAL hnsw.iterative_scan = strict_order');
    const rows = (await c.query<{ seq: number; distance: number }>(
      `SELECT entry_seq AS seq, (embedding::halfvec(${dimensions}) <=> $1::halfvec(${dimensions}))::float8 AS distance FROM vectors
       WHERE model = $2 AND dim = ${dimensions} AND namespace = $3
       ORDER BY embedding::halfvec(${dimensions}) <=> $1::halfvec(${dimensions}) LIMIT $4`,
      [q, model, namespace, Math.trunc(k)],
    )).rows;
    // The graph walk orders by its own rounding of the distance: nearest first by the one returned.
    return rows.sort((a, b) => a.distance - b.distance);
  });
}
