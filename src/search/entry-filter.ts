// The search side of an EntryFilter: whether an index entry passes it (candidates from the vector
// side come unfiltered), and whether it filters at all. The store applies the same filter in SQL.
import type { EntryFilter, IndexEntry } from '../store/store.js';

/** The memory-id filter as a set, built once per filter object. */
const memoryIdSets = new WeakMap<readonly string[], ReadonlySet<string>>();
function inMemoryIds(ids: readonly string[], id: string): boolean {
  let set = memoryIdSets.get(ids);
  if (!set) memoryIdSets.set(ids, (set = new Set(ids)));
  return set.has(id);
}

/** Current now, or (as of a moment) superseded only after it. */
export function currentAt(e: IndexEntry, validAt: string | undefined): boolean {
  return e.current || (validAt !== undefined && e.validTo !== null && e.validTo > validAt);
}

export function passes(e: IndexEntry, f: EntryFilter): boolean {
  if (!f.includeSuperseded && !currentAt(e, f.validAt)) return false;
  if (f.memoryIds && !(e.kind === 'memory' && inMemoryIds(f.memoryIds, e.refId))) return false;
  if (f.kinds?.length && !f.kinds.includes(e.kind)) return false;
  if (f.layers?.length && !f.layers.includes(e.layer)) return false;
  if (f.categories?.length && (e.category === null || !f.categories.includes(e.category))) return false;
  if (f.minImportance !== undefined && (e.importance === null || e.importance < f.minImportance)) return false;
  if (f.since && e.time < f.since) return false;
  if (f.until && e.time > f.until) return false;
  return true;
}

export function hasFilter(f: EntryFilter): boolean {
  return Boolean(f.kinds?.length || f.layers?.length || f.categories?.length || f.minImportance !== undefined || f.since || f.until || f.memoryIds);
}
