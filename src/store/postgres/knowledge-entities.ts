// Entities and facts as read back from PostgreSQL (store.ts listEntities, getEntity, listFacts, …)
// and a person's fix to entities (editEntities), as sqlite/knowledge-entities.ts. An entity's counts
// are never stored: they are added up from its mentions over the memories table, so a re-mention,
// a merge or a purge can never leave them stale. Names sort by code point (COLLATE "C"), as
// SQLite's binary collation sorts them, whatever the database's collation.
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import type { Entity, EntityType, Fact } from '../../core/types.js';
import { ENTITY_REF_COLUMNS, entityFromRow, entityRefFromRow, entityStatsFromRow, factFromRow, KEY_RANGE_END, rowLimit, type EntityRow, type FactRow, type StatsRow } from '../entity-rows.js';
import type { EntityEdit, EntityListFilter, EntityRef, EntityWithStats, FactFilter } from '../store.js';
import { transaction, type Db } from './connect.js';
import { knowledgeLock, setMemoryEntities } from './knowledge.js';

/** Display names per entity, in the order they were learned. */
async function aliasesOf(db: Db, ids: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const rows = (await db.query<{ entity_id: string; display: string }>(
    'SELECT entity_id, display FROM entity_aliases WHERE entity_id = ANY($1::text[]) ORDER BY seq',
    [[...new Set(ids)]],
  )).rows;
  for (const r of rows) out.set(r.entity_id, [...(out.get(r.entity_id) ?? []), r.display]);
  return out;
}

async function entitiesFromRows<R extends EntityRow>(db: Db, rows: readonly R[]): Promise<Array<{ row: R; entity: Entity }>> {
  const aliases = await aliasesOf(db, rows.map((r) => r.id));
  return rows.map((row) => ({
    row,
    entity: entityFromRow(row, aliases.get(row.id) ?? []),
  }));
}

export async function entitiesByAliasKeys(db: Db, namespace: string, keys: readonly string[]): Promise<Map<string, Entity>> {
  const rows = (await db.query<EntityRow & { alias_key: string }>(
    `SELECT a.key AS alias_key, e.* FROM entity_aliases a JOIN entities e ON e.id = a.entity_id
     WHERE a.namespace = $1 AND a.key = ANY($2::text[])`,
    [namespace, [...new Set(keys)]],
  )).rows;
  return new Map((await entitiesFromRows(db, rows)).map(({ row, entity }) => [row.alias_key, entity]));
}

const MENTION_COUNT = 'COALESCE(SUM(m.mentions), 0)';
const STATS_SELECT = `SELECT e.*, ${MENTION_COUNT} AS mention_count, COUNT(m.id) AS memory_count,
    MIN(COALESCE(m.event_time, m.created_at)) AS first_seen, MAX(COALESCE(m.event_time, m.created_at)) AS last_seen,
    MAX(m.importance) AS max_importance
  FROM entities e LEFT JOIN entity_mentions em ON em.entity_id = e.id LEFT JOIN memories m ON m.id = em.memory_id`;

async function withStats(db: Db, rows: readonly StatsRow[]): Promise<EntityWithStats[]> {
  return (await entitiesFromRows(db, rows)).map(({ row, entity }) => ({ entity, stats: entityStatsFromRow(row) }));
}

