// The neighbour lookup as it was before issue 29 (one query per side per anchor, the anchor query
// on the namespace index): kept callable so the transcript bench times the new lookup against it
// in the same run, and the tests check that both return the same turns (entry bytes asked for).
import type { Database } from 'better-sqlite3';
import type { NeighbourTurns, Store } from '../src/store/store.js';
import type { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { turnFromRow, type TurnRow } from '../src/store/rows.js';
import { conversational } from '../src/search/neighbours.js';

type Row = TurnRow & { seq: number; entry_seq: number | null; entry_bytes: number | null };

export function baselineTurnNeighbours(db: Database, namespace: string, turnIds: readonly string[], radius: number): NeighbourTurns[] {
  if (turnIds.length === 0) return [];
  const anchors = db.prepare('SELECT id, seq, session_id FROM turns WHERE namespace = ? AND id IN (SELECT value FROM json_each(?))').all(namespace, JSON.stringify(turnIds)) as Array<{ id: string; seq: number; session_id: string }>;
  const byId = new Map(anchors.map((a) => [a.id, a]));
  const withEntry = `SELECT t.*, e.seq AS entry_seq, length(CAST(e.body AS BLOB)) AS entry_bytes FROM turns t LEFT JOIN entries e ON e.kind = 'turn' AND e.ref_id = t.id`;
  const before = db.prepare(`${withEntry} WHERE t.namespace = ? AND t.session_id = ? AND t.seq < ? ORDER BY t.seq DESC LIMIT ?`);
  const after = db.prepare(`${withEntry} WHERE t.namespace = ? AND t.session_id = ? AND t.seq > ? ORDER BY t.seq LIMIT ?`);
  const out: NeighbourTurns[] = [];
  const lift = (r: Row) => ({ id: r.id, text: r.text, conversational: conversational(turnFromRow(r)), entrySeq: r.entry_seq, entryBytes: r.entry_bytes });
  for (const id of turnIds) {
    const a = byId.get(id);
    if (!a) continue;
    const prev = (before.all(namespace, a.session_id, a.seq, radius) as Row[]).reverse().map(lift);
    const next = (after.all(namespace, a.session_id, a.seq, radius) as Row[]).map(lift);
    out.push({ turnId: id, before: prev, after: next });
  }
  return out;
}

/** The store with its neighbour lookup swapped for the baseline one (everything else its own). */
export function withBaselineNeighbours(store: SqliteStore): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'turnNeighbours') {
        return (namespace: string, turnIds: readonly string[], radius: number) => Promise.resolve(baselineTurnNeighbours(target.db, namespace, turnIds, radius));
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as Store;
}
