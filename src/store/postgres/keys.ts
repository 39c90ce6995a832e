// Entry keys (store.ts EntryKeys) for a PostgreSQL store: registered for its pool, and every
// entry's keys (and so its terms) brought to the provider's version when the store opens with keys
// of another version, in batches, each its own transaction, so a large store stays usable. Two
// processes opening at once both recompute the same values: harmless.
import type pg from 'pg';
import type { EntryKeys } from '../store.js';
import { transaction } from './connect.js';
import { entryTerms, setEntryKeysProvider } from './entry-terms.js';

const META_KEY = 'entry_keys';
const BATCH = 2000;

/** Returns how many entries' keys changed. */
export async function useEntryKeys(pool: pg.Pool, provider: EntryKeys): Promise<number> {
  setEntryKeysProvider(pool, provider);
  const stored = (await pool.query<{ value: string }>('SELECT value FROM store_meta WHERE key = $1', [META_KEY])).rows[0];
  if (stored?.value === provider.version) return 0;
  let changed = 0;
  let after = 0;
  for (;;) {
    const rows = (await pool.query<{ seq: number; body: string; keys: string }>('SELECT seq, body, keys FROM entries WHERE seq > $1 ORDER BY seq LIMIT $2', [after, BATCH])).rows;
    if (rows.length === 0) break;
    const updates = rows.map((r) => ({ seq: r.seq, body: r.body, keys: provider.keys(r.body) })).filter((u, i) => u.keys !== rows[i]!.keys);
    if (updates.length > 0) {
      await transaction(pool, async (client) => {
        for (const u of updates) {
          const { terms, length } = entryTerms(u.body, u.keys);
          await client.query('UPDATE entries SET keys = $2, terms = $3::tsvector, terms_len = $4 WHERE seq = $1', [u.seq, u.keys, terms, length]);
        }
      });
    }
    changed += updates.length;
    after = rows.at(-1)!.seq;
  }
  await pool.query('INSERT INTO store_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [META_KEY, provider.version]);
  return changed;
}
