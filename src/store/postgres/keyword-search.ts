// BM25 over a namespace's entries in PostgreSQL, scored like SQLite's FTS5 bm25() (k1 = 1.2,
// b = 0.75, idf = ln((N − df + 0.5) / (df + 0.5)) floored at 1e-6, a phrase's hits counted in
// the entry's length in tokens) so both backends rank alike. The GIN index on `terms` finds the
// candidates; the term frequencies come from the matched lexemes' positions in the tsvector.
//
// N, the average length and each term's df are the namespace's own (FTS5 counts them over the
// whole table, every namespace together, so the two agree exactly for a home of one namespace):
// df from the GIN index with each query, N and the average length kept a few seconds per process.
// A stats table kept exactly under concurrent writers would put a row lock on every entry write
// of the namespace for the rest of its transaction.
import { emptyTermsHeld } from '../held-terms.js';
import type { EntryFilter, KeywordHit } from '../store.js';
import { poolOf, type Db } from './connect.js';
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

/**
 * Candidates are the entries holding the query's rarest terms, up to this many matches in all
 * (every term still scores them). A term held by most of a namespace adds next to nothing to BM25
 * (its idf tends to 0) but made every one of those entries a candidate whose tsvector had to be
 * read: 4.4 s p50 at 100k entries for OR queries of common words (issue 26 report). Below the cap,
 * which covers every namespace of up to this many entries, the ranking is exactly FTS5's.
 */
export const CANDIDATE_CAP = 5000;
/** N and the average length of a namespace, reused for a few seconds (they move slowly; BM25 barely notices). */
const STATS_TTL_MS = 5000;
const statsCache = new WeakMap<object, Map<string, { at: number; n: number; avgdl: number }>>();

async function namespaceStats(db: Db, namespace: string): Promise<{ n: number; avgdl: number }> {
  const key = poolOf(db) ?? db;
  let byNs = statsCache.get(key);
  if (!byNs) statsCache.set(key, (byNs = new Map()));
  const hit = byNs.get(namespace);
  if (hit && Date.now() - hit.at < STATS_TTL_MS) return hit;
  const row = (await db.query<{ n: number; avgdl: number }>(
    'SELECT count(*)::float8 AS n, coalesce(nullif(avg(terms_len), 0), 1)::float8 AS avgdl FROM entries WHERE namespace = $1',
    [namespace],
  )).rows[0]!;
  byNs.set(namespace, { at: Date.now(), ...row });
  return row;
}

/** Each term's document frequency in the namespace (GIN bitmap counts, no tsvector read). */
async function documentFrequencies(db: Db, namespace: string, usable: readonly QueryTerm[]): Promise<number[]> {
  const rows = (await db.query<{ i: number; df: number }>(
    `SELECT t.i::int AS i, (SELECT count(*) FROM entries e WHERE e.namespace = $1 AND e.terms @@ t.query::tsquery)::float8 AS df
     FROM unnest($2::text[]) WITH ORDINALITY AS t(query, i)`,
    [namespace, usable.map((t) => t.query)],
  )).rows;
  const out = new Array<number>(usable.length).fill(0);
  for (const r of rows) out[r.i - 1] = r.df;
  return out;
}

