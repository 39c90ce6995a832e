// One side of a migration (the SQLite file or the PostgreSQL schema) as the copier sees it: raw
// tables read in primary-key order, written a batch per transaction. Key order is byte order of
// UTF-8 for texts on both sides (SQLite's BINARY collation, PostgreSQL's "C"), so "the rows after
// key K" names the same rows on both.
import type { TableName, TableShape } from './tables.js';

/** A row as the shared columns' values, in the table's column order. */
export type Row = unknown[];
/** A primary key's values, in key order. */
export type Key = unknown[];

export interface StoreEnd {
  readonly backend: 'sqlite' | 'postgres';
  /** Where it is, without secrets (messages, and the marker that tells a resume from another store). */
  readonly location: string;
  /** The store's tables (internal ones such as FTS5's and sqlite_sequence left out). */
  tables(): Promise<string[]>;
  /** Column names in declaration order, and the primary key's columns in key order. */
  describe(table: TableName): Promise<{ columns: string[]; key: string[] }>;
  count(table: TableName): Promise<number>;
  /** The greatest key present, or null when the table is empty. */
  lastKey(shape: TableShape): Promise<Key | null>;
  /** The rows after `after` (all rows when null) in key order, `batch` at a time. */
  read(shape: TableShape, after: Key | null, batch: number): AsyncGenerator<Row[]>;
  /** Inserts rows in one transaction (store_meta rows replace the target's of the same key). */
  write(shape: TableShape, rows: readonly Row[]): Promise<void>;
  /** The highest number the table's counter has handed out (0 when none). */
  counter(table: TableName, column: string): Promise<number>;
  /** Makes the table's counter continue after `value`. */
  setCounter(table: TableName, column: string, value: number): Promise<void>;
  getMeta(key: string): Promise<string | null>;
  setMeta(key: string, value: string | null): Promise<void>;
  /** Reads from here on see one consistent state of the store until endSnapshot (a source). */
  beginSnapshot(): Promise<void>;
  endSnapshot(): Promise<void>;
  close(): Promise<void>;
}
