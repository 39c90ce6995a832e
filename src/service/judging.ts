// The judge stage of the pipeline: every captured turn gets an importance and a category, and the
// turns at or above the threshold become memories, in one transaction per batch (so a crash can
// leave turns unjudged, to be judged on restart, but never judged twice). The LLM judge is used
// when configured, healthy and within budget; the heuristic judges otherwise, and its fallback
// judgments are marked to be judged again by the LLM when it is back.
import type { CairnConfig } from '../core/config.js';
import type { Turn } from '../core/types.js';
import type { JudgmentInput, Store } from '../store/store.js';
import { HEURISTIC_VERSION, judgeHeuristic, learnWeights, type HeuristicWeights } from '../judge/heuristic.js';
import type { LabelledExample, LlmJudge, LlmJudgeItem } from '../judge/llm-judge.js';
import type { Budget, Prices } from '../llm/budget.js';
import type { CircuitBreaker } from '../llm/circuit-breaker.js';
import { budgetDay, costUsd } from '../llm/budget.js';
import { memoryFromTurn } from '../memory/from-turn.js';

/** Turns read per page when judging a namespace. */
const PAGE = 256;
/** Feedback examples that shape judgments (heuristic weights; LLM few-shot shows the newest few). */
const FEEDBACK_WINDOW = 500;
const FEW_SHOT = 6;

export interface LlmRuntime {
  judge: LlmJudge;
  budget: Budget;
  prices: Prices;
  /** The judge's breaker, for status. */
  breaker: CircuitBreaker;
}

export interface JudgeReport {
  judged: number;
  promoted: number;
  /** Judgments per judge name. */
  byJudge: Record<string, number>;
  /** Batches the heuristic judged because the LLM failed, was cooling down, or was over budget. */
  fallbacks: number;
  llmRequests: number;
  costUsd: number;
}

export interface JudgeRunOptions {
  /** Stop after about this many turns (a daemon interleaves judging with capture). */
  limit?: number;
  signal?: AbortSignal;
  onProgress?: (done: number) => void;
  /**
   * Told after each stored batch of `judgePending`: every turn of the namespace whose index entry
   * is at or before this entry seq now has its judgment (turns are read in order), so its vector
   * may be made (the judge decides which turns are embedded: noise is not). Given, the judge also
   * lets the event loop run between batches, so the model's answers are taken while it judges.
   */
  onJudged?: (throughEntrySeq: number) => void;
}

/** Turns to read next: a page, or what is left of the caller's limit (a daemon slice stays a slice). */
function pageSize(report: JudgeReport, options: JudgeRunOptions): number {
  return options.limit === undefined ? PAGE : Math.max(1, Math.min(PAGE, options.limit - report.judged));
}

function emptyReport(): JudgeReport {
  return { judged: 0, promoted: 0, byJudge: {}, fallbacks: 0, llmRequests: 0, costUsd: 0 };
}

interface Verdict {
  importance: number;
  category: JudgmentInput['category'];
  reason: string;
  judge: string;
  statement: string | null;
  needsRejudge: boolean;
}

export class Judging {
  constructor(
    private readonly store: Store,
    private readonly config: CairnConfig,
    private readonly llm: LlmRuntime | null,
  ) {}

  get llmName(): string | null {
    return this.llm?.judge.name ?? null;
  }

  /** An LLM judge is configured and would take a request now. */
  llmReady(): boolean {
    return this.llm !== null && this.llm.judge.canRequest();
  }

  /** The breaker's state and counters, for status (null without an LLM). */
  llmHealth(): { judge: string; breaker: ReturnType<CircuitBreaker['stats']> } | null {
    return this.llm ? { judge: this.llm.judge.name, breaker: this.llm.breaker.stats() } : null;
  }