export async function keywordSearch(db: Db, namespace: string, terms: readonly string[], limit: number, filter?: EntryFilter): Promise<KeywordHit[]> {
  const all = filter?.allTerms === true;
  const parsed = terms.map(queryTerm);
  const usable = parsed.filter((t): t is QueryTerm => t !== null);
  // AND with a term that matches nothing matches nothing (as FTS5's empty phrase).
  if (usable.length === 0 || (all && usable.length < parsed.length) || limit <= 0) return [];
  const [stats, dfs] = await Promise.all([namespaceStats(db, namespace), documentFrequencies(db, namespace, usable)]);
  if (dfs.every((d) => d === 0)) return [];
  // The rarest terms that together match at most CANDIDATE_CAP entries (at least the rarest one).
  const byRarity = usable.map((t, i) => ({ t, df: dfs[i]! })).filter((x) => x.df > 0).sort((a, b) => a.df - b.df);
  const seed: QueryTerm[] = [];
  let covered = 0;
  for (const x of byRarity) {
    if (seed.length > 0 && covered + x.df > CANDIDATE_CAP) break;
    seed.push(x.t);
    covered += x.df;
  }
  const params = new Params(namespace);
  const ns = '$1';
  const any = params.add(seed.map((t) => `(${t.query})`).join(' | '));
  const every = all ? params.add(usable.map((t) => `(${t.query})`).join(' & ')) : null;
  const queries = params.add(usable.map((t) => t.query));
  const lexemes = params.add(usable.map((t) => t.lexeme));
  const singles = params.add(usable.map((t) => t.single));
  const idfs = params.add(dfs.map((df) => Math.max(Math.log((stats.n - df + 0.5) / (df + 0.5)), 1e-6)));
  const avgdl = params.add(stats.avgdl);
  const keep = filterExpression(filter, params, 'e') + (every ? ` AND e.terms @@ ${every}::tsquery` : '');
  // Still too many when even the rarest term is common: the shortest of its entries, which BM25
  // ranks first for equal term counts, are scored.
  const cap = covered > CANDIDATE_CAP ? ` ORDER BY e.terms_len LIMIT ${CANDIDATE_CAP}` : '';
  const sql = `
    WITH q AS (
      SELECT t.i, t.query::tsquery AS query, t.lexeme, t.single, t.idf
      FROM unnest(${queries}::text[], ${lexemes}::text[], ${singles}::boolean[], ${idfs}::float8[]) WITH ORDINALITY AS t(query, lexeme, single, idf, i)
    ),
    cand AS MATERIALIZED (
      SELECT e.seq, e.terms, e.terms_len FROM entries e
      WHERE e.namespace = ${ns} AND e.terms @@ ${any}::tsquery AND ${keep}${cap}
    ),
    -- Only the query's lexemes are unnested: marked with weight A (entry terms carry none,
    -- entry-terms.ts) and filtered to it, in C, instead of a row per lexeme of every candidate.
    tf AS (
      SELECT c.seq, q.idf, coalesce(array_length(u.positions, 1), 1)::float8 AS tf, c.terms_len
      FROM cand c CROSS JOIN LATERAL unnest(ts_filter(setweight(c.terms, 'A', ${lexemes}::text[]), '{a}')) u JOIN q ON q.lexeme = u.lexeme
      WHERE q.single OR c.terms @@ q.query
    )
    SELECT seq, sum(idf * tf * ${K1 + 1} / (tf + ${K1} * (1 - ${B} + ${B} * terms_len / ${avgdl}::float8)))::float8 AS score
    FROM tf
    GROUP BY seq
    ORDER BY score DESC, seq
    LIMIT ${params.add(limit)}`;
  return (await db.query<KeywordHit>(sql, params.values)).rows;
}

/**
 * For each of `seqs` of the namespace, which of `terms` its index terms hold (store.ts termsHeld):
 * the term's lexeme, or its phrase, as keywordSearch matches it, so coverage agrees with SQLite's.
 */
export async function termsHeld(db: Db, namespace: string, terms: readonly string[], seqs: readonly number[]): Promise<Map<number, Uint8Array>> {
  const out = emptyTermsHeld(seqs, terms.length);
  const usable = terms.flatMap((t, i) => {
    const q = queryTerm(t);
    return q ? [{ query: q.query, i }] : [];
  });
  if (seqs.length === 0 || usable.length === 0) return out;
  const rows = (await db.query<{ seq: number | string; held: boolean[] }>(
    `SELECT e.seq, ARRAY(SELECT e.terms @@ t.query::tsquery FROM unnest($3::text[]) WITH ORDINALITY AS t(query, i) ORDER BY t.i) AS held
     FROM entries e WHERE e.namespace = $1 AND e.seq = ANY($2::bigint[])`,
    [namespace, seqs, usable.map((u) => u.query)],
  )).rows;
  for (const r of rows) {
    const found = out.get(Number(r.seq));
    if (found) r.held.forEach((h, k) => void (h && (found[usable[k]!.i] = 1)));
  }
  return out;
}
