// Namespace rows and per-namespace counts for SQLite.
import type { Database } from 'better-sqlite3';
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import { stmt } from './statements.js';
import type { NamespaceStats } from '../../core/types.js';
import { rekeyDigestsTx } from './digests.js';

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

export function namespaceIds(db: Database): string[] {
  return stmt(db, 'SELECT id FROM namespaces ORDER BY id').pluck().all() as string[];
}

/**
 * Moves every record of namespace `from` to `to`, which must not exist yet, in one transaction:
 * every table with a `namespace` column (found from the schema, so tables added later are moved
 * too), the ids of its digests (a function of namespace and path) and the grant lists of API
 * tokens. False when `from` no longer exists (another process renamed it first).
 */
export function renameNamespace(db: Database, from: string, to: string): boolean {
  return db
    .transaction(() => {
      if (!stmt(db, 'SELECT 1 FROM namespaces WHERE id = ?').get(from)) return false;
      if (stmt(db, 'SELECT 1 FROM namespaces WHERE id = ?').get(to)) {
        throw new CairnError(ERROR_CODES.CONFLICT, `Cannot rename namespace "${from}" to "${to}": "${to}" exists already`);
      }
      stmt(db, 'INSERT INTO namespaces (id, created_at) SELECT ?, created_at FROM namespaces WHERE id = ?').run(to, from);
      const tables = db
        .prepare("SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c ON c.name = 'namespace' WHERE m.type = 'table' AND m.name <> 'namespaces'")
        .pluck()
        .all() as string[];
      for (const table of tables) db.prepare(`UPDATE "${table.replace(/"/g, '""')}" SET namespace = ? WHERE namespace = ?`).run(to, from);
      rekeyDigestsTx(db, to);
      const grants = db.prepare('SELECT id, namespaces FROM api_tokens').all() as Array<{ id: string; namespaces: string }>;
      for (const g of grants) {
        let list: unknown;
        try {
          list = JSON.parse(g.namespaces);
        } catch {
          continue; // a damaged grant list grants nothing (tokens.ts); it stays as it is
        }
        if (Array.isArray(list) && list.includes(from)) {
          db.prepare('UPDATE api_tokens SET namespaces = ? WHERE id = ?').run(JSON.stringify(list.map((n) => (n === from ? to : n))), g.id);
        }
      }
      stmt(db, 'DELETE FROM namespaces WHERE id = ?').run(from);
      return true;
    })
    .immediate();
}
