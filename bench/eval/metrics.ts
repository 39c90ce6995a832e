// Evidence recall: the fraction of a question's evidence turns found among its top-k results,
// averaged over questions. A result counts for every turn its provenance covers (its own hit, the
// session's further hits folded into it, the context turns shown with it); first-hit recall counts
// only the result's own hit, so a ranking cannot lean on what grouping gathers around it. Recall at
// fixed token budgets compares systems that return units of different sizes, which recall@k alone
// would reward for returning big ones. Headline figures carry bootstrap intervals over questions.
import type { Provenance } from '../../src/core/types.js';
import type { SearchResult } from '../../src/search/hybrid.js';
import { contextLine } from '../../src/search/neighbours.js';
import { isStopWord, tokenize } from '../../src/search/query-terms.js';
import { bootstrapMean, type BootstrapOptions, type Interval } from './bootstrap.js';

export const KS = [5, 10, 20] as const;
export const BUDGETS = [500, 1000, 2000] as const;
/** The k whose returned text is checked for the answer's words. */
export const ANSWER_K = 10;
/** Results asked for per question: the largest k. */
export const SEARCH_LIMIT: K = KS[KS.length - 1]!;

export type K = (typeof KS)[number];
export type Budget = (typeof BUDGETS)[number];

/** One search result as the metric sees it: the turns it covers and the tokens of its text. */
export interface RankedResult {
  ids: readonly string[];
  /** The turns of its own hit alone (`provenance[0]`); absent, `ids` stand in. */
  first?: readonly string[];
  tokens: number;
}

export interface QuestionOutcome {
  conversation: string;
  question: string;
  category: string;
  evidence: readonly string[];
  /** In rank order: the search with the largest limit (budgets and the largest k use it). */
  results: readonly RankedResult[];
  /**
   * The results of a search asked for exactly k, as a user asking for k results gets them. Search
   * sizes its candidate pool by the limit, so these can differ from the top k of `results`;
   * absent, the top k of `results` stand in.
   */
  atLimit?: Partial<Record<K, readonly RankedResult[]>>;
  /**
   * The limits asked (`--limits`; absent: every k of KS). A figure that needs a search not asked
   * (recall @k for another k; budgets, which take the limit-SEARCH_LIMIT results) is NaN, not a
   * stand-in from another limit's search.
   */
  limits?: readonly K[];
  /**
   * The share of the annotated answer's words in what the search for ANSWER_K returned
   * (answerShown); absent for a question the set gives no answer text for, or one with no words.
   */
  answerWords?: number;
  latencyMs: number;
}

export interface Scores {
  questions: number;
  recall: Record<K, number>;
  /** Recall counting only each result's own hit. */
  firstHit: Record<K, number>;
  /** Mean tokens of the text of the top k results. */
  tokens: Record<K, number>;
  /** Median of the same. */
  tokensP50: Record<K, number>;
  /** Recall when results are taken in rank order until the token budget is spent. */
  budget: Record<Budget, number>;
  /** Mean share of answer words shown @ANSWER_K over the questions that have one (NaN for none). */
  answerWords: number;
  /** How many questions that mean is over. */
  answered: number;
}

export interface Metrics {
  overall: Scores;
  /** By the set's own category labels, in sorted order. */
  byCategory: Record<string, Scores>;
  /** 95 % bootstrap intervals of the headline figures over questions. */
  intervals: Record<HeadlineKey, Interval>;
  latencyMs: { p50: number; p95: number; mean: number };
}

/** The dia_ids a result covers: the message id of every provenance entry. */
export function coveredIds(provenance: readonly Provenance[]): string[] {
  return [...new Set(provenance.map((p) => p.messageId).filter((id): id is string => Boolean(id)))];
}

/**
 * What an agent is handed for a result: its text, plus the conversation turns search shows with
 * it. Context turns are in the provenance too, so they count for recall: their tokens must count.
 */
