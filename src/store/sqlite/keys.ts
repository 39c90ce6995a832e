// Entry keys (store.ts EntryKeys) for one connection: computed from an entry's body when it is
// written, and recomputed for every entry when the store opens with keys of another version (new
// gazetteer data, keys switched off) so old and new entries are found alike.
import type { Database } from 'better-sqlite3';
import type { EntryKeys } from '../store.js';
import { stmt } from './statements.js';

const providers = new WeakMap<Database, EntryKeys>();
const META_KEY = 'entry_keys';
const BATCH = 2000;

/** The keys of a body about to be written ('' when the connection has no keys provider). */
export function keysOf(db: Database, body: string): string {
  return providers.get(db)?.keys(body) ?? '';
}

/**
 * Registers the provider for this connection and brings every entry's keys to its version. Entries
 * are keyed in batches, each its own transaction, so a large store stays usable meanwhile.
 * Returns how many entries' keys changed.
 */
export function useEntryKeys(db: Database, provider: EntryKeys): number {
  providers.set(db, provider);
  const stored = stmt(db, 'SELECT value FROM store_meta WHERE key = ?').get(META_KEY) as { value: string } | undefined;
  if (stored?.value === provider.version) return 0;
  const page = stmt(db, 'SELECT seq, body, keys FROM entries WHERE seq > ? ORDER BY seq LIMIT ?');
  const update = stmt(db, 'UPDATE entries SET keys = ? WHERE seq = ?');
  let changed = 0;
  let after = 0;
  for (;;) {
    const rows = page.all(after, BATCH) as Array<{ seq: number; body: string; keys: string }>;
    if (rows.length === 0) break;
    const updates = rows.map((r) => ({ seq: r.seq, keys: provider.keys(r.body) })).filter((u, i) => u.keys !== rows[i]!.keys);
    db.transaction(() => {
      for (const u of updates) update.run(u.keys, u.seq);
    }).immediate();
    changed += updates.length;
    after = rows.at(-1)!.seq;
  }
  stmt(db, 'INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(META_KEY, provider.version);
  return changed;
}
