// The records the Store's knowledge methods pass (entities, mentions, facts). The store keeps them
// and applies batches atomically; what an entity is, when a fact supersedes another and when two
// memories are one are decided by the memory part (src/memory/knowledge/), never here.
import type { Entity, EntityStats, EntityType, Fact, Memory, Provenance } from '../core/types.js';

/** A memory with its insertion seq: the knowledge pass follows the memories table in seq order. */
export interface SeqMemory {
  seq: number;
  memory: Memory;
}

export interface NewEntityRow {
  id: string;
  name: string;
  slug: string;
  type: EntityType;
  relation: string | null;
}

/** A name an entity is known by. `key` is the normalised alias (memory part's aliasKey). */
export interface AliasRow {
  key: string;
  entityId: string;
  /** The alias as written. */
  display: string;
}

export interface MentionRow {
  entityId: string;
  memoryId: string;
}

/**
 * A memory that stops being current. 'superseded': a fact it stated changed (its source turns stop
 * being current too, with the same validTo). 'duplicate': it says what `by` says; `by` gains its
 * mention count and provenance (up to the provenance cap), so nothing is lost.
 */
export interface MemoryRetirement {
  memoryId: string;
  by: string;
  /** When it stopped being true (valid time), ISO. */
  validTo: string;
  reason: 'superseded' | 'duplicate';
}

export interface FactUpdate {
  id: string;
  validTo?: string | null;
  supersededBy?: string | null;
  /** Added to the fact's mention count (the same value stated again). */
  mentionsDelta?: number;
  /** Appended to its provenance (capped like a memory's). */
  provenance?: Provenance[];
}

/**
 * What the knowledge pass learned from a run of memories, applied in one transaction together with
 * the namespace's cursor. Compare-and-set on the cursor: when another process moved it since the
 * pass read it, nothing is written and `applied` is false (the pass reads again).
 */
export interface KnowledgeBatch {
  namespace: string;
  expectCursor: number;
  cursor: number;
  entities: NewEntityRow[];
  /** A longer name or a relation learned for an existing entity; name and slug are left alone when the entity is locked. */
  entityUpdates: Array<{ id: string; name?: string; slug?: string; relation?: string | null }>;
  /** Inserted when the key is free; a key that already names an entity keeps it. */
  aliases: AliasRow[];
  mentions: MentionRow[];
  /** The names written onto each memory (its `entities` field and its index entry). */
  memoryEntities: Array<{ memoryId: string; entities: string[] }>;
  facts: Fact[];
  factUpdates: FactUpdate[];
  retirements: MemoryRetirement[];
  now: string;
}

export interface ApplyKnowledgeResult {
  applied: boolean;
  /** The cursor as it stands after the call. */
  cursor: number;
}

/**
 * A person's fix to the entities, applied in one transaction: the memory part composes merge,
 * rename and split from these steps. Pinned aliases are the person's word: the knowledge pass and a
 * knowledge reset never move or drop them, which is how a fix survives regeneration.
 */
export interface EntityEdit {
  namespace: string;
  create?: NewEntityRow[];
  update?: Array<{ id: string; name?: string; slug?: string; type?: EntityType; relation?: string | null; locked?: boolean }>;
  /** Upserted with pinned = true (an alias key taken by another entity moves to this one). */
  pinAliases?: AliasRow[];
  /** Mentions of `from` move to `to` (all of them, or only those of `memoryIds`); duplicates fold. */
  moveMentions?: Array<{ from: string; to: string; memoryIds?: string[] }>;
  /** Facts whose entityId is `from` point to `to` (all, or those stated by `memoryIds`). */
  moveFacts?: Array<{ from: string; to: string; memoryIds?: string[] }>;
  /** Removed after the moves (their remaining aliases go with them; pinned ones move to `mergedInto`). */
  remove?: Array<{ id: string; mergedInto: string | null }>;
  memoryEntities?: Array<{ memoryId: string; entities: string[] }>;
  now: string;
}

export interface EntityWithStats {
  entity: Entity;
  stats: EntityStats;
}

/** What the knowledge pass needs of a stored entity to resolve a name to it: no aliases, no stats. */
export type EntityRef = Pick<Entity, 'id' | 'name' | 'type' | 'slug' | 'relation'>;

export interface EntityListFilter {
  type?: EntityType;
  /** Entities whose name or an alias key starts with this (already normalised by the caller). */
  prefix?: string;
  /**
   * Entities with an alias key starting with this: found through the alias key index, so the cost
   * follows the matches, not the namespace (the knowledge pass asks once per first name; issue 29).
   * Every name an entity was given is one of its alias keys, so this finds the same entities as
   * `prefix` does without reading every name.
   */
  aliasPrefix?: string;
  /** Only entities with at least this many mentions. */
  minMentions?: number;
  limit?: number;
  offset?: number;
}

export interface FactFilter {
  subject?: string;
  attribute?: string;
  entityId?: string;
  memoryIds?: readonly string[];
  /** Superseded facts too (history); default: only facts with no validTo. */
  includeSuperseded?: boolean;
  limit?: number;
}
