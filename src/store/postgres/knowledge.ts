// The knowledge pass's writes for PostgreSQL (store.ts applyKnowledge, resetKnowledge), as
// sqlite/knowledge.ts: a batch of entities, aliases, mentions, facts and memory retirements applied
// in one transaction with the namespace's cursor (compare-and-set). Every row is kept inside its
// namespace's wall: a row naming an entity, memory or fact of another namespace (or one a purge
// removed in between) is skipped, never written across.
//
// Concurrency: SQLite runs these under its single writer lock. Here passes, resets and a person's
// entity edits of one namespace may run at once on several machines, so each takes the
// namespace's knowledge lock (knowledgeLock: a transaction-scoped advisory lock) first. It is held
// until commit, so the cursor read under it cannot change before the batch's cursor is written:
// of two passes applying the same batch exactly one applies it, the other reads the moved cursor
// and writes nothing. An advisory lock, not SELECT … FOR UPDATE on knowledge_state: a namespace's
// first batch has no state row to lock, and a refused batch must write nothing (not even one).
import { crashPoint } from '../../core/crash-points.js';
import type { Fact, Provenance } from '../../core/types.js';
import type { ApplyKnowledgeResult, FactUpdate, KnowledgeBatch, MemoryRetirement, SeqMemory } from '../store.js';
import { MAX_PROVENANCE, retirement } from '../../memory/remember.js';
import { memoryEntryBody } from '../sqlite/memories.js';
import { memoryFromRow, type MemoryRow } from '../rows.js';
import { transaction, type Db } from './connect.js';
import { setEntryBody } from './entry-terms.js';
import { followBound } from './follow.js';
import { updateMemoryFields } from './memory-unit.js';
import { ensureNamespace } from './namespaces.js';

/** Serialises the knowledge writers of one namespace (see the top of this file) until commit. */
export async function knowledgeLock(db: Db, namespace: string): Promise<void> {
  await db.query("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ' ' || $1, 0))", [JSON.stringify(['cairn.knowledge', namespace])]);
}

export async function knowledgeCursor(db: Db, namespace: string): Promise<number> {
  return (await db.query<{ cursor: number }>('SELECT cursor FROM knowledge_state WHERE namespace = $1', [namespace])).rows[0]?.cursor ?? 0;
}

/**
 * The pass follows memories in seq order and keeps its cursor (knowledge_state), so a page must
 * never pass a memory still to commit: it ends at followBound's seq (follow.ts), which waits only
 * for the namespace's memory writers open when the page was asked for, never for new ones.
 */
export async function memoriesAfter(db: Db, namespace: string, afterSeq: number, limit: number): Promise<SeqMemory[]> {
  const bound = await followBound(db, 'memories', namespace);
  if (bound <= afterSeq) return [];
  const rows = (await db.query<MemoryRow>('SELECT * FROM memories WHERE namespace = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4', [namespace, afterSeq, bound, limit])).rows;
  return rows.map((row) => ({ seq: row.seq, memory: memoryFromRow(row) }));
}

/** Locks and reads one memory of the namespace: its row is rewritten from what was read. */
async function lockedMemory(db: Db, namespace: string, id: string): Promise<MemoryRow | undefined> {
  return (await db.query<MemoryRow>('SELECT * FROM memories WHERE id = $1 AND namespace = $2 FOR UPDATE', [id, namespace])).rows[0];
}

async function memoryEntrySeq(db: Db, memoryId: string): Promise<number | undefined> {
  return (await db.query<{ seq: number }>("SELECT seq FROM entries WHERE kind = 'memory' AND ref_id = $1", [memoryId])).rows[0]?.seq;
}

/** Writes the names a memory mentions onto it and its index entry (so a search for a name finds it). */
export async function setMemoryEntities(db: Db, namespace: string, memoryId: string, entities: readonly string[]): Promise<void> {
  const row = await lockedMemory(db, namespace, memoryId);
  if (!row) return;
  const list = JSON.stringify([...new Set(entities)]);
  if (list === row.entities) return;
  await db.query('UPDATE memories SET entities = $1 WHERE seq = $2', [list, row.seq]);
  const tags = JSON.parse(row.tags) as string[];
  const body = memoryEntryBody({ text: row.text, tags, entities: JSON.parse(list) as string[] });
  const before = memoryEntryBody({ text: row.text, tags, entities: JSON.parse(row.entities) as string[] });
  if (body === before) return;
  // The entry keeps its vector and its cached one: a memory is embedded by its text, which names do not change.
  const seq = await memoryEntrySeq(db, memoryId);
  if (seq !== undefined) await setEntryBody(db, seq, body);
}

