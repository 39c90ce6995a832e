// The facade's knowledge calls: entities (list, one with its facts and memories, merge, rename,
// split) and facts. Input is validated here (one schema per call, shared by every interface);
// the rules of an edit live in the memory part (memory/knowledge/edits.ts), promotion and PARA in
// memory/knowledge/para.ts.
import { z } from 'zod';
import { ENTITY_TYPES, PARA_KINDS, type Entity, type EntityStats, type EntityType, type Fact, type Memory, type ParaKind } from '../core/types.js';
import { cleanLabel, hasUnsafeIdChars } from '../core/text.js';
import type { EntityWithStats } from '../store/knowledge-records.js';
import type { Store } from '../store/store.js';
import { mergeEntities, renameEntity, resolveEntity, splitEntity, type MergeResult, type RenameResult, type SplitResult } from '../memory/knowledge/edits.js';
import { isPromoted, paraKind } from '../memory/knowledge/para.js';
import { aliasKey } from '../memory/knowledge/entities/aliases.js';
import { attributeKey, subjectKey } from '../memory/knowledge/facts/keys.js';
import { parseInput } from './inputs.js';
import { gateText } from './redaction-gate.js';

/** Longest entity name or reference accepted. */
export const MAX_ENTITY_NAME_CHARS = 200;
/** Most aliases one split may name. */
const MAX_SPLIT_ALIASES = 100;
/** Memories shown with one entity. */
const ENTITY_RECENT_MEMORIES = 10;
/** Entities read from the store per page while filtering by promotion or PARA kind. */
const LIST_PAGE = 200;

export interface KnowledgeSettings {
  promoteMentions: number;
  promoteImportance: number;
  archiveAfterDays: number;
}

/** An entity as the interfaces show it: names, counts, where it sits in PARA and whether it is promoted. */
export interface EntityView extends Entity {
  stats: EntityStats;
  para: ParaKind;
  promoted: boolean;
}

export interface EntityDetail {
  entity: EntityView;
  /** Facts about it that hold now. */
  facts: Fact[];
  /** Facts about it that were superseded (validTo set), oldest first. */
  history: Fact[];
  /** Its most recent current memories, newest first. */
  memories: Memory[];
}

// ---- input ------------------------------------------------------------------------------------

/** A name a person gives: one line, trimmed, 1–200 characters. */
const nameSchema = z
  .string()
  .transform(cleanLabel)
  .refine((v) => v.length > 0, 'is empty')
  .refine((v) => v.length <= MAX_ENTITY_NAME_CHARS, `is longer than ${MAX_ENTITY_NAME_CHARS} characters`);

/** An entity by id, slug or name: refused (not rewritten) when it holds control characters, as ids are. */
export const entityRefSchema = z
  .string()
  .max(MAX_ENTITY_NAME_CHARS, `is longer than ${MAX_ENTITY_NAME_CHARS} characters`)
  .refine((v) => !hasUnsafeIdChars(v), 'contains a control character or an unpaired surrogate')
  .transform((v) => v.trim())
  .refine((v) => v.length > 0, 'is empty');

export const entityListSchema = z.strictObject({
  type: z.enum(ENTITY_TYPES).optional(),
  para: z.enum(PARA_KINDS).optional(),
  promoted: z.boolean().optional(),
  limit: z.number().int().min(1).max(1000).default(50),
  /** Entities whose name or an alias starts with this. */
  query: nameSchema.optional(),
});

export const splitSchema = z.strictObject({
  aliases: z.array(nameSchema).min(1, 'name at least one alias to split off').max(MAX_SPLIT_ALIASES),
  name: nameSchema.optional(),
  type: z.enum(ENTITY_TYPES).optional(),
});

export const factsSchema = z.strictObject({
  subject: nameSchema.optional(),
  attribute: nameSchema.optional(),
  /** Only facts about this entity (id, slug or name). */
  entity: entityRefSchema.optional(),
  includeSuperseded: z.boolean().default(false),
  limit: z.number().int().min(1).max(10_000).default(200),
});

export type EntityListInput = z.input<typeof entityListSchema>;
export type SplitInput = z.input<typeof splitSchema>;
export type FactsInput = z.input<typeof factsSchema>;

export function parseEntityRef(value: unknown, what = 'entity'): string {
  return parseInput(entityRefSchema, value, what);
}

// ---- reads ------------------------------------------------------------------------------------

