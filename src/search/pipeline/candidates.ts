// Stage 1, what a search retrieves: the terms BM25 is asked for, how many candidates each side
// returns, and when restrictive filters call for an exact scan instead of the ANN's candidates.
import type { EntryFilter, IndexEntry } from '../../store/store.js';
import { hasFilter } from '../entry-filter.js';
import { queryTerms } from '../query-terms.js';
import { termOf, type Language } from '../text-analysis.js';
import type { QueryPeople } from '../speakers.js';

/** When filters leave fewer than the limit among ANN candidates, exact-scan at most this many. */
export const EXACT_FALLBACK_MAX = 20_000;
/** BM25 terms of a rewritten search: the query's own and the expansion's, in that order. */
export const MAX_EXPANDED_TERMS = 48;

export interface SearchTerms {
  /** The query's own terms: snippets and context previews point at these. */
  terms: string[];
  /** The terms coverage counts and BM25 searches for (named speakers left out). */
  bm25Terms: string[];
  /** What BM25 is asked for: bm25Terms, widened by a rewrite's expansion. */
  retrievalTerms: string[];
}

/**
 * A named speaker's name is in nearly every turn that addresses them: a keyword that ranks
 * "thanks Dave" above what Dave said. The speaker factor carries it instead. Ranking (coverage,
 * snippets) stays on the query's own words; only retrieval widens.
 */
export function searchTerms(query: string, named: QueryPeople | null, language: Language, expansion?: readonly string[]): SearchTerms {
  const terms = queryTerms(query, language);
  // Terms are in the index's form (text-analysis.ts): a speaker's name is compared in that form too.
  const namedTerms = named?.tokens.size ? new Set([...named.tokens].map((t) => termOf(t, language))) : undefined;
  const keywordTerms = namedTerms ? terms.filter((t) => !namedTerms.has(t)) : terms;
  const bm25Terms = keywordTerms.length > 0 ? keywordTerms : terms;
  const retrievalTerms = expansion?.length ? expandTerms(bm25Terms, expansion, namedTerms) : bm25Terms;
  return { terms, bm25Terms, retrievalTerms };
}

/** The query's terms, then new terms of the expansion texts, without named speakers, at most MAX_EXPANDED_TERMS. */
export function expandTerms(own: readonly string[], expansion: readonly string[], speakers: ReadonlySet<string> | undefined): string[] {
  const out = new Set(own);
  for (const text of expansion) {
    for (const t of queryTerms(text)) {
      if (out.size >= MAX_EXPANDED_TERMS) return [...out];
      if (!speakers?.has(t)) out.add(t);
    }
  }
  return [...out];
}

/**
 * Candidates asked of each side per hit a search may fold into its results: 0.8. A search gathers
 * up to groupHits hits of a session from the hits that fill foldSpan results (20 at limit 5 or 10,
 * 40 at limit 20), so 80 candidates at limit 5 and 10 with five hits a result, 160 at limit 20.
 * Measured 2026-11-28 against the limit × 12.5 used before (100, 125, 250): recall@5/10/20 and
 * first-hit recall within their noise on LoCoMo 0–4 and 5–9 and on the agent-work set
 * (docs/SEARCH.md), while every candidate costs a search its entry, cosine, coverage and
 * neighbours (~20 % of a search's CPU at 50k chat turns and 100k memories, docs/BENCHMARKS.md).
 */
export const POOL_PER_FOLDED_HIT = 0.8;

/** Candidates asked of each side per result asked for, at least: one hit a result still has choice. */
export const POOL_PER_RESULT = 3;

/**
 * Candidates asked of each side: the configured floor, or what the hits the search may fold need
 * (`span` results of up to `groupHits` hits, pipeline/assembly.ts foldSpan), or POOL_PER_RESULT ×
 * `limit`, whichever is most.
 */
export function candidatePool(candidates: number, limit: number, span: number, groupHits: number): number {
  return Math.max(candidates, Math.ceil(span * groupHits * POOL_PER_FOLDED_HIT), limit * POOL_PER_RESULT);
}

/** Restrictive filters starve the ANN candidates: with vectors, fewer than the limit left calls for an exact scan of the filtered set. */
export function needsExactScan(vectors: boolean, filter: EntryFilter, found: number, limit: number): boolean {
  return vectors && hasFilter(filter) && found < limit;
}

/** The seqs of `seqs` not among `entries` yet, in their order. */
export function unseen(entries: readonly IndexEntry[], seqs: readonly number[]): number[] {
  const known = new Set(entries.map((e) => e.seq));
  return seqs.filter((s) => !known.has(s));
}
