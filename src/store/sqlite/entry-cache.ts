// Index entries kept per connection between searches. A search hydrates ~180 entries (its
// candidates and the neighbours that become hits), and the next search of the namespace asks for
// many of the same: reading them again was an eighth of a LoCoMo search. Emptied on any write
// (context.ts changeToken: this connection's changes or another's commit), so an entry is never
// older than the database it is read from. Bounded by the characters it holds, oldest first.
import type { Database } from 'better-sqlite3';
import type { IndexEntry } from '../store.js';
import { changeToken } from './context.js';

const MAX_CACHED_CHARS = 8_000_000;
const ENTRY_OVERHEAD = 300;

interface EntryCache {
  token: string;
  entries: Map<number, IndexEntry>;
  size: number;
}

const caches = new WeakMap<Database, EntryCache>();

const weight = (e: IndexEntry) => e.text.length + ENTRY_OVERHEAD;

/** A copy a caller may change without changing the cached entry. */
const copy = (e: IndexEntry): IndexEntry => ({ ...e, provenance: e.provenance.map((p) => ({ ...p })) });

/**
 * The entries of `namespace` among `seqs`, in ascending seq order and each once (the order the
 * store's read returns them in): cached ones as kept, the rest through `read` (given them in
 * ascending order), which are kept for the next call.
 */
export function cachedEntries(
  db: Database,
  namespace: string,
  seqs: readonly number[],
  read: (seqs: readonly number[]) => IndexEntry[],
  budgetChars = MAX_CACHED_CHARS,
): IndexEntry[] {
  const token = changeToken(db);
  let cache = caches.get(db);
  if (!cache || cache.token !== token) caches.set(db, (cache = { token, entries: new Map(), size: 0 }));
  const wanted = [...new Set(seqs)].sort((a, b) => a - b);
  const missing = wanted.filter((s) => !cache.entries.has(s));
  const fresh = new Map<number, IndexEntry>();
  if (missing.length) {
    for (const e of read(missing)) {
      fresh.set(e.seq, e);
      cache.entries.set(e.seq, e);
      cache.size += weight(e);
    }
  }
  const out: IndexEntry[] = [];
  for (const seq of wanted) {
    const e = fresh.get(seq) ?? cache.entries.get(seq);
    if (e && e.namespace === namespace) out.push(copy(e));
  }
  // Only once the answer is taken: evicting first dropped the asked entries that were cached
  // and among the oldest (at 100k memories, once the cache was full, a search lost a candidate
  // or two in one of ~25 searches, and with it other coverage weights and scores).
  for (const [seq, e] of cache.entries) {
    if (cache.size <= budgetChars) break;
    cache.entries.delete(seq);
    cache.size -= weight(e);
  }
  return out;
}
