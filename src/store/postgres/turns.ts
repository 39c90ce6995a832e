// Raw turns (Layer 4), sources and checkpoints for PostgreSQL. Turns and the checkpoint that covers
// them commit in one transaction: that is what makes capture exactly-once. Several daemons on
// several machines may store the same turns at once: a lock per namespace makes the later writer
// wait for the earlier one's commit, and the unique (namespace, session, message) key with ON
// CONFLICT DO NOTHING then counts those turns as duplicates; it never fails.
import { createHash } from '../../core/lazy-crypto.js';
import { newId } from '../../core/ids.js';
import { crashPoint } from '../../core/crash-points.js';
import type { NewTurn, Source, Turn } from '../../core/types.js';
import type { AddTurnsResult, CheckpointRecord, CheckpointState, TurnsCheckpoint } from '../store.js';
import { sourceFromRow, turnFromRow, type SourceRow, type TurnRow } from '../rows.js';
import { isEmbeddable } from '../sqlite/turns.js';
import { transaction, type Db } from './connect.js';
import { insertEntry } from './entry-terms.js';
import { ensureNamespace } from './namespaces.js';
import { countSpeakers } from './context.js';

/** The turns as stored (ids made here, as SQLite's backend makes them). */
function turnsToStore(turns: readonly NewTurn[], now: string): Turn[] {
  const ms = Date.parse(now);
  return turns.map((t) => ({
    id: newId('t', ms),
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
  }));
}

/**
 * Inserts the turns in the order given (their seqs follow it; of two equal keys in one batch the
 * first wins) in one statement; RETURNING names the ones that were new. A turn another writer
 * holds uncommitted makes this one wait for it, then skip it.
 */
async function insertNewTurns(db: Db, turns: readonly Turn[], now: string): Promise<Set<string>> {
  if (turns.length === 0) return new Set();
  const col = <T>(f: (t: Turn) => T): T[] => turns.map(f);
  const res = await db.query<{ id: string }>(
    `INSERT INTO turns (id, namespace, source_id, session_id, message_id, role, speaker, text, ts, line, meta, created_at)
     SELECT id, namespace, source_id, session_id, message_id, role, speaker, text, ts, line, meta, $12
     FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::int[], $11::text[])
       WITH ORDINALITY AS u(id, namespace, source_id, session_id, message_id, role, speaker, text, ts, line, meta, ord)
     ORDER BY ord
     ON CONFLICT (namespace, session_id, message_id) DO NOTHING
     RETURNING id`,
    [
      col((t) => t.id), col((t) => t.namespace), col((t) => t.sourceId), col((t) => t.sessionId), col((t) => t.messageId), col((t) => t.role),
      col((t) => t.speaker), col((t) => t.text), col((t) => t.timestamp), col((t) => t.line), col((t) => JSON.stringify(t.meta)), now,
    ],
  );
  return new Set(res.rows.map((r) => r.id));
}

/** A 64-bit advisory lock key per namespace; a collision only makes two namespaces' writers take turns. */
function turnsLockKey(namespace: string): bigint {
  return createHash('sha256').update(`turns\0${namespace}`).digest().readBigInt64BE(0);
}

/**
 * One writer of a namespace's turns at a time, until it commits (an advisory transaction lock per
 * namespace, taken in ascending key order). Two reasons:
 * - seqs then commit in order within a namespace, so a follower paging turnsAfter from its
 *   watermark (the realtime view) never passes a turn that commits later with a smaller seq;
 * - two writers adding overlapping turns in different orders would otherwise each wait for a
 *   turn the other inserted first, and PostgreSQL would abort one as a deadlock; now the later
 *   writer starts once the earlier committed and finds its turns there, as duplicates.
 * Writers of other namespaces never wait. (unnest emits the keys in array order, so the locks follow it.)
 */
