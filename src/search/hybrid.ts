// Hybrid retrieval: BM25 candidates and vector candidates, rescored exactly, fused, ranked.
// Every candidate gets both scores (exact cosine from stored vectors), so fusion never compares
// a real score with a missing one.
import type { Kind, Provenance } from '../core/types.js';
import type { EntryFilter, IndexEntry, Store } from '../store/store.js';
import { queryTerms } from './query-terms.js';
import { makeSnippet } from './snippet.js';
import { finalScore, type RankingOptions, type ScoreParts } from './ranking.js';
import type { VectorIndex } from './vector-index.js';

/** When filters leave fewer than the limit among ANN candidates, exact-scan at most this many. */
const EXACT_FALLBACK_MAX = 20_000;

export type SearchMode = 'hybrid' | 'bm25' | 'vector';

export interface SearchParams {
  namespace: string;
  query: string;
  limit: number;
  filter: EntryFilter;
  mode: SearchMode;
  now?: number;
}

export interface SearchResult {
  id: string;
  kind: Kind;
  namespace: string;
  text: string;
  snippet: string;
  score: number;
  parts: ScoreParts;
  time: string;
  createdAt: string;
  validTo: string | null;
  current: boolean;
  category: string | null;
  importance: number | null;
  provenance: Provenance[];
}

export interface VectorSide {
  index: VectorIndex;
  model: string;
  /** The query's vector, already being computed while BM25 runs. */
  queryVector: Promise<Float32Array>;
}

export interface HybridDeps {
  store: Store;
  ranking: RankingOptions;
  candidates: number;
  /** Null when no embedder is configured or its vectors are not usable: BM25 only. */
  vectors: VectorSide | null;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function passes(e: IndexEntry, f: EntryFilter): boolean {
  if (!f.includeSuperseded && !e.current) return false;
  if (f.kinds?.length && !f.kinds.includes(e.kind)) return false;
  if (f.categories?.length && (e.category === null || !f.categories.includes(e.category))) return false;
  if (f.minImportance !== undefined && (e.importance === null || e.importance < f.minImportance)) return false;
  if (f.since && e.time < f.since) return false;
  if (f.until && e.time > f.until) return false;
  return true;
}

function hasFilter(f: EntryFilter): boolean {
  return Boolean(f.kinds?.length || f.categories?.length || f.minImportance !== undefined || f.since || f.until);
}

export async function hybridSearch(deps: HybridDeps, params: SearchParams): Promise<SearchResult[]> {
  const { store, ranking } = deps;
  const now = params.now ?? Date.now();
  const terms = queryTerms(params.query);
  const pool = Math.max(deps.candidates, params.limit * 3);
  const useBm25 = params.mode !== 'vector';
  const vectorSide = params.mode === 'bm25' ? null : deps.vectors;

  const bm25Hits = useBm25 ? await store.keywordSearch(params.namespace, terms, pool, params.filter) : [];
  const bm25 = new Map(bm25Hits.map((h) => [h.seq, h.score]));

  let queryVec: Float32Array | null = null;
  const candidateSeqs = new Set<number>(bm25.keys());
  if (vectorSide) {
    queryVec = await vectorSide.queryVector;
    const ann = await vectorSide.index.search(params.namespace, queryVec, pool);
    for (const h of ann) candidateSeqs.add(h.seq);
  }

  let entries = (await store.getEntries(params.namespace, [...candidateSeqs])).filter((e) => passes(e, params.filter));
  if (vectorSide && hasFilter(params.filter) && entries.length < params.limit) {
    // Restrictive filters starve the ANN candidates: score the filtered set exactly instead.
    const seqs = await store.filterEntries(params.namespace, params.filter, EXACT_FALLBACK_MAX);
    const known = new Set(entries.map((e) => e.seq));
    const extra = seqs.filter((s) => !known.has(s));
    if (extra.length) entries = entries.concat((await store.getEntries(params.namespace, extra)).filter((e) => passes(e, params.filter)));
  }
  if (entries.length === 0) return [];

  const cosines = new Map<number, number>();
  if (vectorSide && queryVec) {
    const vecs = await store.getVectors(vectorSide.model, entries.map((e) => e.seq));
    for (const [seq, v] of vecs) if (v.length === queryVec.length) cosines.set(seq, dot(queryVec, v));
  }
  const hasVectors = cosines.size > 0;
  // Min-max on both sides: measured on LoCoMo (bench/recall-check.ts) it beats max-only scaling.
  const maxBm25 = Math.max(0, ...bm25.values());
  const minBm25 = bm25.size ? Math.min(...bm25.values()) : 0;
  let minCos = Infinity;
  let maxCos = -Infinity;
  for (const c of cosines.values()) {
    minCos = Math.min(minCos, c);
    maxCos = Math.max(maxCos, c);
  }
  const cosRange = maxCos - minCos;

  const scored = entries.map((e) => {
    const raw = bm25.get(e.seq);
    const b = raw === undefined || maxBm25 <= 0 ? 0 : maxBm25 - minBm25 > 1e-9 ? (raw - minBm25) / (maxBm25 - minBm25) : 1;
    const cos = cosines.get(e.seq) ?? null;
    // Vector-only mode ranks by raw cosine: min-max would zero (and drop) the least similar hit.
    const v = cos === null ? 0 : params.mode === 'vector' ? Math.max(0, cos) : cosRange > 1e-9 ? (cos - minCos) / cosRange : 1;
    const { score, parts } = finalScore(
      params.mode === 'vector' ? 0 : b,
      v,
      cos,
      e.importance,
      e.time,
      now,
      params.mode === 'vector' ? { ...ranking, bm25Weight: 0, vectorWeight: 1 } : ranking,
      hasVectors,
    );
    return { e, score, parts };
  });
  scored.sort((a, b) => b.score - a.score || b.e.time.localeCompare(a.e.time));

  // A term match always stays (min-max puts the weakest genuine match at 0); a vector-only
  // neighbour stays only when it scores above the weakest candidate.
  // A turn promoted to a memory would appear twice (as itself and as the memory): the memory,
  // which carries the turn's provenance, stands for both.
  const promoted = new Set<string>();
  for (const s of scored) if (s.e.kind === 'memory') for (const p of s.e.provenance) for (const id of p.turnIds ?? []) promoted.add(id);
  return scored
    .filter((s) => s.score > 0 || bm25.has(s.e.seq))
    // A turn the judge called noise ("ok", "thanks") only ever resembles a query by accident.
    .filter((s) => bm25.has(s.e.seq) || s.e.category !== 'noise')
    .filter((s) => !(s.e.kind === 'turn' && promoted.has(s.e.refId)))
    .slice(0, params.limit)
    .map(({ e, score, parts }) => ({
      id: e.refId,
      kind: e.kind,
      namespace: e.namespace,
      text: e.text,
      snippet: makeSnippet(e.text, terms),
      score,
      parts,
      time: e.time,
      createdAt: e.createdAt,
      validTo: e.validTo,
      current: e.current,
      category: e.category,
      importance: e.importance,
      provenance: e.provenance,
    }));
}
