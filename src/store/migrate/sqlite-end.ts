// The SQLite side of a migration, over the raw better-sqlite3 handle of a SqliteStore (opened, so
// the schema is current and the keyword index's functions are registered: inserting an entry feeds
// entries_fts through its trigger, exactly as a normal write does).
import type { Database } from 'better-sqlite3';
import { realpathSync } from 'node:fs';
import { SqliteStore } from '../sqlite/sqlite-store.js';
import { mapSqliteError } from '../sqlite/open.js';
import type { Key, Row, StoreEnd } from './end.js';
import { ROWID_COLUMN, type TableName, type TableShape } from './tables.js';

const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;
/** A column as SQL: the table's hidden rowid where PostgreSQL has it as a column (tables.ts ROWID_COLUMN). */
const col = (table: TableName, name: string): string => (ROWID_COLUMN[table] === name ? 'rowid' : ident(name));
const cols = (table: TableName, names: readonly string[]): string => names.map((n) => col(table, n)).join(', ');
const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

export class SqliteEnd implements StoreEnd {
  readonly backend = 'sqlite';
  readonly location: string;
  private readonly db: Database;
  private inSnapshot = false;

  constructor(private readonly store: SqliteStore) {
    this.db = store.db;
    let path = store.path;
    try {
      path = realpathSync(path);
    } catch {
      // a path that cannot be resolved is named as given
    }
    this.location = `sqlite:${path}`;
  }

  /** Opens (creating or upgrading to this Cairn's schema) the SQLite store at `path`. */
  static open(path: string, options: { busyTimeoutMs?: number } = {}): SqliteEnd {
    return new SqliteEnd(new SqliteStore(path, options));
  }

  private run<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw mapSqliteError(err, this.store.path);
    }
  }

  async tables(): Promise<string[]> {
    return this.run(() =>
      this.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'entries\\_fts%' ESCAPE '\\' ORDER BY name")
        .pluck()
        .all() as string[],
    );
  }

  async describe(table: TableName): Promise<{ columns: string[]; key: string[] }> {
    const info = this.run(() => this.db.prepare(`SELECT name, pk FROM pragma_table_info(?) ORDER BY cid`).all(table) as Array<{ name: string; pk: number }>);
    const rowid = ROWID_COLUMN[table];
    return { columns: [...info.map((c) => c.name), ...(rowid ? [rowid] : [])], key: info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name) };
  }

  async count(table: TableName): Promise<number> {
    return this.run(() => this.db.prepare(`SELECT count(*) FROM ${ident(table)}`).pluck().get() as number);
  }

  async lastKey(shape: TableShape): Promise<Key | null> {
    const order = shape.key.map((k) => `${col(shape.name, k)} DESC`).join(', ');
    const row = this.run(() => this.db.prepare(`SELECT ${cols(shape.name, shape.key)} FROM ${ident(shape.name)} ORDER BY ${order} LIMIT 1`).raw().get() as Key | undefined);
    return row ?? null;
  }

  async *read(shape: TableShape, after: Key | null, batch: number): AsyncGenerator<Row[]> {
    const keys = cols(shape.name, shape.key);
    const first = this.db.prepare(`SELECT ${cols(shape.name, shape.columns)} FROM ${ident(shape.name)} ORDER BY ${keys} LIMIT ?`).raw();
    const next = this.db.prepare(`SELECT ${cols(shape.name, shape.columns)} FROM ${ident(shape.name)} WHERE (${keys}) > (${marks(shape.key.length)}) ORDER BY ${keys} LIMIT ?`).raw();
    const keyAt = shape.key.map((k) => shape.columns.indexOf(k));
    let cursor = after;
    for (;;) {
      const rows = this.run(() => (cursor === null ? first.all(batch) : next.all(...cursor!, batch)) as Row[]);
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < batch) return;
      const last = rows[rows.length - 1]!;
      cursor = keyAt.map((i) => last[i]);
    }
  }

  async write(shape: TableShape, rows: readonly Row[]): Promise<void> {
    // store_meta: the target's own rows (the entry keys version a fresh home wrote) give way to the source's.
    const verb = shape.name === 'store_meta' ? 'INSERT OR REPLACE' : 'INSERT';
    const insert = this.db.prepare(`${verb} INTO ${ident(shape.name)} (${cols(shape.name, shape.columns)}) VALUES (${marks(shape.columns.length)})`);
    this.run(() => this.db.transaction(() => {
      for (const row of rows) insert.run(...row);
    }).immediate());
  }

  async counter(table: TableName, column: string): Promise<number> {
    return this.run(() => {
      const max = (this.db.prepare(`SELECT max(${col(table, column)}) FROM ${ident(table)}`).pluck().get() as number | null) ?? 0;
      const seq = (this.db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().get(table) as number | undefined) ?? 0;
      return Math.max(max, seq);
    });
  }

  async setCounter(table: TableName, column: string, value: number): Promise<void> {
    this.run(() => {
      // Only AUTOINCREMENT tables have a counter apart from their rows (sqlite_sequence); the
      // others continue after their greatest key, which the copied rows already set.
      const auto = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? AND sql LIKE '%AUTOINCREMENT%'").get(table);
      if (!auto || value <= 0) return;
      const max = (this.db.prepare(`SELECT max(${col(table, column)}) FROM ${ident(table)}`).pluck().get() as number | null) ?? 0;
      const target = Math.max(value, max);
      this.db.transaction(() => {
        if (this.db.prepare('UPDATE sqlite_sequence SET seq = ? WHERE name = ?').run(target, table).changes === 0) {
          this.db.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)').run(table, target);
        }
      }).immediate();
    });
  }

  async getMeta(key: string): Promise<string | null> {
    return this.run(() => (this.db.prepare('SELECT value FROM store_meta WHERE key = ?').pluck().get(key) as string | undefined) ?? null);
  }

  async setMeta(key: string, value: string | null): Promise<void> {
    this.run(() => {
      if (value === null) this.db.prepare('DELETE FROM store_meta WHERE key = ?').run(key);
      else this.db.prepare('INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
    });
  }

  async beginSnapshot(): Promise<void> {
    // A read transaction: in WAL mode every read until COMMIT sees the database as of its first read.
    this.run(() => this.db.exec('BEGIN'));
    this.inSnapshot = true;
    this.db.prepare('SELECT count(*) FROM store_meta').get();
  }

  async endSnapshot(): Promise<void> {
    if (!this.inSnapshot) return;
    this.inSnapshot = false;
    if (this.db.inTransaction) this.run(() => this.db.exec('COMMIT'));
  }

  async close(): Promise<void> {
    await this.endSnapshot().catch(() => undefined);
    await this.store.close();
  }
}
