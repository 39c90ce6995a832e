// NOT PORTED YET (see sqlite/keys.ts).
import type { EntryKeys } from '../store.js';
import type { Db } from './connect.js';

export async function useEntryKeys(_db: Db, _provider: EntryKeys): Promise<number> {
  return 0;
}
