// Backups of the store under `<home>/backups/` (sleep protocol step 1, `cairn backup`). A backup is
// one plain, self-contained SQLite file (rollback journal, no -wal/-shm), so purge-backups.ts can
// open and purge it like any store. Everything a listing shows lives in the file itself or its
// name (time, kind): a sidecar would be a file purge cannot reach, and purge rewrites the file, so
// a recorded hash or count would go stale. Made online with SQLite's backup API (consistent under
// a live daemon writing in WAL mode), into a temporary name, verified, then renamed: a killed
// backup never leaves a file that looks complete.
import type Database from 'better-sqlite3';
import { isDatabase, newDatabase } from '../store/sqlite/driver.js';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { backupsDir, type HomePaths } from '../core/home.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/private-files.js';
import type { Store } from '../store/store.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';

export { backupsDir };

/**
 * daily: the nightly sleep protocol's, rotated; manual: `cairn backup create`, kept until the person
 * deletes it; pre-restore: the database as it was before a restore (the restore's undo), kept too.
 */
export const BACKUP_KINDS = ['daily', 'manual', 'pre-restore'] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];

export interface BackupInfo {
  /** `2026-11-26T221000Z-daily` (a second backup in the same second: `…-daily-2`). */
  id: string;
  path: string;
  kind: BackupKind;
  /** When it was taken (UTC, ISO), from its name. */
  createdAt: string;
  sizeBytes: number;
  /** null when the file cannot be read (then `problem` says why). */
  schemaVersion: number | null;
  counts: { memories: number; turns: number } | null;
  problem?: string;
}

/** `<stamp>-<kind>[-n]`: the stamp sorts by time, the kind tells rotation which ones it may remove. */
const ID_PATTERN = /^(\d{4}-\d{2}-\d{2})T(\d{2})(\d{2})(\d{2})Z-(daily|manual|pre-restore)(?:-([2-9]|[1-9]\d{1,3}))?$/;
const FILE_PATTERN = /^cairn-(.+)\.db$/;
/** A backup in progress, or abandoned by a process that died: `.tmp-<pid>-<id>.db`. */
const TEMP_PATTERN = /^\.tmp-(\d+)-.+\.db(-wal|-shm|-journal)?$/;
/** Whole-copy step: one read transaction, so a writer in another process never restarts it. */
const ALL_PAGES = 0x7fffffff;

export function backupFileName(id: string): string {
  return `cairn-${id}.db`;
}

function stampOf(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '');
}

/** Parses an id a person typed; anything that is not exactly an id (a path, `..`) is refused. */
export function parseBackupId(id: string): { id: string; kind: BackupKind; createdAt: string } {
  const m = typeof id === 'string' ? ID_PATTERN.exec(id) : null;
  const createdAt = m ? `${m[1]}T${m[2]}:${m[3]}:${m[4]}.000Z` : '';
  if (!m || Number.isNaN(Date.parse(createdAt))) {
    throw new CairnError(ERROR_CODES.INVALID_INPUT, `Not a backup id: ${JSON.stringify(String(id).slice(0, 80))} (ids look like 2026-11-26T221000Z-daily; see "cairn backup list")`);
  }
  return { id, kind: m[5] as BackupKind, createdAt };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function removeDatabaseFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
}

