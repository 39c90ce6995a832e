// Purge audit rows (purge_log) ↔ records, shared by the SQLite and PostgreSQL backends (same columns).
import type { PurgeRecord } from './purge.js';

export interface PurgeRow {
  id: number;
  started_at: string;
  finished_at: string | null;
  namespace: string | null;
  via: string;
  rule: string;
  result: string | null;
}

/** A JSON object column; a damaged or non-object value reads as null. */
function object(json: string | null): Record<string, unknown> | null {
  if (json === null) return null;
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function purgeFromRow(r: PurgeRow): PurgeRecord {
  return { id: r.id, startedAt: r.started_at, finishedAt: r.finished_at, namespace: r.namespace, via: r.via, rule: object(r.rule) ?? {}, result: object(r.result) };
}
