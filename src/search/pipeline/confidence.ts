// Stage 9, how sure a search is of each result: absolute signals (the raw cosine with the query,
// the share of the query's words the hit and its session's shown hits contain, whether it is
// what a person the query names said) combined by a logistic model fitted on both dev sets
// (bench/confidence.ts). Never the fused score: min-max makes the best of a bad lot look like 1.
import { TermFinder } from '../coverage.js';
import type { Language } from '../text-analysis.js';
import type { AssembledResult, SearchResult } from './types.js';

/** What a result's confidence is made of; each is absolute, not relative to the other candidates. */
export interface ConfidenceSignals {
  /** Raw cosine of the hit (its closest passage blended in) with the query vector; null without vectors. */
  cosine: number | null;
  /** IDF-weighted share of the query's terms the hit's own text contains (terms found nowhere count most). */
  cover: number;
  /** The same share over the hit and its session's other hits shown with it. */
  sessionCover: number;
  /** 1 when the query names a person of the namespace and the hit is what they said, else 0. */
  speaker: number;
}

/** A logistic model: confidence = σ(bias + Σ weight·signal). */
export interface ConfidenceModel {
  bias: number;
  cosine: number;
  cover: number;
  sessionCover: number;
  speaker: number;
}

/**
 * Fitted by `npm run bench:confidence` (logistic regression on the top results of LoCoMo
 * conversations 0–4, the agent-work set's first half and off-topic questions, each set weighing
 * alike; bench/results/confidence.md): one model for the bundled embedder's cosines, one without
 * a cosine (BM25-only searches, and vectors of another model, whose cosines sit on another scale).
 */
export const CONFIDENCE_MODELS: { hybrid: ConfidenceModel; bm25: ConfidenceModel } = {
  hybrid: { bias: -5.25, cosine: 5.68, cover: 0.2, sessionCover: 2.85, speaker: 1.9 },
  bm25: { bias: -3.4, cosine: 0, cover: -0.32, sessionCover: 4.09, speaker: 1.8 },
};

/**
 * How much each query term says about a match: its rarity among the candidates, ln(1 + (n + 1) /
 * (df + 1)), where a term no candidate has gets the weight of the rarest possible (df 0). BM25
 * returns every text holding any query term, so a term none of them has is absent from the
 * namespace: a hit that lacks it answers a question about something this memory never saw.
 * (Ranking's coverage gives such a term weight 0: it tells no candidate apart.)
 */
export function confidenceWeights(finder: TermFinder, candidateTexts: readonly string[]): Float64Array {
  const df = new Float64Array(finder.terms.length);
  for (const text of candidateTexts) {
    const found = finder.in(text);
    for (let i = 0; i < found.length; i++) df[i]! += found[i]!;
  }
  const n = candidateTexts.length;
  return df.map((d) => Math.log(1 + (n + 1) / (d + 1)));
}

/** The weighted share of the finder's terms any of `texts` contains (1 for a query without terms). */
export function termShare(finder: TermFinder, texts: readonly string[], weights: Float64Array): number {
  const n = finder.terms.length;
  if (n === 0) return 1;
  const found = texts.map((t) => finder.in(t));
  let sum = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += weights[i]!;
    if (found.some((f) => f[i] === 1)) sum += weights[i]!;
  }
  return total > 0 ? sum / total : 1;
}

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/** The confidence (0–1) of a result with these signals; a missing cosine uses the BM25-only model. */
export function confidenceOf(s: ConfidenceSignals, models = CONFIDENCE_MODELS): number {
  const m = s.cosine === null ? models.bm25 : models.hybrid;
  const z = m.bias + m.cosine * (s.cosine ?? 0) + m.cover * s.cover + m.sessionCover * s.sessionCover + m.speaker * s.speaker;
  return Number.isFinite(z) ? sigmoid(z) : 0;
}

/** What a search knows for judging its results: the query's terms and whether it names a person of the namespace. */
export interface ConfidenceQuery {
  terms: readonly string[];
  language: Language;
  /** The query names a person who speaks in the namespace (not just a first- or second-person role). */
  namesPerson: boolean;
  /** The cosines are the bundled model's, the scale the hybrid model was fitted on (else the BM25-only model judges). */
  calibratedCosine: boolean;
  /**
   * The search's own finder of exactly these terms in this language, when it has one (ranking's
   * coverage): what it already found in each candidate text is not looked for again.
   */
  finder?: TermFinder;
  /** Which of the terms the index holds for a text, by text (TermFinder's `held`). */
  held?: ReadonlyMap<string, Uint8Array>;
}

/**
 * Each result with its confidence and the signals behind it. `candidateTexts` are the texts the
 * search ranked (their terms' rarity weighs the query's words).
 */
export function withConfidence(results: readonly AssembledResult[], q: ConfidenceQuery, candidateTexts: readonly string[], models = CONFIDENCE_MODELS): SearchResult[] {
  if (results.length === 0) return [];
  const finder = q.finder && sameTerms(q.finder, q) ? q.finder : new TermFinder(q.terms, q.language, q.held);
  const weights = confidenceWeights(finder, candidateTexts);
  return results.map((r) => {
    // A keyword match on none of the text's own words was made on what the index adds to it: the
    // tags and entity names of a memory ("Souza" finds the memory about Ana Souza). It is an exact
    // match on a name, not a stray one: it counts as covering the query.
    const byName = r.parts.bm25 > 0 && termShare(finder, [r.text], weights) === 0;
    const signals: ConfidenceSignals = {
      cosine: r.parts.cosine,
      cover: byName ? 1 : termShare(finder, [r.text], weights),
      sessionCover: byName ? 1 : termShare(finder, [r.text, ...r.context.filter((c) => c.match).map((c) => c.text)], weights),
      speaker: q.namesPerson && r.parts.speaker > 1 ? 1 : 0,
    };
    const judged = q.calibratedCosine ? signals : { ...signals, cosine: null };
    // Copied, then given its two fields: a spread that adds properties takes V8's slow clone.
    const out = { ...r } as SearchResult;
    out.confidence = confidenceOf(judged, models);
    out.signals = signals;
    return out;
  });
}

function sameTerms(finder: TermFinder, q: Pick<ConfidenceQuery, 'terms' | 'language'>): boolean {
  return finder.language === q.language && finder.terms.length === q.terms.length && finder.terms.every((t, i) => t === q.terms[i]);
}

/** What the cut leaves of a search's results. */
export interface ConfidenceCut<T> {
  results: T[];
  /** Results left out for a confidence below the threshold. */
  belowConfidence: number;
  /** Results were found, but not one is a good match (all below the threshold); false when the cut is off. */
  noGoodMatch: boolean;
}

/**
 * All or nothing: when not one result reaches `min`, the search answers "no good match" and shows
 * none of them; when one does, every result stays. Dropping the weak results one by one cost the
 * agent-work set 0.04 recall@10 (its answers often sit in a result ranked below a confident one
 * that is not the answer) for no gain on a search whose best result is good. 0 keeps everything and
 * never says "no good match". A search that found nothing at all says so as it always did (no
 * results), not "no good match".
 */
export function cutByConfidence<T extends { confidence: number }>(results: readonly T[], min: number): ConfidenceCut<T> {
  if (!(min > 0) || results.some((r) => r.confidence >= min)) return { results: [...results], belowConfidence: 0, noGoodMatch: false };
  return { results: [], belowConfidence: results.length, noGoodMatch: results.length > 0 };
}
