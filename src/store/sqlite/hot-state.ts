// Hot state (SESSION-STATE.md's source of truth) for SQLite: one JSON object per namespace, merged
// key by key inside one immediate transaction so two writers never lose each other's fields.
import type { Database } from 'better-sqlite3';
import type { HotStateRecord } from '../store.js';
import { hotStateFromRow, type HotStateRow } from '../hot-state-rows.js';
import { ensureNamespaceTx } from './namespaces.js';
import { stmt } from './statements.js';

const fromRow = hotStateFromRow;

export function getHotState(db: Database, namespace: string): HotStateRecord | null {
  const row = stmt(db, 'SELECT namespace, state, updated_at FROM hot_state WHERE namespace = ?').get(namespace) as HotStateRow | undefined;
  return row ? fromRow(row) : null;
}

export function mergeHotState(db: Database, namespace: string, patch: Readonly<Record<string, unknown>>, now: string): HotStateRecord {
  return db
    .transaction(() => {
      ensureNamespaceTx(db, namespace, now);
      const current = getHotState(db, namespace)?.state ?? {};
      const next: Record<string, unknown> = { ...current };
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        next[key] = value;
      }
      stmt(
        db,
        `INSERT INTO hot_state (namespace, state, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (namespace) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
      ).run(namespace, JSON.stringify(next), now);
      return { namespace, state: next, updatedAt: now };
    })
    .immediate();
}
