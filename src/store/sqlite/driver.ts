// Opening a connection with better-sqlite3, for every part that opens a SQLite file (the store,
// backups, the OpenClaw database reader): the driver loaded once (better-sqlite3-load.ts) and its
// native addon handed to it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { loadBetterSqlite3 } from './better-sqlite3-load.js';

let driver: typeof BetterSqlite3 | undefined;

/**
 * better-sqlite3's native addon where its install builds it (build/Release), handed to it so that
 * opening a database skips the `bindings` package's search: it builds an Error to read its caller's
 * folder from the stack, then tries a dozen paths (a process's first open 5.3 → 3.2 ms, median of
 * 5 on the benchmark machine). Null when the file is elsewhere (a prebuilt put another way):
 * better-sqlite3 then searches itself.
 */
let addonFile: string | null | undefined;
function betterSqliteAddon(): string | null {
  if (addonFile === undefined) {
    try {
      const file = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
      addonFile = existsSync(file) ? file : null;
    } catch {
      addonFile = null;
    }
  }
  return addonFile;
}

/** A connection to the SQLite file at `path` (or ':memory:'), as `new Database(path, options)` opens it. */
export function newDatabase(path: string, options: BetterSqlite3.Options = {}): BetterSqlite3.Database {
  driver ??= loadBetterSqlite3();
  const addon = betterSqliteAddon();
  return new driver(path, { ...options, ...(addon ? { nativeBinding: addon } : {}) });
}

/** Whether `value` is a connection newDatabase opened (the driver's own class). */
export function isDatabase(value: unknown): value is BetterSqlite3.Database {
  driver ??= loadBetterSqlite3();
  return value instanceof driver;
}
