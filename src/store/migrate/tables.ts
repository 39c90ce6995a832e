// What `cairn migrate` moves: every table of the store, parents before children so foreign keys
// hold after each batch, with the columns both backends share. PostgreSQL adds columns of its own
// (derived from others or defaulted), which are never read from or written to SQLite.
import { CairnError, ERROR_CODES } from '../../core/errors.js';

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
] as const;

export type TableName = (typeof TABLE_ORDER)[number];

/**
 * Columns only PostgreSQL has: entries' keyword vector (computed from body and keys), vectors'
 * writing transaction (defaulted) and halfvec copy (filled from the bytes when the model's HNSW
 * index is built, postgres/vectors.ts).
 */
export const PG_ONLY_COLUMNS: Readonly<Partial<Record<TableName, readonly string[]>>> = {
  entries: ['terms', 'terms_len'],
  vectors: ['tx', 'embedding'],
};

/** Numbered by an identity (PostgreSQL) or AUTOINCREMENT/rowid (SQLite): its counter is carried past the copied rows. */
export const COUNTER_COLUMN: Readonly<Partial<Record<TableName, string>>> = {
  sources: 'id',
  turns: 'seq',
  memories: 'seq',
  entries: 'seq',
  vectors: 'id',
  entities: 'seq',
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
