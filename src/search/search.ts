// A search of one namespace, from a validated request to ranked results: the query's vector (its
// focus blended in, a rewrite's phrasings after), the time it names, the people and entities it
// names, the filter its options make, the flat or layer-first strategy, and what superseded each
// result that is no longer current. The facade (service/cairn-base.ts) validates, gates and
// answers; everything about ranking is here, given its parts as plain dependencies.
import { sha256 } from '../core/text.js';
import { parseTime } from '../core/time.js';
import type { Kind, Layer } from '../core/types.js';
import { passageModelId, type PassagePolicy } from '../embed/passages.js';
import { USE_LITE_MODEL_ID } from '../embed/use-lite.js';
import type { EntryFilter, SpeakerCount, Store } from '../store/store.js';
import { hybridSearch, type SearchMode, type SearchRanking, type SearchResult, type VectorSide } from './hybrid.js';
import { cutByConfidence } from './pipeline/confidence.js';
import { layerFirstSearch, type RankedSearch, type SearchStrategy } from './layer-first.js';
import { blendVectors, queryFocus } from './query-focus.js';
import type { RewriteOutcome } from './query-rewrite.js';
import { queryTimeWindow } from './query-time.js';
import { entityFilterIds, markSuperseded, queryEntityMemories } from './search-knowledge.js';
import type { VectorIndex } from './vector-index.js';

/** What a search covers when it names no kind or layer. */
export const PLAIN_SEARCH_KINDS: readonly Kind[] = ['memory', 'turn', 'document'];

/** A validated search (service/inputs.ts searchInputSchema's output, query already gated). */
export interface SearchRequest {
  query: string;
  limit: number;
  since?: string;
  until?: string;
  asOf?: string;
  categories?: readonly string[];
  kinds?: readonly Kind[];
  layers?: readonly Layer[];
  minImportance?: number;
  includeSuperseded: boolean;
  mode: SearchMode;
  strategy: SearchStrategy;
  rewrite?: boolean;
  entity?: string;
}

/** The embedding side of a search: the model, its index, and why a namespace has no vectors. */
export interface SearchEmbedder {
  modelId: string;
  embed(texts: string[]): Promise<Float32Array[]>;
  /** The vector index (built on first use). */
  index(): VectorIndex;
  /** Why a namespace whose index is empty cannot be searched by meaning (the degraded note). */
  whyNoVectors(namespace: string): Promise<string>;
}

export interface SearchDeps {
  store: Store;
  ranking: SearchRanking & { candidates: number; focusWeight: number; entityBoost: number; queryRewrite: boolean; minConfidence: number };
  timeZone: string;
  /** Which passage vectors the index keeps for long texts (index.passages). */
  passages: PassagePolicy;
  clock: () => number;
  /** Null without an embedder: BM25 only. */
  embedder: SearchEmbedder | null;
  /** Rewrites a query with the chat model (or says why not), for the day given. */
  rewrite: (namespace: string, query: string, now: number) => Promise<RewriteOutcome>;
  /** How entity names are keyed (the memory part's alias rule). */
  aliasKey: (name: string) => string;
}

export interface SearchOutcome {
  mode: SearchMode;
  results: SearchResult[];
  /** Results were found but not one is a good match (all below search.minConfidence): left out. */
  noGoodMatch: boolean;
  /** Results left out for a confidence below search.minConfidence. */
  belowConfidence: number;
  /** Why the vector side was not used, when it was not. */
  degraded?: string;
  /** What query rewriting added, or why it was skipped (only when rewriting was asked for). */
  rewrite?: RewriteOutcome;
}

/**
 * since/until as times: ages count back from the search's moment (asOf, else now), and a search
 * as of a moment never reaches past it, whatever until says.
 */
export function searchPeriod(input: { since?: string; until?: string; asOf?: string }, now: number): { since?: string; until?: string } {
  const since = input.since === undefined ? undefined : parseTime(input.since, 'since', now);
  let until = input.until === undefined ? undefined : parseTime(input.until, 'until', now);
  if (input.asOf !== undefined && (until === undefined || until > input.asOf)) until = input.asOf;
  return { ...(since !== undefined ? { since } : {}), ...(until !== undefined ? { until } : {}) };
}

/** Digests repeat what memories and turns say: a filter naming no kind or layer leaves them out (--layer, --kind digest and the layer-first strategy reach them). */
export function plainFilter(f: EntryFilter): EntryFilter {
  return f.kinds || f.layers ? f : { ...f, kinds: PLAIN_SEARCH_KINDS };
}

