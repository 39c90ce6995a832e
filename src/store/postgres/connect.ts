// Connecting to PostgreSQL: one pool per store, bigint columns read as JS numbers (seqs and ids stay
// far below 2^53), an optional schema of its own (several homes or test runs in one database),
// transactions that take a pooled client for their whole length, and driver errors mapped to the
// typed errors the rest of Cairn handles.
import pg from 'pg';
import { CairnError, ERROR_CODES } from '../../core/errors.js';

/** A pool or a client inside a transaction: both run queries. */
export type Db = pg.Pool | pg.PoolClient;

export interface PgConnectOptions {
  /** postgres://user:password@host:port/database (libpq URL; sslmode and the like pass through). */
  url: string;
  /** Schema that holds Cairn's tables (created when missing); default `public`. */
  schema?: string;
  /** Pool size (default 10). */
  max?: number;
  applicationName?: string;
}

const INT8 = 20;
const INT8_ARRAY = 1016;
const numeric = (value: string): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new CairnError(ERROR_CODES.STORE_CORRUPT, `A bigint value ${value} does not fit a JavaScript number`);
  return n;
};
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8) return numeric;
    if (oid === INT8_ARRAY) return (value: string) => (pg.types.getTypeParser(INT8_ARRAY as never, 'text')(value) as string[]).map(numeric);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Creates the pool (no connection is made until the first query). */
export function createPool(options: PgConnectOptions): pg.Pool {
  const schema = options.schema ?? 'public';
  if (!SCHEMA_NAME.test(schema)) throw new CairnError(ERROR_CODES.CONFIG, `store.schema "${schema}" is not a plain lower-case PostgreSQL name`);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'cairn',
    types,
    // The schema first, then public (where CREATE EXTENSION vector put the vector type).
    options: `-c search_path=${schema},public`,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its server (a restart) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/** A URL with its password replaced, for messages and health reports. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

function isPool(db: Db): db is pg.Pool {
  return db instanceof pg.Pool;
}

/** The pool a client came from (set by transaction()), so per-store settings reach code inside a transaction. */
const origins = new WeakMap<pg.PoolClient, pg.Pool>();

export function poolOf(db: Db): pg.Pool | undefined {
  return isPool(db) ? db : origins.get(db);
}

/**
 * Runs `fn` in one transaction on one pooled client: committed when it resolves, rolled back when
 * it throws. Called with a client already inside a transaction, `fn` simply joins it.
 */
export async function transaction<T>(db: Db, fn: (client: pg.PoolClient) => Promise<T>, isolation?: 'serializable' | 'repeatable read'): Promise<T> {
  if (!isPool(db)) return fn(db);
  const client = await db.connect();
  origins.set(client, db);
  let broken = false;
  try {
    await client.query(isolation ? `BEGIN ISOLATION LEVEL ${isolation.toUpperCase()}` : 'BEGIN');
    try {
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw err;
    }
  } finally {
    client.release(broken);
  }
}

/** SQLSTATE codes the backend tells apart. */
export const PG = {
  UNIQUE: '23505',
  FOREIGN_KEY: '23503',
  CHECK: '23514',
  SERIALIZATION: '40001',
  DEADLOCK: '40P01',
  UNDEFINED_TABLE: '42P01',
  INSUFFICIENT_PRIVILEGE: '42501',
} as const;

export function pgCode(err: unknown): string | undefined {
  return (err as { code?: unknown })?.code && typeof (err as { code: unknown }).code === 'string' ? (err as { code: string }).code : undefined;
}

/** Maps driver and server failures to typed errors with a message a person can act on. */
export function mapPgError(err: unknown, url: string): unknown {
  if (err instanceof CairnError) return err;
  const code = pgCode(err) ?? '';
  const message = (err as Error)?.message ?? String(err);
  const where = redactUrl(url);
  if (code === PG.UNIQUE) return new CairnError(ERROR_CODES.CONFLICT, `A record with the same key already exists (${(err as { constraint?: string }).constraint ?? 'unique constraint'})`, undefined, { cause: err });
  if (code === PG.CHECK) return new CairnError(ERROR_CODES.INVALID_INPUT, `A value is out of range: ${message}`, undefined, { cause: err });
  if (code === PG.SERIALIZATION || code === PG.DEADLOCK || code === '55P03') {
    return new CairnError(ERROR_CODES.STORE_LOCKED, `PostgreSQL at ${where} gave up a transaction that raced another writer (${message}); retry.`, undefined, { cause: err });
  }
  if (['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH'].includes(code) || code.startsWith('08') || code === '57P01' || code === '57P03' || /timeout exceeded when trying to connect|Connection terminated/i.test(message)) {
    return new CairnError(ERROR_CODES.STORE, `Cannot reach PostgreSQL at ${where}: ${message}`, undefined, { cause: err });
  }
  if (code === '28P01' || code === '28000' || code === '3D000' || code === PG.INSUFFICIENT_PRIVILEGE) {
    return new CairnError(ERROR_CODES.CONFIG, `PostgreSQL at ${where} refused: ${message}`, undefined, { cause: err });
  }
  return err;
}
