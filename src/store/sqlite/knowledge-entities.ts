// Entities and facts as read back from SQLite (store.ts listEntities, getEntity, listFacts, …), and a
// person's fix to entities (editEntities). An entity's counts are never stored: they are added up
// from its mentions over the memories table, so a re-mention, a merge or a purge can never leave
// them stale.
import type { Database } from 'better-sqlite3';
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import type { Entity, EntityType, Fact } from '../../core/types.js';
import { ENTITY_REF_COLUMNS, entityFromRow, entityRefFromRow, entityStatsFromRow, factFromRow, KEY_RANGE_END, rowLimit, type EntityRow, type FactRow, type StatsRow } from '../entity-rows.js';
import type { EntityEdit, EntityListFilter, EntityRef, EntityWithStats, FactFilter } from '../store.js';
import { setMemoryEntities } from './knowledge.js';
import { stmt } from './statements.js';

/** Display names per entity, in the order they were learned. */
function aliasesOf(db: Database, ids: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const rows = stmt(db, 'SELECT entity_id, display FROM entity_aliases WHERE entity_id IN (SELECT value FROM json_each(?)) ORDER BY rowid').all(JSON.stringify(ids)) as Array<{
    entity_id: string;
    display: string;
  }>;
  for (const r of rows) out.set(r.entity_id, [...(out.get(r.entity_id) ?? []), r.display]);
  return out;
}

function entitiesFromRows<R extends EntityRow>(db: Database, rows: readonly R[]): Array<{ row: R; entity: Entity }> {
  const aliases = aliasesOf(db, rows.map((r) => r.id));
  return rows.map((row) => ({
    row,
    entity: entityFromRow(row, aliases.get(row.id) ?? []),
  }));
}

export function entitiesByAliasKeys(db: Database, namespace: string, keys: readonly string[]): Map<string, Entity> {
  const rows = stmt(
    db,
    `SELECT a.key AS alias_key, e.* FROM entity_aliases a JOIN entities e ON e.id = a.entity_id
     WHERE a.namespace = ? AND a.key IN (SELECT value FROM json_each(?))`,
  ).all(namespace, JSON.stringify([...new Set(keys)])) as Array<EntityRow & { alias_key: string }>;
  return new Map(entitiesFromRows(db, rows).map(({ row, entity }) => [row.alias_key, entity]));
}

export function entitiesByAliasPrefix(db: Database, namespace: string, prefix: string, options: { type?: EntityType; limit: number }): EntityRef[] {
  // Led by the matching aliases, each entity then found by id: without `+` the planner walks the
  // namespace's entities (a bloom filter over the aliases), as listEntities' aliasPrefix says.
  const rows = stmt(
    db,
    `SELECT ${ENTITY_REF_COLUMNS} FROM entities e
     WHERE +e.namespace = @ns AND (@type IS NULL OR e.type = @type)
       AND e.id IN (SELECT a.entity_id FROM entity_aliases a WHERE a.namespace = @ns AND a.key >= @from AND a.key < @to)
     LIMIT @limit`,
  ).all({ ns: namespace, type: options.type ?? null, from: prefix, to: `${prefix}${KEY_RANGE_END}`, limit: rowLimit(options.limit) }) as EntityRow[];
  return rows.map(entityRefFromRow);
}

const STATS_SELECT = `SELECT e.*, COALESCE(SUM(m.mentions), 0) AS mention_count, COUNT(m.id) AS memory_count,
    MIN(COALESCE(m.event_time, m.created_at)) AS first_seen, MAX(COALESCE(m.event_time, m.created_at)) AS last_seen,
    MAX(m.importance) AS max_importance
  FROM entities e LEFT JOIN entity_mentions em ON em.entity_id = e.id LEFT JOIN memories m ON m.id = em.memory_id`;

function withStats(db: Database, rows: readonly StatsRow[]): EntityWithStats[] {
  return entitiesFromRows(db, rows).map(({ row, entity }) => ({ entity, stats: entityStatsFromRow(row) }));
}

