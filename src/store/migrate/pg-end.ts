// The PostgreSQL side of a migration, over the raw pool of a PgStore (opened, so the schema exists
// at this Cairn's version). Reads go through a cursor ordered by the key in byte order (COLLATE
// "C", SQLite's order for texts); a source reads every table in one REPEATABLE READ snapshot.
// Entries get their keyword vector computed from body and keys, exactly as a normal write does.
import type pg from 'pg';
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import { createPool, mapPgError, redactUrl, transaction } from '../postgres/connect.js';
import { entryTerms } from '../postgres/entry-terms.js';
import { embeddingOf, ROWS_PER_TX } from '../postgres/vectors.js';
import { PgStore } from '../postgres/pg-store.js';
import type { Key, Row, StoreEnd } from './end.js';
import type { TableName, TableShape } from './tables.js';

const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const list = (names: readonly string[]): string => names.map(ident).join(', ');
/** A key column in byte order: texts compared as SQLite compares them. */
const ordered = (name: string, types: ReadonlyMap<string, string>): string => (types.get(name) === 'text' ? `${ident(name)} COLLATE "C"` : ident(name));
/** PostgreSQL's limit on bind parameters per statement. */
const MAX_PARAMS = 65_535;

async function assertStoreExists(url: string, schema: string): Promise<void> {
  const pool = createPool({ url, schema, max: 1, applicationName: 'cairn migrate' });
  try {
    const found = (await pool.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [`${schema}.cairn_schema`])).rows[0]!.t;
    if (!found) throw new CairnError(ERROR_CODES.NOT_FOUND, `There is no Cairn store in schema ${schema} of ${redactUrl(url)}; nothing to migrate from (check --schema).`);
  } catch (err) {
    throw mapPgError(err, url);
  } finally {
    await pool.end();
  }
}

/** SQLite texts may hold U+0000; PostgreSQL's cannot. Named precisely, so the record can be fixed and the run resumed. */
function assertNoNul(shape: TableShape, rows: readonly Row[]): void {
  for (const row of rows) {
    const at = row.findIndex((v) => typeof v === 'string' && v.includes('\u0000'));
    if (at < 0) continue;
    const key = shape.key.map((k) => `${k}=${JSON.stringify(row[shape.columns.indexOf(k)])}`).join(', ');
    throw new CairnError(
      ERROR_CODES.INVALID_INPUT,
      `${shape.name} (${key}) has a NUL character in ${shape.columns[at]}, which PostgreSQL text cannot hold; nothing of that batch was written. Edit or purge that record in the SQLite store, then run the migration again: it resumes there.`,
    );
  }
}

interface Derived {
  column: string;
  /** The value's SQL for one row: bound parameters through `param`; `place` counts rows within the transaction. */
  sql: (row: Row, param: (value: unknown) => string, place: number) => string;
}

/** What PostgreSQL computes from a row where SQLite has nothing (tables.ts PG_ONLY_COLUMNS, LOCAL_COLUMNS). */
function derivedColumns(shape: TableShape): Derived[] {
  const at = (name: string): number => shape.columns.indexOf(name);
  if (shape.name === 'entries') {
    const body = at('body');
    const keys = at('keys');
    // Computed once per row, read by both columns.
    const memo = new WeakMap<Row, { terms: string; length: number }>();
    const terms = (row: Row) => memo.get(row) ?? memo.set(row, entryTerms(String(row[body] ?? ''), String(row[keys] ?? ''))).get(row)!;
    return [
      { column: 'terms', sql: (row, param) => `${param(terms(row).terms)}::tsvector` },
      { column: 'terms_len', sql: (row, param) => param(terms(row).length) },
    ];
  }
  if (shape.name === 'vectors') {
    const vector = at('vector');
    const dim = at('dim');
    return [
      // As putVectors numbers its rows: the writing transaction's id × ROWS_PER_TX + the row's place in it; tx defaults to that transaction.
      { column: 'id', sql: (_row, _param, place) => `pg_current_xact_id()::text::bigint * ${ROWS_PER_TX} + ${place}` },
      { column: 'embedding', sql: (row, param) => `${param(embeddingOf(row[vector] as Buffer, Number(row[dim])))}::halfvec` },
    ];
  }
  return [];
}

