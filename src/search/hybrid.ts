// Hybrid retrieval: BM25 candidates and vector candidates, rescored exactly, fused, ranked. This
// file only reads the store and the index and passes plain data between the stages in pipeline/
// (each pure and tested on its own). Every candidate gets both scores (exact cosine from stored
// vectors), so fusion never compares a real score with a missing one.
import type { Store } from '../store/store.js';
import { passes } from './entry-filter.js';
import { anchorTurnId, neighbourIndex, turnsBeside } from './neighbours.js';
import { finalScore, type Relevance } from './ranking.js';
import { asksWhen } from './time-mentions.js';
import { namedSpeakers } from './speakers.js';
import { queryLanguage } from './query-terms.js';
import { passagePolicyOf } from '../embed/passages.js';
import { USE_LITE_MODEL_ID } from '../embed/use-lite.js';
import { quantisedBlobDot } from '../store/vector-codec.js';
import { VECTOR_ONLY_EXPANSION } from './vector-index-add.js';
import { assemble, focusText, foldSpan, pickedTurnIds, withContextTurns } from './pipeline/assembly.js';
import { candidatePool, EXACT_FALLBACK_MAX, needsExactScan, searchTerms, unseen } from './pipeline/candidates.js';
import { anchorsOf, aroundTexts, neighbourRadius, textsOf, wantsNeighbours } from './pipeline/conversation.js';
import { blendPassages, cosinesOf, longTexts, vectorSeqs } from './pipeline/cosines.js';
import { coverageFor, coverageOf, entityFactor, heldByText, relevanceOf, speakerFactor, supersededFactor, whenFactor } from './pipeline/factors.js';
import { withConfidence } from './pipeline/confidence.js';
import { keepHits, rankScored } from './pipeline/filtering.js';
import { fusionOf, sidesOf, type Sides } from './pipeline/fusion.js';
import { neighbourRelevance, turnRelevance, wantsNeighbourHits } from './pipeline/neighbour-relevance.js';
import type { SearchParams, SearchRanking, SearchResult, VectorSide } from './pipeline/types.js';

export type { ContextOptions, SearchMode, SearchParams, SearchRanking, SearchResult, VectorSide } from './pipeline/types.js';

export interface HybridDeps {
  store: Store;
  ranking: SearchRanking;
  candidates: number;
  /** Null when no embedder is configured or its vectors are not usable: BM25 only. */
  vectors: VectorSide | null;
}