/** Searches one namespace (already validated) for a validated request. */
export async function searchNamespace(deps: SearchDeps, ns: string, input: SearchRequest): Promise<SearchOutcome> {
  const { store, ranking } = deps;
  const now = input.asOf === undefined ? deps.clock() : Date.parse(input.asOf);
  const rewriting = (input.rewrite ?? ranking.queryRewrite) ? deps.rewrite(ns, input.query, now) : null;
  // Read once: the query vector's focus and the speaker factor both need them.
  const speakers = await store.speakers(ns);
  let vectors: VectorSide | null = null;
  let degraded: string | undefined;
  if (input.mode !== 'bm25') {
    if (!deps.embedder) degraded = 'no embedder configured: BM25 only';
    else {
      try {
        // Embedding starts first (possibly on another thread); catch-up and BM25 run meanwhile.
        const queryVector = queryVectorOf(store, deps.embedder, ranking.focusWeight, input.query, speakers, rewriting);
        queryVector.catch(() => undefined); // awaited (and reported) below, or not needed
        const index = deps.embedder.index();
        if ((await index.ready(ns)) === 0) degraded = await deps.embedder.whyNoVectors(ns);
        else vectors = { index, model: deps.embedder.modelId, passageModel: passageModelId(deps.embedder.modelId, deps.passages), queryVector };
      } catch (err) {
        degraded = `vector search unavailable: ${(err as Error).message}`;
      }
    }
  }
  const mode = vectors ? input.mode : 'bm25';
  const rewrite = rewriting ? await rewriting : undefined;
  const filter: EntryFilter = {
    ...searchPeriod(input, now),
    categories: input.categories,
    kinds: input.kinds,
    layers: input.layers,
    minImportance: input.minImportance,
    includeSuperseded: input.includeSuperseded,
    ...(input.asOf !== undefined ? { validAt: input.asOf } : {}),
    ...(input.entity !== undefined ? { memoryIds: await entityFilterIds(store, ns, input.entity, input.includeSuperseded) } : {}),
  };
  const timeWindow = await queryTimeWindow(input.query, now);
  const entityMemories = ranking.entityBoost > 0 ? await queryEntityMemories(store, ns, input.query, deps.aliasKey, speakers) : undefined;
  const ranked: RankedSearch = (f, limit) =>
    hybridSearch(
      { store, ranking, candidates: ranking.candidates, vectors },
      {
        namespace: ns,
        query: input.query,
        limit,
        mode,
        speakers,
        now,
        timeWindow,
        // Read only for a time window: the system's zone costs ICU's start-up (core/config.ts).
        ...(timeWindow ? { timeZone: deps.timeZone } : {}),
        ...(entityMemories?.size ? { entityMemories } : {}),
        ...(rewrite?.status === 'used' ? { expansion: [...rewrite.keywords, ...rewrite.queries] } : {}),
        filter: plainFilter(f),
      },
    );
  const found = input.strategy === 'layers' ? await layerFirstSearch(ranked, { limit: input.limit, filter }) : await ranked(filter, input.limit);
  // The confidence was fitted on the bundled model's cosines (or none): another model's sit on another
  // scale, so its results carry a confidence from their words alone and are not cut.
  const calibrated = vectors === null || vectors.model === USE_LITE_MODEL_ID;
  const { results, belowConfidence, noGoodMatch } = cutByConfidence(found, calibrated ? ranking.minConfidence : 0);
  await markSuperseded(store, ns, results);
  return { mode, results, noGoodMatch, belowConfidence, ...(degraded ? { degraded } : {}), ...(rewrite ? { rewrite } : {}) };
}

/**
 * The query's vector: the question blended with its focus (search.focusWeight), then moved
 * halfway towards the mean of the rewrite's phrasings when the model rewrote it.
 */
async function queryVectorOf(
  store: Store,
  embedder: SearchEmbedder,
  weight: number,
  query: string,
  speakers: readonly SpeakerCount[],
  rewriting: Promise<RewriteOutcome> | null,
): Promise<Float32Array> {
  const focus = weight > 0 ? queryFocus(query, speakers) : null;
  const [own, focused] = await cachedVectors(store, embedder, focus ? [query, focus] : [query]);
  const vector = focused ? blendVectors(own!, [focused], weight) : own!;
  const outcome = rewriting ? await rewriting : null;
  if (outcome?.status !== 'used' || outcome.queries.length === 0) return vector;
  return blendVectors(vector, await embedder.embed(outcome.queries), 1);
}

/**
 * The query vectors of recent searches, per store (one home, one embedder) and batch of texts: a
 * question asked again (the same search paged, an agent repeating itself) skips the model, a fifth
 * to a quarter of a search's CPU. Keyed by the whole batch, so a vector is the one that batch gives.
 */
const RECENT_QUERIES = 256;
const recentQueries = new WeakMap<Store, Map<string, Float32Array[]>>();

/** Vectors of texts; a text equal to an already embedded one reuses its cached vector (search never writes). */
async function cachedVectors(store: Store, embedder: SearchEmbedder, texts: string[]): Promise<Float32Array[]> {
  let recent = recentQueries.get(store);
  if (!recent) recentQueries.set(store, (recent = new Map()));
  const key = `${embedder.modelId}\u0000${texts.join('\u0000')}`;
  const kept = recent.get(key);
  if (kept) {
    recent.delete(key);
    recent.set(key, kept);
    return kept.map((v) => v.slice());
  }
  const vectors = await embeddedVectors(store, embedder, texts);
  recent.set(key, vectors.map((v) => v.slice()));
  if (recent.size > RECENT_QUERIES) recent.delete(recent.keys().next().value!);
  return vectors;
}

async function embeddedVectors(store: Store, embedder: SearchEmbedder, texts: string[]): Promise<Float32Array[]> {
  const hashes = texts.map((t) => sha256(t));
  const cached = await store.cacheGet(embedder.modelId, hashes);
  const missing = texts.filter((_, i) => !cached.has(hashes[i]!));
  const fresh = missing.length ? await embedder.embed(missing) : [];
  let next = 0;
  return hashes.map((h) => cached.get(h) ?? fresh[next++]!);
}
