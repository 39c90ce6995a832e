// The knowledge pass's writes for SQLite (store.ts applyKnowledge, resetKnowledge): a batch of
// entities, aliases, mentions, facts and memory retirements applied in one immediate transaction
// with the namespace's cursor (compare-and-set). What an entity is and when a memory is retired is
// decided by the memory part; here every row is only kept inside its namespace's wall: a row that
// names an entity, memory or fact of another namespace (or one that no longer exists: a purge ran
// in between) is skipped, never written across.
import type { Database } from 'better-sqlite3';
import { crashPoint } from '../../core/crash-points.js';
import type { Fact, Provenance } from '../../core/types.js';
import type { ApplyKnowledgeResult, FactUpdate, KnowledgeBatch, MemoryRetirement, SeqMemory } from '../store.js';
import { keysOf } from './keys.js';
import { MAX_PROVENANCE, retirement } from '../../memory/remember.js';
import { memoryEntryBody } from './memories.js';
import { updateMemoryFields } from './memory-unit.js';
import { ensureNamespaceTx } from './namespaces.js';
import { memoryFromRow, type MemoryRow } from '../rows.js';
import { stmt } from './statements.js';

export function knowledgeCursor(db: Database, namespace: string): number {
  return (stmt(db, 'SELECT cursor FROM knowledge_state WHERE namespace = ?').pluck().get(namespace) as number | undefined) ?? 0;
}

export function memoriesAfter(db: Database, namespace: string, afterSeq: number, limit: number): SeqMemory[] {
  const rows = stmt(db, 'SELECT * FROM memories WHERE namespace = ? AND seq > ? ORDER BY seq LIMIT ?').all(namespace, afterSeq, limit) as MemoryRow[];
  return rows.map((row) => ({ seq: row.seq, memory: memoryFromRow(row) }));
}

function setCursor(db: Database, namespace: string, cursor: number): void {
  stmt(db, 'INSERT INTO knowledge_state (namespace, cursor) VALUES (?, ?) ON CONFLICT (namespace) DO UPDATE SET cursor = excluded.cursor').run(namespace, cursor);
}

/** Writes the names a memory mentions onto it and its index entry (so a search for a name finds it). */
export function setMemoryEntities(db: Database, namespace: string, memoryId: string, entities: readonly string[]): void {
  const row = stmt(db, 'SELECT text, tags, entities FROM memories WHERE id = ? AND namespace = ?').get(memoryId, namespace) as
    | { text: string; tags: string; entities: string }
    | undefined;
  if (!row) return;
  const list = JSON.stringify([...new Set(entities)]);
  if (list === row.entities) return;
  stmt(db, 'UPDATE memories SET entities = ? WHERE id = ?').run(list, memoryId);
  const tags = JSON.parse(row.tags) as string[];
  const body = memoryEntryBody({ text: row.text, tags, entities: JSON.parse(list) as string[] });
  const before = memoryEntryBody({ text: row.text, tags, entities: JSON.parse(row.entities) as string[] });
  if (body === before) return;
  // The entry keeps its vector and its cached one: a memory is embedded by its text, which names do not change.
  stmt(db, "UPDATE entries SET body = ?, keys = ? WHERE kind = 'memory' AND ref_id = ?").run(body, keysOf(db, body), memoryId);
}

function insertFact(db: Database, namespace: string, f: Fact): void {
  stmt(
    db,
    `INSERT INTO facts (id, namespace, subject, subject_name, entity_id, attribute, value, memory_id, valid_from, valid_to,
       recorded_at, confidence, superseded_by, mentions, extractor, provenance)
     SELECT @id, @ns, @subject, @subjectName, (SELECT id FROM entities WHERE id = @entityId AND namespace = @ns), @attribute, @value,
       @memoryId, @validFrom, @validTo, @recordedAt, @confidence, @supersededBy, @mentions, @extractor, @provenance
     WHERE EXISTS (SELECT 1 FROM memories WHERE id = @memoryId AND namespace = @ns)`,
  ).run({
    id: f.id, ns: namespace, subject: f.subject, subjectName: f.subjectName, entityId: f.entityId, attribute: f.attribute, value: f.value,
    memoryId: f.memoryId, validFrom: f.validFrom, validTo: f.validTo, recordedAt: f.recordedAt, confidence: f.confidence,
    supersededBy: f.supersededBy, mentions: f.mentions, extractor: f.extractor, provenance: JSON.stringify(f.provenance.slice(0, MAX_PROVENANCE)),
  });
}

