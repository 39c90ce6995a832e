// Fitting and judging the confidence model on plain rows: logistic regression (Newton's method
// with a small ridge, so separable data still gives finite weights), and the figures a threshold
// gives (negatives cut, positives wrongly cut, recall lost) and a reliability table.
import { confidenceOf, type ConfidenceModel, type ConfidenceSignals } from '../../src/search/pipeline/confidence.js';

/** One search's top result: its signals, whether it holds evidence, and the search's recall. */
export interface Row {
  set: string;
  conversation: string;
  question: string;
  /** Asked where its answer is (a positive), or where it has none (a negative). */
  positive: boolean;
  /** What kind of negative: "cross-set", "other conversation", "off-topic"; "own" for positives. */
  kind: string;
  /** Signals of the top result; null when the search returned nothing. */
  top: ConfidenceSignals | null;
  /** The top result covers an evidence turn (always false for a negative). */
  holds: boolean;
  /** Each of the (up to 10) results' signals, confidence and the evidence turns it covers, in rank order. */
  results: { signals: ConfidenceSignals; confidence: number; evidence: number }[];
  /** Evidence turns the question has (0 for a negative). */
  evidence: number;
}

export const FEATURES = ['cosine', 'cover', 'sessionCover', 'speaker'] as const satisfies readonly (keyof ConfidenceSignals)[];

/** The rows with every result's confidence recomputed by `models`. */
export function rescore(rows: readonly Row[], models: { hybrid: ConfidenceModel; bm25: ConfidenceModel }): Row[] {
  return rows.map((r) => ({ ...r, results: r.results.map((x) => ({ ...x, confidence: confidenceOf(x.signals, models) })) }));
}

function vectorOf(s: ConfidenceSignals, withCosine: boolean): number[] {
  return [1, withCosine ? (s.cosine ?? 0) : 0, s.cover, s.sessionCover, s.speaker];
}

/** Solves A x = b (A small, symmetric positive definite) by Gaussian elimination with pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const d = m[c]![c]!;
    if (Math.abs(d) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / d;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[n]! / row[i]!));
}

/**
 * Logistic regression of `label` on the signals. Without cosines (BM25 only) the cosine weight is
 * pinned to 0. The ridge (on everything but the bias) keeps weights finite and small.
 */
export function fitLogistic(rows: readonly { x: ConfidenceSignals; y: boolean; weight?: number }[], withCosine: boolean, ridge = 1e-4): ConfidenceModel {
  const d = 1 + FEATURES.length;
  let w = new Array<number>(d).fill(0);
  const xs = rows.map((r) => vectorOf(r.x, withCosine));
  for (let iter = 0; iter < 50; iter++) {
    const grad = new Array<number>(d).fill(0);
    const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    xs.forEach((x, i) => {
      const p = 1 / (1 + Math.exp(-x.reduce((s, v, j) => s + v * w[j]!, 0)));
      const y = rows[i]!.y ? 1 : 0;
      const rw = rows[i]!.weight ?? 1;
      const q = rw * Math.max(p * (1 - p), 1e-9);
      for (let j = 0; j < d; j++) {
        grad[j]! += rw * (p - y) * x[j]!;
        for (let k = 0; k < d; k++) hess[j]![k]! += q * x[j]! * x[k]!;
      }
    });
    for (let j = 1; j < d; j++) {
      grad[j]! += ridge * rows.length * w[j]!;
      hess[j]![j]! += ridge * rows.length;
    }
    if (!withCosine) {
      grad[1] = 0;
      hess[1] = hess[1]!.map((_, k) => (k === 1 ? 1 : 0));
      for (const row of hess) row[1] = row === hess[1] ? 1 : 0;
    }
    const step = solve(hess, grad);
    w = w.map((v, j) => v - step[j]!);
    if (step.every((s) => Math.abs(s) < 1e-7)) break;
  }
  const round = (v: number) => Math.round(v * 100) / 100;
  return { bias: round(w[0]!), cosine: round(w[1]!), cover: round(w[2]!), sessionCover: round(w[3]!), speaker: round(w[4]!) };
}

/**
 * Weights that give each set of questions (LoCoMo, agent work, off-topic) the same total in a fit,
 * averaging 1 per row: LoCoMo's thousand questions would otherwise fit the model to chat alone.
 */
export function balancedWeights(rows: readonly Row[]): number[] {
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.set, (count.get(r.set) ?? 0) + 1);
  return rows.map((r) => rows.length / (count.size * count.get(r.set)!));
}

export interface CutFigures {
  threshold: number;
  /** Negative searches that say "no good match" (none of their results reaches the threshold). */
  negativesCut: number;
  /** Positive searches wrongly cut (none of their results reaches the threshold). */
  positivesCut: number;
  /** Positive searches whose top result holds evidence, yet wrongly cut. */
  answerableCut: number;
  /** Recall@10 over positives, uncut and with results below the threshold dropped. */
  recall: number;
  recallCut: number;
}

/** Recall@10 of one positive: the share of its evidence turns the kept results cover (capped at 1). */
function recallOf(r: Row, threshold: number): number {
  if (r.evidence === 0) return 0;
  // The cut is all or nothing (cutByConfidence): a search keeps every result when one reaches the threshold.
  if (!r.results.some((x) => x.confidence >= threshold)) return 0;
  const found = r.results.reduce((n, x) => n + x.evidence, 0);
  return Math.min(1, found / r.evidence);
}

/** What a threshold does to the negatives and the positives of `rows`. */
export function cutFigures(rows: readonly Row[], threshold: number): CutFigures {
  const pos = rows.filter((r) => r.positive);
  const neg = rows.filter((r) => !r.positive);
  // As search cuts: a search says "no good match" when none of its results reaches the threshold.
  const topConf = (r: Row) => Math.max(0, ...r.results.map((x) => x.confidence));
  const share = <T>(xs: readonly T[], f: (x: T) => boolean) => (xs.length ? xs.filter(f).length / xs.length : NaN);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
  return {
    threshold,
    negativesCut: share(neg, (r) => topConf(r) < threshold),
    positivesCut: share(pos, (r) => topConf(r) < threshold),
    answerableCut: share(pos.filter((r) => r.holds), (r) => topConf(r) < threshold),
    recall: mean(pos.map((r) => recallOf(r, 0))),
    recallCut: mean(pos.map((r) => recallOf(r, threshold))),
  };
}

export interface ReliabilityBin {
  from: number;
  to: number;
  searches: number;
  meanConfidence: number;
  /** Observed share of top results holding evidence. */
  observed: number;
}

/** Top results binned by confidence: is a result of confidence c right about c of the time? */
export function reliability(rows: readonly Row[], bins = 10): ReliabilityBin[] {
  const out: ReliabilityBin[] = [];
  for (let b = 0; b < bins; b++) {
    const from = b / bins;
    const to = (b + 1) / bins;
    const inBin = rows.filter((r) => r.results.length > 0 && r.results[0]!.confidence >= from && (r.results[0]!.confidence < to || (b === bins - 1 && r.results[0]!.confidence <= to)));
    if (inBin.length === 0) continue;
    out.push({
      from, to, searches: inBin.length,
      meanConfidence: inBin.reduce((s, r) => s + r.results[0]!.confidence, 0) / inBin.length,
      observed: inBin.filter((r) => r.holds).length / inBin.length,
    });
  }
  return out;
}

/** Mean squared error of the top result's confidence against whether it holds evidence (Brier score). */
export function brier(rows: readonly Row[]): number {
  const xs = rows.map((r) => ((r.results[0]?.confidence ?? 0) - (r.holds ? 1 : 0)) ** 2);
  return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
}
