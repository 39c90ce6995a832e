// What `cairn migrate` moves: every table of the store, parents before children so foreign keys
// hold after each batch, with the columns both backends share. PostgreSQL adds columns of its own
// (derived from others or defaulted), which are never read from or written to SQLite.
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import { ROWS_PER_TX } from '../postgres/vectors.js';

/** Parents first: each table's foreign keys point only at tables earlier in the list. */
export const TABLE_ORDER = [
  'namespaces',
  'sources',
  'checkpoints',
  'turns',
  'speakers',
  'feedback',
  'llm_usage',
  'hot_state',
  'api_tokens',
  'store_meta',
  'memories',
  'judgments',
  'entries',
  'vectors',
  'embed_cache',
  'documents',
  'digests',
  'digest_sources',
  'consolidation_state',
  'entities',
  'entity_aliases',
  'entity_mentions',
  'facts',
  'knowledge_state',
  'purge_log',
  'leases',
] as const;

export type TableName = (typeof TABLE_ORDER)[number];

/** Columns only PostgreSQL has: derived from others (entries' keyword vector, vectors' halfvec) or defaulted (the writing transaction). */
export const PG_ONLY_COLUMNS: Readonly<Partial<Record<TableName, readonly string[]>>> = {
  entries: ['terms', 'terms_len'],
  vectors: ['embedding', 'tx'],
};

/**
 * SQLite's hidden rowid, which these tables list by (feedback newest first, an entity's names in
 * the order learned), is PostgreSQL's column of this name: copied both ways, part of the checksum.
 */
export const ROWID_COLUMN: Readonly<Partial<Record<TableName, string>>> = {
  feedback: 'seq',
  entity_aliases: 'seq',
};

/**
 * Columns each backend numbers by its own rule, neither copied nor compared. A vector's id is its
 * place in the order readers follow the table by: SQLite's AUTOINCREMENT, PostgreSQL's writing
 * transaction × ROWS_PER_TX + place (postgres/vectors.ts). The target numbers copied rows as it
 * numbers its own writes, and the table is copied and compared in its natural key's order.
 */
export const LOCAL_COLUMNS: Readonly<Partial<Record<TableName, { columns: readonly string[]; key: readonly string[] }>>> = {
  vectors: { columns: ['id'], key: ['entry_seq', 'model'] },
};

/** Rows per target transaction for a table: vectors count their place within one (ROWS_PER_TX). */
export function batchFor(name: TableName, requested: number): number {
  return name === 'vectors' ? Math.min(requested, ROWS_PER_TX) : requested;
}

/** Numbered by an identity (PostgreSQL) or AUTOINCREMENT/rowid (SQLite): its counter is carried past the copied rows. */
export const COUNTER_COLUMN: Readonly<Partial<Record<TableName, string>>> = {
  sources: 'id',
  turns: 'seq',
  feedback: 'seq',
  memories: 'seq',
  entries: 'seq',
  entities: 'seq',
  entity_aliases: 'seq',
  facts: 'seq',
  purge_log: 'id',
};

/**
 * The store_meta row a migration writes into its target when it starts and deletes when the copy is
 * verified: a target holding it is a migration of that source under way, which a new run resumes.
 * Never copied, never part of a checksum.
 */
export const MARKER_KEY = 'cairn.migration';

/** A table's shape: its shared columns in declaration order and its primary key's columns in key order. */
export interface TableShape {
  name: TableName;
  columns: string[];
  key: string[];
}

/** Sorted-set comparison for the schema check's messages. */
function difference(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => !b.includes(x));
}

/**
 * Checks that a side's tables are exactly the ones this Cairn moves (a newer or older schema on
 * one side would lose data silently otherwise).
 */
export function assertKnownTables(side: string, tables: readonly string[]): void {
  const unknown = difference(tables, TABLE_ORDER);
  const missing = difference(TABLE_ORDER, tables);
  if (unknown.length || missing.length) {
    const parts = [unknown.length ? `tables this Cairn does not know: ${unknown.join(', ')}` : '', missing.length ? `missing tables: ${missing.join(', ')}` : ''].filter(Boolean);
    throw new CairnError(ERROR_CODES.STORE, `The ${side} store's schema is not the one this Cairn migrates (${parts.join('; ')}); use the Cairn version that wrote it.`);
  }
}

/** The shape copied and compared: the shared columns without the local ones, in the order of the natural key where the primary key is local. */
export function sharedShape(name: TableName, columns: readonly string[], key: readonly string[]): TableShape {
  const local = LOCAL_COLUMNS[name];
  return { name, columns: columns.filter((c) => !local?.columns.includes(c)), key: [...(local?.key ?? key)] };
}

/** The PostgreSQL table must have the SQLite table's columns plus only its own known extras. */
export function assertSameColumns(table: TableName, sqlite: readonly string[], postgres: readonly string[]): void {
  const extras = PG_ONLY_COLUMNS[table] ?? [];
  const missing = difference(sqlite, postgres);
  const unknown = difference(difference(postgres, sqlite), extras);
  if (missing.length || unknown.length) {
    throw new CairnError(
      ERROR_CODES.STORE,
      `Table ${table} differs between SQLite and PostgreSQL (${[missing.length ? `PostgreSQL lacks ${missing.join(', ')}` : '', unknown.length ? `PostgreSQL has extra ${unknown.join(', ')}` : ''].filter(Boolean).join('; ')}); the two schemas are of different Cairn versions.`,
    );
  }
}