async function insertFact(db: Db, namespace: string, f: Fact): Promise<void> {
  // Typed parameters: in INSERT … SELECT PostgreSQL cannot infer them from the columns.
  await db.query(
    `INSERT INTO facts (id, namespace, subject, subject_name, entity_id, attribute, value, memory_id, valid_from, valid_to,
       recorded_at, confidence, superseded_by, mentions, extractor, provenance)
     SELECT $1::text, $2::text, $3::text, $4::text, (SELECT id FROM entities WHERE id = $5::text AND namespace = $2::text), $6::text, $7::text,
       $8::text, $9::text, $10::text, $11::text, $12::double precision, $13::text, $14::integer, $15::text, $16::text
     WHERE EXISTS (SELECT 1 FROM memories WHERE id = $8::text AND namespace = $2::text)`,
    [f.id, namespace, f.subject, f.subjectName, f.entityId, f.attribute, f.value, f.memoryId, f.validFrom, f.validTo, f.recordedAt,
      f.confidence, f.supersededBy, f.mentions, f.extractor, JSON.stringify(f.provenance.slice(0, MAX_PROVENANCE))],
  );
}

async function updateFact(db: Db, namespace: string, u: FactUpdate): Promise<void> {
  const row = (await db.query<{ provenance: string }>('SELECT provenance FROM facts WHERE id = $1 AND namespace = $2 FOR UPDATE', [u.id, namespace])).rows[0];
  if (!row) return;
  const provenance = u.provenance?.length ? JSON.stringify([...(JSON.parse(row.provenance) as Provenance[]), ...u.provenance].slice(0, MAX_PROVENANCE)) : row.provenance;
  await db.query(
    `UPDATE facts SET valid_to = CASE WHEN $2::boolean THEN $3::text ELSE valid_to END,
       superseded_by = CASE WHEN $4::boolean THEN $5::text ELSE superseded_by END, mentions = mentions + $6::integer, provenance = $7
     WHERE id = $1`,
    [u.id, u.validTo !== undefined, u.validTo ?? null, u.supersededBy !== undefined, u.supersededBy ?? null, u.mentionsDelta ?? 0, provenance],
  );
}

/** Retires a current memory as the memory part decides (remember.ts retirement), inside the namespace. */
async function retire(db: Db, namespace: string, r: MemoryRetirement, now: string): Promise<void> {
  // Both rows locked in id order (two retirements crossing each other wait, never deadlock), so a
  // re-mention committing meanwhile on another machine is not overwritten by the survivor's sums.
  const rows = (await db.query<MemoryRow>('SELECT * FROM memories WHERE namespace = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE', [namespace, [r.memoryId, r.by]])).rows;
  const old = rows.find((m) => m.id === r.memoryId);
  const by = rows.find((m) => m.id === r.by);
  if (!old || !by) return;
  const writes = retirement(memoryFromRow(old), memoryFromRow(by), r, now);
  if (!writes) return;
  await updateMemoryFields(db, namespace, old.id, writes.retired);
  if (writes.survivor) await updateMemoryFields(db, namespace, by.id, writes.survivor);
  if (writes.turnsLeavingCurrent.length > 0) {
    await db.query("UPDATE entries SET current = 0, valid_to = $1 WHERE kind = 'turn' AND namespace = $2 AND current = 1 AND ref_id = ANY($3::text[])", [
      r.validTo,
      namespace,
      writes.turnsLeavingCurrent,
    ]);
  }
}

