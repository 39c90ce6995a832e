// Raw turns (Layer 4), sources and checkpoints for SQLite. Turns and the checkpoint that covers
// them commit in one transaction: that is what makes capture exactly-once.
import type { Database } from 'better-sqlite3';
import { keysOf } from './keys.js';
import { stmt } from './statements.js';
import { newId } from '../../core/ids.js';
import type { NewTurn, Source, Turn } from '../../core/types.js';
import type { AddTurnsResult, CheckpointRecord, CheckpointState, TurnsCheckpoint } from '../store.js';
import { sourceFromRow, turnFromRow, type SourceRow, type TurnRow } from '../rows.js';
import { ensureNamespaceTx } from './namespaces.js';
import { countSpeakers } from './context.js';
import { crashPoint } from '../../core/crash-points.js';

/**
 * Whether a turn gets a vector: tool activity ("→ tool exec npm test", output excerpts) and turns
 * the judge called noise are found by their words alone; embedding them cost more than half of
 * the bundled model's time on agent transcripts and never helped a query.
 */
export function isEmbeddable(turnKind: unknown, category: string | null): boolean {
  return turnKind !== 'tool' && category !== 'noise';
}

export function addTurns(db: Database, turns: readonly NewTurn[], checkpoint: TurnsCheckpoint | undefined, now: string): AddTurnsResult {
  const insertTurn = stmt(db, 
    `INSERT INTO turns (id, namespace, source_id, session_id, message_id, role, speaker, text, ts, line, meta, created_at)
     VALUES (@id, @namespace, @source_id, @session_id, @message_id, @role, @speaker, @text, @ts, @line, @meta, @created_at)
     ON CONFLICT (namespace, session_id, message_id) DO NOTHING`,
  );
  const insertEntry = stmt(db, 
    `INSERT INTO entries (namespace, kind, ref_id, body, keys, time, category, importance, current, embed)
     VALUES (?, 'turn', ?, ?, ?, ?, NULL, NULL, 1, ?)`,
  );
  const result = db
    .transaction((): AddTurnsResult => {
      const inserted: Turn[] = [];
      let duplicates = 0;
      const seenNs = new Set<string>();
      const speakerCounts = new Map<string, Map<string, number>>();
      for (const t of turns) {
        if (!seenNs.has(t.namespace)) {
          ensureNamespaceTx(db, t.namespace, now);
          seenNs.add(t.namespace);
        }
        const turn: Turn = {
          id: newId('t', Date.parse(now)),
          namespace: t.namespace,
          sourceId: t.sourceId ?? null,
          sessionId: t.sessionId,
          messageId: t.messageId,
          role: t.role,
          speaker: t.speaker ?? null,
          text: t.text,
          timestamp: t.timestamp,
          line: t.line ?? null,
          createdAt: now,
          meta: t.meta ?? {},
        };
        const info = insertTurn.run({
          id: turn.id,
          namespace: turn.namespace,
          source_id: turn.sourceId,
          session_id: turn.sessionId,
          message_id: turn.messageId,
          role: turn.role,
          speaker: turn.speaker,
          text: turn.text,
          ts: turn.timestamp,
          line: turn.line,
          meta: JSON.stringify(turn.meta),
          created_at: now,
        });
        if (info.changes === 0) {
          duplicates++;
          continue;
        }
        const body = t.indexText ?? turn.text;
        insertEntry.run(turn.namespace, turn.id, body, keysOf(db, body), turn.timestamp, isEmbeddable(turn.meta.kind, null) ? 1 : 0);
        if (turn.speaker) {
          const counts = speakerCounts.get(turn.namespace) ?? new Map<string, number>();
          counts.set(turn.speaker, (counts.get(turn.speaker) ?? 0) + 1);
          speakerCounts.set(turn.namespace, counts);
        }
        inserted.push(turn);
      }
      for (const [ns, counts] of speakerCounts) countSpeakers(db, ns, counts);
      if (checkpoint) {
        const { state } = checkpoint;
        putCheckpoint(db, { ...checkpoint, state: typeof state === 'function' ? state({ inserted: inserted.length, duplicates }) : state }, now);
      }
      crashPoint('turns-before-commit');
      return { inserted, duplicates };
    })
    .immediate();
  crashPoint('turns-after-commit');
  return result;
}

