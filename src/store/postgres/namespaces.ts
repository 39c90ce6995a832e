// Namespace rows and per-namespace counts for PostgreSQL.
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import { digestId } from '../../core/ids.js';
import type { NamespaceStats } from '../../core/types.js';
import { pgCode, PG, transaction, type Db } from './connect.js';

/** Creates the namespace row if missing (joins the caller's transaction when given a client). */
export async function ensureNamespace(db: Db, namespace: string, now: string): Promise<void> {
  await db.query('INSERT INTO namespaces (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [namespace, now]);
}

// Namespace ids sort COLLATE "C" (byte order, as SQLite's BINARY), whatever the database's locale.
export async function namespaceStats(db: Db): Promise<NamespaceStats[]> {
  // Each count is answered by an index alone (current = all − superseded), as in SQLite.
  const rows = (await db.query<Omit<NamespaceStats, 'currentMemories'> & { superseded: number }>(
    `SELECT n.id AS namespace,
        (SELECT count(*) FROM memories m WHERE m.namespace = n.id) AS memories,
        (SELECT count(*) FROM memories m WHERE m.namespace = n.id AND m.valid_to IS NOT NULL) AS superseded,
        (SELECT count(*) FROM turns t WHERE t.namespace = n.id) AS turns,
        (SELECT count(*) FROM entries e WHERE e.namespace = n.id AND e.kind = 'document') AS documents
       FROM namespaces n ORDER BY n.id COLLATE "C"`,
  )).rows;
  return rows.map(({ superseded, ...r }) => ({ ...r, currentMemories: r.memories - superseded }));
}

export async function namespaceIds(db: Db): Promise<string[]> {
  return (await db.query<{ id: string }>('SELECT id FROM namespaces ORDER BY id COLLATE "C"')).rows.map((r) => r.id);
}

function quoted(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/**
 * Each digest of `namespace` takes the id of its new (namespace, path), so the id stays a function
 * of both and the old name can be used again; digest_sources follow by ON UPDATE CASCADE, the
 * digest's section entries (ref_id `<digest id>#<section>`) are moved here.
 */
async function rekeyDigests(db: Db, namespace: string): Promise<void> {
  const rows = (await db.query<{ id: string; path: string }>('SELECT id, path FROM digests WHERE namespace = $1', [namespace])).rows;
  for (const r of rows) {
    const id = digestId(namespace, r.path);
    if (id === r.id) continue;
    await db.query('UPDATE digests SET id = $1 WHERE id = $2', [id, r.id]);
    await db.query("UPDATE entries SET ref_id = $1 || substr(ref_id, strpos(ref_id, '#')) WHERE kind = 'digest' AND starts_with(ref_id, $2)", [id, `${r.id}#`]);
  }
}

/**
 * Moves every record of namespace `from` to `to`, which must not exist yet, in one transaction:
 * every table of the schema with a `namespace` column (found from the catalogue, so tables added
 * later are moved too; ON UPDATE CASCADE on namespaces(id) would miss the tables without a
 * foreign key: speakers, llm_usage, judgments, vectors, entity_aliases, entity_mentions,
 * purge_log), the ids of its digests and the grant lists of API tokens. False when `from` no
 * longer exists. The `from` row is locked FOR UPDATE first: a second rename waits and then finds
 * it gone, and a writer inserting into a table that references it waits and then fails its
 * foreign key instead of leaving rows behind under the old name.
 */
export function renameNamespace(db: Db, from: string, to: string): Promise<boolean> {
  return transaction(db, async (c) => {
    if ((await c.query('SELECT 1 FROM namespaces WHERE id = $1 FOR UPDATE', [from])).rowCount === 0) return false;
    const conflict = (cause?: unknown): CairnError =>
      new CairnError(ERROR_CODES.CONFLICT, `Cannot rename namespace "${from}" to "${to}": "${to}" exists already`, undefined, cause ? { cause } : undefined);
    if ((await c.query('SELECT 1 FROM namespaces WHERE id = $1', [to])).rowCount! > 0) throw conflict();
    try {
      await c.query('INSERT INTO namespaces (id, created_at) SELECT $1, created_at FROM namespaces WHERE id = $2', [to, from]);
    } catch (err) {
      if (pgCode(err) === PG.UNIQUE) throw conflict(err); // another writer created it meanwhile
      throw err;
    }
    const tables = (await c.query<{ table_name: string }>(
      `SELECT c.table_name FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = current_schema() AND c.column_name = 'namespace' AND t.table_type = 'BASE TABLE' AND c.table_name <> 'namespaces'
        ORDER BY c.table_name`,
    )).rows.map((r) => r.table_name);
    for (const table of tables) await c.query(`UPDATE ${quoted(table)} SET namespace = $1 WHERE namespace = $2`, [to, from]);
    await rekeyDigests(c, to);
    const grants = (await c.query<{ id: string; namespaces: string }>('SELECT id, namespaces FROM api_tokens FOR UPDATE')).rows;
    for (const g of grants) {
      let list: unknown;
      try {
        list = JSON.parse(g.namespaces);
      } catch {
        continue; // a damaged grant list grants nothing (tokens.ts); it stays as it is
      }
      if (Array.isArray(list) && list.includes(from)) {
        await c.query('UPDATE api_tokens SET namespaces = $1 WHERE id = $2', [JSON.stringify(list.map((n: unknown) => (n === from ? to : n))), g.id]);
      }
    }
    await c.query('DELETE FROM namespaces WHERE id = $1', [from]);
    return true;
  });
}
