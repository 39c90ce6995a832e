// What search needs around a hit: the people who speak in a namespace (to tell "what does Dave
// like" from a turn that merely says "thanks Dave") and the turns next to a turn in its session.
import type { Database } from 'better-sqlite3';
import { stmt } from './statements.js';
import type { NeighbourTurns, SpeakerCount } from '../store.js';
import { turnFromRow, type TurnRow } from './rows.js';

export function speakers(db: Database, namespace: string): SpeakerCount[] {
  return stmt(db, 'SELECT name, turns FROM speakers WHERE namespace = ? ORDER BY turns DESC').all(namespace) as SpeakerCount[];
}

/** Counts the speakers of newly inserted turns; called inside the turns' transaction. */
export function countSpeakers(db: Database, namespace: string, names: ReadonlyMap<string, number>): void {
  const upsert = stmt(db, 'INSERT INTO speakers (namespace, name, turns) VALUES (?, ?, ?) ON CONFLICT (namespace, name) DO UPDATE SET turns = turns + excluded.turns');
  for (const [name, n] of names) upsert.run(namespace, name, n);
}

type Row = TurnRow & { seq: number; entry_seq: number | null; entry_bytes: number | null };

export function turnNeighbours(db: Database, namespace: string, turnIds: readonly string[], radius: number): NeighbourTurns[] {
  if (turnIds.length === 0) return [];
  // One query finds every anchor; each side is then one indexed range read.
  const anchors = stmt(db, 'SELECT id, seq, session_id FROM turns WHERE namespace = ? AND id IN (SELECT value FROM json_each(?))').all(namespace, JSON.stringify(turnIds)) as Array<{ id: string; seq: number; session_id: string }>;
  const byId = new Map(anchors.map((a) => [a.id, a]));
  const withEntry = `SELECT t.*, e.seq AS entry_seq, length(CAST(e.body AS BLOB)) AS entry_bytes FROM turns t LEFT JOIN entries e ON e.kind = 'turn' AND e.ref_id = t.id`;
  const before = stmt(db, `${withEntry} WHERE t.namespace = ? AND t.session_id = ? AND t.seq < ? ORDER BY t.seq DESC LIMIT ?`);
  const after = stmt(db, `${withEntry} WHERE t.namespace = ? AND t.session_id = ? AND t.seq > ? ORDER BY t.seq LIMIT ?`);
  const out: NeighbourTurns[] = [];
  const lift = (r: Row) => ({ turn: turnFromRow(r), entrySeq: r.entry_seq, entryBytes: r.entry_bytes });
  for (const id of turnIds) {
    const a = byId.get(id);
    if (!a) continue;
    const prev = (before.all(namespace, a.session_id, a.seq, radius) as Row[]).reverse().map(lift);
    const next = (after.all(namespace, a.session_id, a.seq, radius) as Row[]).map(lift);
    out.push({ turnId: id, before: prev, after: next });
  }
  return out;
}
