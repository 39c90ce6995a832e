// How relevance becomes a final score. Recency and importance nudge; they never override text
// relevance (the bench README documents a peer whose 30-day decay buried every old answer).
import { DAY_MS } from '../core/time.js';

export interface RankingOptions {
  bm25Weight: number;
  vectorWeight: number;
  recencyBoost: number;
  hotDays: number;
  warmDays: number;
  importanceWeight: number;
}

export type DecayTier = 'hot' | 'warm' | 'cold';

export interface ScoreParts {
  /** BM25 divided by the best BM25 among the candidates (0 when the entry matched no term). */
  bm25: number;
  /** Cosine similarity, min-max normalised over the candidates. */
  vector: number;
  /** Raw cosine similarity to the query (before normalisation). */
  cosine: number | null;
  relevance: number;
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

export function decayTier(timeIso: string, now: number, opts: Pick<RankingOptions, 'hotDays' | 'warmDays'>): DecayTier {
  const age = (now - Date.parse(timeIso)) / DAY_MS;
  if (age <= opts.hotDays) return 'hot';
  if (age <= opts.warmDays) return 'warm';
  return 'cold';
}

export function importanceFactor(importance: number | null, weight: number): number {
  // Raw turns have no judged importance yet: neutral.
  if (importance === null) return 1;
  return 1 + (weight * (importance - 5)) / 5;
}

export function finalScore(
  bm25: number,
  vector: number,
  cosine: number | null,
  importance: number | null,
  timeIso: string,
  now: number,
  opts: RankingOptions,
  hasVectors: boolean,
): { score: number; parts: ScoreParts } {
  // With no vector side (no embedder or stale index) BM25 carries the whole relevance.
  const relevance = hasVectors ? opts.bm25Weight * bm25 + opts.vectorWeight * vector : bm25;
  const tier = decayTier(timeIso, now, opts);
  const imp = importanceFactor(importance, opts.importanceWeight);
  const rec = tierFactor(tier, opts.recencyBoost);
  return { score: relevance * imp * rec, parts: { bm25, vector, cosine, relevance, importance: imp, recency: rec, tier } };
}
