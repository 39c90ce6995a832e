// The purge audit (purge_log), cached embeddings of purged texts, and scrubbing the tables so that
// what a purge removed cannot be read back from the relation files.
import type pg from 'pg';
import type { PurgeRecord } from '../purge.js';
import { purgeFromRow, type PurgeRow } from '../purge-log-rows.js';
import { textHashKey } from '../text-hash-key.js';
import { pgCode, poolOf, transaction, type Db } from './connect.js';

export async function startPurge(db: Db, entry: { namespace: string | null; via: string; rule: Record<string, unknown> }, now: string): Promise<PurgeRecord> {
  const { rows } = await db.query<PurgeRow>('INSERT INTO purge_log (started_at, namespace, via, rule) VALUES ($1, $2, $3, $4) RETURNING *', [now, entry.namespace, entry.via, JSON.stringify(entry.rule)]);
  return purgeFromRow(rows[0]!);
}

/** store_meta key: the id of the purge whose finish committed last (see lastPurgeId). */
const LAST_FINISHED = 'purge.last_finished';

export async function finishPurge(db: Db, id: number, result: Record<string, unknown>, now: string): Promise<void> {
  await transaction(db, async (c) => {
    const done = await c.query('UPDATE purge_log SET finished_at = $1, result = $2 WHERE id = $3', [now, JSON.stringify(result), id]);
    if (!done.rowCount) return;
    // One row every finisher writes: each waits for the previous one's commit (its row lock), so
    // the row names the purge that committed its finish last.
    await c.query(
      'INSERT INTO store_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [LAST_FINISHED, String(id)],
    );
  });
}

export async function listPurges(db: Db, limit: number): Promise<PurgeRecord[]> {
  return (await db.query<PurgeRow>('SELECT * FROM purge_log ORDER BY id DESC LIMIT $1', [limit])).rows.map(purgeFromRow);
}

/**
 * The purge that finished last: its changes are all committed when other processes see it. A
 * process holding derived data (vector indexes) drops it whenever this changes, so it must change
 * with every finish: with purges 5 and 6 running at once and 6 finishing first, "the highest
 * finished id" would stay 6 when 5 finishes and its removals would go unnoticed. The id of the
 * last finish (LAST_FINISHED) moves to 5 instead. A store that never finished a purge here (one
 * migrated from SQLite) has no such row: its highest finished id stands in.
 */
/**
 * Store.changeMark: the server's current snapshot as text (xmin:xmax:in-progress ids). A writing
 * transaction holds a transaction id: one that began after a mark was read makes xmax larger, one
 * in progress then leaves the in-progress list once it ends, so a write committed since the last
 * mark always changes it. Reads take no id and leave it. Server-wide (other schemas' writes change
 * it too), so it may change with nothing written here: a reader then asks what changed, as before.
 */
export async function changeMark(db: Db): Promise<string> {
  return (await db.query<{ mark: string }>('SELECT pg_current_snapshot()::text AS mark')).rows[0]!.mark;
}

export async function lastPurgeId(db: Db): Promise<number> {
  return (await db.query<{ id: number }>(
    `SELECT COALESCE((SELECT value::bigint FROM store_meta WHERE key = $1 AND value ~ '^[0-9]{1,18}$'),
                     (SELECT MAX(id) FROM purge_log WHERE finished_at IS NOT NULL), 0)::bigint AS id`,
    [LAST_FINISHED],
  )).rows[0]!.id;
}

/** Forgets cached embeddings of these texts: cache rows, and the hash on vector rows made of them (as SQLite's). */
export async function dropCachedVectors(db: Db, hashes: readonly string[]): Promise<number> {
  if (hashes.length === 0) return 0;
  const keys = [...new Set(hashes)].map(textHashKey);
  return transaction(db, async (c) => {
    let dropped = 0;
    for (let i = 0; i < keys.length; i += 5000) {
      const chunk = keys.slice(i, i + 5000);
      dropped += (await c.query('UPDATE vectors SET text_hash = NULL WHERE text_hash = ANY($1::bytea[])', [chunk])).rowCount ?? 0;
      dropped += (await c.query('DELETE FROM embed_cache WHERE text_hash = ANY($1::bytea[])', [chunk])).rowCount ?? 0;
    }
    return dropped;
  });
}

