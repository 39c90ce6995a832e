// Opening a data directory for the facade: the folder (created private), its database, its modes
// made private once, and namespaces with names the home now keeps for itself renamed. What was
// done is returned as notices for the caller to show once.
import { mkdirSync } from 'node:fs';
import type { HomePaths } from '../core/home.js';
import { PRIVATE_DIR_MODE, homeNeedsPrivacy, makeHomePrivate } from '../core/private-files.js';
import type { EntryKeys } from '../store/store.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { renameReservedNamespaces } from './reserved-namespaces.js';

export interface OpenedHome {
  store: SqliteStore;
  notices: string[];
}

export async function openHome(paths: HomePaths, options: { busyTimeoutMs?: number; entryKeys: EntryKeys }): Promise<OpenedHome> {
  mkdirSync(paths.root, { recursive: true, mode: PRIVATE_DIR_MODE });
  const store = new SqliteStore(paths.database, options);
  const notices: string[] = [];
  try {
    if (homeNeedsPrivacy(paths)) {
      const fixed = makeHomePrivate(paths, await store.namespaceIds());
      if (fixed > 0) notices.push(`fixed permissions of ${fixed} files and folders in ${paths.root}: now readable by you only (folders 0700, files 0600)`);
    }
    notices.push(...(await renameReservedNamespaces(store, paths)));
  } catch (err) {
    await store.close();
    throw err;
  }
  return { store, notices };
}
