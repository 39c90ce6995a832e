// Backups under `<home>/backups/`: a purge must reach them too, or a restore brings back what it
// removed. Every SQLite database found there is opened as a Cairn store and purged by the same
// rule (with its own audit entry, so a restored backup still shows it), then scrubbed. Any other
// file cannot be purged safely and is named in the report, so the person can delete it.
import { closeSync, existsSync, lstatSync, openSync, readSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { backupsDir, type HomePaths } from '../core/home.js';
import type { PurgeChanges, Store } from '../store/store.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';

const SQLITE_HEADER = 'SQLite format 3\0';
/** SQLite's companions of a database file: handled with the database. */
const COMPANION = /-(wal|shm|journal)$/;

export interface BackupOutcome {
  /** Databases purged (or, dry, that would be), relative to the home. */
  purged: string[];
  /** Files that could not be purged, with why. */
  skipped: Array<{ path: string; reason: string }>;
}


function isSqlite(path: string): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(16);
    return readSync(fd, head, 0, 16, 0) === 16 && head.toString('latin1') === SQLITE_HEADER;
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const st = lstatSync(path);
      if (st.isDirectory()) walk(path);
      else if (!COMPANION.test(name)) out.push(path);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

export interface BackupPurge {
  /** The purge's audit rule and who asked, recorded in each backup too. */
  audit: { namespace: string | null; via: string; rule: Record<string, unknown> };
  /** The same store change the live database got. */
  apply: (store: Store) => Promise<PurgeChanges>;
  dryRun: boolean;
  busyTimeoutMs?: number;
}

export async function purgeBackups(paths: HomePaths, purge: BackupPurge): Promise<BackupOutcome> {
  const outcome: BackupOutcome = { purged: [], skipped: [] };
  for (const file of filesUnder(backupsDir(paths))) {
    const shown = relative(paths.root, file);
    if (!isSqlite(file)) {
      outcome.skipped.push({ path: shown, reason: 'not a SQLite database: Cairn cannot purge it; delete it if it may hold what was purged' });
      continue;
    }
    if (purge.dryRun) {
      outcome.purged.push(shown);
      continue;
    }
    let store: SqliteStore | null = null;
    try {
      store = new SqliteStore(file, { busyTimeoutMs: purge.busyTimeoutMs });
      const entry = await store.startPurge(purge.audit);
      const changes = await purge.apply(store);
      await store.finishPurge(entry.id, { removed: changes.removed, rewritten: changes.rewritten, entries: { removed: changes.entriesRemoved, rewritten: changes.entriesRewritten } });
      await store.scrub();
      outcome.purged.push(shown);
    } catch (err) {
      outcome.skipped.push({ path: shown, reason: `could not be purged: ${(err as Error).message}` });
    } finally {
      await store?.close();
    }
  }
  return outcome;
}
