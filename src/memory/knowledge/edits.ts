// A person's fixes to the entities: merge two into one, rename one, split names off into a new one.
// Each is composed from EntityEdit steps and applied by the store in one transaction. Every alias
// the person moved or chose is pinned: the knowledge pass and a knowledge reset never undo a pin,
// which is what makes a fix stick when the pass runs again.
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Entity, EntityType } from '../../core/types.js';
import type { AliasRow, EntityEdit, EntityWithStats } from '../../store/knowledge-records.js';
import type { Store } from '../../store/store.js';
import { aliasKey, slugify } from './entities/aliases.js';

/** Most memories of one entity an edit rewrites the names of (far above any real entity's count). */
export const EDIT_MEMORY_LIMIT = 100_000;
/** Suffixes tried before a slug falls back to one made unique by the entity's id. */
const SLUG_SUFFIX_TRIES = 50;

export interface MergeResult {
  /** The entity that remains, after the merge. */
  entity: EntityWithStats;
  removed: Pick<Entity, 'id' | 'name' | 'slug'>;
  /** Memories whose entity names were rewritten. */
  memories: number;
}

export interface RenameResult {
  entity: EntityWithStats;
  previousName: string;
  memories: number;
}

export interface SplitRequest {
  /** Names of the entity (any alias, as written or in any case) that belong to another entity. */
  aliases: string[];
  /** The new entity's name (default: the first alias as the entity knew it). */
  name?: string;
  /** The new entity's type (default: the source's). */
  type?: EntityType;
}

export interface SplitResult {
  /** The new entity. */
  entity: EntityWithStats;
  /** The entity the names were split off, as it stands after. */
  source: EntityWithStats;
  /** Memories that moved to the new entity: they name one of the split aliases and none of the remaining ones. */
  moved: string[];
  /** Memories that name both a split and a remaining alias: they stay with the source. */
  kept: string[];
}

/** An entity by id, slug or any of its names; NOT_FOUND when the namespace has none such. */
export async function resolveEntity(store: Store, ns: string, ref: string): Promise<EntityWithStats> {
  const direct = await store.getEntity(ns, ref);
  if (direct) return direct;
  const key = aliasKey(ref);
  const byAlias = key === '' ? undefined : (await store.entitiesByAliasKeys(ns, [key])).get(key);
  const found = byAlias ? await store.getEntity(ns, byAlias.id) : null;
  if (!found) throw new CairnError(ERROR_CODES.NOT_FOUND, `No entity "${shown(ref)}" in namespace ${ns} (give its id, slug or a name it is known by)`);
  return found;
}

/** Everything `from` was (names, mentions, facts) becomes part of `into`; `from` is removed. */
export async function mergeEntities(store: Store, ns: string, from: string, into: string, now: string): Promise<MergeResult> {
  const source = await resolveEntity(store, ns, from);
  const target = await resolveEntity(store, ns, into);
  if (source.entity.id === target.entity.id) {
    throw new CairnError(ERROR_CODES.CONFLICT, `"${shown(from)}" and "${shown(into)}" are the same entity (${target.entity.name}): nothing to merge`);
  }
  const memoryIds = await store.entityMemoryIds(ns, [source.entity.id], EDIT_MEMORY_LIMIT, { includeSuperseded: true });
  const oldKeys = keysOf(source.entity);
  const memoryEntities = await renamedInMemories(store, ns, memoryIds, oldKeys, target.entity.name);
  await store.editEntities({
    namespace: ns,
    pinAliases: [...aliasRows(source.entity, target.entity.id), ...aliasRows(target.entity, target.entity.id)],
    moveMentions: [{ from: source.entity.id, to: target.entity.id }],
    moveFacts: [{ from: source.entity.id, to: target.entity.id }],
    remove: [{ id: source.entity.id, mergedInto: target.entity.id }],
    memoryEntities,
    now,
  });
  return {
    entity: await reread(store, ns, target.entity.id),
    removed: { id: source.entity.id, name: source.entity.name, slug: source.entity.slug },
    memories: memoryEntities.length,
  };
}

/** A new display name (and slug); the name is locked against extraction and pinned as an alias. */
export async function renameEntity(store: Store, ns: string, ref: string, name: string, now: string): Promise<RenameResult> {
  const current = await resolveEntity(store, ns, ref);
  const display = checkedName(name);
  const key = aliasKey(display);
  await refuseTakenKeys(store, ns, [key], current.entity.id);
  const slug = await uniqueSlug(store, ns, display, current.entity.id);
  const memoryIds = await store.entityMemoryIds(ns, [current.entity.id], EDIT_MEMORY_LIMIT, { includeSuperseded: true });
  const memoryEntities = await renamedInMemories(store, ns, memoryIds, keysOf(current.entity), display);
  await store.editEntities({
    namespace: ns,
    update: [{ id: current.entity.id, name: display, slug, locked: true }],
    pinAliases: [...aliasRows(current.entity, current.entity.id), { key, entityId: current.entity.id, display }],
    memoryEntities,
    now,
  });
  return { entity: await reread(store, ns, current.entity.id), previousName: current.entity.name, memories: memoryEntities.length };
}

