// The memory-writing primitives (store/memory-unit.ts) for PostgreSQL, and the unit of work they
// run in: one transaction on one pooled client at READ COMMITTED. Where SQLite's unit holds the
// file's write lock, writers here on other connections and machines run at the same time, so:
// - currentByKey and memoryById lock the row they return (FOR UPDATE) until the unit ends: a
//   second re-mention waits and then reads the mentions the first wrote; a second supersede of
//   the same memory waits and then sees it retired (and is refused);
// - two writers that both read "no current memory" both insert: the partial unique index
//   memories_current_dedup lets the first commit and fails the other, which rejects with
//   MemoryKeyConflict so remember.ts runs its unit again (and re-mentions instead);
// - memoryIdTaken takes an advisory lock on the id, so two imports of one record take turns;
// - judgmentTarget locks the turn (FOR NO KEY UPDATE: judges of one turn take turns, inserts
//   referencing it are not blocked), so one turn never makes two memories.
import pg from 'pg';
import { dedupKey } from '../../core/text.js';
import type { Memory } from '../../core/types.js';
import { MemoryKeyConflict, type JudgmentTarget, type MemoryFields, type MemoryUnit } from '../memory-unit.js';
import type { JudgmentInput } from '../records.js';
import { memoryFromRow, type MemoryRow } from '../rows.js';
import { memoryEntryBody } from '../sqlite/memories.js';
import { isEmbeddable } from '../sqlite/turns.js';
import { pgCode, PG, transaction, type Db } from './connect.js';
import { insertEntry, setEntryBody } from './entry-terms.js';
import { writerCte } from './follow.js';
import { ensureNamespace } from './namespaces.js';

const CURRENT_KEY_INDEX = 'memories_current_dedup';

function isCurrentKeyClash(err: unknown): boolean {
  return pgCode(err) === PG.UNIQUE && (err as { constraint?: string }).constraint === CURRENT_KEY_INDEX;
}

/** Inserts the memory verbatim and its index entry; a second current copy of its statement rejects with MemoryKeyConflict. */
export async function insertMemory(db: Db, m: Memory): Promise<void> {
  const key = dedupKey(m.text);
  try {
    // Registered as a writer of the namespace's memories first (follow.ts: memoriesAfter never passes it before it commits).
    await db.query(
      `WITH ${writerCte('memories', '$2')}
       INSERT INTO memories (id, namespace, text, dedup_key, category, importance, tags, entities, event_time,
         created_at, updated_at, valid_from, valid_to, superseded_by, supersedes, mentions, provenance)
       SELECT $1, $2, $3, $4, $5, $6::int, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::int, $17 FROM follow_writer`,
      [
        m.id, m.namespace, m.text, key, m.category, m.importance, JSON.stringify(m.tags), JSON.stringify(m.entities), m.eventTime,
        m.createdAt, m.updatedAt, m.validFrom, m.validTo, m.supersededBy, m.supersedes, m.mentions, JSON.stringify(m.provenance),
      ],
    );
  } catch (err) {
    if (isCurrentKeyClash(err)) throw new MemoryKeyConflict(m.namespace, key, { cause: err });
    throw err;
  }
  await insertEntry(db, {
    namespace: m.namespace,
    kind: 'memory',
    refId: m.id,
    body: memoryEntryBody(m),
    time: m.eventTime ?? m.createdAt,
    category: m.category,
    importance: m.importance,
    current: m.validTo === null,
    validTo: m.validTo,
  });
}

async function rowById(db: Db, namespace: string, id: string, lock: boolean): Promise<MemoryRow | undefined> {
  const sql = `SELECT * FROM memories WHERE namespace = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`;
  return (await db.query<MemoryRow>(sql, [namespace, id])).rows[0];
}

