// Prepared-statement cache per connection: preparing costs more than running a small insert, and
// bulk paths run the same few statements hundreds of thousands of times.
import type { Database, Statement } from 'better-sqlite3';

const caches = new WeakMap<Database, Map<string, Statement>>();
const MAX_CACHED = 1000;

export function stmt(db: Database, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let s = cache.get(sql);
  if (!s) {
    // Dynamic SQL (IN lists of varying length, optional filters) must not grow it without bound.
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(sql, (s = db.prepare(sql)));
  }
  return s;
}