/** Removes temporary files of backups whose process is gone; returns their names. */
export function removeAbandonedTemps(paths: HomePaths): string[] {
  const dir = backupsDir(paths);
  if (!existsSync(dir)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const m = TEMP_PATTERN.exec(name);
    if (!m || processAlive(Number(m[1]))) continue;
    rmSync(join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

export interface VerifiedDatabase {
  schemaVersion: number;
  counts: { memories: number; turns: number };
}

/**
 * Checks a database file is a whole, readable Cairn store: `PRAGMA integrity_check`, a schema
 * version this Cairn knows (`maxSchema`), its tables readable. With `selfContained` the file is
 * also switched to a rollback journal, which folds any -wal into it (only for files Cairn just
 * wrote). Throws STORE_CORRUPT (damaged, not Cairn's) or STORE (newer schema).
 */
export function verifyDatabaseFile(path: string, options: { maxSchema: number; selfContained?: boolean }): VerifiedDatabase {
  let db: Database.Database | null = null;
  try {
    db = newDatabase(path, { readonly: !options.selfContained, fileMustExist: true });
    if (options.selfContained) db.pragma('journal_mode = DELETE');
    const check = db.pragma('integrity_check', { simple: true }) as string;
    if (check !== 'ok') throw new CairnError(ERROR_CODES.STORE_CORRUPT, `${path} failed its integrity check (${String(check).slice(0, 200)})`);
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    if (schemaVersion < 1) throw new CairnError(ERROR_CODES.STORE_CORRUPT, `${path} is not a Cairn database (no schema version)`);
    if (schemaVersion > options.maxSchema) {
      throw new CairnError(ERROR_CODES.STORE, `${path} has schema version ${schemaVersion}, newer than this Cairn (${options.maxSchema}); upgrade Cairn to use it`);
    }
    return { schemaVersion, counts: countRecords(db) };
  } catch (err) {
    if (err instanceof CairnError) throw err;
    throw new CairnError(ERROR_CODES.STORE_CORRUPT, `${path} is not a readable Cairn database: ${(err as Error).message}`, undefined, { cause: err });
  } finally {
    db?.close();
  }
}

function countRecords(db: Database.Database): { memories: number; turns: number } {
  return {
    memories: db.prepare('SELECT COUNT(*) FROM memories').pluck().get() as number,
    turns: db.prepare('SELECT COUNT(*) FROM turns').pluck().get() as number,
  };
}

function syncPath(path: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    fsyncSync(fd);
  } catch {
    // a folder cannot be fsynced on some systems: the rename is still atomic
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export interface CreateBackupOptions {
  kind: BackupKind;
  /** The backup's time (its id); default now. */
  now?: Date;
}

/** A free name for a new backup (the backups folder made, private, when missing). */
export function nextBackupPath(paths: HomePaths, kind: BackupKind, now: Date): { dir: string; id: string; path: string } {
  const dir = backupsDir(paths);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const base = `${stampOf(now)}-${kind}`;
  let id = base;
  for (let n = 2; existsSync(join(dir, backupFileName(id))); n++) id = `${base}-${n}`;
  return { dir, id, path: join(dir, backupFileName(id)) };
}

/** Why a home on a server-side store makes no backups of its own (said by `cairn backup` and the nightly run). */
export const SERVER_BACKUPS_NOTE = "PostgreSQL backups are the server's: pg_dump, or continuous archiving with point-in-time recovery (PITR); Cairn backs up only its embedded SQLite store";

export function sqliteDatabaseOf(store: Store): Database.Database {
  if (!(store instanceof SqliteStore)) {
    throw new CairnError(ERROR_CODES.CONFIG, store.backend === 'postgres' ? `This home's store is PostgreSQL. ${SERVER_BACKUPS_NOTE}.` : `Backups need the SQLite store; this home uses "${store.backend}"`);
  }
  return store.db;
}

/**
 * Copies the live database into `<home>/backups/cairn-<id>.db` (0600, folder 0700) while other
 * processes keep reading and writing it; returns the verified backup's info.
 */
export async function createBackup(paths: HomePaths, store: Store | Database.Database, options: CreateBackupOptions): Promise<BackupInfo> {
  const db = isDatabase(store) ? store : sqliteDatabaseOf(store);
  const { dir, id, path: final } = nextBackupPath(paths, options.kind, options.now ?? new Date());
  const temp = join(dir, `.tmp-${process.pid}-${id}.db`);
  try {
    // Created private before SQLite writes into it (its journal files take the same mode).
    closeSync(openSync(temp, 'wx', PRIVATE_FILE_MODE));
    await db.backup(temp, { progress: () => ALL_PAGES });
    const expected = db.pragma('user_version', { simple: true }) as number;
    const verified = verifyDatabaseFile(temp, { maxSchema: expected, selfContained: true });
    if (verified.schemaVersion !== expected) throw new CairnError(ERROR_CODES.STORE_CORRUPT, `the copy has schema version ${verified.schemaVersion}, the database ${expected}`);
    syncPath(temp);
    renameSync(temp, final);
    syncPath(dir);
    return { id, path: final, kind: options.kind, createdAt: parseBackupId(id).createdAt, sizeBytes: statSync(final).size, ...verified };
  } catch (err) {
    removeDatabaseFiles(temp);
    if (err instanceof CairnError) throw new CairnError(err.code, `Backup failed, nothing kept: ${err.message}`, err.details, { cause: err });
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (['EACCES', 'EPERM', 'EROFS'].includes(code)) throw new CairnError(ERROR_CODES.READ_ONLY, `Backup failed: ${dir} is not writable (${code})`, undefined, { cause: err });
    if (code === 'ENOSPC') throw new CairnError(ERROR_CODES.STORE, `Backup failed: no space left on the device holding ${dir}`, undefined, { cause: err });
    throw new CairnError(ERROR_CODES.STORE, `Backup failed, nothing kept: ${(err as Error).message}`, undefined, { cause: err });
  }
}

/** The backup of this id; NOT_FOUND when there is none, INVALID_INPUT when it is no id at all. */
export function findBackup(paths: HomePaths, id: string): { id: string; kind: BackupKind; createdAt: string; path: string } {
  const parsed = parseBackupId(id);
  const path = join(backupsDir(paths), backupFileName(parsed.id));
  if (!existsSync(path)) throw new CairnError(ERROR_CODES.NOT_FOUND, `No backup ${parsed.id} in ${backupsDir(paths)} (see "cairn backup list")`);
  return { ...parsed, path };
}

/**
 * The backups, newest first. Each is opened read-only for its schema version and counts (no
 * integrity check: that is restore's); one that cannot be read is listed with its problem.
 */
export function listBackups(paths: HomePaths): BackupInfo[] {
  const dir = backupsDir(paths);
  if (!existsSync(dir)) return [];
  const out: BackupInfo[] = [];
  for (const name of readdirSync(dir)) {
    const id = FILE_PATTERN.exec(name)?.[1];
    if (id === undefined || !ID_PATTERN.test(id)) continue;
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st?.isFile()) continue;
    const { kind, createdAt } = parseBackupId(id);
    const info: BackupInfo = { id, path, kind, createdAt, sizeBytes: st.size, schemaVersion: null, counts: null };
    let db: Database.Database | null = null;
    try {
      db = newDatabase(path, { readonly: true, fileMustExist: true });
      info.schemaVersion = db.pragma('user_version', { simple: true }) as number;
      info.counts = countRecords(db);
    } catch (err) {
      info.problem = `unreadable: ${(err as Error).message}`;
    } finally {
      db?.close();
    }
    out.push(info);
  }
  // Newest first; same second: the later suffix first.
  return out.sort((a, b) => (a.createdAt === b.createdAt ? suffixOf(b.id) - suffixOf(a.id) : a.createdAt < b.createdAt ? 1 : -1));
}

function suffixOf(id: string): number {
  return Number(ID_PATTERN.exec(id)?.[6] ?? 1);
}
