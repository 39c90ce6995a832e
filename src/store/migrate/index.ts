// `cairn migrate`: a home's store moved between its SQLite file and a PostgreSQL database, both
// ways, resumable and verified table by table (copy.ts).
import { existsSync } from 'node:fs';
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import { SCHEMA_NAME } from '../postgres/connect.js';
import { migrateStore, type MigrateOptions, type MigrationReport } from './copy.js';
import type { StoreEnd } from './end.js';
import { PgEnd } from './pg-end.js';
import { SqliteEnd } from './sqlite-end.js';

export type { MigrateOptions, MigrationProgress, MigrationReport, TableVerification } from './copy.js';
export { migrateStore } from './copy.js';
export { tableChecksum, serialiseRow } from './checksum.js';
export { PgEnd } from './pg-end.js';
export { SqliteEnd } from './sqlite-end.js';
export { TABLE_ORDER, MARKER_KEY } from './tables.js';

export interface HomeMigration extends MigrateOptions {
  /** The home's SQLite database file. */
  sqlitePath: string;
  /** postgres://user:password@host:port/database */
  url: string;
  /** Schema holding Cairn's tables in that database (default public). */
  schema?: string;
}

/** Refuses what is not a PostgreSQL URL before any connection is tried. */
export function checkPostgresUrl(url: string, schema: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CairnError(ERROR_CODES.INVALID_INPUT, `"${url.slice(0, 80)}" is not a URL; expected postgres://user:password@host:port/database`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new CairnError(ERROR_CODES.INVALID_INPUT, `Expected a postgres:// URL, got a ${parsed.protocol.replace(/:$/, '')}: URL`);
  }
  if (!SCHEMA_NAME.test(schema)) throw new CairnError(ERROR_CODES.INVALID_INPUT, `--schema "${schema.slice(0, 80)}" is not a plain lower-case PostgreSQL name`);
}

async function withEnds(open: () => Promise<[StoreEnd, StoreEnd]>, options: MigrateOptions): Promise<MigrationReport> {
  const [source, target] = await open();
  try {
    return await migrateStore(source, target, options);
  } finally {
    await source.close();
    await target.close();
  }
}

/** The home's SQLite store → PostgreSQL. */
export async function migrateToPostgres(m: HomeMigration): Promise<MigrationReport> {
  const schema = m.schema ?? 'public';
  checkPostgresUrl(m.url, schema);
  if (!existsSync(m.sqlitePath)) throw new CairnError(ERROR_CODES.NOT_FOUND, `There is no store to migrate at ${m.sqlitePath}`);
  return withEnds(async () => {
    const target = await PgEnd.open(m.url, schema);
    try {
      return [SqliteEnd.open(m.sqlitePath), target];
    } catch (err) {
      await target.close();
      throw err;
    }
  }, m);
}

/** PostgreSQL → the home's SQLite store (created when missing). */
export async function migrateFromPostgres(m: HomeMigration): Promise<MigrationReport> {
  const schema = m.schema ?? 'public';
  checkPostgresUrl(m.url, schema);
  return withEnds(async () => {
    const source = await PgEnd.open(m.url, schema, { existing: true });
    try {
      return [source, SqliteEnd.open(m.sqlitePath)];
    } catch (err) {
      await source.close();
      throw err;
    }
  }, m);
}
