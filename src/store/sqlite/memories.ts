// Memory reads for SQLite as plain functions over a database handle. Writes go through the memory
// unit (memory-unit.ts) under the rules of src/memory/remember.ts.
import type { Database } from 'better-sqlite3';
import { stmt } from './statements.js';
import type { Memory } from '../../core/types.js';
import type { MemoryFilter } from '../store.js';
import { memoryFromRow, type MemoryRow } from '../rows.js';

/**
 * What the index holds for a memory: its text, its tags, and the names of its entities the text
 * does not already spell ("Ana Souza" on a memory that says "Ana"), so a search for any of its
 * names finds it while the text a name came from stays byte for byte what it was.
 */
export function memoryEntryBody(m: Pick<Memory, 'text' | 'tags' | 'entities'>): string {
  const lower = m.text.toLowerCase();
  return [m.text, ...m.tags, ...m.entities.filter((e) => !lower.includes(e.toLowerCase()))].join('\n');
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
