// Memory reads for PostgreSQL as plain async functions over a pool or client. Writes go through
// the memory unit (memory-unit.ts) under the rules of src/memory/remember.ts.
import type { Memory } from '../../core/types.js';
import type { MemoryFilter } from '../store.js';
import { memoryFromRow, type MemoryRow } from '../rows.js';
import type { Db } from './connect.js';

export async function getMemory(db: Db, namespace: string, id: string): Promise<Memory | null> {
  const row = (await db.query<MemoryRow>('SELECT * FROM memories WHERE namespace = $1 AND id = $2', [namespace, id])).rows[0];
  return row ? memoryFromRow(row) : null;
}

export async function listMemories(db: Db, filter: MemoryFilter): Promise<Memory[]> {
  const params: unknown[] = [filter.namespace];
  const where = ['namespace = $1'];
  const bind = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  if (!filter.includeSuperseded) where.push('valid_to IS NULL');
  if (filter.categories?.length) where.push(`category = ANY(${bind([...filter.categories])}::text[])`);
  if (filter.minImportance !== undefined) where.push(`importance >= ${bind(filter.minImportance)}`);
  if (filter.since) where.push(`COALESCE(event_time, created_at) >= ${bind(filter.since)}`);
  if (filter.until) where.push(`COALESCE(event_time, created_at) <= ${bind(filter.until)}`);
  const limit = bind(filter.limit ?? 50);
  const offset = bind(filter.offset ?? 0);
  const rows = await db.query<MemoryRow>(`SELECT * FROM memories WHERE ${where.join(' AND ')} ORDER BY created_at DESC, seq DESC LIMIT ${limit} OFFSET ${offset}`, params);
  return rows.rows.map(memoryFromRow);
}

/** The supersede chain through `id`, oldest first; a damaged chain that loops is followed once. */
export async function memoryHistory(db: Db, namespace: string, id: string): Promise<Memory[]> {
  const byId = async (memoryId: string): Promise<MemoryRow | undefined> =>
    (await db.query<MemoryRow>('SELECT * FROM memories WHERE namespace = $1 AND id = $2', [namespace, memoryId])).rows[0];
  const start = await byId(id);
  if (!start) return [];
  const seen = new Set<string>([start.id]);
  const older: Memory[] = [];
  let cursor: MemoryRow | undefined = start;
  while (cursor?.supersedes && !seen.has(cursor.supersedes)) {
    seen.add(cursor.supersedes);
    cursor = await byId(cursor.supersedes);
    if (cursor) older.unshift(memoryFromRow(cursor));
  }
  const newer: Memory[] = [];
  cursor = start;
  while (cursor?.superseded_by && !seen.has(cursor.superseded_by)) {
    seen.add(cursor.superseded_by);
    cursor = await byId(cursor.superseded_by);
    if (cursor) newer.push(memoryFromRow(cursor));
  }
  return [...older, memoryFromRow(start), ...newer];
}

// exportMemories pages by seq within one export and keeps no cursor beyond it: a memory that
// commits during an export with a lower seq than one already written is one that committed after
// the export began, as any later memory is; the next export has it.
/** Every memory of the namespace, superseded included, oldest first, a page of `pageSize` per query. */
export async function* exportMemories(db: Db, namespace: string, pageSize = 500): AsyncGenerator<Memory> {
  let after = 0;
  for (;;) {
    const rows = (await db.query<MemoryRow>('SELECT * FROM memories WHERE namespace = $1 AND seq > $2 ORDER BY seq LIMIT $3', [namespace, after, pageSize])).rows;
    if (rows.length === 0) return;
    for (const row of rows) yield memoryFromRow(row);
    after = rows[rows.length - 1]!.seq;
  }
}
