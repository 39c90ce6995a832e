// Reading a database this process cannot write (a read-only data directory, file or file system).
// SQLite reads a WAL database through its -shm file; when that file is missing and the folder is
// not writable it cannot make one and refuses even to read (SQLITE_READONLY_DIRECTORY or
// SQLITE_CANTOPEN; better-sqlite3 is built without URI names, so `immutable=1` is not available).
// Then a private temporary copy of the database (and its -wal) is read instead, and removed on close.
import type Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import { openDatabase, type OpenOptions } from './open.js';

export interface ReadOnlyDatabase {
  db: Database.Database;
  /** The temporary copy's folder when the database could not be read in place; removed by `release`. */
  snapshot: string | null;
  release(): void;
}

/** SQLite failures that mean "cannot set up WAL reading here", not a damaged or foreign file. */
function needsSnapshot(err: unknown): boolean {
  const code = String(((err as { cause?: { code?: unknown } }).cause ?? err as { code?: unknown }).code ?? '');
  return code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_READONLY');
}

function openInPlace(path: string, options: OpenOptions): Database.Database {
  const db = openDatabase(path, { ...options, readonly: true });
  try {
    // Opening is lazy: the first read is where SQLite needs the -shm file.
    db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

export function openReadOnlyDatabase(path: string, options: OpenOptions = {}): ReadOnlyDatabase {
  if (!existsSync(path)) {
    throw new CairnError(ERROR_CODES.READ_ONLY, `The data directory holding ${path} is read-only and has no database yet: nothing to read, and none can be created.`);
  }
  try {
    return { db: openInPlace(path, options), snapshot: null, release: () => undefined };
  } catch (err) {
    if (!needsSnapshot(err)) throw err;
  }
  const dir = mkdtempSync(join(tmpdir(), 'cairn-read-only-'));
  const release = () => rmSync(dir, { recursive: true, force: true });
  try {
    const copy = join(dir, 'cairn.db');
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    return { db: openInPlace(copy, options), snapshot: dir, release };
  } catch (err) {
    release();
    throw err;
  }
}
