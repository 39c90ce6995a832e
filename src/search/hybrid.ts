// Hybrid retrieval: BM25 candidates and vector candidates, rescored exactly, fused, ranked.
// Every candidate gets both scores (exact cosine from stored vectors), so fusion never compares
// a real score with a missing one.
import type { Kind, Provenance } from '../core/types.js';
import type { EntryFilter, IndexEntry, NeighbourTurns, SpeakerCount, Store } from '../store/store.js';
import { queryTerms } from './query-terms.js';
import { makeSnippet } from './snippet.js';
import { asksWhen, statesTime } from './time-mentions.js';
import { candidateIdf, TermFinder, windowCoverage, type TermWeights } from './coverage.js';
import { finalScore, fuse, type RankingOptions, type Relevance, type ScoreParts } from './ranking.js';
import { isAbout, namedSpeakers } from './speakers.js';
import { anchorTurnId, contextFor, contextProvenance, matchTurn, neighbourIndex, turnsBeside, within, type ContextTurn } from './neighbours.js';
import type { VectorIndex } from './vector-index.js';
import { bestPassage, PASSAGE_CHARS, passagePolicyOf, passagesOf } from '../embed/passages.js';
import { inTimeWindow, type TimeWindow } from './query-time.js';
import { currentAt, hasFilter, passes } from './entry-filter.js';

/** When filters leave fewer than the limit among ANN candidates, exact-scan at most this many. */
const EXACT_FALLBACK_MAX = 20_000;
/** People mention an event for days after it: an entry this long after the time a query names still counts as from then. */
const TIME_GRACE_DAYS = 7;
/**
 * Relevance kept by an entry no longer current, when a search asks for superseded ones too: what
 * was replaced ranks below what replaced it (history stays findable, the current answer first).
 */
const SUPERSEDED_FACTOR = 0.5;
/** BM25 terms of a rewritten search: the query's own and the expansion's, in that order. */
const MAX_EXPANDED_TERMS = 48;

export type SearchMode = 'hybrid' | 'bm25' | 'vector';

export interface SearchParams {
  namespace: string;
  query: string;
  limit: number;
  filter: EntryFilter;
  mode: SearchMode;
  now?: number;
  /** More keyword text (a rewrite's words and phrasings): searched by BM25 beside the query's own terms. */
  expansion?: readonly string[];
  /** The namespace's speakers when the caller already read them (else read here). */
  speakers?: readonly SpeakerCount[];
  /** The time the query names (query-time.ts), and the zone its days are read in. */
  timeWindow?: TimeWindow | null;
  timeZone?: string;
  /** Memories about entities the query names (ids): ranked up by ranking.entityBoost. */
  entityMemories?: ReadonlySet<string>;
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
  /** The memory that replaced this one, when it is no longer current (set by the service). */
  supersededBy?: string;
  category: string | null;
  importance: number | null;
  provenance: Provenance[];
  /** Conversation turns around a turn hit (empty for memories of their own and documents). */
  context: ContextTurn[];
}

/** How the ranking uses the conversation around a hit and the people a query names. */
export interface ContextOptions {
  /** Weight of the best neighbouring turn's relevance in a turn's own (0 = none). */
  neighbourWeight: number;
  /** Turns on each side whose relevance a turn borrows (1 = the adjacent ones only). */
  neighbourReach: number;
  /** The turns within neighbourReach of the strongest candidates are ranked as hits too. */
  neighbourHits: boolean;
  /** Extra weight for what a person named in the query said themselves, or the role a first- or second-person query is about (0 = none). */
  speakerBoost: number;
  /** Turns shown on each side of a turn hit (0 = none). */
  contextTurns: number;
  /** Characters kept of each context turn. */
  contextChars: number;
  /** Hits of one session shown together as one result (1 = every hit is its own result). */
  groupHits: number;
  /** A result's further hits come from the ranked hits that fill the first max(limit × foldPages, foldDepth) results. */
  foldDepth: number;
  foldPages: number;
  /** How much the share of query words a text contains scales its relevance (0 = not at all). */
  coverageWeight: number;
  /** Coverage weighs each query word by how rare it is among the candidates (false = every word counts alike). */
  coverageIdf: boolean;
  /** What a query word found only in the turns right before and after a turn counts in its coverage (0 = nothing). */
  neighbourCoverage: number;
  /** Weight of a text's closest passage in its cosine, against its own vector's (0 = the whole text only). */
  passageWeight: number;
  /** Extra weight for entries from the time a query names ("last week", "in October 2023"; 0 = none). */
  timeBoost: number;
  /** Extra weight, for a question that asks when, of texts that state a time ("yesterday", "in March"; 0 = none). */
  whenBoost: number;
  /** Extra weight for memories about an entity the query names (0 = none). */
  entityBoost: number;
}