export class PgEnd implements StoreEnd {
  readonly backend = 'postgres';
  readonly location: string;
  private readonly pool: pg.Pool;
  private snapshot: pg.PoolClient | null = null;
  private readonly types = new Map<string, Map<string, string>>();
  private cursors = 0;

  constructor(private readonly store: PgStore) {
    this.pool = store.pool;
    const url = new URL(redactUrl(store.url));
    // Credentials and options are not part of where the store is.
    this.location = `postgres://${url.host}${url.pathname}#${store.schema}`;
  }

  /**
   * Opens (creating or upgrading to this Cairn's schema) the store in `schema` of the database at
   * `url`; with `existing`, a schema without a Cairn store is refused instead of created (a source).
   */
  static async open(url: string, schema = 'public', options: { existing?: boolean } = {}): Promise<PgEnd> {
    if (options.existing) await assertStoreExists(url, schema);
    return new PgEnd(await PgStore.open({ url, schema, max: 4, applicationName: 'cairn migrate' }));
  }

  private async run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw mapPgError(err, this.store.url);
    }
  }

  async tables(): Promise<string[]> {
    return this.run(async () => {
      const rows = await this.pool.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name <> 'cairn_schema' ORDER BY 1",
        [this.store.schema],
      );
      return rows.rows.map((r) => r.name);
    });
  }

  async describe(table: TableName): Promise<{ columns: string[]; key: string[] }> {
    return this.run(async () => {
      const cols = await this.pool.query<{ name: string; type: string }>(
        'SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position',
        [this.store.schema, table],
      );
      const key = await this.pool.query<{ name: string }>(
        `SELECT a.attname AS name FROM pg_index i JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n) ON true
           JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
          WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY k.n`,
        [`${this.store.schema}.${table}`],
      );
      this.types.set(table, new Map(cols.rows.map((c) => [c.name, c.type])));
      return { columns: cols.rows.map((c) => c.name), key: key.rows.map((r) => r.name) };
    });
  }

  private typesOf(table: string): Map<string, string> {
    const types = this.types.get(table);
    if (!types) throw new Error(`describe(${table}) first`);
    return types;
  }

  async count(table: TableName): Promise<number> {
    return this.run(async () => (await (this.snapshot ?? this.pool).query<{ n: number }>(`SELECT count(*)::int AS n FROM ${ident(table)}`)).rows[0]!.n);
  }

  private orderBy(shape: TableShape, direction = ''): string {
    const types = this.typesOf(shape.name);
    return shape.key.map((k) => `${ordered(k, types)}${direction}`).join(', ');
  }

  async lastKey(shape: TableShape): Promise<Key | null> {
    return this.run(async () => {
      const rows = await this.pool.query({ text: `SELECT ${list(shape.key)} FROM ${ident(shape.name)} ORDER BY ${this.orderBy(shape, ' DESC')} LIMIT 1`, rowMode: 'array' });
      return (rows.rows[0] as Key | undefined) ?? null;
    });
  }

  async *read(shape: TableShape, after: Key | null, batch: number): AsyncGenerator<Row[]> {
    const own = this.snapshot === null;
    const client = this.snapshot ?? (await this.run(() => this.pool.connect()));
    const name = `cairn_migrate_${++this.cursors}`;
    const types = this.typesOf(shape.name);
    const where = after === null ? '' : `WHERE (${shape.key.map((k) => ordered(k, types)).join(', ')}) > (${shape.key.map((_, i) => `$${i + 1}`).join(', ')})`;
    let open = false;
    try {
      if (own) await this.run(() => client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'));
      await this.run(() => client.query(`DECLARE ${name} NO SCROLL CURSOR FOR SELECT ${list(shape.columns)} FROM ${ident(shape.name)} ${where} ORDER BY ${this.orderBy(shape)}`, after ?? []));
      open = true;
      for (;;) {
        const rows = await this.run(() => client.query({ text: `FETCH ${Math.floor(batch)} FROM ${name}`, rowMode: 'array' }));
        if (rows.rows.length === 0) return;
        yield rows.rows as Row[];
      }
    } finally {
      if (own) {
        await client.query('COMMIT').catch(() => undefined);
        client.release();
      } else if (open) await client.query(`CLOSE ${name}`).catch(() => undefined);
    }
  }

  async write(shape: TableShape, rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return;
    assertNoNul(shape, rows);
    const derived = derivedColumns(shape);
    if (shape.name === 'vectors' && rows.length > ROWS_PER_TX) throw new CairnError(ERROR_CODES.INVALID_INPUT, `vectors are written at most ${ROWS_PER_TX} to a transaction (their ids count within it)`);
    const columns = [...shape.columns, ...derived.map((d) => d.column)];
    const chunk = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
    const conflict = shape.name === 'store_meta' ? ` ON CONFLICT (${list(shape.key)}) DO UPDATE SET ${shape.columns.filter((c) => !shape.key.includes(c)).map((c) => `${ident(c)} = excluded.${ident(c)}`).join(', ')}` : '';
    await this.run(() =>
      transaction(this.pool, async (c) => {
        let place = 0;
        for (let start = 0; start < rows.length; start += chunk) {
          const params: unknown[] = [];
          const param = (value: unknown): string => `$${params.push(value)}`;
          const tuples = rows.slice(start, start + chunk).map((row) => {
            const values = row.map((v) => param(v));
            for (const d of derived) values.push(d.sql(row, param, place));
            place++;
            return `(${values.join(', ')})`;
          });
          await c.query(`INSERT INTO ${ident(shape.name)} (${list(columns)}) VALUES ${tuples.join(', ')}${conflict}`, params);
        }
      }),
    );
  }

  private async sequenceOf(table: TableName, column: string): Promise<string> {
    const seq = (await this.pool.query<{ seq: string | null }>('SELECT pg_get_serial_sequence($1, $2) AS seq', [`${this.store.schema}.${table}`, column])).rows[0]?.seq;
    if (!seq) throw new CairnError(ERROR_CODES.STORE, `${table}.${column} has no identity sequence in schema ${this.store.schema}`);
    return seq;
  }

  async counter(table: TableName, column: string): Promise<number> {
    return this.run(async () => {
      const seq = await this.sequenceOf(table, column);
      const state = (await this.pool.query<{ last_value: number; is_called: boolean }>(`SELECT last_value, is_called FROM ${seq}`)).rows[0]!;
      const max = (await this.pool.query<{ max: number | null }>(`SELECT max(${ident(column)}) AS max FROM ${ident(table)}`)).rows[0]!.max ?? 0;
      return Math.max(max, state.is_called ? state.last_value : 0);
    });
  }

  async setCounter(table: TableName, column: string, value: number): Promise<void> {
    await this.run(async () => {
      const seq = await this.sequenceOf(table, column);
      // The next number handed out is one past both the copied rows and the source's counter.
      await this.pool.query(
        `SELECT CASE WHEN v > 0 THEN setval($1::regclass, v, true) ELSE setval($1::regclass, 1, false) END
           FROM (SELECT GREATEST($2::bigint, (SELECT coalesce(max(${ident(column)}), 0) FROM ${ident(table)})) AS v) s`,
        [seq, value],
      );
    });
  }

  async getMeta(key: string): Promise<string | null> {
    return this.run(async () => (await this.pool.query<{ value: string }>('SELECT value FROM store_meta WHERE key = $1', [key])).rows[0]?.value ?? null);
  }

  async setMeta(key: string, value: string | null): Promise<void> {
    await this.run(async () => {
      if (value === null) await this.pool.query('DELETE FROM store_meta WHERE key = $1', [key]);
      else await this.pool.query('INSERT INTO store_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
    });
  }

  async beginSnapshot(): Promise<void> {
    const client = await this.run(() => this.pool.connect());
    try {
      await this.run(() => client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'));
    } catch (err) {
      client.release();
      throw err;
    }
    this.snapshot = client;
  }

  async endSnapshot(): Promise<void> {
    const client = this.snapshot;
    if (!client) return;
    this.snapshot = null;
    await client.query('COMMIT').catch(() => undefined);
    client.release();
  }

  async close(): Promise<void> {
    await this.endSnapshot();
    await this.store.close();
  }
}