export function listEntities(db: Database, namespace: string, filter: EntityListFilter = {}): EntityWithStats[] {
  // With an alias prefix the matching aliases lead (by entity id); `+` keeps the planner from
  // walking the whole namespace's entities instead.
  const where = [filter.aliasPrefix !== undefined ? '+e.namespace = @ns' : 'e.namespace = @ns'];
  const params: Record<string, unknown> = { ns: namespace, limit: filter.limit ?? -1, offset: filter.offset ?? 0 };
  if (filter.type !== undefined) {
    where.push('e.type = @type');
    params.type = filter.type;
  }
  if (filter.prefix !== undefined && filter.prefix !== '') {
    // substr, not LIKE: a prefix holding % or _ means those characters.
    where.push(`(substr(lower(e.name), 1, length(@prefix)) = @prefix
      OR EXISTS (SELECT 1 FROM entity_aliases a WHERE a.entity_id = e.id AND substr(a.key, 1, length(@prefix)) = @prefix))`);
    params.prefix = filter.prefix;
  }
  if (filter.aliasPrefix !== undefined) {
    // A range over the (namespace, key) primary key: every key starting with the prefix sorts
    // between it and it followed by the highest code point.
    where.push('e.id IN (SELECT a.entity_id FROM entity_aliases a WHERE a.namespace = @ns AND a.key >= @aliasFrom AND a.key < @aliasTo)');
    params.aliasFrom = filter.aliasPrefix;
    params.aliasTo = `${filter.aliasPrefix}${KEY_RANGE_END}`;
  }
  let having = '';
  if (filter.minMentions !== undefined) {
    having = ' HAVING mention_count >= @minMentions';
    params.minMentions = filter.minMentions;
  }
  const sql = `${STATS_SELECT} WHERE ${where.join(' AND ')} GROUP BY e.seq${having} ORDER BY mention_count DESC, e.name, e.seq LIMIT @limit OFFSET @offset`;
  return withStats(db, stmt(db, sql).all(params) as StatsRow[]);
}

export function getEntity(db: Database, namespace: string, idOrSlug: string): EntityWithStats | null {
  const rows = stmt(db, `${STATS_SELECT} WHERE e.namespace = ? AND (e.id = ? OR e.slug = ?) GROUP BY e.seq ORDER BY e.id = ? DESC LIMIT 1`).all(
    namespace,
    idOrSlug,
    idOrSlug,
    idOrSlug,
  ) as StatsRow[];
  return withStats(db, rows)[0] ?? null;
}

export function entityMemoryIds(db: Database, namespace: string, entityIds: readonly string[], limit: number, includeSuperseded = false): string[] {
  return stmt(
    db,
    `SELECT m.id FROM memories m WHERE m.namespace = @ns${includeSuperseded ? '' : ' AND m.valid_to IS NULL'}
       AND m.id IN (SELECT em.memory_id FROM entity_mentions em WHERE em.namespace = @ns AND em.entity_id IN (SELECT value FROM json_each(@ids)))
     ORDER BY m.created_at DESC, m.seq DESC LIMIT @limit`,
  )
    .pluck()
    .all({ ns: namespace, ids: JSON.stringify(entityIds), limit }) as string[];
}

export function listFacts(db: Database, namespace: string, filter: FactFilter = {}): Fact[] {
  const where = ['namespace = @ns'];
  const params: Record<string, unknown> = { ns: namespace, limit: filter.limit ?? -1 };
  if (!filter.includeSuperseded) where.push('valid_to IS NULL');
  for (const [key, column] of [['subject', 'subject'], ['attribute', 'attribute'], ['entityId', 'entity_id']] as const) {
    if (filter[key] === undefined) continue;
    where.push(`${column} = @${key}`);
    params[key] = filter[key];
  }
  if (filter.memoryIds !== undefined) {
    where.push('memory_id IN (SELECT value FROM json_each(@memoryIds))');
    params.memoryIds = JSON.stringify(filter.memoryIds);
  }
  const sql = `SELECT * FROM facts WHERE ${where.join(' AND ')} ORDER BY valid_from, recorded_at, seq LIMIT @limit`;
  return (stmt(db, sql).all(params) as FactRow[]).map(factFromRow);
}