export function returnedTexts(r: Pick<SearchResult, 'snippet' | 'context'>): string[] {
  // What an agent reads of a result (the MCP tool's text, the CLI): its hit's snippet, the
  // passage of a long text that matches (a short text whole), and the turns shown with it, each
  // with who said it. The full text is one `get` away and costs nothing until asked for.
  return [r.snippet, ...r.context.map(contextLine)];
}

function recallOf(evidence: readonly string[], results: readonly RankedResult[], first = false): number {
  if (evidence.length === 0) return 0;
  const found = new Set(results.flatMap((r) => (first ? (r.first ?? r.ids) : r.ids)));
  return evidence.filter((e) => found.has(e)).length / evidence.length;
}

// The search's own tokenizer and stop words: an answer word is what a query word would be.
const answerWords = (text: string): string[] => tokenize(text).filter((w) => (w.length >= 3 || /\d/.test(w)) && !isStopWord(w));
// Five letters stand in for a stemmer: "adoption" meets "adopting", "agencies" meets "agency".
const stemOf = (w: string) => w.slice(0, 5);

/**
 * The share of an answer's words found in what a search returned (a word matches by its first
 * five letters), or null for an answer with no such words. Evidence recall counts a turn as found
 * when any preview of it is shown; this asks whether what is shown holds the answer, so a shorter
 * preview that cuts the answer off scores lower here.
 */
export function answerShown(answer: string, texts: readonly string[]): number | null {
  const wanted = [...new Set(answerWords(answer).map(stemOf))];
  if (wanted.length === 0) return null;
  const shown = new Set(texts.flatMap(answerWords).map(stemOf));
  return wanted.filter((w) => shown.has(w)).length / wanted.length;
}

/** answerShown for a question, or null when the set gives it no answer text. */
export function questionAnswerShown(q: { answer?: string | undefined }, texts: () => readonly string[]): number | null {
  return q.answer ? answerShown(q.answer, texts()) : null;
}

export function recallAtK(evidence: readonly string[], results: readonly RankedResult[], k: number): number {
  return recallOf(evidence, results.slice(0, k));
}

/** Recall@k where each result counts only for its own hit, not what was folded or shown around it. */
export function firstHitRecallAtK(evidence: readonly string[], results: readonly RankedResult[], k: number): number {
  return recallOf(evidence, results.slice(0, k), true);
}

export function tokensAtK(results: readonly RankedResult[], k: number): number {
  return results.slice(0, k).reduce((n, r) => n + r.tokens, 0);
}

/** Results in rank order while they fit the budget; the first that would exceed it ends the list. */
export function withinBudget(results: readonly RankedResult[], budget: number): RankedResult[] {
  const taken: RankedResult[] = [];
  let spent = 0;
  for (const r of results) {
    if (spent + r.tokens > budget) break;
    spent += r.tokens;
    taken.push(r);
  }
  return taken;
}

export function recallAtBudget(evidence: readonly string[], results: readonly RankedResult[], budget: number): number {
  return recallOf(evidence, withinBudget(results, budget));
}

/** Nearest-rank percentile; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

function perK<T extends number>(keys: readonly T[], f: (key: T) => number): Record<T, number> {
  return Object.fromEntries(keys.map((key) => [key, f(key)])) as Record<T, number>;
}

/** Whether the search for k was asked for this question. */
const asked = (o: QuestionOutcome, k: K) => !o.limits || o.limits.includes(k);

/**
 * A figure of the results a user asking for k gets (the search for k, else the top k of the
 * longest one), or NaN when that search was not asked.
 */
const atK = (o: QuestionOutcome, k: K, f: (results: readonly RankedResult[]) => number): number => (asked(o, k) ? f(o.atLimit?.[k] ?? o.results) : NaN);
/** Recall at a token budget: from the limit-SEARCH_LIMIT results, NaN when they were not asked. */
const atBudget = (o: QuestionOutcome, budget: number): number => (asked(o, SEARCH_LIMIT) ? recallAtBudget(o.evidence, o.results, budget) : NaN);