function updateFact(db: Database, namespace: string, u: FactUpdate): void {
  const row = stmt(db, 'SELECT provenance FROM facts WHERE id = ? AND namespace = ?').get(u.id, namespace) as { provenance: string } | undefined;
  if (!row) return;
  const provenance = u.provenance?.length ? JSON.stringify([...(JSON.parse(row.provenance) as Provenance[]), ...u.provenance].slice(0, MAX_PROVENANCE)) : row.provenance;
  stmt(
    db,
    `UPDATE facts SET valid_to = CASE WHEN @setValidTo THEN @validTo ELSE valid_to END,
       superseded_by = CASE WHEN @setBy THEN @by ELSE superseded_by END, mentions = mentions + @delta, provenance = @provenance
     WHERE id = @id`,
  ).run({
    id: u.id, setValidTo: u.validTo === undefined ? 0 : 1, validTo: u.validTo ?? null, setBy: u.supersededBy === undefined ? 0 : 1,
    by: u.supersededBy ?? null, delta: u.mentionsDelta ?? 0, provenance,
  });
}

/** Retires a current memory as the memory part decides (remember.ts retirement), inside the namespace. */
function retire(db: Database, namespace: string, r: MemoryRetirement, now: string): void {
  const byId = stmt(db, 'SELECT * FROM memories WHERE id = ? AND namespace = ?');
  const old = byId.get(r.memoryId, namespace) as MemoryRow | undefined;
  const by = byId.get(r.by, namespace) as MemoryRow | undefined;
  if (!old || !by) return;
  const writes = retirement(memoryFromRow(old), memoryFromRow(by), r, now);
  if (!writes) return;
  updateMemoryFields(db, namespace, old.id, writes.retired);
  if (writes.survivor) updateMemoryFields(db, namespace, by.id, writes.survivor);
  if (writes.turnsLeavingCurrent.length > 0) {
    stmt(db, "UPDATE entries SET current = 0, valid_to = ? WHERE kind = 'turn' AND namespace = ? AND current = 1 AND ref_id IN (SELECT value FROM json_each(?))").run(
      r.validTo,
      namespace,
      JSON.stringify(writes.turnsLeavingCurrent),
    );
  }
}

