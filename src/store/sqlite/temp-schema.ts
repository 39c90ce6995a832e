// Objects a connection makes in its own temp schema (no change to the file, nothing another process
// sees): triggers counting its writes (turn-writes.ts), the keyword index's instance table
// (term-frequencies.ts). Made once per connection and outside any transaction: one rolled back would
// take them with it, and every later statement would then ask for objects that are gone.
import type { Database } from 'better-sqlite3';

/** Per connection: which sets of objects it holds (false: making them failed; the caller does without). */
const made = new WeakMap<Database, Map<string, boolean>>();

/**
 * Whether the connection holds the objects `make` makes under `name`, making them the first time it
 * is asked outside a transaction. Inside one, false until then.
 */
export function inTempSchema(db: Database, name: string, make: (db: Database) => void): boolean {
  let byName = made.get(db);
  if (!byName) made.set(db, (byName = new Map()));
  let ready = byName.get(name);
  if (ready !== undefined) return ready;
  if (db.inTransaction) return false;
  try {
    make(db);
    ready = true;
  } catch {
    ready = false;
  }
  byName.set(name, ready);
  return ready;
}
