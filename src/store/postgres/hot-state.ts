// Hot state (SESSION-STATE.md's source of truth) for PostgreSQL: one JSON object per namespace,
// merged key by key. Writers on other connections run at the same time: the row is locked (FOR
// UPDATE after an INSERT ... ON CONFLICT DO NOTHING made sure it exists) while the merge is
// read and written, so two writers never lose each other's fields.
import type { HotStateRecord } from '../store.js';
import { hotStateFromRow, type HotStateRow } from '../hot-state-rows.js';
import { transaction, type Db } from './connect.js';
import { ensureNamespace } from './namespaces.js';

const fromRow = hotStateFromRow;

export async function getHotState(db: Db, namespace: string): Promise<HotStateRecord | null> {
  const row = (await db.query<HotStateRow>('SELECT namespace, state, updated_at FROM hot_state WHERE namespace = $1', [namespace])).rows[0];
  return row ? fromRow(row) : null;
}

export function mergeHotState(db: Db, namespace: string, patch: Readonly<Record<string, unknown>>, now: string): Promise<HotStateRecord> {
  return transaction(db, async (c) => {
    await ensureNamespace(c, namespace, now);
    await c.query("INSERT INTO hot_state (namespace, state, updated_at) VALUES ($1, '{}', $2) ON CONFLICT (namespace) DO NOTHING", [namespace, now]);
    const row = (await c.query<HotStateRow>('SELECT namespace, state, updated_at FROM hot_state WHERE namespace = $1 FOR UPDATE', [namespace])).rows[0];
    const next: Record<string, unknown> = { ...(row ? fromRow(row).state : {}) };
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      next[key] = value;
    }
    await c.query('UPDATE hot_state SET state = $2, updated_at = $3 WHERE namespace = $1', [namespace, JSON.stringify(next), now]);
    return { namespace, state: next, updatedAt: now };
  });
}
