// The hot state row ↔ record, shared by the SQLite and PostgreSQL backends.
import type { HotStateRecord } from './store.js';

export interface HotStateRow {
  namespace: string;
  state: string;
  updated_at: string;
}

export function hotStateFromRow(r: HotStateRow): HotStateRecord {
  let state: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(r.state);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) state = parsed as Record<string, unknown>;
  } catch {
    // A damaged row reads as empty state rather than failing every session start.
  }
  return { namespace: r.namespace, state, updatedAt: r.updated_at };
}
