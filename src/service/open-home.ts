// Opening a data directory for the facade: a folder (created private), its database opened
// read-write, or read-only when this process cannot write the home, its modes made private once,
// and namespaces with names the home now keeps for itself renamed. What was done is returned as
// notices for the caller to show once.
import { ensureHomeDir, whyReadOnly, type HomePaths } from '../core/home.js';
import { homeNeedsPrivacy, makeHomePrivate } from '../core/private-files.js';
import type { EntryKeys } from '../store/store.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { renameReservedNamespaces } from './reserved-namespaces.js';

export interface OpenedHome {
  store: SqliteStore;
  /** Why the home cannot be written (reads work, writes fail with READ_ONLY), or null. */
  readOnly: string | null;
  notices: string[];
}

export async function openHome(paths: HomePaths, options: { busyTimeoutMs?: number; entryKeys: EntryKeys }): Promise<OpenedHome> {
  ensureHomeDir(paths);
  let readOnly = whyReadOnly(paths);
  const store = new SqliteStore(paths.database, { ...options, readonly: readOnly !== null });
  if (store.snapshot) readOnly += '; read from a temporary copy, as SQLite cannot read it in place';
  const notices: string[] = [];
  try {
    if (homeNeedsPrivacy(paths)) {
      const fixed = makeHomePrivate(paths, await store.namespaceIds());
      if (fixed > 0) notices.push(`fixed permissions of ${fixed} files and folders in ${paths.root}: now readable by you only (folders 0700, files 0600)`);
    }
    if (readOnly === null) notices.push(...(await renameReservedNamespaces(store, paths)));
  } catch (err) {
    await store.close();
    throw err;
  }
  return { store, readOnly, notices };
}