/** Entities of a namespace, most mentioned first, filtered by type, name prefix, PARA kind and promotion. */
export async function listEntityViews(store: Store, ns: string, input: unknown, settings: KnowledgeSettings, now: string): Promise<EntityView[]> {
  const { type, para, promoted, limit, query } = parseInput(entityListSchema, input ?? {}, 'entity list');
  const prefix = query === undefined ? undefined : aliasKey(query);
  const filtered = para !== undefined || promoted !== undefined;
  const out: EntityView[] = [];
  // Promotion and PARA are decided here, not in the store: a filtered list reads on in pages.
  for (let offset = 0; out.length < limit; offset += LIST_PAGE) {
    const page = await store.listEntities(ns, { type, prefix, limit: filtered ? LIST_PAGE : limit, offset });
    for (const e of page) {
      const view = await viewOf(store, ns, e, settings, now);
      if ((para === undefined || view.para === para) && (promoted === undefined || view.promoted === promoted)) out.push(view);
      if (out.length === limit) break;
    }
    if (!filtered || page.length < LIST_PAGE) break;
  }
  return out;
}

/** One entity (by id, slug or name) with its current facts, its history and its recent memories. */
export async function entityDetail(store: Store, ns: string, ref: unknown, settings: KnowledgeSettings, now: string): Promise<EntityDetail> {
  const found = await resolveEntity(store, ns, parseEntityRef(ref));
  const all = await store.listFacts(ns, { entityId: found.entity.id, includeSuperseded: true });
  const ids = await store.entityMemoryIds(ns, [found.entity.id], ENTITY_RECENT_MEMORIES);
  const memories = (await Promise.all(ids.map((id) => store.getMemory(ns, id)))).filter((m): m is Memory => m !== null);
  return {
    entity: view(found, all, settings, now),
    facts: all.filter((f) => f.validTo === null),
    history: all.filter((f) => f.validTo !== null),
    memories,
  };
}

/** Facts of a namespace by subject, attribute or entity; current ones unless includeSuperseded. */
export async function listFactsFor(store: Store, ns: string, input: unknown): Promise<Fact[]> {
  const { subject, attribute, entity, includeSuperseded, limit } = parseInput(factsSchema, input ?? {}, 'facts request');
  const entityId = entity === undefined ? undefined : (await resolveEntity(store, ns, entity)).entity.id;
  return store.listFacts(ns, {
    ...(subject !== undefined ? { subject: subjectKey(subject) } : {}),
    ...(attribute !== undefined ? { attribute: attributeKey(attribute) } : {}),
    ...(entityId !== undefined ? { entityId } : {}),
    includeSuperseded,
    limit,
  });
}

// ---- edits ------------------------------------------------------------------------------------

export async function mergeEntityRefs(store: Store, ns: string, from: unknown, into: unknown, now: string): Promise<MergeResult> {
  return mergeEntities(store, ns, parseEntityRef(from, 'entity to merge'), parseEntityRef(into, 'entity to merge into'), now);
}

export async function renameEntityRef(store: Store, ns: string, ref: unknown, name: unknown, now: string): Promise<RenameResult> {
  const parsed = parseInput(nameSchema, name, 'name');
  // A name is shown, written into files and sent to models: a secret pasted as one never lands.
  return renameEntity(store, ns, parseEntityRef(ref), gateText(parsed), now);
}

export async function splitEntityRef(store: Store, ns: string, ref: unknown, input: unknown, now: string): Promise<SplitResult> {
  const request = parseInput(splitSchema, input, 'split request');
  return splitEntity(store, ns, parseEntityRef(ref), { ...request, ...(request.name !== undefined ? { name: gateText(request.name) } : {}) }, now);
}

// ---- helpers ----------------------------------------------------------------------------------

async function viewOf(store: Store, ns: string, e: EntityWithStats, settings: KnowledgeSettings, now: string): Promise<EntityView> {
  return view(e, await store.listFacts(ns, { entityId: e.entity.id, includeSuperseded: true }), settings, now);
}

function view(e: EntityWithStats, facts: Fact[], settings: KnowledgeSettings, now: string): EntityView {
  return {
    ...e.entity,
    stats: e.stats,
    para: paraKind(e, facts, now, { archiveAfterDays: settings.archiveAfterDays }),
    promoted: isPromoted(e, { promoteMentions: settings.promoteMentions, promoteImportance: settings.promoteImportance }),
  };
}

export type { EntityType, MergeResult, RenameResult, SplitResult };