export function applyKnowledge(db: Database, batch: KnowledgeBatch): ApplyKnowledgeResult {
  const ns = batch.namespace;
  return db
    .transaction((): ApplyKnowledgeResult => {
      const cursor = knowledgeCursor(db, ns);
      if (cursor !== batch.expectCursor) return { applied: false, cursor };
      ensureNamespaceTx(db, ns, batch.now);
      const addEntity = stmt(db, 'INSERT INTO entities (id, namespace, name, slug, type, relation, locked, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)');
      for (const e of batch.entities) addEntity.run(e.id, ns, e.name, e.slug, e.type, e.relation, batch.now, batch.now);
      const editEntity = stmt(
        db,
        `UPDATE entities SET name = CASE WHEN locked = 0 AND @name IS NOT NULL THEN @name ELSE name END,
           slug = CASE WHEN locked = 0 AND @slug IS NOT NULL THEN @slug ELSE slug END,
           relation = CASE WHEN @setRelation THEN @relation ELSE relation END, updated_at = @now
         WHERE id = @id AND namespace = @ns`,
      );
      for (const u of batch.entityUpdates) {
        editEntity.run({ id: u.id, ns, now: batch.now, name: u.name ?? null, slug: u.slug ?? null, setRelation: u.relation === undefined ? 0 : 1, relation: u.relation ?? null });
      }
      const addAlias = stmt(db, 'INSERT OR IGNORE INTO entity_aliases (namespace, key, entity_id, display, pinned) SELECT @ns, @key, id, @display, 0 FROM entities WHERE id = @entityId AND namespace = @ns');
      for (const a of batch.aliases) addAlias.run({ ns, key: a.key, entityId: a.entityId, display: a.display });
      const addMention = stmt(
        db,
        `INSERT OR IGNORE INTO entity_mentions (entity_id, memory_id, namespace)
         SELECT e.id, m.id, @ns FROM entities e, memories m WHERE e.id = @entityId AND e.namespace = @ns AND m.id = @memoryId AND m.namespace = @ns`,
      );
      for (const m of batch.mentions) addMention.run({ ns, entityId: m.entityId, memoryId: m.memoryId });
      // A kill here must leave none of the above: the kill -9 test stops the process at this point.
      crashPoint('knowledge-mid-batch');
      for (const m of batch.memoryEntities) setMemoryEntities(db, ns, m.memoryId, m.entities);
      for (const f of batch.facts) insertFact(db, ns, f);
      for (const u of batch.factUpdates) updateFact(db, ns, u);
      for (const r of batch.retirements) retire(db, ns, r, batch.now);
      setCursor(db, ns, batch.cursor);
      return { applied: true, cursor: batch.cursor };
    })
    .immediate();
}

/**
 * Forgets what the pass derived and rewinds its cursor. A person's word stays: pinned aliases, the
 * entities they pin or whose name they locked. Retired memories stay retired (history).
 */
export function resetKnowledge(db: Database, namespace: string): void {
  db.transaction(() => {
    stmt(db, 'DELETE FROM facts WHERE namespace = ?').run(namespace);
    stmt(db, 'DELETE FROM entity_mentions WHERE namespace = ?').run(namespace);
    stmt(db, 'DELETE FROM entity_aliases WHERE namespace = ? AND pinned = 0').run(namespace);
    stmt(db, 'DELETE FROM entities WHERE namespace = ? AND locked = 0 AND NOT EXISTS (SELECT 1 FROM entity_aliases a WHERE a.entity_id = entities.id)').run(namespace);
    stmt(db, 'UPDATE knowledge_state SET cursor = 0 WHERE namespace = ?').run(namespace);
  }).immediate();
}

/**
 * What a purged memory leaves in the knowledge (call before deleting its row): its mentions and
 * facts go, a fact it superseded now points past it, and an entity it alone named (no other
 * mention, no alias a person pinned) goes too, so a purged name survives nowhere.
 */
export function purgeMemoryKnowledge(db: Database, memoryId: string): void {
  const entityIds = stmt(db, 'SELECT entity_id FROM entity_mentions WHERE memory_id = ?').pluck().all(memoryId) as string[];
  const facts = stmt(db, 'SELECT id, superseded_by FROM facts WHERE memory_id = ?').all(memoryId) as Array<{ id: string; superseded_by: string | null }>;
  for (const f of facts) stmt(db, 'UPDATE facts SET superseded_by = ? WHERE superseded_by = ?').run(f.superseded_by, f.id);
  stmt(db, 'DELETE FROM facts WHERE memory_id = ?').run(memoryId);
  stmt(db, 'DELETE FROM entity_mentions WHERE memory_id = ?').run(memoryId);
  stmt(
    db,
    `DELETE FROM entities WHERE id IN (SELECT value FROM json_each(?))
       AND NOT EXISTS (SELECT 1 FROM entity_mentions em WHERE em.entity_id = entities.id)
       AND NOT EXISTS (SELECT 1 FROM entity_aliases a WHERE a.entity_id = entities.id AND a.pinned = 1)`,
  ).run(JSON.stringify(entityIds));
}
