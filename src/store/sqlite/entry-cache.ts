// Index entries kept per connection between searches. A search hydrates ~180 entries (its
// candidates and the neighbours that become hits), and the next search of the namespace asks for
// many of the same: reading them again was an eighth of a LoCoMo search. Emptied on any write
// (context.ts changeToken: this connection's changes or another's commit), so an entry is never
// older than the database it is read from. Bounded by the characters it holds, the least recently
// asked first (lru-cache: a Map evicted from its front by iteration, as this was, walks over every
// slot deleted since the map last rehashed, ~35 µs an eviction at 40k entries).
import type { Database } from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import type { IndexEntry } from '../store.js';
import { changeToken } from './context.js';

const MAX_CACHED_CHARS = 8_000_000;
const ENTRY_OVERHEAD = 300;

interface EntryCache {
  token: string;
  budget: number;
  entries: LRUCache<number, IndexEntry>;
}

const caches = new WeakMap<Database, EntryCache>();

const weight = (e: IndexEntry) => e.text.length + ENTRY_OVERHEAD;

/** A copy a caller may change without changing the cached entry. */
const copy = (e: IndexEntry): IndexEntry => ({ ...e, provenance: e.provenance.map((p) => ({ ...p })) });

/**
 * The entries of `namespace` among `seqs`, in ascending seq order and each once (the order the
 * store's read returns them in): cached ones as kept, the rest through `read` (given them in
 * ascending order), which are kept for the next call. Copies unless `copies` is false (a caller
 * inside the store that only reads them).
 */
export function cachedEntries(
  db: Database,
  namespace: string,
  seqs: readonly number[],
  read: (seqs: readonly number[]) => IndexEntry[],
  budgetChars = MAX_CACHED_CHARS,
  copies = true,
): IndexEntry[] {
  const token = changeToken(db);
  let cache = caches.get(db);
  if (!cache || cache.token !== token || cache.budget !== budgetChars) {
    caches.set(db, (cache = { token, budget: budgetChars, entries: new LRUCache({ maxSize: Math.max(1, budgetChars), sizeCalculation: weight }) }));
  }
  const wanted = [...new Set(seqs)].sort((a, b) => a - b);
  // The answer is taken before anything is added: adding makes room, and what it evicts (the least
  // recently asked) may be asked now.
  const found = new Map<number, IndexEntry>();
  const missing: number[] = [];
  for (const seq of wanted) {
    const e = cache.entries.get(seq);
    if (e) found.set(seq, e);
    else missing.push(seq);
  }
  const fresh = missing.length ? read(missing) : [];
  for (const e of fresh) found.set(e.seq, e);
  const out: IndexEntry[] = [];
  for (const seq of wanted) {
    const e = found.get(seq);
    if (e && e.namespace === namespace) out.push(copies ? copy(e) : e);
  }
  for (const e of fresh) cache.entries.set(e.seq, e);
  return out;
}
