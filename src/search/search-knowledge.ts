// What knowledge adds to a search: an `entity` filter (only memories about it), a preference for
// memories about the entities a query names, and, for a result that is no longer current, what
// superseded it. The entity rules (alias keys) come from the memory part.
import { resolveEntity } from '../memory/knowledge/edits.js';
import type { SpeakerCount, Store } from '../store/store.js';
import type { SearchResult } from './hybrid.js';

/** Memories an entity filter or boost considers at most (newest first). */
const ENTITY_MEMORY_CAP = 20_000;
const BOOST_MEMORY_CAP = 2_000;
/** Longest name a query is read for, in words ("Ana Souza", "New York City"). */
const MAX_NAME_WORDS = 3;

/** Ids of the memories about the entity `ref` names (id, slug or any alias; NOT_FOUND else), for EntryFilter.memoryIds. */
export async function entityFilterIds(store: Store, namespace: string, ref: string, includeSuperseded: boolean): Promise<string[]> {
  const { entity } = await resolveEntity(store, namespace, ref);
  return store.entityMemoryIds(namespace, [entity.id], ENTITY_MEMORY_CAP, { includeSuperseded });
}

/**
 * Memories about the entities a query names (every run of up to three words whose alias key is an
 * entity's), leaving out people the query names as speakers: the speaker factor already prefers
 * what they said, and both together would rank a person's every line over the answer.
 */
export async function queryEntityMemories(
  store: Store,
  namespace: string,
  query: string,
  aliasKey: (name: string) => string,
  speakers: readonly SpeakerCount[],
): Promise<Set<string>> {
  const words = query.split(/[\s,;:!?()[\]{}"“”]+/u).filter(Boolean).slice(0, 64);
  const keys = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= MAX_NAME_WORDS && i + n <= words.length; n++) {
      const key = aliasKey(words.slice(i, i + n).join(' '));
      if (key.length >= 2) keys.add(key);
    }
  }
  if (keys.size === 0) return new Set();
  const found = await store.entitiesByAliasKeys(namespace, [...keys]);
  if (found.size === 0) return new Set();
  // Only a person the query names can be a speaker: a namespace of chat has thousands of speakers,
  // and keying every name on every search cost ~1.7 ms of a search on 50k turns.
  let speakerKeys: Set<string> | undefined;
  const isSpeaker = (alias: string) => (speakerKeys ??= new Set(speakers.map((s) => aliasKey(s.name)))).has(aliasKey(alias));
  const ids = [...new Set([...found.values()].filter((e) => !(e.type === 'person' && e.aliases.some(isSpeaker))).map((e) => e.id))];
  if (ids.length === 0) return new Set();
  return new Set(await store.entityMemoryIds(namespace, ids, BOOST_MEMORY_CAP));
}

/** Says, on each memory result that is no longer current, which memory superseded it. */
export async function markSuperseded(store: Store, namespace: string, results: SearchResult[]): Promise<void> {
  for (const r of results) {
    if (r.kind !== 'memory' || (r.current && r.validTo === null)) continue;
    const m = await store.getMemory(namespace, r.id);
    if (m?.supersededBy) r.supersededBy = m.supersededBy;
  }
}
