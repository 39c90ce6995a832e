// Entity and fact rows ↔ records, shared by the SQLite and PostgreSQL backends (same columns). The
// queries that read them differ per backend and stay there.
import type { Entity, EntityStats, EntityType, Fact, Provenance } from '../core/types.js';
import type { EntityRef } from './knowledge-records.js';

export interface EntityRow {
  seq: number;
  id: string;
  namespace: string;
  name: string;
  slug: string;
  type: string;
  relation: string | null;
  locked: number;
  created_at: string;
  updated_at: string;
}

/** An entity row with its counts added up from its mentions over the memories table. */
export interface StatsRow extends EntityRow {
  mention_count: number;
  memory_count: number;
  first_seen: string | null;
  last_seen: string | null;
  max_importance: number | null;
}

export interface FactRow {
  id: string;
  namespace: string;
  subject: string;
  subject_name: string;
  entity_id: string | null;
  attribute: string;
  value: string;
  memory_id: string;
  valid_from: string;
  valid_to: string | null;
  recorded_at: string;
  confidence: number;
  superseded_by: string | null;
  mentions: number;
  extractor: string;
  provenance: string;
}

/** `aliases` are the entity's display names in the order they were learned; its name always leads. */
export function entityFromRow(row: EntityRow, aliases: readonly string[]): Entity {
  return {
    id: row.id, namespace: row.namespace, name: row.name, slug: row.slug, type: row.type as EntityType,
    aliases: [...new Set([row.name, ...aliases])], relation: row.relation, locked: row.locked === 1,
    createdAt: row.created_at, updatedAt: row.updated_at,
  };
}

/** The columns `entitiesByAliasPrefix` reads, in both backends. */
export const ENTITY_REF_COLUMNS = 'e.id, e.name, e.type, e.slug, e.relation';

export function entityRefFromRow(row: Pick<EntityRow, 'id' | 'name' | 'type' | 'slug' | 'relation'>): EntityRef {
  return { id: row.id, name: row.name, type: row.type as EntityType, slug: row.slug, relation: row.relation };
}

/** A row count to LIMIT by: a whole number from 0 (NaN reads 0, Infinity as many as there are). */
export function rowLimit(limit: number): number {
  return Number.isNaN(limit) ? 0 : Math.max(0, Math.min(Number.MAX_SAFE_INTEGER, Math.floor(limit)));
}

/** The highest code point: every key starting with a prefix sorts between it and it followed by this. */
export const KEY_RANGE_END = '\u{10FFFF}';

/** An entity never mentioned by a memory was first and last seen when it was created. */
export function entityStatsFromRow(row: StatsRow): EntityStats {
  return {
    mentions: row.mention_count, memories: row.memory_count, firstSeen: row.first_seen ?? row.created_at, lastSeen: row.last_seen ?? row.created_at,
    maxImportance: row.max_importance ?? 0,
  };
}

export function factFromRow(r: FactRow): Fact {
  return {
    id: r.id, namespace: r.namespace, subject: r.subject, subjectName: r.subject_name, entityId: r.entity_id, attribute: r.attribute,
    value: r.value, memoryId: r.memory_id, validFrom: r.valid_from, validTo: r.valid_to, recordedAt: r.recorded_at, confidence: r.confidence,
    supersededBy: r.superseded_by, mentions: r.mentions, extractor: r.extractor, provenance: JSON.parse(r.provenance) as Provenance[],
  };
}
