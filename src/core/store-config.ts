// Which store a home uses (mounted by the core config at `store`): the embedded SQLite file in the
// home (default), or a PostgreSQL database shared by many machines. CAIRN_DATABASE_URL, when set,
// wins over the file: it selects PostgreSQL at that URL (schema and pool size still from the
// file), so a fleet is pointed at one database without editing each home's config. Messages never
// repeat a URL: it may hold a password.
import { z } from 'zod';
import { lazily } from './lazily.js';
import { CairnError, ERROR_CODES } from './errors.js';

export const DATABASE_URL_ENV = 'CAIRN_DATABASE_URL';

/** A PostgreSQL schema name Cairn accepts (store/postgres/connect.ts checks the same). */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function isPostgresUrl(url: string): boolean {
  if (!/^postgres(ql)?:\/\//i.test(url)) return false;
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

/** Whether CAIRN_DATABASE_URL is set: the config's validation depends on it (config-cache.ts). */
export function databaseUrlSet(env: NodeJS.ProcessEnv = process.env): boolean {
  // An empty value is unset, as for CAIRN_HOME.
  return (env[DATABASE_URL_ENV] ?? '').trim() !== '';
}

const URL_RULE = 'must be a postgres:// or postgresql:// URL';

export const storeConfigSchema = lazily(() => z
  .strictObject({
    backend: z.enum(['sqlite', 'postgres']).default('sqlite'),
    /** postgres://user:password@host:port/database (libpq URL). Prefer CAIRN_DATABASE_URL for a password. */
    url: z.string().refine(isPostgresUrl, URL_RULE).optional(),
    /** Schema holding Cairn's tables (several Cairn stores in one database); default public. Also applies to CAIRN_DATABASE_URL. */
    schema: z.string().regex(SCHEMA_NAME, 'must be a plain lower-case PostgreSQL name (a-z, 0-9, _; not starting with a digit)').optional(),
    /** Connections each process keeps open at most. */
    poolSize: z.number().int().min(1).max(100).default(10),
  })
  .superRefine((store, ctx) => {
    // Without a url here, CAIRN_DATABASE_URL must give one (a fleet's shared config names only the schema).
    if (store.backend === 'postgres' && store.url === undefined && !databaseUrlSet()) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['url'], message: `is required with backend "postgres" (or set ${DATABASE_URL_ENV})` });
    }
    if (store.backend === 'sqlite' && store.url !== undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['url'], message: 'is for backend "postgres": set "store.backend" to "postgres" too' });
    }
  }));

export type StoreConfig = z.infer<ReturnType<typeof storeConfigSchema>>;

/** The store a process opens: the config's, unless CAIRN_DATABASE_URL says otherwise. */
export type StoreTarget =
  | { backend: 'sqlite' }
  | { backend: 'postgres'; url: string; schema: string; poolSize: number; from: 'config' | 'env' };

export function storeTarget(config: StoreConfig, env: NodeJS.ProcessEnv = process.env): StoreTarget {
  if (databaseUrlSet(env)) {
    const url = env[DATABASE_URL_ENV]!.trim();
    if (!isPostgresUrl(url)) throw new CairnError(ERROR_CODES.CONFIG, `${DATABASE_URL_ENV} ${URL_RULE}`);
    return { backend: 'postgres', url, schema: config.schema ?? 'public', poolSize: config.poolSize, from: 'env' };
  }
  if (config.backend === 'sqlite') return { backend: 'sqlite' };
  if (config.url === undefined) throw new CairnError(ERROR_CODES.CONFIG, `"store.url" is required with backend "postgres" (or set ${DATABASE_URL_ENV})`);
  return { backend: 'postgres', url: config.url, schema: config.schema ?? 'public', poolSize: config.poolSize, from: 'config' };
}