export async function hybridSearch(deps: HybridDeps, params: SearchParams): Promise<SearchResult[]> {
  const { store, ranking } = deps;
  const now = params.now ?? Date.now();
  const named = ranking.speakerBoost > 0 ? namedSpeakers(params.query, params.speakers ?? (await store.speakers(params.namespace))) : null;
  const language = queryLanguage(params.query);
  const { terms, bm25Terms, retrievalTerms } = searchTerms(params.query, named, language, params.expansion);
  const pool = candidatePool(deps.candidates, params.limit, foldSpan(ranking, params.limit), ranking.groupHits);
  const vectorMode = params.mode === 'vector';
  const vectorSide = params.mode === 'bm25' ? null : deps.vectors;

  // 1. Candidates: BM25's, the ANN's, and an exact scan when filters starve the ANN.
  const bm25Hits = params.mode !== 'vector' ? await store.keywordSearch(params.namespace, retrievalTerms, pool, params.filter) : [];
  const bm25 = new Map(bm25Hits.map((h) => [h.seq, h.score]));
  // BM25's entries are read while the model still embeds the query (it runs on its own thread):
  // on a cold start, or when the model is slower than the keyword side, that read costs no wall time.
  const bm25Entries = bm25Hits.length ? store.getEntries(params.namespace, [...bm25.keys()]) : Promise.resolve([]);
  bm25Entries.catch(() => undefined); // awaited below; a failure while the model runs is not unhandled
  const queryVec = vectorSide ? await vectorSide.queryVector : null;
  const annSeqs: number[] = [];
  // With BM25's candidates beside them the graph walks less far; alone, as far as it used to.
  const explore = vectorMode ? VECTOR_ONLY_EXPANSION : 0;
  if (vectorSide && queryVec) for (const h of await vectorSide.index.search(params.namespace, queryVec, pool, explore)) if (!bm25.has(h.seq)) annSeqs.push(h.seq);
  let entries = mergeBySeq(await bm25Entries, annSeqs.length ? await store.getEntries(params.namespace, annSeqs) : []).filter((e) => passes(e, params.filter));
  if (needsExactScan(vectorSide !== null, params.filter, entries.length, params.limit)) {
    const extra = unseen(entries, await store.filterEntries(params.namespace, params.filter, EXACT_FALLBACK_MAX));
    if (extra.length) entries = entries.concat((await store.getEntries(params.namespace, extra)).filter((e) => passes(e, params.filter)));
  }
  if (entries.length === 0) return [];

  // 2. The conversation around them. Neighbours' entry sizes tell which have passages to read.
  const readPassages = vectorSide !== null && ranking.passageWeight > 0 && passagePolicyOf(vectorSide.passageModel) !== 'none';
  const anchors = anchorsOf(entries);
  const neighbours = wantsNeighbours(params.mode, ranking, anchors.size)
    ? neighbourIndex(await store.turnNeighbours(params.namespace, [...new Set(anchors.values())], neighbourRadius(ranking), { entryBytes: readPassages }))
    : new Map();

  // 3. Cosines, long texts' closest passages blended in (under the 'none' policy no text has any).
  let cosines: ReadonlyMap<number, number> = new Map<number, number>();
  let focus = new Map<number, number>();
  if (vectorSide && queryVec) {
    cosines = await storedCosines(store, vectorSide, params.namespace, queryVec, vectorSeqs(entries, neighbours));
    if (readPassages && cosines.size > 0) {
      const passages = await store.getVectors(vectorSide.passageModel, longTexts(cosines, entries, neighbours));
      ({ cosines, focus } = blendPassages(cosines, queryVec, passages, ranking.passageWeight, passagePolicyOf(vectorSide.passageModel) === 'windows'));
    }
  }

  // 4. Fusion and coverage: each entry's own relevance, computed when first needed (neighbours too).
  const fusion = fusionOf(entries, bm25, cosines, ranking, vectorMode);
  const textOf = textsOf(entries, neighbours);
  const held = bm25Terms.length > 0 ? heldByText(await store.termsHeld(params.namespace, bm25Terms, [...textOf.keys()]), textOf) : undefined;
  const coverage = coverageFor(bm25Terms, ranking.coverageWeight, ranking.coverageIdf, entries.map((e) => e.text), language, held);
  const sideCache = new Map<number, Sides>();
  const sides = (seq: number): Sides => {
    let s = sideCache.get(seq);
    if (!s) {
      const cov = coverageOf(coverage, textOf.get(seq), aroundTexts(seq, anchors, neighbours, ranking.neighbourCoverage), ranking.neighbourCoverage);
      sideCache.set(seq, (s = sidesOf(fusion, seq, cov, ranking.coverageWeight)));
    }
    return s;
  };
  const own = (seq: number) => sides(seq).own;

  // 5. What turns borrow from their neighbours, and the neighbours that become hits.
  const relevance = turnRelevance(entries, anchors, own);
  const lambda = vectorMode ? 0 : ranking.neighbourWeight;
  const reach = Math.max(1, ranking.neighbourReach);
  let borrowed = new Map<string, number>();
  if (wantsNeighbourHits(ranking.neighbourHits, lambda, neighbours.size)) {
    const beside = turnsBeside(relevance, neighbours, new Set(entries.map((e) => e.seq)), foldSpan(ranking, params.limit), reach);
    borrowed = beside.borrowed;
    const more = beside.seqs.length ? (await store.getEntries(params.namespace, beside.seqs)).filter((e) => passes(e, params.filter)) : [];
    for (const e of more) {
      const id = anchorTurnId(e);
      if (id) anchors.set(e.seq, id);
    }
    entries = entries.concat(more);
  }

  // 6. Every factor, then importance and recency.
  const when = {
    window: ranking.timeBoost > 0 ? (params.timeWindow ?? null) : null,
    askedWhen: ranking.whenBoost > 0 && asksWhen(params.query),
    timeZone: params.timeZone ?? 'UTC',
  };
  const scored = entries.map((e) => {
    const s = sides(e.seq);
    const nb = lambda > 0 ? neighbourRelevance(anchors.get(e.seq), neighbours, relevance, borrowed, reach, own) : 0;
    const factors = {
      speaker: speakerFactor(named, e, ranking.speakerBoost),
      when: whenFactor(when, e, ranking.timeBoost, ranking.whenBoost),
      about: entityFactor(e, params.entityMemories, ranking.entityBoost),
      stale: supersededFactor(e, params.filter.validAt),
    };
    const rel: Relevance = { bm25: s.b, vector: s.v, cosine: s.cos, own: s.own, neighbours: nb, speaker: factors.speaker, when: factors.when, relevance: relevanceOf(s.own, nb, lambda, factors) };
    const { score, parts } = finalScore(rel, e.importance, e.time, now, ranking);
    return { e, score, parts };
  });

  // 7. Hits, grouped into results, each with how sure the search is of it.
  const kept = keepHits(rankScored(scored), bm25);
  const assembly = assemble(kept, anchors, neighbours, { ...ranking, limit: params.limit, terms, language, withContext: !vectorMode, focusOf: (e) => (vectorSide ? focusText(e, focus, passagePolicyOf(vectorSide.passageModel)) : undefined) });
  const shownIds = pickedTurnIds(assembly);
  const shown = new Map(shownIds.length > 0 ? (await store.getTurns(params.namespace, shownIds)).map((t) => [t.id, t]) : []);
  const results = withContextTurns(assembly, shown, ranking.contextChars);
  const confidenceQuery = { terms: bm25Terms, language, namesPerson: (named?.names.size ?? 0) > 0, calibratedCosine: vectorSide?.model === USE_LITE_MODEL_ID, finder: coverage.finder, held };
  return withConfidence(results, confidenceQuery, entries.map((e) => e.text));
}