export async function applyKnowledge(db: Db, batch: KnowledgeBatch): Promise<ApplyKnowledgeResult> {
  const ns = batch.namespace;
  return transaction(db, async (c): Promise<ApplyKnowledgeResult> => {
    await knowledgeLock(c, ns);
    const cursor = await knowledgeCursor(c, ns);
    if (cursor !== batch.expectCursor) return { applied: false, cursor };
    await ensureNamespace(c, ns, batch.now);
    if (batch.entities.length > 0) {
      const e = batch.entities;
      await c.query(
        `INSERT INTO entities (id, namespace, name, slug, type, relation, locked, created_at, updated_at)
         SELECT n.id, $1, n.name, n.slug, n.type, n.relation, 0, $2, $2
         FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS n(id, name, slug, type, relation, ord) ORDER BY n.ord`,
        [ns, batch.now, e.map((x) => x.id), e.map((x) => x.name), e.map((x) => x.slug), e.map((x) => x.type), e.map((x) => x.relation)],
      );
    }
    for (const u of batch.entityUpdates) {
      await c.query(
        `UPDATE entities SET name = CASE WHEN locked = 0 AND $4::text IS NOT NULL THEN $4::text ELSE name END,
           slug = CASE WHEN locked = 0 AND $5::text IS NOT NULL THEN $5::text ELSE slug END,
           relation = CASE WHEN $6::boolean THEN $7::text ELSE relation END, updated_at = $3
         WHERE id = $1 AND namespace = $2`,
        [u.id, ns, batch.now, u.name ?? null, u.slug ?? null, u.relation !== undefined, u.relation ?? null],
      );
    }
    if (batch.aliases.length > 0) {
      // In batch order: of two aliases with one key, the first names the entity (ON CONFLICT DO NOTHING keeps it).
      const a = batch.aliases;
      await c.query(
        `INSERT INTO entity_aliases (namespace, key, entity_id, display, pinned)
         SELECT $1, n.key, e.id, n.display, 0
         FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS n(key, entity_id, display, ord)
         JOIN entities e ON e.id = n.entity_id AND e.namespace = $1 ORDER BY n.ord
         ON CONFLICT DO NOTHING`,
        [ns, a.map((x) => x.key), a.map((x) => x.entityId), a.map((x) => x.display)],
      );
    }
    if (batch.mentions.length > 0) {
      await c.query(
        `INSERT INTO entity_mentions (entity_id, memory_id, namespace)
         SELECT e.id, m.id, $1 FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS n(entity_id, memory_id, ord)
         JOIN entities e ON e.id = n.entity_id AND e.namespace = $1 JOIN memories m ON m.id = n.memory_id AND m.namespace = $1
         ORDER BY n.ord ON CONFLICT DO NOTHING`,
        [ns, batch.mentions.map((x) => x.entityId), batch.mentions.map((x) => x.memoryId)],
      );
    }
    // A kill here must leave none of the above: the kill -9 test stops the process at this point.
    crashPoint('knowledge-mid-batch');
    for (const m of batch.memoryEntities) await setMemoryEntities(c, ns, m.memoryId, m.entities);
    for (const f of batch.facts) await insertFact(c, ns, f);
    for (const u of batch.factUpdates) await updateFact(c, ns, u);
    for (const r of batch.retirements) await retire(c, ns, r, batch.now);
    await c.query('INSERT INTO knowledge_state (namespace, cursor) VALUES ($1, $2) ON CONFLICT (namespace) DO UPDATE SET cursor = excluded.cursor', [ns, batch.cursor]);
    return { applied: true, cursor: batch.cursor };
  });
}

/**
 * Forgets what the pass derived and rewinds its cursor. A person's word stays: pinned aliases, the
 * entities they pin or whose name they locked. Retired memories stay retired (history).
 */
export async function resetKnowledge(db: Db, namespace: string): Promise<void> {
  await transaction(db, async (c) => {
    await knowledgeLock(c, namespace);
    await c.query('DELETE FROM facts WHERE namespace = $1', [namespace]);
    await c.query('DELETE FROM entity_mentions WHERE namespace = $1', [namespace]);
    await c.query('DELETE FROM entity_aliases WHERE namespace = $1 AND pinned = 0', [namespace]);
    await c.query('DELETE FROM entities WHERE namespace = $1 AND locked = 0 AND NOT EXISTS (SELECT 1 FROM entity_aliases a WHERE a.entity_id = entities.id)', [namespace]);
    await c.query('UPDATE knowledge_state SET cursor = 0 WHERE namespace = $1', [namespace]);
  });
}

/**
 * What a purged memory leaves in the knowledge (call inside the purge's transaction, before
 * deleting its row): its mentions and facts go, a fact it superseded now points past it, and an
 * entity it alone named (no other mention, no alias a person pinned) goes too, so a purged name
 * survives nowhere.
 */
export async function purgeMemoryKnowledge(db: Db, memoryId: string): Promise<void> {
  const entityIds = (await db.query<{ entity_id: string }>('SELECT entity_id FROM entity_mentions WHERE memory_id = $1', [memoryId])).rows.map((r) => r.entity_id);
  const facts = (await db.query<{ id: string; superseded_by: string | null }>('SELECT id, superseded_by FROM facts WHERE memory_id = $1', [memoryId])).rows;
  for (const f of facts) await db.query('UPDATE facts SET superseded_by = $1 WHERE superseded_by = $2', [f.superseded_by, f.id]);
  await db.query('DELETE FROM facts WHERE memory_id = $1', [memoryId]);
  await db.query('DELETE FROM entity_mentions WHERE memory_id = $1', [memoryId]);
  if (entityIds.length === 0) return;
  await db.query(
    `DELETE FROM entities WHERE id = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM entity_mentions em WHERE em.entity_id = entities.id)
       AND NOT EXISTS (SELECT 1 FROM entity_aliases a WHERE a.entity_id = entities.id AND a.pinned = 1)`,
    [entityIds],
  );
}