/**
 * Names that were wrongly taken as one entity become another: the given aliases (and the new
 * name) are pinned onto a new entity, the rest stay pinned on the source, and the memories that
 * name only split aliases move to it with their facts.
 */
export async function splitEntity(store: Store, ns: string, ref: string, request: SplitRequest, now: string): Promise<SplitResult> {
  const source = await resolveEntity(store, ns, ref);
  const known = new Map(source.entity.aliases.map((a) => [aliasKey(a), a] as const));
  if (request.aliases.length === 0) throw new CairnError(ERROR_CODES.INVALID_INPUT, 'Name at least one alias to split off');
  const splitKeys = new Set<string>();
  for (const alias of request.aliases) {
    const key = aliasKey(alias);
    if (!known.has(key)) {
      throw new CairnError(ERROR_CODES.INVALID_INPUT, `"${shown(alias)}" is not a name of ${source.entity.name} (its names: ${[...known.values()].map((a) => `"${shown(a)}"`).join(', ')})`);
    }
    splitKeys.add(key);
  }
  const remaining = [...known.entries()].filter(([key]) => !splitKeys.has(key));
  if (remaining.length === 0) {
    throw new CairnError(ERROR_CODES.CONFLICT, `Splitting every name off ${source.entity.name} would leave it nameless: rename it instead`);
  }
  const name = request.name === undefined ? known.get([...splitKeys][0]!)! : checkedName(request.name);
  const nameKey = aliasKey(name);
  if (!splitKeys.has(nameKey)) {
    if (known.has(nameKey)) throw new CairnError(ERROR_CODES.CONFLICT, `"${shown(name)}" stays a name of ${source.entity.name}: split it off too, or choose another name`);
    await refuseTakenKeys(store, ns, [nameKey], source.entity.id);
  }

  const id = newId('e', Date.parse(now) || Date.now());
  const slug = await uniqueSlug(store, ns, name, id);
  // The source keeps a name of its own: when its display name was split off, its longest remaining name.
  const sourceKeepsName = !splitKeys.has(aliasKey(source.entity.name));
  const sourceName = sourceKeepsName ? source.entity.name : remaining.map(([, display]) => display).sort((a, b) => b.length - a.length || a.localeCompare(b))[0]!;

  const splitNeedles = [...splitKeys].map((k) => needleOf(known.get(k)!));
  const remainingNeedles = remaining.map(([, display]) => needleOf(display));
  const memoryIds = await store.entityMemoryIds(ns, [source.entity.id], EDIT_MEMORY_LIMIT, { includeSuperseded: true });
  const moved: string[] = [];
  const kept: string[] = [];
  const memoryEntities: EntityEdit['memoryEntities'] = [];
  for (const memoryId of memoryIds) {
    const memory = await store.getMemory(ns, memoryId);
    if (!memory) continue;
    const text = haystackOf(memory.text);
    if (!namesAny(text, splitNeedles, remainingNeedles)) {
      if (!sourceKeepsName) memoryEntities.push({ memoryId, entities: replaceName(memory.entities, keysOf(source.entity), sourceName) });
      continue;
    }
    if (namesAny(text, remainingNeedles, splitNeedles)) {
      kept.push(memoryId);
      if (!sourceKeepsName) memoryEntities.push({ memoryId, entities: replaceName(memory.entities, keysOf(source.entity), sourceName) });
      continue;
    }
    moved.push(memoryId);
    memoryEntities.push({ memoryId, entities: replaceName(memory.entities, keysOf(source.entity), name) });
  }

  const pins: AliasRow[] = [...splitKeys].map((key) => ({ key, entityId: id, display: known.get(key)! }));
  if (!splitKeys.has(nameKey)) pins.push({ key: nameKey, entityId: id, display: name });
  pins.push(...remaining.map(([key, display]) => ({ key, entityId: source.entity.id, display })));
  await store.editEntities({
    namespace: ns,
    create: [{ id, name, slug, type: request.type ?? source.entity.type, relation: null }],
    update: [
      { id, locked: true },
      ...(sourceKeepsName ? [] : [{ id: source.entity.id, name: sourceName, slug: await uniqueSlug(store, ns, sourceName, source.entity.id), locked: true }]),
    ],
    pinAliases: pins,
    ...(moved.length ? { moveMentions: [{ from: source.entity.id, to: id, memoryIds: moved }], moveFacts: [{ from: source.entity.id, to: id, memoryIds: moved }] } : {}),
    memoryEntities,
    now,
  });
  return { entity: await reread(store, ns, id), source: await reread(store, ns, source.entity.id), moved, kept };
}