/**
 * The cosine of the query with the stored vector of each of `seqs` that has one, in their order:
 * from the index's copy in memory where it holds one (the same number), from the store's for the
 * rest, which the index then keeps. Reading and decoding ~770 rows was a fifth of a search at
 * 50k chat turns, ~300 an eighth of a LoCoMo search.
 */
async function storedCosines(store: Store, side: VectorSide, namespace: string, query: Float32Array, seqs: readonly number[]): Promise<Map<number, number>> {
  const held = side.index.heldCosines(namespace, query, seqs);
  if (held.size === seqs.length) return held;
  const missing = seqs.filter((s) => !held.has(s));
  let fresh: Map<number, number>;
  if (store.getQuantisedVectors) {
    const mark = side.index.keepMark(namespace);
    const stored = await store.getQuantisedVectors(side.model, missing);
    side.index.keepVectors(mark, stored);
    fresh = new Map();
    for (const [seq, bytes] of stored) {
      // A vector of another length (another model's) is left out, as cosinesOf does.
      const c = quantisedBlobDot(query, bytes);
      if (c !== null) fresh.set(seq, c);
    }
  } else fresh = cosinesOf(query, await store.getVectors(side.model, missing));
  const out = new Map<number, number>();
  for (const seq of seqs) {
    const c = held.get(seq) ?? fresh.get(seq);
    if (c !== undefined) out.set(seq, c);
  }
  return out;
}

/** Two lists of entries, each in ascending seq order as getEntries returns them, as one in that order. */
function mergeBySeq<E extends { seq: number }>(a: readonly E[], b: readonly E[]): E[] {
  if (b.length === 0) return a as E[];
  if (a.length === 0) return b as E[];
  const out: E[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i]!.seq <= b[j]!.seq ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}