  /** Judges turns that have none yet, oldest first. */
  async judgePending(namespace: string, options: JudgeRunOptions = {}): Promise<JudgeReport> {
    const report = emptyReport();
    const feedback = await this.feedbackFor(namespace);
    let after = 0;
    while (!options.signal?.aborted && (options.limit === undefined || report.judged < options.limit)) {
      const page = await this.store.unjudgedTurns(namespace, after, pageSize(report, options));
      if (page.length === 0) break;
      after = page[page.length - 1]!.seq;
      await this.judgeTurns(namespace, page.map((p) => ({ seq: p.seq, turn: p.turn })), feedback, report, options);
    }
    return report;
  }

  /**
   * Judges already judged turns again (after a judge or config change): all since a time, or only
   * those the fallback judged. Their memories are updated, never duplicated.
   */
  async rejudge(namespace: string, options: JudgeRunOptions & { since?: string; fallbacksOnly?: boolean } = {}): Promise<JudgeReport> {
    const report = emptyReport();
    const feedback = await this.feedbackFor(namespace);
    let after = 0;
    while (!options.signal?.aborted && (options.limit === undefined || report.judged < options.limit)) {
      // Fallbacks judged by the fallback again would only churn (and loop): stop while the LLM is not back.
      if (options.fallbacksOnly && this.llm && !this.llm.judge.canRequest()) break;
      const page = await this.store.judgedTurns(namespace, after, pageSize(report, options), { since: options.since, onlyNeedsRejudge: options.fallbacksOnly });
      if (page.length === 0) break;
      after = page[page.length - 1]!.seq;
      // Turns judged again were embedded (or not) already: no frontier to report.
      await this.judgeTurns(namespace, page, feedback, report, { ...options, onJudged: undefined });
    }
    return report;
  }

  private async feedbackFor(namespace: string): Promise<{ weights: HeuristicWeights; examples: LabelledExample[] }> {
    const list = await this.store.listFeedback(namespace, FEEDBACK_WINDOW);
    const weights = learnWeights(list.map((f) => ({ text: f.text, category: (f.category ?? 'note') as never, important: f.important })));
    return { weights, examples: list.slice(0, FEW_SHOT).map((f) => ({ text: f.text, important: f.important })) };
  }

