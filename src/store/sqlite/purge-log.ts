// The purge audit (purge_log), cached embeddings of purged texts, and scrubbing the database files
// so that what a purge removed cannot be read back from free pages, old keyword-index segments or
// the write-ahead log.
import type { Database } from 'better-sqlite3';
import type { PurgeRecord } from '../purge.js';
import { purgeFromRow, type PurgeRow } from '../purge-log-rows.js';
import { textHashKey } from '../text-hash-key.js';
import { stmt } from './statements.js';

export function startPurge(db: Database, entry: { namespace: string | null; via: string; rule: Record<string, unknown> }, now: string): PurgeRecord {
  const info = stmt(db, 'INSERT INTO purge_log (started_at, namespace, via, rule) VALUES (?, ?, ?, ?)').run(now, entry.namespace, entry.via, JSON.stringify(entry.rule));
  return purgeFromRow(stmt(db, 'SELECT * FROM purge_log WHERE id = ?').get(info.lastInsertRowid) as PurgeRow);
}

/** store_meta key: the id of the purge whose finish committed last (see lastPurgeId). */
const LAST_FINISHED = 'purge.last_finished';

export function finishPurge(db: Database, id: number, result: Record<string, unknown>, now: string): void {
  db.transaction(() => {
    const done = stmt(db, 'UPDATE purge_log SET finished_at = ?, result = ? WHERE id = ?').run(now, JSON.stringify(result), id);
    if (done.changes === 0) return;
    stmt(db, 'INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(LAST_FINISHED, String(id));
  }).immediate();
}

export function listPurges(db: Database, limit: number): PurgeRecord[] {
  return (stmt(db, 'SELECT * FROM purge_log ORDER BY id DESC LIMIT ?').all(limit) as PurgeRow[]).map(purgeFromRow);
}

/**
 * The purge that finished last: its changes are all committed when other processes see it. A
 * process holding derived data (vector indexes) drops it whenever this changes, so it must change
 * with every finish: with purges 5 and 6 running at once and 6 finishing first, "the highest
 * finished id" would stay 6 when 5 finishes and its removals would go unnoticed. The id of the
 * last finish moves to 5 instead. A home whose purges all finished before this row existed has
 * none: its highest finished id stands in.
 */
export function lastPurgeId(db: Database): number {
  return (stmt(db, `SELECT COALESCE((SELECT CAST(value AS INTEGER) FROM store_meta WHERE key = ? AND value GLOB '[0-9]*'),
                                    (SELECT MAX(id) FROM purge_log WHERE finished_at IS NOT NULL), 0)`).pluck().get(LAST_FINISHED) as number) ?? 0;
}

/**
 * Forgets cached embeddings of these texts: their cache rows, and the text hash of vector rows
 * made of them (the rows stay: an entry that is not purged keeps its vector, but the cache no
 * longer knows the text). Returns how many of either.
 */
export function dropCachedVectors(db: Database, hashes: readonly string[]): number {
  let dropped = 0;
  const keys = [...new Set(hashes)].map(textHashKey);
  db.transaction(() => {
    for (let i = 0; i < keys.length; i += 500) {
      const chunk = keys.slice(i, i + 500);
      const list = chunk.map(() => '?').join(',');
      dropped += stmt(db, `UPDATE vectors SET text_hash = NULL WHERE text_hash IN (${list})`).run(...chunk).changes;
      dropped += stmt(db, `DELETE FROM embed_cache WHERE text_hash IN (${list})`).run(...chunk).changes;
    }
  }).immediate();
  return dropped;
}

/**
 * Deleted rows leave their bytes in free space, superseded keyword-index segments keep the words
 * of deleted texts until merged, and the write-ahead log keeps old page images until it is reset.
 * So: merge the keyword index into one segment, rebuild the file from its live rows (VACUUM), then
 * checkpoint and truncate the log. The log stays when another connection still reads an older
 * snapshot (it is reset when that reader is done): `complete` says whether it was emptied.
 */
export function scrub(db: Database): { complete: boolean } {
  stmt(db, "INSERT INTO entries_fts(entries_fts) VALUES ('optimize')").run();
  db.exec('VACUUM');
  const [row] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; log: number; checkpointed: number }>;
  return { complete: row !== undefined && row.busy === 0 && row.log <= 0 };
}