/** Writes the fields onto the memory row and mirrors what the index holds of them onto its entry. */
export async function updateMemoryFields(db: Db, namespace: string, id: string, fields: MemoryFields): Promise<void> {
  const row = await rowById(db, namespace, id, false);
  if (!row) return;
  const sets: string[] = [];
  const params: unknown[] = [row.seq];
  const put = (column: string, value: unknown): void => {
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  if (fields.mentions !== undefined) put('mentions', fields.mentions);
  if (fields.updatedAt !== undefined) put('updated_at', fields.updatedAt);
  if (fields.tags !== undefined) put('tags', JSON.stringify(fields.tags));
  if (fields.provenance !== undefined) put('provenance', JSON.stringify(fields.provenance));
  if (fields.importance !== undefined) put('importance', fields.importance);
  if (fields.category !== undefined) put('category', fields.category);
  if (fields.validTo !== undefined) put('valid_to', fields.validTo);
  if (fields.supersededBy !== undefined) put('superseded_by', fields.supersededBy);
  if (fields.supersedes !== undefined) put('supersedes', fields.supersedes);
  if (sets.length === 0) return;
  await db.query(`UPDATE memories SET ${sets.join(', ')} WHERE seq = $1`, params);

  const entrySets: string[] = [];
  const entryParams: unknown[] = [id];
  const putEntry = (assignment: string, value: unknown): void => {
    entryParams.push(value);
    entrySets.push(assignment.replace('?', `$${entryParams.length}`));
  };
  if (fields.importance !== undefined) putEntry('importance = ?', fields.importance);
  if (fields.category !== undefined) putEntry('category = ?', fields.category);
  if (fields.validTo !== undefined) putEntry('current = 0, valid_to = ?', fields.validTo);
  if (entrySets.length > 0) await db.query(`UPDATE entries SET ${entrySets.join(', ')} WHERE kind = 'memory' AND ref_id = $1`, entryParams);
  if (fields.tags !== undefined) {
    const entry = (await db.query<{ seq: number }>("SELECT seq FROM entries WHERE kind = 'memory' AND ref_id = $1", [id])).rows[0];
    if (entry) await setEntryBody(db, entry.seq, memoryEntryBody({ text: row.text, tags: fields.tags, entities: JSON.parse(row.entities) as string[] }));
  }
}

async function judgmentTarget(db: Db, turnId: string): Promise<JudgmentTarget | null> {
  const turn = (await db.query<{ seq: number; namespace: string }>('SELECT seq, namespace FROM turns WHERE id = $1 FOR NO KEY UPDATE', [turnId])).rows[0];
  if (!turn) return null;
  const previous = (await db.query<{ memory_id: string | null }>('SELECT memory_id FROM judgments WHERE turn_id = $1', [turnId])).rows[0];
  return { turnId, namespace: turn.namespace, seq: turn.seq, memoryId: previous?.memory_id ?? null };
}

/** The `kind` of a turn's meta (tool activity, ...); a damaged meta has none. */
function turnKind(meta: string | undefined): unknown {
  try {
    const parsed: unknown = JSON.parse(meta ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as { kind?: unknown }).kind : undefined;
  } catch {
    return undefined;
  }
}

async function putJudgment(db: Db, target: JudgmentTarget, item: JudgmentInput, memoryId: string | null, now: string): Promise<void> {
  await db.query(
    `INSERT INTO judgments (turn_id, namespace, turn_seq, importance, category, judge, reason, statement, memory_id, needs_rejudge, judged_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (turn_id) DO UPDATE SET importance = excluded.importance, category = excluded.category, judge = excluded.judge,
       reason = excluded.reason, statement = excluded.statement, memory_id = excluded.memory_id,
       needs_rejudge = excluded.needs_rejudge, judged_at = excluded.judged_at`,
    [target.turnId, target.namespace, target.seq, item.importance, item.category, item.judge, item.reason, item.statement, memoryId, item.needsRejudge ? 1 : 0, now],
  );
  const meta = (await db.query<{ meta: string }>('SELECT meta FROM turns WHERE id = $1', [target.turnId])).rows[0]?.meta;
  await db.query("UPDATE entries SET importance = $1, category = $2, embed = $3 WHERE kind = 'turn' AND ref_id = $4", [
    item.importance,
    item.category,
    isEmbeddable(turnKind(meta), item.category) ? 1 : 0,
    target.turnId,
  ]);
}

function unitOver(db: Db): MemoryUnit {
  return {
    ensureNamespace: (namespace, at) => ensureNamespace(db, namespace, at),
    currentByKey: async (namespace, key) => {
      const row = (await db.query<MemoryRow>('SELECT * FROM memories WHERE namespace = $1 AND dedup_key = $2 AND valid_to IS NULL FOR UPDATE', [namespace, key])).rows[0];
      return row ? memoryFromRow(row) : null;
    },
    memoryById: async (namespace, id) => {
      const row = await rowById(db, namespace, id, true);
      return row ? memoryFromRow(row) : null;
    },
    // An import asks before it writes: two imports of one record at once must not both find it
    // missing (the second would then merge it into itself). The lock on the id makes the second
    // wait for the first's commit; its next statement then sees the row.
    memoryIdTaken: async (id) => {
      await db.query("SELECT pg_advisory_xact_lock(hashtext('cairn.memory-id'), hashtext($1))", [id]);
      return ((await db.query('SELECT 1 FROM memories WHERE id = $1', [id])).rowCount ?? 0) > 0;
    },
    insertMemory: (memory) => insertMemory(db, memory),
    updateMemory: (namespace, id, fields) => updateMemoryFields(db, namespace, id, fields),
    // The entry follows even when the memory is no longer current (what the judge path always did).
    updateCurrentMemory: async (namespace, id, fields) => {
      await db.query('UPDATE memories SET importance = $1, category = $2, updated_at = $3 WHERE namespace = $4 AND id = $5 AND valid_to IS NULL', [
        fields.importance,
        fields.category,
        fields.updatedAt,
        namespace,
        id,
      ]);
      await db.query("UPDATE entries SET importance = $1, category = $2 WHERE kind = 'memory' AND ref_id = $3", [fields.importance, fields.category, id]);
    },
    judgmentTarget: (turnId) => judgmentTarget(db, turnId),
    putJudgment: (target, item, memoryId, at) => putJudgment(db, target, item, memoryId, at),
  };
}

/** Runs of a unit PostgreSQL chose as a deadlock's victim before the error reaches the caller. */
const DEADLOCK_ATTEMPTS = 3;

/**
 * Runs `fn` over the primitives in one transaction on one pooled client: committed when it
 * resolves, rolled back when it throws. Two units locking the same memories in opposite orders
 * (batches of re-mentions, or inserts of each other's statements) deadlock; PostgreSQL rolls one
 * back, and that one runs again from the start (units are re-runnable: remember.ts retries them
 * on a key race too), which SQLite's single writer never needed.
 */
export async function runMemoryUnit<T>(db: Db, fn: (unit: MemoryUnit) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction(db, (client) => fn(unitOver(client)));
    } catch (err) {
      // Only a transaction of our own can run again; inside the caller's, its whole transaction is lost.
      const retry = db instanceof pg.Pool && (pgCode(err) === PG.DEADLOCK || pgCode(err) === PG.SERIALIZATION);
      if (!retry || attempt >= DEADLOCK_ATTEMPTS) throw err;
    }
  }
}