  private async judgeTurns(
    namespace: string,
    rows: ReadonlyArray<{ seq: number; turn: Turn }>,
    feedback: { weights: HeuristicWeights; examples: LabelledExample[] },
    report: JudgeReport,
    options: JudgeRunOptions,
  ): Promise<void> {
    // batchSize shapes LLM requests; the heuristic alone judges a whole page and commits it in one
    // transaction (one fsync per 256 turns, not per 16).
    const size = this.llm ? this.config.judge.batchSize : Math.max(1, rows.length);
    for (let i = 0; i < rows.length; i += size) {
      if (options.signal?.aborted) return;
      const batch = rows.slice(i, i + size);
      const context = await this.contextOf(namespace, batch);
      const verdicts = await this.judgeBatch(namespace, batch.map((r) => r.turn), context, feedback, report, options.signal);
      // Cancelled mid-request (the daemon stopping): leave the batch unjudged for the next run
      // rather than record a fallback judgment for a failure that was not the provider's.
      if (verdicts === null) return;
      const items: JudgmentInput[] = batch.map((r, k) => {
        const v = verdicts[k]!;
        const promoted = v.importance >= this.config.judge.threshold;
        return {
          turnId: r.turn.id,
          ...v,
          ...(promoted ? { memory: memoryFromTurn({ turn: r.turn, importance: v.importance, category: v.category, statement: v.statement }, this.config.limits.maxTextChars) } : {}),
        };
      });
      await this.store.applyJudgments(items);
      for (const item of items) {
        report.byJudge[item.judge] = (report.byJudge[item.judge] ?? 0) + 1;
        if (item.memory) report.promoted++;
      }
      report.judged += items.length;
      options.onProgress?.(report.judged);
      if (options.onJudged) {
        const last = await this.store.entryFor('turn', batch[batch.length - 1]!.turn.id);
        if (last) options.onJudged(last.seq);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  /** Earlier turns of each session in the batch (before its first turn there), oldest first. */
  private async contextOf(namespace: string, batch: ReadonlyArray<{ seq: number; turn: Turn }>): Promise<Map<string, Turn[]>> {
    const n = this.config.judge.contextTurns;
    const out = new Map<string, Turn[]>();
    for (const row of batch) {
      if (out.has(row.turn.sessionId)) continue;
      out.set(row.turn.sessionId, n > 0 ? await this.store.turnsBefore(namespace, row.turn.sessionId, row.seq, n) : []);
    }
    return out;
  }

  /** The context of the i-th turn of a batch: its session's earlier turns, within the batch too. */
  private contextFor(turns: readonly Turn[], i: number, before: Map<string, Turn[]>): Turn[] {
    const session = turns[i]!.sessionId;
    const inBatch = turns.slice(0, i).filter((t) => t.sessionId === session);
    return [...(before.get(session) ?? []), ...inBatch].slice(-this.config.judge.contextTurns);
  }

  private heuristic(turn: Turn, context: readonly Turn[], weights: HeuristicWeights): Verdict {
    const kind = turn.meta.kind === 'tool' || turn.meta.kind === 'compaction' ? turn.meta.kind : 'message';
    const h = judgeHeuristic({ text: turn.text, role: turn.role, speaker: turn.speaker, timestamp: turn.timestamp, kind, context }, weights);
    return { importance: h.importance, category: h.category, reason: h.reason, judge: HEURISTIC_VERSION, statement: null, needsRejudge: false };
  }

  private async judgeBatch(
    namespace: string,
    turns: readonly Turn[],
    before: Map<string, Turn[]>,
    feedback: { weights: HeuristicWeights; examples: LabelledExample[] },
    report: JudgeReport,
    signal?: AbortSignal,
  ): Promise<Verdict[] | null> {
    // The heuristic always runs (it is cheap): it is the prefilter, and the fallback.
    const verdicts = turns.map((t, i) => this.heuristic(t, this.contextFor(turns, i, before), feedback.weights));
    if (!this.llm) return verdicts;
    const send = turns.map((_, i) => i).filter((i) => !(this.config.judge.prefilter && (verdicts[i]!.category === 'noise' || verdicts[i]!.importance <= 2)));
    if (send.length === 0) return verdicts;
    const day = budgetDay(Date.now(), this.config.timezone);
    const fallback = async (why: string, rejudge: boolean): Promise<Verdict[]> => {
      report.fallbacks++;
      await this.llm!.budget.recordFallback(namespace, day, send.length);
      for (const i of send) verdicts[i] = { ...verdicts[i]!, judge: `${HEURISTIC_VERSION}+fallback`, reason: `${verdicts[i]!.reason} (${why})`, needsRejudge: rejudge && this.config.judge.rejudgeFallbacks };
      return verdicts;
    };
    if (!(await this.llm.budget.canSpend(namespace, day))) return fallback('LLM daily budget reached', false);
    if (!this.llm.judge.canRequest()) return fallback('LLM cooling down after failures', true);
    const item = (t: Turn): LlmJudgeItem => ({ role: t.role, speaker: t.speaker, timestamp: t.timestamp, text: t.text });
    try {
      // The LLM sees the batch in order, so its context is what came before the batch's first turn.
      const context = this.contextFor(turns, 0, before);
      const res = await this.llm.judge.judge(send.map((i) => item(turns[i]!)), context.map(item), feedback.examples, signal);
      const cost = costUsd(res.usage, this.llm.prices);
      await this.llm.budget.record(namespace, day, res.usage, cost);
      report.llmRequests += res.requests;
      report.costUsd += cost;
      send.forEach((i, k) => {
        const j = res.judgments[k]!;
        verdicts[i] = { importance: j.importance, category: j.category, reason: j.reason, judge: res.judge, statement: j.statement, needsRejudge: false };
      });
      return verdicts;
    } catch (err) {
      if (signal?.aborted) return null;
      const usage = (err as { usage?: { inputTokens: number; outputTokens: number } }).usage;
      await this.llm.budget.recordFailure(namespace, day, usage, usage ? costUsd(usage, this.llm.prices) : 0);
      report.llmRequests++;
      return fallback(`LLM failed: ${(err as Error).message.slice(0, 120)}`, true);
    }
  }
}
