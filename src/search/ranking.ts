// How relevance becomes a final score. Recency and importance nudge; they never override text
// relevance (the bench README documents a peer whose 30-day decay buried every old answer).
import { decayTier, type DecayTier } from '../core/decay.js';

export { decayTier, type DecayTier };

export interface RankingOptions {
  bm25Weight: number;
  vectorWeight: number;
  /** Min-max scaling spans at least this share of the top score (config search.minRange). */
  minRange: number;
  recencyBoost: number;
  hotDays: number;
  warmDays: number;
  importanceWeight: number;
}

/** How relevant an entry's text is, before importance and recency. */
export interface Relevance {
  /** BM25 min-max normalised over the candidates (0 when the entry matched no term). */
  bm25: number;
  /** Cosine similarity, min-max normalised over the candidates. */
  vector: number;
  /** Raw cosine similarity to the query (before normalisation). */
  cosine: number | null;
  /** Fused text relevance before context: weighted BM25 + vector. */
  own: number;
  /** Best relevance among the turns right before and after (0 without conversation context). */
  neighbours: number;
  /** The speaker factor: above 1 when the query names the person who said it. */
  speaker: number;
  /** The time factor: above 1 when the query names a time and the entry is from then, or asks when and the entry states a time. */
  when: number;
  relevance: number;
}

export interface ScoreParts extends Relevance {
  importance: number;
  recency: number;
  tier: DecayTier;
}

/** Midpoint boost for warm entries: between hot's full boost and cold's none. */
function tierFactor(tier: DecayTier, boost: number): number {
  if (tier === 'hot') return boost;
  if (tier === 'warm') return 1 + (boost - 1) / 4;
  return 1;
}

export function importanceFactor(importance: number | null, weight: number): number {
  // Raw turns have no judged importance yet: neutral.
  if (importance === null) return 1;
  return 1 + (weight * (importance - 5)) / 5;
}

/** Weighted fusion of the normalised BM25 and vector scores; BM25 alone when there are no vectors. */
export function fuse(bm25: number, vector: number, opts: Pick<RankingOptions, 'bm25Weight' | 'vectorWeight'>, hasVectors: boolean): number {
  return hasVectors ? opts.bm25Weight * bm25 + opts.vectorWeight * vector : bm25;
}

/** Relevance nudged by importance and recency tier: the score results are ranked by. */
export function finalScore(rel: Relevance, importance: number | null, timeIso: string, now: number, opts: RankingOptions): { score: number; parts: ScoreParts } {
  const tier = decayTier(timeIso, now, opts);
  const imp = importanceFactor(importance, opts.importanceWeight);
  const rec = tierFactor(tier, opts.recencyBoost);
  // Written out, not spread: `{ ...rel, importance, … }` took V8's slow path, ~7 µs for each of
  // the ~250 entries a search scores (100k memories).
  const parts: ScoreParts = {
    bm25: rel.bm25, vector: rel.vector, cosine: rel.cosine, own: rel.own, neighbours: rel.neighbours, speaker: rel.speaker,
    when: rel.when, relevance: rel.relevance, importance: imp, recency: rec, tier,
  };
  return { score: rel.relevance * imp * rec, parts };
}
