// Memory persistence for SQLite as plain functions over a database handle. Each public operation
// is one immediate transaction: dedup check and insert cannot interleave with another process.
import type { Database } from 'better-sqlite3';
import { keysOf } from './keys.js';
import { stmt } from './statements.js';
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { dedupKey } from '../../core/text.js';
import type { Memory, NewMemory, Provenance } from '../../core/types.js';
import type { AddMemoryResult, ImportOutcome, MemoryFilter, SupersedeResult } from '../store.js';
import { memoryFromRow, type MemoryRow } from './rows.js';
import { ensureNamespaceTx } from './namespaces.js';

/** Provenance entries kept per memory: re-mentions add theirs until this cap. */
export const MAX_PROVENANCE = 20;

/**
 * What the index holds for a memory: its text, its tags, and the names of its entities the text
 * does not already spell ("Ana Souza" on a memory that says "Ana"), so a search for any of its
 * names finds it while the text a name came from stays byte for byte what it was.
 */
export function memoryEntryBody(m: Pick<Memory, 'text' | 'tags' | 'entities'>): string {
  const lower = m.text.toLowerCase();
  return [m.text, ...m.tags, ...m.entities.filter((e) => !lower.includes(e.toLowerCase()))].join('\n');
}

function insertEntry(db: Database, m: Memory): void {
  const body = memoryEntryBody(m);
  stmt(db, 
    `INSERT INTO entries (namespace, kind, ref_id, body, keys, time, category, importance, current, valid_to)
     VALUES (?, 'memory', ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(m.namespace, m.id, body, keysOf(db, body), m.eventTime ?? m.createdAt, m.category, m.importance, m.validTo === null ? 1 : 0, m.validTo);
}

function insertRow(db: Database, m: Memory): void {
  stmt(db, 
    `INSERT INTO memories (id, namespace, text, dedup_key, category, importance, tags, entities, event_time,
       created_at, updated_at, valid_from, valid_to, superseded_by, supersedes, mentions, provenance)
     VALUES (@id, @namespace, @text, @dedup_key, @category, @importance, @tags, @entities, @event_time,
       @created_at, @updated_at, @valid_from, @valid_to, @superseded_by, @supersedes, @mentions, @provenance)`,
  ).run({
    id: m.id,
    namespace: m.namespace,
    text: m.text,
    dedup_key: dedupKey(m.text),
    category: m.category,
    importance: m.importance,
    tags: JSON.stringify(m.tags),
    entities: JSON.stringify(m.entities),
    event_time: m.eventTime,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    valid_from: m.validFrom,
    valid_to: m.validTo,
    superseded_by: m.supersededBy,
    supersedes: m.supersedes,
    mentions: m.mentions,
    provenance: JSON.stringify(m.provenance),
  });
  insertEntry(db, m);
}

function buildMemory(input: NewMemory, now: string): Memory {
  return {
    id: newId('m', Date.parse(now)),
    namespace: input.namespace,
    text: input.text,
    category: input.category ?? 'note',
    importance: input.importance ?? 5,
    tags: [...new Set(input.tags ?? [])],
    entities: [...new Set(input.entities ?? [])],
    eventTime: input.eventTime ?? null,
    createdAt: now,
    updatedAt: now,
    validFrom: now,
    validTo: null,
    supersededBy: null,
    supersedes: null,
    mentions: 1,
    provenance: (input.provenance ?? []).slice(0, MAX_PROVENANCE),
  };
}

function currentDuplicate(db: Database, namespace: string, text: string): MemoryRow | undefined {
  return stmt(db, 'SELECT * FROM memories WHERE namespace = ? AND dedup_key = ? AND valid_to IS NULL')
    .get(namespace, dedupKey(text)) as MemoryRow | undefined;
}

/** Raises the mention count of an existing memory and merges what the re-mention brought. */
export function remention(db: Database, row: MemoryRow, input: Pick<NewMemory, 'tags' | 'provenance' | 'importance'>, now: string, count = 1): Memory {
  const existing = memoryFromRow(row);
  const tags = [...new Set([...existing.tags, ...(input.tags ?? [])])];
  const provenance: Provenance[] = [...existing.provenance, ...(input.provenance ?? [])].slice(0, MAX_PROVENANCE);
  const importance = Math.max(existing.importance, input.importance ?? 0);
  stmt(db, 
    `UPDATE memories SET mentions = mentions + ?, updated_at = ?, tags = ?, provenance = ?, importance = ? WHERE seq = ?`,
  ).run(count, now, JSON.stringify(tags), JSON.stringify(provenance), importance, row.seq);
  const body = memoryEntryBody({ ...existing, tags });
  stmt(db, `UPDATE entries SET body = ?, keys = ?, importance = ? WHERE kind = 'memory' AND ref_id = ?`).run(
    body,
    keysOf(db, body),
    importance,
    existing.id,
  );
  return { ...existing, tags, provenance, importance, mentions: existing.mentions + count, updatedAt: now };
}

/** Replaces the tags of a current memory (and its index body); null when there is none such. */
export function setTags(db: Database, namespace: string, id: string, tags: readonly string[], now: string): Memory | null {
  return db
    .transaction(() => {
      const row = stmt(db, 'SELECT * FROM memories WHERE namespace = ? AND id = ? AND valid_to IS NULL').get(namespace, id) as MemoryRow | undefined;
      if (!row) return null;
      const existing = memoryFromRow(row);
      const unique = [...new Set(tags)];
      stmt(db, 'UPDATE memories SET tags = ?, updated_at = ? WHERE seq = ?').run(JSON.stringify(unique), now, row.seq);
      const body = memoryEntryBody({ ...existing, tags: unique });
      stmt(db, `UPDATE entries SET body = ?, keys = ? WHERE kind = 'memory' AND ref_id = ?`).run(body, keysOf(db, body), existing.id);
      return { ...existing, tags: unique, updatedAt: now };
    })
    .immediate();
}

/** Adds one memory inside the caller's transaction (dedup included). */
export function addOne(db: Database, input: NewMemory, now: string): AddMemoryResult {
  ensureNamespaceTx(db, input.namespace, now);
  const dup = currentDuplicate(db, input.namespace, input.text);
  if (dup) return { memory: remention(db, dup, input, now), duplicate: true };
  const memory = buildMemory(input, now);
  insertRow(db, memory);
  return { memory, duplicate: false };
}

export function addMemory(db: Database, input: NewMemory, now: string): AddMemoryResult {
  return db.transaction(() => addOne(db, input, now)).immediate();
}

export function addMemories(db: Database, inputs: readonly NewMemory[], now: string): AddMemoryResult[] {
  return db.transaction(() => inputs.map((input) => addOne(db, input, now))).immediate();
}

export function getMemory(db: Database, namespace: string, id: string): Memory | null {
  const row = stmt(db, 'SELECT * FROM memories WHERE namespace = ? AND id = ?').get(namespace, id) as MemoryRow | undefined;
  return row ? memoryFromRow(row) : null;
}

export function listMemories(db: Database, filter: MemoryFilter): Memory[] {
  const where = ['namespace = @namespace'];
  if (!filter.includeSuperseded) where.push('valid_to IS NULL');
  if (filter.categories?.length) where.push(`category IN (${filter.categories.map((_, i) => `@c${i}`).join(', ')})`);
  if (filter.minImportance !== undefined) where.push('importance >= @minImportance');
  if (filter.since) where.push('COALESCE(event_time, created_at) >= @since');
  if (filter.until) where.push('COALESCE(event_time, created_at) <= @until');
  const params: Record<string, unknown> = {
    namespace: filter.namespace,
    minImportance: filter.minImportance,
    since: filter.since,
    until: filter.until,
    limit: filter.limit ?? 50,
    offset: filter.offset ?? 0,
  };
  filter.categories?.forEach((c, i) => (params[`c${i}`] = c));
  for (const key of Object.keys(params)) if (params[key] === undefined) delete params[key];
  const rows = stmt(db, `SELECT * FROM memories WHERE ${where.join(' AND ')} ORDER BY created_at DESC, seq DESC LIMIT @limit OFFSET @offset`)
    .all(params) as MemoryRow[];
  return rows.map(memoryFromRow);
}

export function supersedeMemory(db: Database, namespace: string, id: string, replacement: NewMemory, now: string): SupersedeResult {
  return db
    .transaction((): SupersedeResult => {
      const oldRow = stmt(db, 'SELECT * FROM memories WHERE namespace = ? AND id = ?').get(namespace, id) as MemoryRow | undefined;
      if (!oldRow) throw new CairnError(ERROR_CODES.NOT_FOUND, `No memory ${id} in namespace ${namespace}`);
      if (oldRow.valid_to !== null) {
        throw new CairnError(ERROR_CODES.CONFLICT, `Memory ${id} was already superseded by ${oldRow.superseded_by}; supersede that one instead`, {
          supersededBy: oldRow.superseded_by,
        });
      }
      if (dedupKey(replacement.text) === oldRow.dedup_key) {
        throw new CairnError(ERROR_CODES.INVALID_INPUT, `The new text is the same statement as memory ${id}; nothing to supersede`);
      }
      const previous = memoryFromRow(oldRow);
      const dup = currentDuplicate(db, namespace, replacement.text);
      const current = dup
        ? remention(db, dup, replacement, now)
        : {
            ...buildMemory(
              {
                ...replacement,
                category: replacement.category ?? previous.category,
                importance: replacement.importance ?? previous.importance,
                tags: replacement.tags ?? previous.tags,
                entities: replacement.entities ?? previous.entities,
              },
              now,
            ),
            supersedes: previous.id,
          };
      if (!dup) insertRow(db, current);
      stmt(db, 'UPDATE memories SET valid_to = ?, superseded_by = ?, updated_at = ? WHERE seq = ?').run(now, current.id, now, oldRow.seq);
      stmt(db, `UPDATE entries SET current = 0, valid_to = ? WHERE kind = 'memory' AND ref_id = ?`).run(now, previous.id);
      return { previous: { ...previous, validTo: now, supersededBy: current.id, updatedAt: now }, current };
    })
    .immediate();
}

export function memoryHistory(db: Database, namespace: string, id: string): Memory[] {
  const byId = stmt(db, 'SELECT * FROM memories WHERE namespace = ? AND id = ?');
  const start = byId.get(namespace, id) as MemoryRow | undefined;
  if (!start) return [];
  const seen = new Set<string>([start.id]);
  const older: Memory[] = [];
  let cursor: MemoryRow | undefined = start;
  while (cursor?.supersedes && !seen.has(cursor.supersedes)) {
    seen.add(cursor.supersedes);
    cursor = byId.get(namespace, cursor.supersedes) as MemoryRow | undefined;
    if (cursor) older.unshift(memoryFromRow(cursor));
  }
  const newer: Memory[] = [];
  cursor = start;
  while (cursor?.superseded_by && !seen.has(cursor.superseded_by)) {
    seen.add(cursor.superseded_by);
    cursor = byId.get(namespace, cursor.superseded_by) as MemoryRow | undefined;
    if (cursor) newer.push(memoryFromRow(cursor));
  }
  return [...older, memoryFromRow(start), ...newer];
}

export function* exportMemories(db: Database, namespace: string, pageSize = 500): Generator<Memory> {
  let after = 0;
  const page = stmt(db, 'SELECT * FROM memories WHERE namespace = ? AND seq > ? ORDER BY seq LIMIT ?');
  for (;;) {
    const rows = page.all(namespace, after, pageSize) as MemoryRow[];
    if (rows.length === 0) return;
    for (const row of rows) yield memoryFromRow(row);
    after = rows[rows.length - 1]!.seq;
  }
}

export function importMemory(db: Database, memory: Memory): ImportOutcome {
  return db
    .transaction((): ImportOutcome => {
      if (stmt(db, 'SELECT 1 FROM memories WHERE id = ?').get(memory.id)) return 'exists';
      ensureNamespaceTx(db, memory.namespace, memory.createdAt);
      if (memory.validTo === null) {
        const dup = currentDuplicate(db, memory.namespace, memory.text);
        if (dup) {
          remention(db, dup, memory, new Date().toISOString(), memory.mentions);
          return 'merged';
        }
      }
      insertRow(db, memory);
      return 'imported';
    })
    .immediate();
}
