// BM25 over a namespace's entries in PostgreSQL, scored like SQLite's FTS5 bm25() (k1 = 1.2,
// b = 0.75, idf = ln((N − df + 0.5) / (df + 0.5)) floored at 1e-6, a phrase's hits counted in
// the entry's length in tokens) so both backends rank alike. The GIN index on `terms` finds the
// candidates; the term frequencies come from the matched lexemes' positions in the tsvector.
//
// N, the average length and each term's df are the namespace's own, computed with the query
// (FTS5 counts them over the whole table, every namespace together, so the two agree exactly
// for a home of one namespace). Measured at 100k entries (bench/pg-keyword.ts): the statistics
// cost a scan of the namespace's terms_len, a few ms, where a stats table kept exactly under
// concurrent writers would put a row lock on every entry write of the namespace for the rest of
// its transaction (see the report of issue 26 for figures).
import type { EntryFilter, KeywordHit } from '../store.js';
import type { Db } from './connect.js';
import { filterExpression, Params } from './entry-filter.js';

const K1 = 1.2;
const B = 0.75;
/** PostgreSQL refuses a lexeme over this many bytes; the index never holds one (entry-terms.ts). */
const MAX_LEXEME_BYTES = 2047;

/**
 * The words of a term as FTS5's unicode61 tokenizer reads a quoted query string: case folded,
 * split at anything that is not a letter, digit, mark or private-use character (so "alpha*" is
 * the word alpha, "-alpha" too, and "x.y" the phrase x y). NUL is dropped, as SQLite must.
 */
export function termTokens(term: string): string[] {
  return term
    .replace(/\0/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}\p{Co}]+/u)
    .filter((t) => t.length > 0);
}

/** A lexeme as tsquery input reads it literally: quoted, with quote and backslash escaped. */
function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

interface QueryTerm {
  /** tsquery text of the term: one quoted lexeme, or a phrase of them (<->). */
  query: string;
  /** The lexeme whose positions count the term's hits (a phrase's first word). */
  lexeme: string;
  single: boolean;
}

/** The terms as tsquery operands; null for a term that can match nothing (no words, or a word the index cannot hold). */
function queryTerm(term: string): QueryTerm | null {
  const tokens = termTokens(term);
  if (tokens.length === 0 || tokens.some((t) => Buffer.byteLength(t) > MAX_LEXEME_BYTES)) return null;
  return { query: tokens.map(quoteLexeme).join(' <-> '), lexeme: tokens[0]!, single: tokens.length === 1 };
}

export async function keywordSearch(db: Db, namespace: string, terms: readonly string[], limit: number, filter?: EntryFilter): Promise<KeywordHit[]> {
  const all = filter?.allTerms === true;
  const parsed = terms.map(queryTerm);
  const usable = parsed.filter((t): t is QueryTerm => t !== null);
  // AND with a term that matches nothing matches nothing (as FTS5's empty phrase).
  if (usable.length === 0 || (all && usable.length < parsed.length) || limit <= 0) return [];
  const params = new Params(namespace);
  const ns = '$1';
  const any = params.add(usable.map((t) => `(${t.query})`).join(' | '));
  const every = all ? params.add(usable.map((t) => `(${t.query})`).join(' & ')) : null;
  const queries = params.add(usable.map((t) => t.query));
  const lexemes = params.add(usable.map((t) => t.lexeme));
  const singles = params.add(usable.map((t) => t.single));
  const keep = filterExpression(filter, params, 'e') + (every ? ` AND e.terms @@ ${every}::tsquery` : '');
  const sql = `
    WITH q AS (
      SELECT t.i, t.query::tsquery AS query, t.lexeme, t.single
      FROM unnest(${queries}::text[], ${lexemes}::text[], ${singles}::boolean[]) WITH ORDINALITY AS t(query, lexeme, single, i)
    ),
    stats AS (
      SELECT count(*)::float8 AS n, coalesce(nullif(avg(terms_len), 0), 1)::float8 AS avgdl FROM entries WHERE namespace = ${ns}
    ),
    -- Every entry of the namespace holding any term, whatever the filter and AND: each term's
    -- df is counted over them; the filter and AND only decide which are ranked (keep).
    cand AS MATERIALIZED (
      SELECT e.seq, e.terms, e.terms_len, (${keep}) AS keep FROM entries e
      WHERE e.namespace = ${ns} AND e.terms @@ ${any}::tsquery
    ),
    -- Only the query's lexemes are unnested: marked with weight A (entry terms carry none,
    -- entry-terms.ts) and filtered to it, in C, instead of a row per lexeme of every candidate.
    tf AS (
      SELECT c.seq, q.i, coalesce(array_length(u.positions, 1), 1)::float8 AS tf
      FROM cand c CROSS JOIN LATERAL unnest(ts_filter(setweight(c.terms, 'A', ${lexemes}::text[]), '{a}')) u JOIN q ON q.lexeme = u.lexeme
      WHERE q.single OR c.terms @@ q.query
    ),
    df AS (SELECT i, count(*)::float8 AS df FROM tf GROUP BY i)
    SELECT c.seq,
      sum(greatest(ln((s.n - df.df + 0.5) / (df.df + 0.5)), 1e-6) * tf.tf * ${K1 + 1}
          / (tf.tf + ${K1} * (1 - ${B} + ${B} * c.terms_len / s.avgdl)))::float8 AS score
    FROM tf JOIN df ON df.i = tf.i JOIN cand c ON c.seq = tf.seq CROSS JOIN stats s
    WHERE c.keep
    GROUP BY c.seq
    ORDER BY score DESC, c.seq
    LIMIT ${params.add(limit)}`;
  return (await db.query<KeywordHit>(sql, params.values)).rows;
}