/**
 * Every table a purge or a rewrite deletes or rewrites text (or what was made of text: vectors,
 * cached embeddings) in.
 */
export const SCRUBBED_TABLES = [
  'turns', 'speakers', 'memories', 'judgments', 'feedback', 'entries', 'vectors', 'embed_cache', 'documents', 'digests',
  'digest_sources', 'hot_state', 'entities', 'entity_aliases', 'entity_mentions', 'facts',
] as const;

/**
 * How long scrub waits for older transactions to end, and for each table's lock. Well above
 * deadlock_timeout (1 s by default): autovacuum working on a table yields its lock to a waiter only
 * after that, and the scrub should not give up first.
 */
export const SCRUB_WAIT_MS = 10_000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** store_meta key: the newest transaction that deleted or rewrote text for a purge (an xid8). */
const PURGE_XID = 'purge.last_xid';

/**
 * Notes the calling transaction as one that removed text (purge-records.ts, purge-text.ts), so
 * scrub knows which snapshots it must outlive. The row is taken by each purge write in turn; the
 * newest xid stays, unless the one there is not this cluster's (garbage, or ahead of it).
 */
export async function notePurgeWrite(c: Db): Promise<void> {
  await c.query(
    `INSERT INTO store_meta (key, value) VALUES ($1, pg_current_xact_id()::text)
     ON CONFLICT (key) DO UPDATE SET value = CASE
       WHEN store_meta.value !~ '^[0-9]{1,20}$' THEN excluded.value
       WHEN store_meta.value::numeric > excluded.value::numeric
        AND store_meta.value::numeric < pg_snapshot_xmax(pg_current_snapshot())::text::numeric THEN store_meta.value
       ELSE excluded.value END`,
    [PURGE_XID],
  );
}

/** Purge writes older than this many transactions are long past every snapshot (and age()'s window). */
const XID_WINDOW = 1_000_000_000;

/**
 * The newest purge write of this store, or null: none, one that old, or one noted by another
 * cluster (a schema restored or copied here, cairn migrate), whose xid means nothing in this one.
 */
async function lastPurgeWrite(client: pg.PoolClient): Promise<string | null> {
  const { rows } = await client.query<{ x: string | null }>(
    `SELECT CASE WHEN value !~ '^[0-9]{1,20}$' THEN NULL WHEN value::numeric < m.xmax AND value::numeric > m.xmax - $2 THEN value END AS x
     FROM store_meta, (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::numeric AS xmax) m WHERE key = $1`,
    [PURGE_XID, XID_WINDOW],
  );
  return rows[0]?.x ?? null;
}

/**
 * How many holders in the cluster can still see row versions that transaction `xid` deleted:
 * another session's snapshot or open transaction at least as old, a prepared transaction, a
 * replication slot (a standby with hot_standby_feedback). VACUUM keeps every row version such a
 * holder may still read, so scrubbing before they are gone would leave the text in place. As for
 * VACUUM's own horizon, snapshots in other databases of the cluster and plain VACUUMs do not count;
 * a transaction still running anywhere in the cluster does, since every new snapshot (VACUUM
 * FULL's own among them) starts at the oldest running one. `age()` compares
 * xids in the 32-bit window VACUUM itself uses (a larger age is older).
 */
