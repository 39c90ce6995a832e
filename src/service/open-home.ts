// Opening a data directory for the facade: the folder, its database, and namespaces with names the
// home now keeps for itself renamed. What was done is returned as notices for the caller to show
// once.
import { mkdirSync } from 'node:fs';
import type { HomePaths } from '../core/home.js';
import type { EntryKeys } from '../store/store.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { renameReservedNamespaces } from './reserved-namespaces.js';

export interface OpenedHome {
  store: SqliteStore;
  notices: string[];
}

export async function openHome(paths: HomePaths, options: { busyTimeoutMs?: number; entryKeys: EntryKeys }): Promise<OpenedHome> {
  mkdirSync(paths.root, { recursive: true });
  const store = new SqliteStore(paths.database, options);
  const notices: string[] = [];
  try {
    notices.push(...(await renameReservedNamespaces(store, paths)));
  } catch (err) {
    await store.close();
    throw err;
  }
  return { store, notices };
}
