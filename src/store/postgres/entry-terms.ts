// What the PostgreSQL keyword index holds for an entry: the words of its body and keys in their
// index form (search/text-analysis.ts indexText, the same forms SQLite's FTS5 table gets), written
// as a tsvector literal by Cairn itself, so no PostgreSQL text configuration re-splits or re-stems
// them and both backends match exactly the same words. Keys come from the store's EntryKeys
// provider (store.ts), registered per pool; a pooled client inside a transaction finds its pool.
import type pg from 'pg';
import { indexText } from '../../search/text-analysis.js';
import type { EntryKeys } from '../store.js';
import { poolOf, type Db } from './connect.js';
import { writerCte } from './follow.js';

/** PostgreSQL refuses a lexeme over 2,047 bytes and keeps positions only up to 16,383 and 256 per lexeme. */
const MAX_LEXEME_BYTES = 2047;
const MAX_POSITION = 16383;
const MAX_POSITIONS_PER_LEXEME = 256;
/** A tsvector may not exceed 1 MB: long texts are indexed by their first words (as many as fit well below it). */
const MAX_TOKENS = 60_000;

const providers = new WeakMap<pg.Pool, EntryKeys>();

export function setEntryKeysProvider(pool: pg.Pool, provider: EntryKeys): void {
  providers.set(pool, provider);
}

export function entryKeysProvider(db: Db): EntryKeys | undefined {
  const pool = poolOf(db);
  return pool ? providers.get(pool) : undefined;
}

/** The keys of a body about to be written ('' when the store has no keys provider). */
export function keysOf(db: Db, body: string): string {
  return entryKeysProvider(db)?.keys(body) ?? '';
}

function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** The index forms of a body and its keys, in order (what FTS5 gets as its two columns). */
export function indexTokens(body: string, keys: string): string[] {
  const words = (text: string, language?: 'en'): string[] => (text.length > 0 ? indexText(text, language).split(' ').filter((w) => w.length > 0) : []);
  return [...words(body), ...words(keys, 'en')];
}

/** The tsvector literal and token count of an entry (terms, terms_len columns). */
export function entryTerms(body: string, keys: string): { terms: string; length: number } {
  const tokens = indexTokens(body, keys).slice(0, MAX_TOKENS);
  const positions = new Map<string, number[]>();
  tokens.forEach((token, i) => {
    if (Buffer.byteLength(token) > MAX_LEXEME_BYTES) return;
    let list = positions.get(token);
    if (!list) positions.set(token, (list = []));
    if (list.length < MAX_POSITIONS_PER_LEXEME) list.push(Math.min(i + 1, MAX_POSITION));
  });
  const parts: string[] = [];
  for (const [lexeme, list] of positions) parts.push(`${quoteLexeme(lexeme)}:${[...new Set(list)].join(',')}`);
  return { terms: parts.join(' '), length: tokens.length };
}

export interface EntryInput {
  namespace: string;
  kind: string;
  refId: string;
  body: string;
  time: string;
  category: string | null;
  importance: number | null;
  current?: boolean;
  embed?: boolean;
  validTo?: string | null;
}

/**
 * Inserts an index entry with its keys and terms; returns its seq. Registered as a writer of the
 * namespace's entries first (follow.ts), so entryChangesAfter never passes it before it commits.
 */
export async function insertEntry(db: Db, e: EntryInput): Promise<number> {
  const keys = keysOf(db, e.body);
  const { terms, length } = entryTerms(e.body, keys);
  const row = await db.query<{ seq: number }>(
    `WITH ${writerCte('entries', '$1')}
     INSERT INTO entries (namespace, kind, ref_id, body, keys, time, category, importance, current, embed, valid_to, terms, terms_len)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8::int, $9::int, $10::int, $11, $12::tsvector, $13::int FROM follow_writer RETURNING seq`,
    [e.namespace, e.kind, e.refId, e.body, keys, e.time, e.category, e.importance, e.current === false ? 0 : 1, e.embed === false ? 0 : 1, e.validTo ?? null, terms, length],
  );
  return row.rows[0]!.seq;
}

/** Sets an entry's body (found by seq), recomputing keys and terms. */
export async function setEntryBody(db: Db, seq: number, body: string): Promise<void> {
  const keys = keysOf(db, body);
  const { terms, length } = entryTerms(body, keys);
  await db.query('UPDATE entries SET body = $2, keys = $3, terms = $4::tsvector, terms_len = $5 WHERE seq = $1', [seq, body, keys, terms, length]);
}
