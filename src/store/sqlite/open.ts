// Opening the SQLite file safely: never overwrite a file that is not a Cairn database, WAL for
// many readers and one writer, a busy timeout so concurrent processes wait instead of failing.
import type Database from 'better-sqlite3';
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../core/private-files.js';
import { COMPACT_CACHE_VERSION, COMPACT_VECTORS_VERSION, SCHEMA_VERSION, migrate } from './migrations.js';
import { registerIndexText } from './fts-text.js';
import { newDatabase } from './driver.js';

const SQLITE_HEADER = 'SQLite format 3\0';

export interface OpenOptions {
  busyTimeoutMs?: number;
  readonly?: boolean;
  /**
   * Read the file through a memory map: for a process that ends soon (a one-shot command). Its
   * pages are read without a system call and a copy each: a cold hybrid `cairn search` on a 10k
   * home, 30 ms less. Off for a long-lived process, which would keep every page it ever touched.
   */
  mapped?: boolean;
}

/** SQLite maps at most this much of the file (its own compile-time limit is ~2 GB); the rest is read. */
export const MAPPED_BYTES = 1024 ** 3;

function assertSqliteFile(path: string): void {
  if (!existsSync(path)) return;
  const size = statSync(path).size;
  if (size === 0) return;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(16);
    readSync(fd, buf, 0, 16, 0);
    if (buf.toString('latin1') !== SQLITE_HEADER) {
      throw new CairnError(
        ERROR_CODES.STORE_CORRUPT,
        `${path} exists but is not a SQLite database; it was left untouched. Move it away or choose another --home.`,
      );
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * A SQLite database of another application (objects but no Cairn schema version) is never written
 * to: no WAL switch, no Cairn tables added. One statement, so a concurrent first migration by
 * another process is seen either entirely or not at all.
 */
function assertNotForeign(db: Database.Database, path: string): void {
  const row = db
    .prepare('SELECT (SELECT user_version FROM pragma_user_version) AS version, (SELECT COUNT(*) FROM sqlite_master) AS objects')
    .get() as { version: number; objects: number };
  if (row.version === 0 && row.objects > 0) {
    throw new CairnError(
      ERROR_CODES.STORE_CORRUPT,
      `${path} is a SQLite database of another application, not a Cairn database; it was left untouched. Move it away or choose another --home.`,
    );
  }
}

/** Maps SQLite failures to typed errors with a message a person can act on. */
export function mapSqliteError(err: unknown, path: string): unknown {
  if (err instanceof CairnError) return err;
  const code = (err as { code?: string }).code ?? '';
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code.startsWith('SQLITE_BUSY')) {
    return new CairnError(ERROR_CODES.STORE_LOCKED, `The database ${path} is locked by another process; tried for the busy timeout and gave up. Retry, or stop the other writer.`, undefined, { cause: err });
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return new CairnError(
      ERROR_CODES.READ_ONLY,
      `The database ${path} is read-only for this process (${code}): nothing was written. Reading (status, search, export) still works; make the data directory and its files writable to store.`,
      undefined,
      { cause: err },
    );
  }
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT')) {
    return new CairnError(ERROR_CODES.STORE_CORRUPT, `The database ${path} is corrupt or not a Cairn database (${code}); it was left untouched.`, undefined, { cause: err });
  }
  if (code.startsWith('SQLITE_')) {
    return new CairnError(ERROR_CODES.STORE, `Database error on ${path}: ${(err as Error).message} (${code})`, undefined, { cause: err });
  }
  return err;
}

/** A database opened read-only cannot be migrated: an older schema is refused rather than misread. */
function assertCurrentSchema(db: Database.Database, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) throw new CairnError(ERROR_CODES.STORE, `database schema version ${version} is newer than this Cairn (${SCHEMA_VERSION}); upgrade Cairn`);
  if (version < SCHEMA_VERSION) {
    throw new CairnError(ERROR_CODES.READ_ONLY, `The database ${path} (schema v${version}) needs an upgrade to v${SCHEMA_VERSION}, which needs write access; open it once with write access.`);
  }
}

/**
 * The page cache of a connection, in KiB (SQLite's default is 2 MiB). Without a memory map, pages
 * are read from the OS's file cache into this one; it holds the hot part of a large home.
 */
const CACHE_KIB = 16 * 1024;

/**
 * Gives back the pages the int8 vectors (V15: a home shrinks to about a fifth) and the cache that
 * no longer copies stored vectors (V17) freed.
 * Best effort: another process holding the file open makes VACUUM fail, and the space is then
 * reused by later writes instead.
 */
function vacuumOnce(db: Database.Database): void {
  try {
    db.exec('VACUUM');
  } catch {
    // busy or locked: the freed pages stay on the freelist
  }
}

export function openDatabase(path: string, options: OpenOptions = {}): Database.Database {
  assertSqliteFile(path);
  let db: Database.Database | undefined;
  try {
    if (path !== ':memory:' && !options.readonly) {
      mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
      // Created private before SQLite opens it: SQLite gives its -wal and -shm files the database's mode.
      if (!existsSync(path)) closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
    }
    db = newDatabase(path, { readonly: options.readonly ?? false });
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    if (!options.readonly) assertNotForeign(db, path);
    if (!options.readonly) {
      // 8 KiB pages: chosen when a 512-dim float vector row was ~2 KB (4,106 → ~2,700 bytes per
      // vector, measured); int8 rows (V15) fit either size. Only takes effect before the first table exists.
      if (db.pragma('page_count', { simple: true }) === 0) db.pragma('page_size = 8192');
      db.pragma('journal_mode = WAL');
      // FULL: an acknowledged write survives power loss too, not just a process crash.
      db.pragma('synchronous = FULL');
    }
    db.pragma('foreign_keys = ON');
    registerIndexText(db);
    // No memory map by default (mmap_size stays 0): every page a long-lived process ever touched
    // through a map stays in its RSS (a 100k home's daemon: the whole 180 MB file after a few
    // searches). Reads go through the bounded page cache instead (bench/watch-rss.ts,
    // bench/search-ab.ts). A one-shot command asks for the map (`mapped`).
    db.pragma(`cache_size = -${CACHE_KIB}`);
    if (options.mapped) db.pragma(`mmap_size = ${MAPPED_BYTES}`);
    if (!options.readonly) {
      const from = migrate(db);
      if (from > 0 && Math.max(COMPACT_VECTORS_VERSION, COMPACT_CACHE_VERSION) > from && path !== ':memory:') vacuumOnce(db);
    } else assertCurrentSchema(db, path);
    return db;
  } catch (err) {
    db?.close();
    const mapped = mapSqliteError(err, path);
    if (mapped instanceof CairnError) throw mapped;
    const errno = (err as NodeJS.ErrnoException).code ?? '';
    if (['EACCES', 'EPERM', 'EROFS'].includes(errno)) {
      throw new CairnError(ERROR_CODES.READ_ONLY, `Cannot create the database ${path}: its folder is read-only for this process (${errno})`, undefined, { cause: err });
    }
    throw new CairnError(ERROR_CODES.STORE, `Cannot open database ${path}: ${(err as Error).message}`, undefined, { cause: err });
  }
}
