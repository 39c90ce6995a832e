// Putting a backup back as the home's database. Only with no other process on the database: the
// daemon's lock is checked, then SQLite itself is asked (leaving WAL needs every other connection
// closed, an MCP server or `cairn serve` included). The backup is copied and verified before the
// live database is touched; the live database is kept as a `pre-restore` backup (the undo), then
// replaced by one rename. Derived data that would pair the older store with newer state goes: the
// saved vector indexes (rebuilt from the store's vectors when next searched) and the raw views'
// watermarks (wound back to the restored turns).
import type Database from 'better-sqlite3';
import { newDatabase } from '../store/sqlite/driver.js';
import { chmodSync, closeSync, constants, copyFileSync, existsSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import type { HomePaths } from '../core/home.js';
import { lockHolder } from '../core/lock.js';
import { isReservedName, parseNamespace } from '../core/namespace.js';
import { PRIVATE_FILE_MODE } from '../core/private-files.js';
import { SCHEMA_VERSION } from '../store/sqlite/migrations.js';
import { createBackup, findBackup, nextBackupPath, parseBackupId, removeDatabaseFiles, verifyDatabaseFile, type BackupInfo, type VerifiedDatabase } from './backup.js';
import { rewindRealtimeView } from './realtime-view.js';

export interface RestoreReport {
  restored: string;
  schemaVersion: number;
  counts: VerifiedDatabase['counts'];
  /** The database as it was before, kept as a backup (null when the home had none). */
  previous: BackupInfo | null;
  /** Saved vector indexes removed (rebuilt from the store when next searched). */
  indexRemoved: boolean;
  /** Namespaces whose raw view will append turns again from the restored store's newest. */
  viewsRewound: string[];
}

const ALL_PAGES = 0x7fffffff;

function busy(err: unknown): boolean {
  return String((err as { code?: unknown }).code ?? '').startsWith('SQLITE_BUSY') || String((err as { code?: unknown }).code ?? '').startsWith('SQLITE_LOCKED');
}

function damaged(err: unknown): boolean {
  const code = String((err as { code?: unknown }).code ?? '');
  return code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT');
}

/** A live database SQLite cannot read is still kept, byte for byte, as the restore's undo. */
function keepDamaged(paths: HomePaths, now: Date): BackupInfo {
  const { id, path } = nextBackupPath(paths, 'pre-restore', now);
  copyFileSync(paths.database, path, constants.COPYFILE_EXCL);
  chmodSync(path, PRIVATE_FILE_MODE);
  if (existsSync(`${paths.database}-wal`)) {
    copyFileSync(`${paths.database}-wal`, `${path}-wal`);
    chmodSync(`${path}-wal`, PRIVATE_FILE_MODE);
  }
  const { createdAt } = parseBackupId(id);
  return { id, path, kind: 'pre-restore', createdAt, sizeBytes: statSync(path).size, schemaVersion: null, counts: null, problem: 'the database replaced was unreadable; kept as it was' };
}

function refuseUnderDaemon(paths: HomePaths): void {
  const holder = lockHolder(paths.daemonLock);
  if (holder) {
    throw new CairnError(ERROR_CODES.CONFLICT, `cairn watch is running for this data directory (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}); stop it before a restore`, { ...holder });
  }
}

/** Copies the backup beside the database and verifies the copy; nothing of the home is touched yet. */
async function stage(backupPath: string, id: string, staged: string): Promise<VerifiedDatabase> {
  let source: Database.Database | null = null;
  try {
    closeSync(openSync(staged, 'wx', PRIVATE_FILE_MODE));
    source = newDatabase(backupPath, { readonly: true, fileMustExist: true });
    await source.backup(staged, { progress: () => ALL_PAGES });
  } catch (err) {
    throw new CairnError(ERROR_CODES.STORE_CORRUPT, `Backup ${id} cannot be read: ${(err as Error).message}; nothing was changed`, undefined, { cause: err });
  } finally {
    source?.close();
  }
  try {
    return verifyDatabaseFile(staged, { maxSchema: SCHEMA_VERSION, selfContained: true });
  } catch (err) {
    const e = err as CairnError;
    throw new CairnError(e.code, `Backup ${id} cannot be restored: ${e.message}; nothing was changed`, e.details, { cause: err });
  }
}

/**
 * Opens the live database alone: its WAL folded in and left (SQLite refuses while any other
 * connection is open), then an exclusive lock, so no process reads or writes it while it is
 * copied and swapped. Returns null when the home has no database.
 */
function takeLiveDatabase(paths: HomePaths): Database.Database | 'damaged' | null {
  if (!existsSync(paths.database)) return null;
  let live: Database.Database;
  try {
    live = newDatabase(paths.database, { fileMustExist: true });
  } catch (err) {
    if (damaged(err)) return 'damaged';
    throw err;
  }
  try {
    live.pragma('busy_timeout = 0');
    let mode: unknown;
    try {
      mode = live.pragma('journal_mode = DELETE', { simple: true });
    } catch (err) {
      if (damaged(err)) {
        live.close();
        return 'damaged';
      }
      if (!busy(err)) throw err;
    }
    if (mode !== 'delete') {
      throw new CairnError(ERROR_CODES.CONFLICT, `Another process has ${paths.database} open (an MCP server, "cairn serve", a running command); stop it before a restore. Nothing was changed.`);
    }
    return live;
  } catch (err) {
    live.close();
    throw err;
  }
}

function rewindViews(paths: HomePaths, maxSeq: number): string[] {
  const rewound: string[] = [];
  for (const name of readdirSync(paths.root)) {
    if (isReservedName(name) || !existsSync(join(paths.root, name, 'raw', '.realtime.json'))) continue;
    try {
      if (rewindRealtimeView(paths, parseNamespace(name), maxSeq)) rewound.push(name);
    } catch {
      // not a namespace folder (a name Cairn would not make): not Cairn's view
    }
  }
  return rewound;
}

function newestTurnSeq(path: string): number {
  const db = newDatabase(path, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT COALESCE(MAX(seq), 0) FROM turns').pluck().get() as number) ?? 0;
  } finally {
    db.close();
  }
}

/** Replaces the home's database with backup `id`; see the file's head for what is refused and kept. */
export async function restoreBackup(paths: HomePaths, id: string, options: { now?: Date } = {}): Promise<RestoreReport> {
  const backup = findBackup(paths, id);
  refuseUnderDaemon(paths);
  const staged = `${paths.database}.restore-${process.pid}`;
  let live: Database.Database | null = null;
  try {
    const verified = await stage(backup.path, backup.id, staged);
    const taken = takeLiveDatabase(paths);
    live = taken === 'damaged' ? null : taken;
    const now = options.now ?? new Date();
    const previous = taken === 'damaged' ? keepDamaged(paths, now) : live ? await createBackup(paths, live, { kind: 'pre-restore', now }) : null;
    try {
      live?.exec('BEGIN EXCLUSIVE');
    } catch (err) {
      if (!busy(err)) throw err;
      throw new CairnError(ERROR_CODES.CONFLICT, `Another process opened ${paths.database} during the restore; stop it and run the restore again. Nothing was replaced.`);
    }
    renameSync(staged, paths.database);
    for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${paths.database}${suffix}`, { force: true });
    live?.close();
    live = null;
    const indexRemoved = existsSync(paths.indexDir);
    rmSync(paths.indexDir, { recursive: true, force: true });
    const viewsRewound = rewindViews(paths, newestTurnSeq(paths.database));
    return { restored: backup.id, schemaVersion: verified.schemaVersion, counts: verified.counts, previous, indexRemoved, viewsRewound };
  } catch (err) {
    if (err instanceof CairnError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (['EACCES', 'EPERM', 'EROFS'].includes(code)) throw new CairnError(ERROR_CODES.READ_ONLY, `Restore failed: the data directory ${paths.root} is not writable (${code}); nothing was changed`, undefined, { cause: err });
    throw new CairnError(ERROR_CODES.STORE, `Restore failed: ${(err as Error).message}`, undefined, { cause: err });
  } finally {
    live?.close();
    removeDatabaseFiles(staged);
  }
}
