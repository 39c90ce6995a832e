// The entries of a namespace, kept per connection, for BM25 in a home of many namespaces. The
// keyword index is one table for the whole home, so a namespace's top hits were the join of every
// match of the query with its entry, each scored by FTS5 (0.7 ms a LoCoMo search: 453 of 510
// searches of ten conversations in one home took that path). With the namespace's entries at hand,
// its top hits come from the per-term scores term-scores.ts keeps, as a home of one namespace's do.
// Emptied on any write (changeToken): an entry added, superseded or purged changes the list.
import type { Database } from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import type { EntryFilter } from '../store.js';
import { changeToken } from './context.js';
import { stmt } from './statements.js';

/**
 * Seqs kept over all namespaces (8 bytes each: 8 MB), the least recently asked going first. A
 * namespace of more is not kept (namespaceMembers).
 */
const MAX_MEMBER_SEQS = 1_000_000;

interface MemberCache {
  token: string;
  bound: number;
  lists: LRUCache<string, Float64Array>;
  /** Lists found longer than the bound: asked again, the caller joins instead. */
  tooLong: Set<string>;
}

const caches = new WeakMap<Database, MemberCache>();

/**
 * For each filter condition, whether a filter leaves it unasked. Every field of EntryFilter must be
 * here (the type says so): a condition added later is never taken as answered by mistake.
 */
const UNASKED: { readonly [K in keyof Required<EntryFilter>]: (f: EntryFilter) => boolean } = {
  kinds: () => true,
  categories: (f) => !f.categories?.length,
  minImportance: (f) => f.minImportance === undefined,
  since: (f) => !f.since,
  until: (f) => !f.until,
  includeSuperseded: () => true,
  layers: (f) => !f.layers?.length,
  validAt: (f) => f.validAt === undefined || f.includeSuperseded === true,
  memoryIds: (f) => f.memoryIds === undefined,
  allTerms: (f) => !f.allTerms,
};
const CONDITIONS = Object.values(UNASKED);

/**
 * Whether `filter` asks only what the member lists answer: entries of some kinds (search leaves
 * digests to its layers: memory, turn and document by default), current now or every one
 * (includeSuperseded). Any other condition is left to SQL (entries.ts filterSql).
 */
export function membersAnswer(filter: EntryFilter | undefined): boolean {
  return filter === undefined || CONDITIONS.every((unasked) => unasked(filter));
}

/**
 * The seqs of the namespace's entries that pass `filter` (one membersAnswer accepts), ascending;
 * null for a namespace found too large to keep before (its top hits are then the join's: reading
 * a million seqs at every search would cost more than scoring the query's matches).
 */
export function namespaceMembers(db: Database, namespace: string, filter: EntryFilter | undefined, bound = MAX_MEMBER_SEQS): Float64Array | null {
  const token = changeToken(db);
  let cache = caches.get(db);
  if (!cache || cache.token !== token || cache.bound !== bound) {
    caches.set(db, (cache = { token, bound, lists: new LRUCache({ maxSize: Math.max(1, bound), sizeCalculation: (l) => Math.max(1, l.length) }), tooLong: new Set() }));
  }
  const all = filter?.includeSuperseded === true;
  const kinds = filter?.kinds?.length ? [...new Set(filter.kinds)].sort() : null;
  const key = JSON.stringify([namespace, all, kinds]);
  if (cache.tooLong.has(key)) return null;
  const kept = cache.lists.get(key);
  if (kept) return kept;
  const where = ['namespace = ?'];
  if (!all) where.push('current = 1');
  if (kinds) where.push(`kind IN (${kinds.map(() => '?').join(', ')})`);
  // Sorted here: ORDER BY seq would walk the whole table in rowid order rather than the namespace's index.
  const seqs = stmt(db, `SELECT seq FROM entries WHERE ${where.join(' AND ')}`).pluck().all(namespace, ...(kinds ?? [])) as number[];
  const list = Float64Array.from(seqs).sort();
  if (list.length > bound) cache.tooLong.add(key);
  else cache.lists.set(key, list);
  return list;
}