/**
 * How many questions the search for k answered differently in `a` than in `b` (paired by
 * position): other turns, or the same in another order or grouping. 0 means a mechanism never
 * changed what a user sees there, whatever the recall says; NaN when either did not ask k.
 */
export function changedAt(k: K, a: readonly QuestionOutcome[], b: readonly QuestionOutcome[]): number {
  if (a.length !== b.length) throw new RangeError(`changedAt: ${a.length} against ${b.length} questions`);
  if (!a.every((o) => asked(o, k)) || !b.every((o) => asked(o, k))) return NaN;
  const shown = (o: QuestionOutcome) => JSON.stringify((o.atLimit?.[k] ?? o.results).slice(0, k).map((r) => [r.first ?? null, r.ids]));
  return a.filter((o, i) => shown(o) !== shown(b[i]!)).length;
}

/** The figures every report gives an interval for, each as its value on one question. */
export const HEADLINE = {
  recall5: { label: '@5', of: (o: QuestionOutcome) => atK(o, 5, (r) => recallAtK(o.evidence, r, 5)) },
  recall10: { label: '@10', of: (o: QuestionOutcome) => atK(o, 10, (r) => recallAtK(o.evidence, r, 10)) },
  recall20: { label: '@20', of: (o: QuestionOutcome) => atK(o, 20, (r) => recallAtK(o.evidence, r, 20)) },
  firstHit10: { label: 'first-hit @10', of: (o: QuestionOutcome) => atK(o, 10, (r) => firstHitRecallAtK(o.evidence, r, 10)) },
  budget500: { label: '@500 tok', of: (o: QuestionOutcome) => atBudget(o, 500) },
  budget1000: { label: '@1000 tok', of: (o: QuestionOutcome) => atBudget(o, 1000) },
  budget2000: { label: '@2000 tok', of: (o: QuestionOutcome) => atBudget(o, 2000) },
  tokens10: { label: 'tokens @10', of: (o: QuestionOutcome) => atK(o, 10, (r) => tokensAtK(r, 10)) },
} as const;
export type HeadlineKey = keyof typeof HEADLINE;
export const HEADLINE_KEYS = Object.keys(HEADLINE) as HeadlineKey[];

export function scoresOf(outcomes: readonly QuestionOutcome[]): Scores {
  const avg = (f: (o: QuestionOutcome) => number) => mean(outcomes.map(f));
  const answered = outcomes.flatMap((o) => (o.answerWords === undefined ? [] : [o.answerWords]));
  return {
    questions: outcomes.length,
    recall: perK(KS, (k) => avg((o) => atK(o, k, (r) => recallAtK(o.evidence, r, k)))),
    firstHit: perK(KS, (k) => avg((o) => atK(o, k, (r) => firstHitRecallAtK(o.evidence, r, k)))),
    tokens: perK(KS, (k) => avg((o) => atK(o, k, (r) => tokensAtK(r, k)))),
    tokensP50: perK(KS, (k) => (outcomes.every((o) => asked(o, k)) ? percentile(outcomes.map((o) => tokensAtK(o.atLimit?.[k] ?? o.results, k)), 0.5) : NaN)),
    budget: perK(BUDGETS, (b) => avg((o) => atBudget(o, b))),
    answerWords: mean(answered),
    answered: answered.length,
  };
}

/** Overall (every question counts once) with its intervals, and per category of the set. */
export function summarise(outcomes: readonly QuestionOutcome[], bootstrap: BootstrapOptions = {}): Metrics {
  const latencies = outcomes.map((o) => o.latencyMs);
  const categories = [...new Set(outcomes.map((o) => o.category))].sort();
  return {
    overall: scoresOf(outcomes),
    byCategory: Object.fromEntries(categories.map((c) => [c, scoresOf(outcomes.filter((o) => o.category === c))])),
    intervals: Object.fromEntries(HEADLINE_KEYS.map((key) => [key, bootstrapMean(outcomes.map(HEADLINE[key].of), bootstrap)])) as Record<HeadlineKey, Interval>,
    latencyMs: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), mean: mean(latencies) },
  };
}