export interface VectorSide {
  index: VectorIndex;
  model: string;
  /** Where the entries' passage vectors are stored (embed/passages.ts). */
  passageModel: string;
  /** The query's vector, already being computed while BM25 runs. */
  queryVector: Promise<Float32Array>;
}

export interface HybridDeps {
  store: Store;
  ranking: RankingOptions & ContextOptions;
  candidates: number;
  /** Null when no embedder is configured or its vectors are not usable: BM25 only. */
  vectors: VectorSide | null;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}


export async function hybridSearch(deps: HybridDeps, params: SearchParams): Promise<SearchResult[]> {
  const { store, ranking } = deps;
  const now = params.now ?? Date.now();
  const terms = queryTerms(params.query);
  const named = ranking.speakerBoost > 0 ? namedSpeakers(params.query, params.speakers ?? (await store.speakers(params.namespace))) : null;
  // A named speaker's name is in nearly every turn that addresses them: a keyword that ranks
  // "thanks Dave" above what Dave said. The speaker factor below carries it instead.
  const keywordTerms = named?.tokens.size ? terms.filter((t) => !named.tokens.has(t)) : terms;
  const bm25Terms = keywordTerms.length > 0 ? keywordTerms : terms;
  // Ranking (coverage, snippets) stays on the query's own words; only retrieval widens.
  const retrievalTerms = params.expansion?.length ? expandTerms(bm25Terms, params.expansion, named?.tokens) : bm25Terms;
  // A result can fold in several hits of its session, so the pool grows with limit × groupHits:
  // a large limit gets the candidates it needs without slowing every small search down.
  const pool = Math.max(deps.candidates, Math.ceil(params.limit * Math.max(3, ranking.groupHits * 2.5)));
  const useBm25 = params.mode !== 'vector';
  const vectorSide = params.mode === 'bm25' ? null : deps.vectors;

  const bm25Hits = useBm25 ? await store.keywordSearch(params.namespace, retrievalTerms, pool, params.filter) : [];
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

  const anchors = new Map<number, string>();
  for (const e of entries) {
    const id = anchorTurnId(e);
    if (id) anchors.set(e.seq, id);
  }
  const wantNeighbours = params.mode !== 'vector' && (ranking.neighbourWeight > 0 || ranking.contextTurns > 0 || (ranking.neighbourCoverage > 0 && ranking.coverageWeight > 0)) && anchors.size > 0;
  const neighbours = wantNeighbours
    ? neighbourIndex(await store.turnNeighbours(params.namespace, [...new Set(anchors.values())], Math.max(1, ranking.neighbourReach, ranking.contextTurns)))
    : new Map();

  const cosines = new Map<number, number>();
  // Each long text's passage closest to the query: where its snippet goes.
  const focusPassage = new Map<number, number>();
  if (vectorSide && queryVec) {
    const seqs = new Set(entries.map((e) => e.seq));
    for (const n of neighbours.values()) for (const x of [...n.before, ...n.after]) if (x.entrySeq !== null) seqs.add(x.entrySeq);
    const vecs = await store.getVectors(vectorSide.model, [...seqs]);
    for (const [seq, v] of vecs) if (v.length === queryVec.length) cosines.set(seq, dot(queryVec, v));
    // A long text (over 400 characters, embed/passages.ts) counts as close as its whole and its closest passage together.
    const w = ranking.passageWeight;
    if (w > 0 && cosines.size > 0) {
      // Only a text past PASSAGE_CHARS has passages; the row of a shorter one is empty, and reading
      // those rows cost ~0.5 ms a search at 100k memories. A neighbour's length is bounded by its bytes.
      const indexed = new Map<number, number>(entries.map((e) => [e.seq, e.indexedChars]));
      for (const n of neighbours.values()) for (const x of [...n.before, ...n.after]) if (x.entrySeq !== null && !indexed.has(x.entrySeq)) indexed.set(x.entrySeq, x.entryBytes ?? Infinity);
      const long = [...cosines.keys()].filter((seq) => (indexed.get(seq) ?? Infinity) > PASSAGE_CHARS);
      for (const [seq, packed] of await store.getVectors(vectorSide.passageModel, long)) {
        const best = bestPassage(queryVec, packed);
        if (best === null) continue;
        cosines.set(seq, (1 - w) * cosines.get(seq)! + w * best.score);
        focusPassage.set(seq, best.index);
      }
    }
  }
  const hasVectors = cosines.size > 0;
  // Min-max over the candidates on both sides: measured on LoCoMo it beats max-only scaling, and
  // with a span of at least half the top score (search.minRange) more so (@10 0.860 → 0.862,
  // open-domain @20 0.731 → 0.742). Neighbours outside the candidates are scored on the same
  // scale, clamped to [0, 1].
  const bm25Scale = range(entries.map((e) => bm25.get(e.seq)).filter((x): x is number => x !== undefined), ranking.minRange);
  const cosScale = range(entries.map((e) => cosines.get(e.seq)).filter((x): x is number => x !== undefined), ranking.minRange);
  const vectorMode = params.mode === 'vector';
  const weights = vectorMode ? { ...ranking, bm25Weight: 0, vectorWeight: 1 } : ranking;
  const textOf = new Map<number, string>(entries.map((e) => [e.seq, e.text]));
  for (const n of neighbours.values()) for (const x of [...n.before, ...n.after]) if (x.entrySeq !== null && !textOf.has(x.entrySeq)) textOf.set(x.entrySeq, x.turn.text);
  const aroundTexts = (seq: number): string[] => {
    const turnId = anchors.get(seq);
    const n = turnId && ranking.neighbourCoverage > 0 ? neighbours.get(turnId) : undefined;
    return n ? [n.before.at(-1)?.turn.text ?? '', n.after[0]?.turn.text ?? ''] : [];
  };
  const kappa = ranking.coverageWeight;
  const covered = kappa > 0 && bm25Terms.length > 1;
  const finder = new TermFinder(covered ? bm25Terms : []);
  const termWeights: TermWeights = covered && ranking.coverageIdf ? candidateIdf(finder, entries.map((e) => e.text)) : null;
  const sideCache = new Map<number, { b: number; v: number; cos: number | null; own: number }>();
  const sides = (seq: number) => {
    let s = sideCache.get(seq);
    if (!s) sideCache.set(seq, (s = scoreSides(seq)));
    return s;
  };
  const scoreSides = (seq: number) => {
    const raw = bm25.get(seq);
    const b = raw === undefined ? 0 : scaled(raw, bm25Scale);
    const cos = cosines.get(seq) ?? null;
    // Vector-only mode ranks by raw cosine: min-max would zero (and drop) the least similar hit.
    const v = cos === null ? 0 : vectorMode ? Math.max(0, cos) : scaled(cos, cosScale);
    const fused = fuse(vectorMode ? 0 : b, v, weights, hasVectors);
    const text = textOf.get(seq);
    const cov = covered && text !== undefined ? windowCoverage(finder, text, aroundTexts(seq), ranking.neighbourCoverage, termWeights) : 1;
    return { b: vectorMode ? 0 : b, v, cos, own: fused * (1 - kappa + kappa * cov) };
  };

  // A turn's relevance is the best of the entries that stand for it (the turn, its memory).
  const turnRelevance = new Map<string, number>();
  for (const e of entries) {
    const id = anchors.get(e.seq);
    if (id) turnRelevance.set(id, Math.max(turnRelevance.get(id) ?? 0, sides(e.seq).own));
  }
  const lambda = vectorMode ? 0 : ranking.neighbourWeight;
  const reach = Math.max(1, ranking.neighbourReach);
  // Turns beside a strong candidate that neither side returned ("My kids have so much and others
  // don't" after a question about money) rank on what they borrow from it. Only the strongest
  // lend enough to place a neighbour among the hits a search gathers from: the neighbours of all
  // 200 candidates at limit 20 found no more evidence on LoCoMo.
  let borrowed = new Map<string, number>();
  if (ranking.neighbourHits && lambda > 0 && neighbours.size > 0) {
    const beside = turnsBeside(turnRelevance, neighbours, new Set(entries.map((e) => e.seq)), foldSpan(ranking, params.limit), reach);
    borrowed = beside.borrowed;
    const more = beside.seqs.length ? (await store.getEntries(params.namespace, beside.seqs)).filter((e) => passes(e, params.filter)) : [];
    for (const e of more) {
      const id = anchorTurnId(e);
      if (id) anchors.set(e.seq, id);
    }
    entries = entries.concat(more);
  }
  const neighbourRelevance = (turnId: string | undefined): number => {
    const n = turnId ? neighbours.get(turnId) : undefined;
    if (!n) return turnId ? (borrowed.get(turnId) ?? 0) : 0;
    let best = 0;
    // Two turns out is the speaker's own previous or next turn: a thread they go on with after
    // the other's reply (LoCoMo: 132 of 297 pieces of evidence missed at limit 20 sat one or two
    // turns from a hit shown; reach 2 took @20 0.923 → 0.929, bench/results/locomo.md).
    for (const x of within(n, reach)) {
      const known = turnRelevance.get(x.turn.id);
      const r = known ?? (x.entrySeq === null ? 0 : sides(x.entrySeq).own);
      best = Math.max(best, r);
    }
    return best;
  };

  const window = ranking.timeBoost > 0 ? (params.timeWindow ?? null) : null;
  const askedWhen = ranking.whenBoost > 0 && asksWhen(params.query);
  const scored = entries.map((e) => {
    const s = sides(e.seq);
    const nb = lambda > 0 ? neighbourRelevance(anchors.get(e.seq)) : 0;
    const speakerName = e.provenance[0]?.speaker;
    const speaker = named && isAbout(named, speakerName, e.provenance[0]?.role) ? 1 + ranking.speakerBoost : 1;
    const when =
      (window && inTimeWindow(window, e.time, params.timeZone ?? 'UTC', TIME_GRACE_DAYS) ? 1 + ranking.timeBoost : 1) *
      (askedWhen && statesTime(e.text) ? 1 + ranking.whenBoost : 1);
    const about = e.kind === 'memory' && params.entityMemories?.has(e.refId) ? 1 + ranking.entityBoost : 1;
    const stale = currentAt(e, params.filter.validAt) ? 1 : SUPERSEDED_FACTOR;
    const relevance = ((s.own + lambda * nb) / (1 + lambda)) * speaker * when * about * stale;
    const rel: Relevance = { bm25: s.b, vector: s.v, cosine: s.cos, own: s.own, neighbours: nb, speaker, when, relevance };
    const { score, parts } = finalScore(rel, e.importance, e.time, now, weights);
    return { e, score, parts };
  });
  scored.sort((a, b) => b.score - a.score || b.e.time.localeCompare(a.e.time));

  // A turn promoted to a memory would appear twice (as itself and as the memory): the memory,
  // which carries the turn's provenance, stands for both.
  const promoted = new Set<string>();
  for (const s of scored) if (s.e.kind === 'memory') for (const p of s.e.provenance) for (const id of p.turnIds ?? []) promoted.add(id);
  const kept = scored
    // A term match always stays (min-max puts the weakest genuine match at 0); a vector-only
    // neighbour stays only when it scores above the weakest candidate.
    .filter((s) => s.score > 0 || bm25.has(s.e.seq))
    // A turn the judge called noise ("ok", "thanks") only ever resembles a query by accident.
    .filter((s) => bm25.has(s.e.seq) || s.e.category !== 'noise')
    .filter((s) => !(s.e.kind === 'turn' && promoted.has(s.e.refId)));

  const focusOf = (e: IndexEntry): string | undefined => {
    const index = focusPassage.get(e.seq);
    return index === undefined || !vectorSide ? undefined : passagesOf(e.text, passagePolicyOf(vectorSide.passageModel))[index];
  };
  return assemble(kept, anchors, neighbours, { ...ranking, limit: params.limit, terms, withContext: !vectorMode, focusOf });
}

