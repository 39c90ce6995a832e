// A real PostgreSQL server for the tests: CAIRN_TEST_DATABASE_URL when set, otherwise a throw-away
// cluster this helper starts itself from the installed server binaries (Debian's postgresql-15 and
// pgvector, which .ci/postgres-install.sh installs) on 127.0.0.1, kept running between test files
// and runs. Every store a test opens gets a schema of its own, dropped afterwards.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmdirSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { MIGRATION_LOCK } from '../../src/store/postgres/migrations.js';
import { PgStore, type PgStoreOptions } from '../../src/store/postgres/pg-store.js';
import type { Store } from '../../src/store/store.js';

const PORT = Number(process.env.CAIRN_TEST_PG_PORT ?? 55432);
const ROOT = join(tmpdir(), `cairn-test-pg-${PORT}`);
const DATA = join(ROOT, 'data');
const LOCK = join(ROOT, 'starting.lock');
const DATABASE = 'cairn_test';

function serverBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'postgres'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (versions.length === 0) {
    throw new Error('The PostgreSQL tests need a PostgreSQL server: set CAIRN_TEST_DATABASE_URL, or install postgresql-15 and pgvector (sudo bash .ci/postgres-install.sh)');
  }
  return join(base, versions[0]!, 'bin');
}

/** As the postgres user when running as root (initdb and postgres refuse root). */
function asServerUser(cmd: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  const [file, argv] = root ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const out = spawnSync(file, argv, { encoding: 'utf8', timeout: 120_000 });
  if (out.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${out.stderr || out.stdout}`);
}

function isUp(bin: string): boolean {
  return spawnSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(PORT), '-q'], { timeout: 10_000 }).status === 0;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function startServer(): Promise<void> {
  const bin = serverBin();
  if (isUp(bin)) return;
  mkdirSync(ROOT, { recursive: true });
  chmodSync(ROOT, 0o777);
  // Test files start in parallel: one starts the server, the others wait for it.
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      for (let i = 0; i < 600 && existsSync(LOCK); i++) {
        if (isUp(bin)) return;
        await sleep(100);
      }
      if (isUp(bin)) return;
      try {
        rmdirSync(LOCK); // a starter that died
      } catch {
        /* another waiter took it */
      }
    }
  }
  try {
    if (isUp(bin)) return;
    if (!existsSync(join(DATA, 'PG_VERSION'))) {
      mkdirSync(DATA, { recursive: true });
      if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', DATA]);
      asServerUser(join(bin, 'initdb'), ['-D', DATA, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
    }
    asServerUser(join(bin, 'pg_ctl'), [
      '-D', DATA, '-l', join(DATA, 'server.log'), '-w', '-t', '60',
      '-o', `-p ${PORT} -k ${DATA} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
      'start',
    ]);
  } finally {
    try {
      rmdirSync(LOCK);
    } catch {
      /* gone */
    }
  }
}

let serverUrl: Promise<string> | null = null;

/** The URL of a database the tests may create schemas in (the server started if needed). */
export function testDatabaseUrl(): Promise<string> {
  serverUrl ??= (async () => {
    const given = process.env.CAIRN_TEST_DATABASE_URL;
    if (given) return given;
    await startServer();
    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${PORT}/postgres` });
    await admin.connect();
    try {
      const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE])).rowCount;
      if (!exists) {
        try {
          await admin.query(`CREATE DATABASE ${DATABASE}`);
        } catch (err) {
          if ((err as { code?: string }).code !== '42P04') throw err; // created by a parallel file
        }
      }
    } finally {
      await admin.end();
    }
    return `postgres://postgres@127.0.0.1:${PORT}/${DATABASE}`;
  })();
  return serverUrl;
}

let counter = 0;

/** A new, empty schema name (unique across parallel test processes). */
export function freshSchemaName(): string {
  return `t_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Drops a schema and everything in it. Test files run side by side, each in its own schema, yet a
 * CASCADE drop locks shared catalog rows (pgvector's type, the extension) that another file's
 * migration or drop takes in the other order: PostgreSQL then cancelled one as a deadlock (40P01),
 * which failed a suite's teardown after all its tests had passed. So a drop takes the lock every
 * migration takes (drops and migrations take turns), and a drop cancelled as a deadlock all the same
 * did nothing and is tried again.
 */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.query('COMMIT');
        return;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        if ((err as { code?: string }).code !== '40P01' || attempt >= 5) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  } finally {
    await client.end();
  }
}

/** A PgStore in a fresh schema, a way to open more connections to it, and cleanup. */
export async function freshPgStore(options: Omit<PgStoreOptions, 'url' | 'schema'> = {}): Promise<{
  store: PgStore;
  url: string;
  schema: string;
  connect: () => Promise<Store>;
  cleanup: () => Promise<void>;
}> {
  const url = await testDatabaseUrl();
  const schema = freshSchemaName();
  const store = await PgStore.open({ url, schema, max: 4, ...options });
  const others: PgStore[] = [];
  return {
    store,
    url,
    schema,
    connect: async () => {
      const other = await PgStore.open({ url, schema, max: 4, ...options });
      others.push(other);
      return other;
    },
    cleanup: async () => {
      for (const o of others) await o.close();
      await dropSchema(url, schema);
    },
  };
}