/** A slug for `name` no other entity of the namespace has: `ana`, else `ana-2`, `ana-3`, … */
export async function uniqueSlug(store: Store, ns: string, name: string, selfId: string): Promise<string> {
  const base = slugify(name);
  for (let n = 1; n <= SLUG_SUFFIX_TRIES; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    const holder = await store.getEntity(ns, candidate);
    if (!holder || holder.entity.id === selfId) return candidate;
  }
  // Dozens of equal names: the id's random tail is unique by construction.
  return `${base}-${selfId.slice(-8).toLowerCase()}`;
}

// ---- helpers -------------------------------------------------------------------------------

/** At most this many characters of a caller's text in an error message. */
const SHOWN_CHARS = 80;

function shown(text: string): string {
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

/** A name a person gave: trimmed, one line, not empty, and one that has a key (not only punctuation). */
function checkedName(name: string): string {
  const display = name.replace(/\s+/g, ' ').trim();
  if (display === '' || aliasKey(display) === '') throw new CairnError(ERROR_CODES.INVALID_INPUT, `"${shown(name)}" is not a usable name: it needs a letter or digit`);
  return display;
}

async function refuseTakenKeys(store: Store, ns: string, keys: string[], selfId: string): Promise<void> {
  const holders = await store.entitiesByAliasKeys(ns, keys);
  for (const holder of holders.values()) {
    if (holder.id !== selfId) {
      throw new CairnError(ERROR_CODES.CONFLICT, `That name already belongs to ${holder.name} (${holder.slug}): merge the two instead (cairn entity merge)`);
    }
  }
}

async function reread(store: Store, ns: string, id: string): Promise<EntityWithStats> {
  const found = await store.getEntity(ns, id);
  if (!found) throw new CairnError(ERROR_CODES.CONFLICT, `Entity ${id} changed while it was being edited; look again`);
  return found;
}

function keysOf(entity: Entity): Set<string> {
  return new Set([entity.name, ...entity.aliases].map(aliasKey));
}

function aliasRows(entity: Entity, entityId: string): AliasRow[] {
  const seen = new Set<string>();
  const rows: AliasRow[] = [];
  for (const display of [entity.name, ...entity.aliases]) {
    const key = aliasKey(display);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    rows.push({ key, entityId, display });
  }
  return rows;
}

/** A memory's entity names with every name of the old entity replaced by `name` (once). */
function replaceName(entities: readonly string[], oldKeys: ReadonlySet<string>, name: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const n of [...entities.filter((e) => !oldKeys.has(aliasKey(e))), name]) {
    const key = aliasKey(n);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(n);
  }
  return out;
}

async function renamedInMemories(store: Store, ns: string, memoryIds: readonly string[], oldKeys: ReadonlySet<string>, name: string): Promise<NonNullable<EntityEdit['memoryEntities']>> {
  const out: NonNullable<EntityEdit['memoryEntities']> = [];
  for (const memoryId of memoryIds) {
    const memory = await store.getMemory(ns, memoryId);
    if (memory) out.push({ memoryId, entities: replaceName(memory.entities, oldKeys, name) });
  }
  return out;
}

// Whether a memory's text names an alias: word by word, in lower case, punctuation as a space, so
// "Ana Lima's" names "Ana Lima" and "Banana" does not name "Ana". Scripts written without spaces
// between words (Han, kana, Thai…) have no word edges to test: there the name is found anywhere.
const NO_SPACES_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

function haystackOf(text: string): string {
  return ` ${words(text)} `;
}

function needleOf(alias: string): string {
  const w = aliasKey(alias);
  return NO_SPACES_SCRIPT.test(w) ? w : ` ${w} `;
}

/**
 * Whether the text names one of `needles` on its own: where a longer name of the other side
 * contains it ("Alex" inside "Alex Park"), that occurrence is the other side's, not this one's.
 */
function namesAny(haystack: string, needles: readonly string[], others: readonly string[]): boolean {
  return needles.some((needle) => {
    if (needle.trim() === '') return false;
    let text = haystack;
    for (const other of others) if (other.length > needle.length && other.includes(needle.trim())) text = text.split(other).join('  ');
    return text.includes(needle);
  });
}

function words(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ').trim();
}

