// Namespace rows and per-namespace counts for SQLite.
import type { Database } from 'better-sqlite3';
import { stmt } from './statements.js';
import type { NamespaceStats } from '../../core/types.js';

/** Creates the namespace row if missing; call inside the caller's transaction. */
export function ensureNamespaceTx(db: Database, namespace: string, now: string): void {
  stmt(db, 'INSERT OR IGNORE INTO namespaces (id, created_at) VALUES (?, ?)').run(namespace, now);
}

export function namespaceStats(db: Database): NamespaceStats[] {
  // Each count is answered by an index alone (current = all − superseded), so status stays fast
  // at millions of rows.
  const rows = stmt(
    db,
    `SELECT n.id AS namespace,
        (SELECT COUNT(*) FROM memories m WHERE m.namespace = n.id) AS memories,
        (SELECT COUNT(*) FROM memories m WHERE m.namespace = n.id AND m.valid_to IS NOT NULL) AS superseded,
        (SELECT COUNT(*) FROM turns t WHERE t.namespace = n.id) AS turns,
        (SELECT COUNT(*) FROM entries e WHERE e.namespace = n.id AND e.kind = 'document') AS documents
       FROM namespaces n ORDER BY n.id`,
  ).all() as Array<Omit<NamespaceStats, 'currentMemories'> & { superseded: number }>;
  return rows.map(({ superseded, ...r }) => ({ ...r, currentMemories: r.memories - superseded }));
}
