// Judgment and LLM usage rows ↔ records, shared by the SQLite and PostgreSQL backends (same columns).
import type { Category } from '../core/types.js';
import type { StoredJudgment, UsageRow } from './store.js';

export interface JudgmentRow {
  turn_id: string;
  namespace: string;
  turn_seq: number;
  importance: number;
  category: string;
  judge: string;
  reason: string;
  statement: string | null;
  memory_id: string | null;
  needs_rejudge: number;
  judged_at: string;
}

export function judgmentFromRow(r: JudgmentRow): StoredJudgment {
  return {
    turnId: r.turn_id, namespace: r.namespace, turnSeq: r.turn_seq, importance: r.importance, category: r.category as Category,
    judge: r.judge, reason: r.reason, statement: r.statement, memoryId: r.memory_id, needsRejudge: r.needs_rejudge === 1, judgedAt: r.judged_at,
  };
}

/** A day nothing was spent on. */
export const EMPTY_USAGE: UsageRow = { calls: 0, failures: 0, fallbacks: 0, tokensIn: 0, tokensOut: 0, costUsd: 0 };

export interface UsageDbRow { namespace: string; day: string; calls: number; failures: number; fallbacks: number; tokens_in: number; tokens_out: number; cost_usd: number }

export const usageFromRow = (r: UsageDbRow): UsageRow & { namespace: string; day: string } => ({
  namespace: r.namespace, day: r.day, calls: r.calls, failures: r.failures, fallbacks: r.fallbacks, tokensIn: r.tokens_in, tokensOut: r.tokens_out, costUsd: r.cost_usd,
});