/** An edit naming an entity the namespace does not have is refused whole (nothing is written). */
function mustExist(db: Database, namespace: string, id: string): void {
  if (!stmt(db, 'SELECT 1 FROM entities WHERE id = ? AND namespace = ?').get(id, namespace)) {
    throw new CairnError(ERROR_CODES.NOT_FOUND, `No entity ${id} in namespace ${namespace}`);
  }
}

/** `AND memory_id IN (…)` when the step names memories (a split), nothing when it takes all. */
function memoryClause(memoryIds: readonly string[] | undefined, params: Record<string, unknown>): string {
  if (memoryIds === undefined) return '';
  params.memoryIds = JSON.stringify(memoryIds);
  return ' AND memory_id IN (SELECT value FROM json_each(@memoryIds))';
}

function updateEntity(db: Database, ns: string, u: NonNullable<EntityEdit['update']>[number], now: string): void {
  mustExist(db, ns, u.id);
  const set: string[] = ['updated_at = @now'];
  const params: Record<string, unknown> = { id: u.id, ns, now };
  for (const key of ['name', 'slug', 'type', 'relation'] as const) {
    if (u[key] === undefined) continue;
    set.push(`${key} = @${key}`);
    params[key] = u[key];
  }
  if (u.locked !== undefined) {
    set.push('locked = @locked');
    params.locked = u.locked ? 1 : 0;
  }
  stmt(db, `UPDATE entities SET ${set.join(', ')} WHERE id = @id AND namespace = @ns`).run(params);
}

export function editEntities(db: Database, edit: EntityEdit): void {
  const ns = edit.namespace;
  db.transaction(() => {
    const addEntity = stmt(db, 'INSERT INTO entities (id, namespace, name, slug, type, relation, locked, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)');
    for (const e of edit.create ?? []) addEntity.run(e.id, ns, e.name, e.slug, e.type, e.relation, edit.now, edit.now);
    for (const u of edit.update ?? []) updateEntity(db, ns, u, edit.now);
    const pin = stmt(
      db,
      `INSERT INTO entity_aliases (namespace, key, entity_id, display, pinned) VALUES (?, ?, ?, ?, 1)
       ON CONFLICT (namespace, key) DO UPDATE SET entity_id = excluded.entity_id, display = excluded.display, pinned = 1`,
    );
    for (const a of edit.pinAliases ?? []) {
      mustExist(db, ns, a.entityId);
      pin.run(ns, a.key, a.entityId, a.display);
    }
    for (const m of edit.moveMentions ?? []) {
      mustExist(db, ns, m.from);
      mustExist(db, ns, m.to);
      const params: Record<string, unknown> = { from: m.from, to: m.to };
      const only = memoryClause(m.memoryIds, params);
      stmt(db, `INSERT OR IGNORE INTO entity_mentions (entity_id, memory_id, namespace) SELECT @to, memory_id, namespace FROM entity_mentions WHERE entity_id = @from${only}`).run(params);
      stmt(db, `DELETE FROM entity_mentions WHERE entity_id = @from${only}`).run(params);
    }
    for (const m of edit.moveFacts ?? []) {
      mustExist(db, ns, m.from);
      mustExist(db, ns, m.to);
      const params: Record<string, unknown> = { from: m.from, to: m.to, ns };
      stmt(db, `UPDATE facts SET entity_id = @to WHERE namespace = @ns AND entity_id = @from${memoryClause(m.memoryIds, params)}`).run(params);
    }
    for (const r of edit.remove ?? []) {
      mustExist(db, ns, r.id);
      if (r.mergedInto !== null) {
        mustExist(db, ns, r.mergedInto);
        stmt(db, 'UPDATE entity_aliases SET entity_id = ? WHERE entity_id = ? AND pinned = 1').run(r.mergedInto, r.id);
      }
      // Its other aliases and mentions go with it (cascade); facts about it keep their memory and lose the link.
      stmt(db, 'DELETE FROM entities WHERE id = ?').run(r.id);
    }
    for (const m of edit.memoryEntities ?? []) setMemoryEntities(db, ns, m.memoryId, m.entities);
  }).immediate();
}
