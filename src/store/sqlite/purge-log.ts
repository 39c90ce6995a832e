// The purge audit (purge_log), cached embeddings of purged texts, and scrubbing the database files
// so that what a purge removed cannot be read back from free pages, old keyword-index segments or
// the write-ahead log.
import type { Database } from 'better-sqlite3';
import type { PurgeRecord } from '../purge.js';
import { purgeFromRow, type PurgeRow } from '../purge-log-rows.js';
import { stmt } from './statements.js';

export function startPurge(db: Database, entry: { namespace: string | null; via: string; rule: Record<string, unknown> }, now: string): PurgeRecord {
  const info = stmt(db, 'INSERT INTO purge_log (started_at, namespace, via, rule) VALUES (?, ?, ?, ?)').run(now, entry.namespace, entry.via, JSON.stringify(entry.rule));
  return purgeFromRow(stmt(db, 'SELECT * FROM purge_log WHERE id = ?').get(info.lastInsertRowid) as PurgeRow);
}

export function finishPurge(db: Database, id: number, result: Record<string, unknown>, now: string): void {
  stmt(db, 'UPDATE purge_log SET finished_at = ?, result = ? WHERE id = ?').run(now, JSON.stringify(result), id);
}

export function listPurges(db: Database, limit: number): PurgeRecord[] {
  return (stmt(db, 'SELECT * FROM purge_log ORDER BY id DESC LIMIT ?').all(limit) as PurgeRow[]).map(purgeFromRow);
}

/** The newest finished purge: its changes are all committed when other processes see it. */
export function lastPurgeId(db: Database): number {
  return (stmt(db, 'SELECT COALESCE(MAX(id), 0) FROM purge_log WHERE finished_at IS NOT NULL').pluck().get() as number) ?? 0;
}

export function dropCachedVectors(db: Database, hashes: readonly string[]): number {
  let dropped = 0;
  db.transaction(() => {
    for (let i = 0; i < hashes.length; i += 500) {
      const chunk = hashes.slice(i, i + 500);
      dropped += stmt(db, `DELETE FROM embed_cache WHERE text_hash IN (${chunk.map(() => '?').join(',')})`).run(...chunk).changes;
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