/** SQLite's lower(): ASCII letters only, so a prefix matches the same names on both backends. */
const asciiLower = (expr: string) => `translate(${expr}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;

export async function entitiesByAliasPrefix(db: Db, namespace: string, prefix: string, options: { type?: EntityType; limit: number }): Promise<EntityRef[]> {
  // PostgreSQL's text holds no NUL, so no stored key starts with a prefix that has one (as SQLite answers).
  if (prefix.includes('\u0000')) return [];
  const rows = (await db.query<EntityRow>(
    `SELECT ${ENTITY_REF_COLUMNS} FROM entities e
     WHERE e.namespace = $1 AND ($2::text IS NULL OR e.type = $2)
       AND e.id IN (SELECT a.entity_id FROM entity_aliases a WHERE a.namespace = $1 AND a.key >= $3 AND a.key < $4)
     LIMIT $5`,
    [namespace, options.type ?? null, prefix, `${prefix}${KEY_RANGE_END}`, rowLimit(options.limit)],
  )).rows;
  return rows.map(entityRefFromRow);
}

export async function listEntities(db: Db, namespace: string, filter: EntityListFilter = {}): Promise<EntityWithStats[]> {
  const params: unknown[] = [namespace];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = ['e.namespace = $1'];
  if (filter.type !== undefined) where.push(`e.type = ${param(filter.type)}`);
  if (filter.prefix !== undefined && filter.prefix !== '') {
    // starts_with, not LIKE: a prefix holding % or _ means those characters.
    const p = param(filter.prefix);
    where.push(`(starts_with(${asciiLower('e.name')}, ${p})
      OR EXISTS (SELECT 1 FROM entity_aliases a WHERE a.entity_id = e.id AND starts_with(a.key, ${p})))`);
  }
  if (filter.aliasPrefix !== undefined) {
    // A range over the (namespace, key) primary key (key is COLLATE "C"): every key starting with
    // the prefix sorts between it and it followed by the highest code point.
    where.push(`e.id IN (SELECT a.entity_id FROM entity_aliases a WHERE a.namespace = $1 AND a.key >= ${param(filter.aliasPrefix)} AND a.key < ${param(`${filter.aliasPrefix}${KEY_RANGE_END}`)})`);
  }
  const having = filter.minMentions !== undefined ? ` HAVING ${MENTION_COUNT} >= ${param(filter.minMentions)}` : '';
  // A null LIMIT is no limit (SQLite's -1).
  const sql = `${STATS_SELECT} WHERE ${where.join(' AND ')} GROUP BY e.seq${having}
    ORDER BY mention_count DESC, e.name COLLATE "C", e.seq LIMIT ${param(filter.limit ?? null)} OFFSET ${param(filter.offset ?? 0)}`;
  return withStats(db, (await db.query<StatsRow>(sql, params)).rows);
}

export async function getEntity(db: Db, namespace: string, idOrSlug: string): Promise<EntityWithStats | null> {
  const rows = (await db.query<StatsRow>(
    `${STATS_SELECT} WHERE e.namespace = $1 AND (e.id = $2 OR e.slug = $2) GROUP BY e.seq ORDER BY e.id = $2 DESC LIMIT 1`,
    [namespace, idOrSlug],
  )).rows;
  return (await withStats(db, rows))[0] ?? null;
}

export async function entityMemoryIds(db: Db, namespace: string, entityIds: readonly string[], limit: number, includeSuperseded = false): Promise<string[]> {
  return (await db.query<{ id: string }>(
    `SELECT m.id FROM memories m WHERE m.namespace = $1${includeSuperseded ? '' : ' AND m.valid_to IS NULL'}
       AND m.id IN (SELECT em.memory_id FROM entity_mentions em WHERE em.namespace = $1 AND em.entity_id = ANY($2::text[]))
     ORDER BY m.created_at DESC, m.seq DESC LIMIT $3`,
    [namespace, [...entityIds], limit],
  )).rows.map((r) => r.id);
}

export async function listFacts(db: Db, namespace: string, filter: FactFilter = {}): Promise<Fact[]> {
  const params: unknown[] = [namespace];
  const where = ['namespace = $1'];
  if (!filter.includeSuperseded) where.push('valid_to IS NULL');
  for (const [key, column] of [['subject', 'subject'], ['attribute', 'attribute'], ['entityId', 'entity_id']] as const) {
    if (filter[key] === undefined) continue;
    params.push(filter[key]);
    where.push(`${column} = $${params.length}`);
  }
  if (filter.memoryIds !== undefined) {
    params.push([...filter.memoryIds]);
    where.push(`memory_id = ANY($${params.length}::text[])`);
  }
  params.push(filter.limit ?? null);
  const sql = `SELECT * FROM facts WHERE ${where.join(' AND ')} ORDER BY valid_from, recorded_at, seq LIMIT $${params.length}`;
  return (await db.query<FactRow>(sql, params)).rows.map(factFromRow);
}

/** An edit naming an entity the namespace does not have is refused whole (nothing is written). */
async function mustExist(db: Db, namespace: string, id: string): Promise<void> {
  if ((await db.query('SELECT 1 FROM entities WHERE id = $1 AND namespace = $2', [id, namespace])).rowCount === 0) {
    throw new CairnError(ERROR_CODES.NOT_FOUND, `No entity ${id} in namespace ${namespace}`);
  }
}

/** `AND memory_id = ANY(…)` when the step names memories (a split), nothing when it takes all. */
function memoryClause(memoryIds: readonly string[] | undefined, params: unknown[]): string {
  if (memoryIds === undefined) return '';
  params.push([...memoryIds]);
  return ` AND memory_id = ANY($${params.length}::text[])`;
}

async function updateEntity(db: Db, ns: string, u: NonNullable<EntityEdit['update']>[number], now: string): Promise<void> {
  await mustExist(db, ns, u.id);
  const params: unknown[] = [u.id, ns, now];
  const set: string[] = ['updated_at = $3'];
  for (const key of ['name', 'slug', 'type', 'relation'] as const) {
    if (u[key] === undefined) continue;
    params.push(u[key]);
    set.push(`${key} = $${params.length}`);
  }
  if (u.locked !== undefined) {
    params.push(u.locked ? 1 : 0);
    set.push(`locked = $${params.length}`);
  }
  await db.query(`UPDATE entities SET ${set.join(', ')} WHERE id = $1 AND namespace = $2`, params);
}

export async function editEntities(db: Db, edit: EntityEdit): Promise<void> {
  const ns = edit.namespace;
  await transaction(db, async (c) => {
    // Under the namespace's knowledge lock: a pass applying a batch meanwhile would otherwise add
    // mentions to an entity this edit removes.
    await knowledgeLock(c, ns);
    for (const e of edit.create ?? []) {
      await c.query(
        'INSERT INTO entities (id, namespace, name, slug, type, relation, locked, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $7)',
        [e.id, ns, e.name, e.slug, e.type, e.relation, edit.now],
      );
    }
    for (const u of edit.update ?? []) await updateEntity(c, ns, u, edit.now);
    for (const a of edit.pinAliases ?? []) {
      await mustExist(c, ns, a.entityId);
      await c.query(
        `INSERT INTO entity_aliases (namespace, key, entity_id, display, pinned) VALUES ($1, $2, $3, $4, 1)
         ON CONFLICT (namespace, key) DO UPDATE SET entity_id = excluded.entity_id, display = excluded.display, pinned = 1`,
        [ns, a.key, a.entityId, a.display],
      );
    }
    for (const m of edit.moveMentions ?? []) {
      await mustExist(c, ns, m.from);
      await mustExist(c, ns, m.to);
      const params: unknown[] = [m.from, m.to];
      const only = memoryClause(m.memoryIds, params);
      await c.query(`INSERT INTO entity_mentions (entity_id, memory_id, namespace) SELECT $2, memory_id, namespace FROM entity_mentions WHERE entity_id = $1${only} ON CONFLICT DO NOTHING`, params);
      const gone: unknown[] = [m.from];
      await c.query(`DELETE FROM entity_mentions WHERE entity_id = $1${memoryClause(m.memoryIds, gone)}`, gone);
    }
    for (const m of edit.moveFacts ?? []) {
      await mustExist(c, ns, m.from);
      await mustExist(c, ns, m.to);
      const params: unknown[] = [m.from, m.to, ns];
      await c.query(`UPDATE facts SET entity_id = $2 WHERE namespace = $3 AND entity_id = $1${memoryClause(m.memoryIds, params)}`, params);
    }
    for (const r of edit.remove ?? []) {
      await mustExist(c, ns, r.id);
      if (r.mergedInto !== null) {
        await mustExist(c, ns, r.mergedInto);
        await c.query('UPDATE entity_aliases SET entity_id = $1 WHERE entity_id = $2 AND pinned = 1', [r.mergedInto, r.id]);
      }
      // Its other aliases and mentions go with it (cascade); facts about it keep their memory and lose the link.
      await c.query('DELETE FROM entities WHERE id = $1', [r.id]);
    }
    for (const m of edit.memoryEntities ?? []) await setMemoryEntities(c, ns, m.memoryId, m.entities);
  });
}