export function getTurn(db: Database, namespace: string, id: string): Turn | null {
  const row = stmt(db, 'SELECT * FROM turns WHERE namespace = ? AND id = ?').get(namespace, id) as TurnRow | undefined;
  return row ? turnFromRow(row) : null;
}

/** The turns of `namespace` among `ids`, in the order asked, each once: one read through the unique id index. */
export function getTurns(db: Database, namespace: string, ids: readonly string[]): Turn[] {
  const asked = [...new Set(ids)];
  if (asked.length === 0) return [];
  // No namespace in the WHERE: with it the planner takes the namespace index and reads every turn of it.
  const rows = stmt(db, 'SELECT * FROM turns WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(asked)) as TurnRow[];
  const byId = new Map<string, Turn>();
  for (const r of rows) if (r.namespace === namespace) byId.set(r.id, turnFromRow(r));
  return asked.flatMap((id) => byId.get(id) ?? []);
}

export function turnsAfter(db: Database, namespace: string, afterSeq: number, limit: number): Array<{ seq: number; turn: Turn }> {
  const rows = stmt(db, 'SELECT * FROM turns WHERE namespace = ? AND seq > ? ORDER BY seq LIMIT ?').all(namespace, afterSeq, limit) as Array<TurnRow & { seq: number }>;
  return rows.map((r) => ({ seq: r.seq, turn: turnFromRow(r) }));
}

export function sourceTurnCounts(db: Database): Map<number, number> {
  const rows = stmt(db, 'SELECT source_id, COUNT(*) AS n FROM turns WHERE source_id IS NOT NULL GROUP BY source_id').all() as Array<{ source_id: number; n: number }>;
  return new Map(rows.map((r) => [r.source_id, r.n]));
}

export function addSource(db: Database, namespace: string, kind: string, path: string, options: Record<string, unknown>, now: string): Source {
  return db
    .transaction((): Source => {
      ensureNamespaceTx(db, namespace, now);
      stmt(db, 
        `INSERT INTO sources (namespace, kind, path, options, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (namespace, kind, path) DO UPDATE SET options = excluded.options`,
      ).run(namespace, kind, path, JSON.stringify(options), now);
      const row = stmt(db, 'SELECT * FROM sources WHERE namespace = ? AND kind = ? AND path = ?').get(namespace, kind, path) as SourceRow;
      return sourceFromRow(row);
    })
    .immediate();
}

export function listSources(db: Database, namespace?: string): Source[] {
  const rows = (
    namespace === undefined
      ? stmt(db, 'SELECT * FROM sources ORDER BY id').all()
      : stmt(db, 'SELECT * FROM sources WHERE namespace = ? ORDER BY id').all(namespace)
  ) as SourceRow[];
  return rows.map(sourceFromRow);
}

export function removeSource(db: Database, id: number): boolean {
  return stmt(db, 'DELETE FROM sources WHERE id = ?').run(id).changes > 0;
}

export function getCheckpoint(db: Database, sourceId: number, key: string): Record<string, unknown> | null {
  const row = stmt(db, 'SELECT state FROM checkpoints WHERE source_id = ? AND key = ?').get(sourceId, key) as { state: string } | undefined;
  return row ? (JSON.parse(row.state) as Record<string, unknown>) : null;
}

export function listCheckpoints(db: Database, sourceId: number): CheckpointRecord[] {
  const rows = stmt(db, 'SELECT key, state, updated_at FROM checkpoints WHERE source_id = ? ORDER BY key').all(sourceId) as Array<{ key: string; state: string; updated_at: string }>;
  return rows.map((r) => ({ key: r.key, state: JSON.parse(r.state) as Record<string, unknown>, updatedAt: r.updated_at }));
}

export function putCheckpoint(db: Database, cp: CheckpointState, now: string): void {
  stmt(db, 
    `INSERT INTO checkpoints (source_id, key, state, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (source_id, key) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
  ).run(cp.sourceId, cp.key, JSON.stringify(cp.state), now);
}