async function lockNamespaces(db: Db, turns: readonly NewTurn[]): Promise<void> {
  const keys = [...new Set(turns.map((t) => turnsLockKey(t.namespace)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (keys.length === 0) return;
  await db.query('SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) AS k', [keys.map(String)]);
}

/**
 * Lock order, the same in every writer (so none can wait in a cycle): namespace turn locks,
 * namespace rows, turn keys (of namespaces already held), speaker rows (sorted), the checkpoint row.
 */
export async function addTurns(db: Db, turns: readonly NewTurn[], checkpoint: TurnsCheckpoint | undefined, now: string): Promise<AddTurnsResult> {
  const result = await transaction(db, async (c): Promise<AddTurnsResult> => {
    await lockNamespaces(c, turns);
    // Sorted, so two writers creating the same new namespaces wait for each other in one order.
    for (const namespace of [...new Set(turns.map((t) => t.namespace))].sort()) await ensureNamespace(c, namespace, now);
    const candidates = turnsToStore(turns, now);
    const fresh = await insertNewTurns(c, candidates, now);
    const inserted: Turn[] = [];
    const speakerCounts = new Map<string, Map<string, number>>();
    for (const [i, turn] of candidates.entries()) {
      if (!fresh.has(turn.id)) continue;
      const body = turns[i]!.indexText ?? turn.text;
      await insertEntry(c, { namespace: turn.namespace, kind: 'turn', refId: turn.id, body, time: turn.timestamp, category: null, importance: null, embed: isEmbeddable(turn.meta.kind, null) });
      if (turn.speaker) {
        const counts = speakerCounts.get(turn.namespace) ?? new Map<string, number>();
        counts.set(turn.speaker, (counts.get(turn.speaker) ?? 0) + 1);
        speakerCounts.set(turn.namespace, counts);
      }
      inserted.push(turn);
    }
    await countSpeakers(c, speakerCounts);
    const duplicates = turns.length - inserted.length;
    if (checkpoint) {
      const { state } = checkpoint;
      await putCheckpoint(c, { ...checkpoint, state: typeof state === 'function' ? state({ inserted: inserted.length, duplicates }) : state }, now);
    }
    crashPoint('turns-before-commit');
    return { inserted, duplicates };
  });
  crashPoint('turns-after-commit');
  return result;
}

export async function getTurn(db: Db, namespace: string, id: string): Promise<Turn | null> {
  const row = (await db.query<TurnRow>('SELECT * FROM turns WHERE namespace = $1 AND id = $2', [namespace, id])).rows[0];
  return row ? turnFromRow(row) : null;
}

/** The turns of `namespace` among `ids`, in the order asked, each once (no id holds U+0000: one that does is no turn). */
export async function getTurns(db: Db, namespace: string, ids: readonly string[]): Promise<Turn[]> {
  const asked = [...new Set(ids)].filter((id) => !id.includes('\u0000'));
  if (asked.length === 0) return [];
  const rows = (
    await db.query<TurnRow>(
      `SELECT t.* FROM unnest($2::text[]) WITH ORDINALITY AS a(id, ord)
       CROSS JOIN LATERAL (SELECT * FROM turns WHERE id = a.id AND namespace = $1 LIMIT 1) t
       ORDER BY a.ord`,
      [namespace, asked],
    )
  ).rows;
  return rows.map(turnFromRow);
}

export async function turnsAfter(db: Db, namespace: string, afterSeq: number, limit: number): Promise<Array<{ seq: number; turn: Turn }>> {
  const rows = (await db.query<TurnRow & { seq: number }>('SELECT * FROM turns WHERE namespace = $1 AND seq > $2 ORDER BY seq LIMIT $3', [namespace, afterSeq, limit])).rows;
  return rows.map((r) => ({ seq: r.seq, turn: turnFromRow(r) }));
}

export async function sourceTurnCounts(db: Db): Promise<Map<number, number>> {
  const rows = (await db.query<{ source_id: number; n: number }>('SELECT source_id, count(*) AS n FROM turns WHERE source_id IS NOT NULL GROUP BY source_id')).rows;
  return new Map(rows.map((r) => [r.source_id, r.n]));
}

export async function addSource(db: Db, namespace: string, kind: string, path: string, options: Record<string, unknown>, now: string): Promise<Source> {
  return transaction(db, async (c) => {
    await ensureNamespace(c, namespace, now);
    // One upsert: two hosts adding the same source at once get the same row.
    const row = (await c.query<SourceRow>(
      `INSERT INTO sources (namespace, kind, path, options, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (namespace, kind, path) DO UPDATE SET options = excluded.options
       RETURNING *`,
      [namespace, kind, path, JSON.stringify(options), now],
    )).rows[0]!;
    return sourceFromRow(row);
  });
}

export async function listSources(db: Db, namespace?: string): Promise<Source[]> {
  const rows = (namespace === undefined
    ? await db.query<SourceRow>('SELECT * FROM sources ORDER BY id')
    : await db.query<SourceRow>('SELECT * FROM sources WHERE namespace = $1 ORDER BY id', [namespace])).rows;
  return rows.map(sourceFromRow);
}

export async function removeSource(db: Db, id: number): Promise<boolean> {
  return ((await db.query('DELETE FROM sources WHERE id = $1', [id])).rowCount ?? 0) > 0;
}

export async function getCheckpoint(db: Db, sourceId: number, key: string): Promise<Record<string, unknown> | null> {
  const row = (await db.query<{ state: string }>('SELECT state FROM checkpoints WHERE source_id = $1 AND key = $2', [sourceId, key])).rows[0];
  return row ? (JSON.parse(row.state) as Record<string, unknown>) : null;
}

export async function listCheckpoints(db: Db, sourceId: number): Promise<CheckpointRecord[]> {
  const rows = (await db.query<{ key: string; state: string; updated_at: string }>('SELECT key, state, updated_at FROM checkpoints WHERE source_id = $1 ORDER BY key COLLATE "C"', [sourceId])).rows;
  return rows.map((r) => ({ key: r.key, state: JSON.parse(r.state) as Record<string, unknown>, updatedAt: r.updated_at }));
}

export async function putCheckpoint(db: Db, cp: CheckpointState, now: string): Promise<void> {
  await db.query(
    `INSERT INTO checkpoints (source_id, key, state, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (source_id, key) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
    [cp.sourceId, cp.key, JSON.stringify(cp.state), now],
  );
}