async function olderSnapshots(client: pg.PoolClient, xid: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM pg_stat_activity
               WHERE pid <> pg_backend_pid() AND pid NOT IN (SELECT pid FROM pg_stat_progress_vacuum)
                 AND (age(backend_xid) >= age(xid($1::xid8))
                      OR ((datname = current_database() OR backend_type = 'walsender') AND age(backend_xmin) >= age(xid($1::xid8)))))
          + (SELECT count(*) FROM pg_prepared_xacts WHERE age(transaction) >= age(xid($1::xid8)))
          + (SELECT count(*) FROM pg_replication_slots WHERE (database IS NULL OR database = current_database()) AND age(xmin) >= age(xid($1::xid8))) AS n`,
    [xid],
  );
  return rows[0]!.n;
}

/**
 * Deleted and updated rows stay in their pages until VACUUM, and even plain VACUUM only marks their
 * space free: the bytes stay in the heap, TOAST and index pages (the GIN index of the entries'
 * words, B-tree keys such as a speaker's name or an alias) until reused, and ANALYZE's samples in
 * pg_statistic may quote them. So scrub rewrites each table that holds text with VACUUM (FULL,
 * ANALYZE): a new file of the live rows only, indexes rebuilt, the old files truncated, statistics
 * sampled again.
 *
 * The trade-off: VACUUM FULL holds an ACCESS EXCLUSIVE lock on each table while it copies it and
 * rebuilds its indexes (reads and writes of that table wait) and needs room for a second copy;
 * plain VACUUM would block nothing but leaves the text readable from the files (pg-purge.test.ts
 * shows both), which is what a purge exists to prevent. Measured by bench/pg-scrub.ts on 50k
 * entries (25k memories, 25k turns, 50k 384-dimension vectors with their HNSW index, 185 MB) on a
 * loaded 2-core machine: 52 s wall, 9.4 s of server CPU, of which vectors 43 s (the HNSW index is
 * built again), entries 4.7 s, memories and turns 1.8 s each, the rest under 0.2 s; plain VACUUM
 * (ANALYZE) of the same tables: 4.0 s, 1.1 s CPU. Vectors hold no text but embeddings of it (which
 * can be inverted to approximate text), so they are rewritten too, as SQLite's VACUUM does. Each
 * table is done alone (never a lock on all of them at once) with a lock timeout, so a long reader
 * delays one table, not the whole store; a table whose lock is not granted is skipped and reported.
 *
 * `complete` is false when a table could not be rewritten or when a transaction as old as the
 * last purge write (whose snapshot may still see the removed rows, so VACUUM must keep them) did
 * not end within SCRUB_WAIT_MS: run it again later. Out of reach from SQL, and the operator's: the
 * write-ahead log until its segments are recycled, WAL archives, base backups and replicas.
 *
 * VACUUM cannot run inside a transaction: it gets a client of its own in autocommit, which is
 * closed afterwards rather than returned to the pool with its session settings.
 */
export async function scrub(db: Db, options: { waitMs?: number; lockTimeoutMs?: number } = {}): Promise<{ complete: boolean }> {
  const wait = options.waitMs ?? SCRUB_WAIT_MS;
  const lockTimeout = options.lockTimeoutMs ?? wait;
  const pool = poolOf(db);
  if (!pool) throw new Error('scrub needs the pool: VACUUM cannot run inside a transaction');
  const client = await pool.connect();
  let complete = true;
  try {
    await client.query(`SET lock_timeout = ${Math.max(1, Math.round(lockTimeout))}`);
    const purged = await lastPurgeWrite(client);
    const until = Date.now() + wait;
    while (purged !== null && (await olderSnapshots(client, purged)) > 0) {
      if (Date.now() >= until) {
        complete = false;
        break;
      }
      await sleep(50);
    }
    // VACUUM skips a table this role may not vacuum (it owns neither the table nor the database)
    // with only a warning: that is not a scrub.
    const tables = new Map((await client.query<{ t: string; may: boolean }>(
      `SELECT c.relname AS t, pg_has_role(c.relowner, 'USAGE') OR pg_has_role(d.datdba, 'USAGE') AS may
       FROM pg_class c JOIN pg_database d ON d.datname = current_database()
       WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'`,
    )).rows.map((r) => [r.t, r.may]));
    for (const table of SCRUBBED_TABLES) {
      if (!tables.has(table)) continue;
      if (!tables.get(table)) {
        complete = false;
        continue;
      }
      try {
        await client.query(`VACUUM (FULL, ANALYZE) ${table}`);
      } catch (err) {
        if (pgCode(err) !== '55P03') throw err; // lock_not_available: a long transaction holds the table
        complete = false;
      }
    }
  } finally {
    client.release(true);
  }
  return { complete };
}
