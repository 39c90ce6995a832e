// The memory-writing primitives (store/memory-unit.ts) for SQLite, and the unit of work they run
// in: BEGIN IMMEDIATE takes the file's write lock for the whole unit, so another process cannot
// interleave; the partial unique index memories_current_dedup still refuses a second current copy.
// A unit spans awaits, and a better-sqlite3 connection has one transaction: every operation of
// every SqliteStore in this process waits for an open unit (unit-gate.ts) instead of joining it,
// or blocking the event loop on a lock the unit holds.
import type { Database } from 'better-sqlite3';
import { dedupKey } from '../../core/text.js';
import type { Memory } from '../../core/types.js';
import { MemoryKeyConflict, type JudgmentTarget, type MemoryFields, type MemoryUnit } from '../memory-unit.js';
import type { JudgmentInput } from '../records.js';
import { keysOf } from './keys.js';
import { memoryEntryBody } from './memories.js';
import { ensureNamespaceTx } from './namespaces.js';
import { mapSqliteError } from './open.js';
import { memoryFromRow, type MemoryRow } from '../rows.js';
import { stmt } from './statements.js';
import { isEmbeddable } from './turns.js';
import { exclusive } from './unit-gate.js';

function insertEntry(db: Database, m: Memory): void {
  const body = memoryEntryBody(m);
  stmt(db,
    `INSERT INTO entries (namespace, kind, ref_id, body, keys, time, category, importance, current, valid_to)
     VALUES (?, 'memory', ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(m.namespace, m.id, body, keysOf(db, body), m.eventTime ?? m.createdAt, m.category, m.importance, m.validTo === null ? 1 : 0, m.validTo);
}

function isCurrentKeyClash(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e.code === 'SQLITE_CONSTRAINT_UNIQUE' && /memories\.namespace, memories\.dedup_key/.test(e.message ?? '');
}

export function insertMemory(db: Database, m: Memory): void {
  const key = dedupKey(m.text);
  try {
    stmt(db,
      `INSERT INTO memories (id, namespace, text, dedup_key, category, importance, tags, entities, event_time,
         created_at, updated_at, valid_from, valid_to, superseded_by, supersedes, mentions, provenance)
       VALUES (@id, @namespace, @text, @dedup_key, @category, @importance, @tags, @entities, @event_time,
         @created_at, @updated_at, @valid_from, @valid_to, @superseded_by, @supersedes, @mentions, @provenance)`,
    ).run({
      id: m.id, namespace: m.namespace, text: m.text, dedup_key: key, category: m.category, importance: m.importance,
      tags: JSON.stringify(m.tags), entities: JSON.stringify(m.entities), event_time: m.eventTime, created_at: m.createdAt,
      updated_at: m.updatedAt, valid_from: m.validFrom, valid_to: m.validTo, superseded_by: m.supersededBy, supersedes: m.supersedes,
      mentions: m.mentions, provenance: JSON.stringify(m.provenance),
    });
  } catch (err) {
    if (isCurrentKeyClash(err)) throw new MemoryKeyConflict(m.namespace, key, { cause: err });
    throw err;
  }
  insertEntry(db, m);
}

function rowById(db: Database, namespace: string, id: string): MemoryRow | undefined {
  return stmt(db, 'SELECT * FROM memories WHERE namespace = ? AND id = ?').get(namespace, id) as MemoryRow | undefined;
}

/** Writes the fields onto the memory row and mirrors what the index holds of them onto its entry. */
export function updateMemoryFields(db: Database, namespace: string, id: string, fields: MemoryFields): void {
  const row = rowById(db, namespace, id);
  if (!row) return;
  const sets: string[] = [];
  const params: Record<string, unknown> = { seq: row.seq };
  const put = (column: string, value: unknown): void => {
    sets.push(`${column} = @${column}`);
    params[column] = value;
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
  stmt(db, `UPDATE memories SET ${sets.join(', ')} WHERE seq = @seq`).run(params);
  const entry = `UPDATE entries SET %s WHERE kind = 'memory' AND ref_id = ?`;
  if (fields.tags !== undefined) {
    const body = memoryEntryBody({ text: row.text, tags: fields.tags, entities: JSON.parse(row.entities) as string[] });
    stmt(db, entry.replace('%s', 'body = ?, keys = ?')).run(body, keysOf(db, body), id);
  }
  if (fields.importance !== undefined) stmt(db, entry.replace('%s', 'importance = ?')).run(fields.importance, id);
  if (fields.category !== undefined) stmt(db, entry.replace('%s', 'category = ?')).run(fields.category, id);
  if (fields.validTo !== undefined) stmt(db, entry.replace('%s', 'current = 0, valid_to = ?')).run(fields.validTo, id);
}

function unitOver(db: Database): MemoryUnit {
  const now = <T>(fn: () => T): Promise<T> => Promise.resolve(fn());
  return {
    ensureNamespace: (namespace, at) => now(() => ensureNamespaceTx(db, namespace, at)),
    currentByKey: (namespace, key) =>
      now(() => {
        const row = stmt(db, 'SELECT * FROM memories WHERE namespace = ? AND dedup_key = ? AND valid_to IS NULL').get(namespace, key) as MemoryRow | undefined;
        return row ? memoryFromRow(row) : null;
      }),
    memoryById: (namespace, id) =>
      now(() => {
        const row = rowById(db, namespace, id);
        return row ? memoryFromRow(row) : null;
      }),
    memoryIdTaken: (id) => now(() => stmt(db, 'SELECT 1 FROM memories WHERE id = ?').get(id) !== undefined),
    insertMemory: (memory) => now(() => insertMemory(db, memory)),
    updateMemory: (namespace, id, fields) => now(() => updateMemoryFields(db, namespace, id, fields)),
    // The entry follows even when the memory is no longer current (what the judge path always did).
    updateCurrentMemory: (namespace, id, fields) =>
      now(() => {
        stmt(db, 'UPDATE memories SET importance = ?, category = ?, updated_at = ? WHERE namespace = ? AND id = ? AND valid_to IS NULL')
          .run(fields.importance, fields.category, fields.updatedAt, namespace, id);
        stmt(db, "UPDATE entries SET importance = ?, category = ? WHERE kind = 'memory' AND ref_id = ?").run(fields.importance, fields.category, id);
      }),
    judgmentTarget: (turnId) => now(() => judgmentTarget(db, turnId)),
    putJudgment: (target, item, memoryId, at) => now(() => putJudgment(db, target, item, memoryId, at)),
  };
}

function judgmentTarget(db: Database, turnId: string): JudgmentTarget | null {
  const turn = stmt(db, 'SELECT seq, namespace FROM turns WHERE id = ?').get(turnId) as { seq: number; namespace: string } | undefined;
  if (!turn) return null;
  const previous = stmt(db, 'SELECT memory_id FROM judgments WHERE turn_id = ?').pluck().get(turnId) as string | null | undefined;
  return { turnId, namespace: turn.namespace, seq: turn.seq, memoryId: previous ?? null };
}

function putJudgment(db: Database, target: JudgmentTarget, item: JudgmentInput, memoryId: string | null, now: string): void {
  stmt(db,
    `INSERT INTO judgments (turn_id, namespace, turn_seq, importance, category, judge, reason, statement, memory_id, needs_rejudge, judged_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (turn_id) DO UPDATE SET importance = excluded.importance, category = excluded.category, judge = excluded.judge,
       reason = excluded.reason, statement = excluded.statement, memory_id = excluded.memory_id,
       needs_rejudge = excluded.needs_rejudge, judged_at = excluded.judged_at`,
  ).run(target.turnId, target.namespace, target.seq, item.importance, item.category, item.judge, item.reason, item.statement, memoryId, item.needsRejudge ? 1 : 0, now);
  const kind = stmt(db, "SELECT json_extract(meta, '$.kind') FROM turns WHERE id = ?").pluck().get(target.turnId);
  stmt(db, "UPDATE entries SET importance = ?, category = ?, embed = ? WHERE kind = 'turn' AND ref_id = ?")
    .run(item.importance, item.category, isEmbeddable(kind, item.category) ? 1 : 0, target.turnId);
}

/** Runs `fn` over the primitives in one immediate transaction: committed when it resolves, rolled back when it throws. */
export function runMemoryUnit<T>(db: Database, path: string, fn: (unit: MemoryUnit) => Promise<T>): Promise<T> {
  return exclusive(async () => {
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (err) {
      throw mapSqliteError(err, path);
    }
    try {
      const result = await fn(unitOver(db));
      db.exec('COMMIT');
      return result;
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw mapSqliteError(err, path);
    }
  });
}