/** The query's terms, then new terms of the expansion texts, without named speakers, at most MAX_EXPANDED_TERMS. */
function expandTerms(own: readonly string[], expansion: readonly string[], speakers: ReadonlySet<string> | undefined): string[] {
  const out = new Set(own);
  for (const text of expansion) {
    for (const t of queryTerms(text)) {
      if (out.size >= MAX_EXPANDED_TERMS) return [...out];
      if (!speakers?.has(t)) out.add(t);
    }
  }
  return [...out];
}

interface Group {
  /** Null for a result past the limit: counted and absorbing its session's hits, never built. */
  result: SearchResult | null;
  hits: number;
}

/**
 * Results in rank order, each the best hit of its session so far, with (up to `groupHits` − 1)
 * further hits of that session folded in and the turns around the hit as context. A turn is
 * never shown twice. Grouping spends the token budget on matches rather than on neighbours:
 * a question's evidence is usually several turns of one conversation.
 *
 * Further hits are gathered from the ranked hits that fill the first max(limit × foldPages,
 * foldDepth) results: a result is judged by what it would gather in a list one page longer, so
 * a short search shows as much per result as the first of a longer one, and a long one as much
 * past its end as a short one does.
 */
function assemble(
  kept: ReadonlyArray<{ e: IndexEntry; score: number; parts: ScoreParts }>,
  anchors: ReadonlyMap<number, string>,
  neighbours: ReadonlyMap<string, NeighbourTurns>,
  o: ContextOptions & { limit: number; terms: readonly string[]; withContext: boolean; focusOf: (e: IndexEntry) => string | undefined },
): SearchResult[] {
  const results: SearchResult[] = [];
  const groups = new Map<string, Group>();
  const shown = new Set<string>();
  const span = foldSpan(o, o.limit);
  let counted = 0;
  for (const { e, score, parts } of kept) {
    const anchor = anchors.get(e.seq);
    if (anchor && shown.has(anchor)) continue;
    const session = anchor ? e.provenance[0]?.sessionId : undefined;
    const group = session === undefined ? undefined : groups.get(session);
    if (group && group.hits < o.groupHits) {
      group.hits++;
      shown.add(anchor!);
      if (!group.result) continue;
      group.result.provenance.push(...e.provenance);
      group.result.context.push(matchTurn(e, o.terms, o.contextChars, Date.parse(e.time) < Date.parse(group.result.time) ? -1 : 1, o.focusOf(e)));
      continue;
    }
    if (counted >= span) break;
    counted++;
    // Context already on screen (the window of an earlier hit) is not repeated.
    const ctx = o.withContext && anchor ? contextFor(neighbours.get(anchor), o.contextTurns, o.contextChars).filter((c) => !shown.has(c.turn.id)) : [];
    if (anchor) shown.add(anchor);
    for (const c of ctx) shown.add(c.turn.id);
    if (results.length >= o.limit) {
      // Past the limit a result only takes its session's later hits, as it would in a longer list.
      if (session !== undefined && o.groupHits > 1) groups.set(session, { result: null, hits: 1 });
      continue;
    }
    const base = e.provenance[0];
    const result: SearchResult = {
      id: e.refId,
      kind: e.kind,
      namespace: e.namespace,
      text: e.text,
      snippet: makeSnippet(e.text, o.terms, undefined, o.focusOf(e)),
      score,
      parts,
      time: e.time,
      createdAt: e.createdAt,
      validTo: e.validTo,
      current: e.current,
      category: e.category,
      importance: e.importance,
      provenance: [...e.provenance, ...ctx.map((c) => contextProvenance(c.turn, base))],
      context: ctx.map((c) => c.ctx),
    };
    results.push(result);
    if (session !== undefined && o.groupHits > 1) groups.set(session, { result, hits: 1 });
  }
  for (const r of results) r.context.sort((a, b) => a.time.localeCompare(b.time) || a.offset - b.offset);
  return results;
}

/** How many results' worth of ranked hits a search gathers from (see assemble). */
function foldSpan(o: Pick<ContextOptions, 'groupHits' | 'foldPages' | 'foldDepth'>, limit: number): number {
  return o.groupHits > 1 ? Math.max(Math.ceil(limit * o.foldPages), o.foldDepth) : limit;
}

/** The span min-max scales over: the values' own, widened downwards to at least `share` of the top one's size. */
function range(values: readonly number[], share: number): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (max > -Infinity && share > 0) min = Math.min(min, max - share * Math.abs(max));
  return { min, max };
}

/** Min-max scaling clamped to [0, 1]; a single distinct value scales to 1. */
function scaled(x: number, r: { min: number; max: number }): number {
  if (!(r.max > -Infinity)) return 0;
  if (r.max - r.min <= 1e-9) return x >= r.max - 1e-9 ? 1 : 0;
  return Math.min(1, Math.max(0, (x - r.min) / (r.max - r.min)));
}
