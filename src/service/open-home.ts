// Opening a data directory for the facade: a folder (created private), its store opened (the
// SQLite file in it, read-write or read-only when this process cannot write the home; or the
// PostgreSQL database the config or CAIRN_DATABASE_URL names, with no database file in the home),
// its modes made private once, and namespaces with names the home now keeps for itself renamed.
// What was done is returned as notices for the caller to show once.
import { hostname } from 'node:os';
import { ensureHomeDir, whyReadOnly, type HomePaths } from '../core/home.js';
import { homeNeedsPrivacy, makeHomePrivate } from '../core/private-files.js';
import { storeTarget, type StoreConfig } from '../core/store-config.js';
import type { EntryKeys, Store } from '../store/store.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { renameReservedNamespaces } from './reserved-namespaces.js';

export interface OpenedHome {
  store: Store;
  /** Why the home cannot be written (reads work, writes fail with READ_ONLY), or null. */
  readOnly: string | null;
  notices: string[];
}

export interface OpenHomeOptions {
  busyTimeoutMs?: number;
  /** SQLite only: read the database file through a memory map (a process that ends soon). */
  mapped?: boolean;
  entryKeys: EntryKeys;
  /** The config's `store`; default the SQLite file in the home. */
  store?: StoreConfig;
}

export async function openHome(paths: HomePaths, options: OpenHomeOptions): Promise<OpenedHome> {
  ensureHomeDir(paths);
  let readOnly = whyReadOnly(paths);
  const target = options.store ? storeTarget(options.store) : ({ backend: 'sqlite' } as const);
  let store: Store;
  if (target.backend === 'postgres') {
    // Loaded only here: a SQLite home never loads the PostgreSQL driver (cold start, issue 29).
    const { PgStore } = await import('../store/postgres/pg-store.js');
    // application_name shows which machine a connection is from (pg_stat_activity); at most 63 bytes.
    store = await PgStore.open({ url: target.url, schema: target.schema, max: target.poolSize, entryKeys: options.entryKeys, applicationName: `cairn@${hostname()}`.slice(0, 63) });
  } else {
    const sqlite = new SqliteStore(paths.database, { busyTimeoutMs: options.busyTimeoutMs, entryKeys: options.entryKeys, readonly: readOnly !== null, mapped: options.mapped });
    if (sqlite.snapshot) readOnly += '; read from a temporary copy, as SQLite cannot read it in place';
    store = sqlite;
  }
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
