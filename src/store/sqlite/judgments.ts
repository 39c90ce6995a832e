// Judgments, feedback and LLM usage for SQLite. Recording judgments with the memories they make
// is a memory unit (memory-unit.ts) under the rules of src/memory/remember.ts.
import type { Database } from 'better-sqlite3';
import { newId } from '../../core/ids.js';
import type { Turn } from '../../core/types.js';
import type { FeedbackRecord, JudgeStats, StoredJudgment, UsageRow } from '../store.js';
import { EMPTY_USAGE, judgmentFromRow, usageFromRow, type JudgmentRow, type UsageDbRow } from '../judgment-rows.js';
import { turnFromRow, type TurnRow } from '../rows.js';
import { stmt } from './statements.js';

export function turnsBefore(db: Database, namespace: string, sessionId: string, beforeSeq: number, limit: number): Turn[] {
  const rows = stmt(db, 'SELECT * FROM turns WHERE namespace = ? AND session_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?').all(namespace, sessionId, beforeSeq, limit) as TurnRow[];
  return rows.reverse().map(turnFromRow);
}

export function unjudgedTurns(db: Database, namespace: string, afterSeq: number, limit: number): Array<{ seq: number; turn: Turn }> {
  const rows = stmt(
    db,
    `SELECT t.* FROM turns t WHERE t.namespace = ? AND t.seq > ?
       AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.turn_id = t.id)
     ORDER BY t.seq LIMIT ?`,
  ).all(namespace, afterSeq, limit) as Array<TurnRow & { seq: number }>;
  return rows.map((r) => ({ seq: r.seq, turn: turnFromRow(r) }));
}

export function judgedTurns(
  db: Database,
  namespace: string,
  afterSeq: number,
  limit: number,
  filter: { since?: string; onlyNeedsRejudge?: boolean } = {},
): Array<{ seq: number; turn: Turn; judgment: StoredJudgment }> {
  const rows = stmt(
    db,
    `SELECT t.*, j.turn_id AS j_turn_id, j.namespace AS j_namespace, j.turn_seq AS j_turn_seq, j.importance AS j_importance,
            j.category AS j_category, j.judge AS j_judge, j.reason AS j_reason, j.statement AS j_statement,
            j.memory_id AS j_memory_id, j.needs_rejudge AS j_needs_rejudge, j.judged_at AS j_judged_at
     FROM judgments j JOIN turns t ON t.id = j.turn_id
     WHERE j.namespace = ? AND j.turn_seq > ? AND (? IS NULL OR t.ts >= ?) AND (? = 0 OR j.needs_rejudge = 1)
     ORDER BY j.turn_seq LIMIT ?`,
  ).all(namespace, afterSeq, filter.since ?? null, filter.since ?? null, filter.onlyNeedsRejudge ? 1 : 0, limit) as Array<TurnRow & { seq: number } & Record<string, unknown>>;
  return rows.map((r) => ({
    seq: r.seq,
    turn: turnFromRow(r),
    judgment: judgmentFromRow({
      turn_id: r.j_turn_id as string, namespace: r.j_namespace as string, turn_seq: r.j_turn_seq as number, importance: r.j_importance as number,
      category: r.j_category as string, judge: r.j_judge as string, reason: r.j_reason as string, statement: r.j_statement as string | null,
      memory_id: r.j_memory_id as string | null, needs_rejudge: r.j_needs_rejudge as number, judged_at: r.j_judged_at as string,
    }),
  }));
}

export function getJudgment(db: Database, turnId: string): StoredJudgment | null {
  const row = stmt(db, 'SELECT * FROM judgments WHERE turn_id = ?').get(turnId) as JudgmentRow | undefined;
  return row ? judgmentFromRow(row) : null;
}

export function judgeStats(db: Database): JudgeStats[] {
  const turns = stmt(db, 'SELECT namespace, COUNT(*) AS n FROM turns GROUP BY namespace').all() as Array<{ namespace: string; n: number }>;
  const rows = stmt(
    db,
    `SELECT namespace, judge, COUNT(*) AS n, SUM(memory_id IS NOT NULL) AS promoted, SUM(needs_rejudge) AS rejudge
     FROM judgments GROUP BY namespace, judge`,
  ).all() as Array<{ namespace: string; judge: string; n: number; promoted: number; rejudge: number }>;
  const out = new Map<string, JudgeStats>();
  for (const t of turns) out.set(t.namespace, { namespace: t.namespace, judged: 0, pending: t.n, promoted: 0, needsRejudge: 0, byJudge: {} });
  for (const r of rows) {
    const s = out.get(r.namespace) ?? { namespace: r.namespace, judged: 0, pending: 0, promoted: 0, needsRejudge: 0, byJudge: {} };
    s.judged += r.n;
    s.pending = Math.max(0, s.pending - r.n);
    s.promoted += r.promoted;
    s.needsRejudge += r.rejudge;
    s.byJudge[r.judge] = r.n;
    out.set(r.namespace, s);
  }
  return [...out.values()].sort((a, b) => a.namespace.localeCompare(b.namespace));
}

export function addFeedback(db: Database, fb: Omit<FeedbackRecord, 'id' | 'createdAt'>, now: string): FeedbackRecord {
  const record: FeedbackRecord = { ...fb, id: newId('x'), createdAt: now };
  stmt(db, 'INSERT INTO feedback (id, namespace, ref_id, text, category, important, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    record.id, record.namespace, record.refId, record.text, record.category, record.important ? 1 : 0, now,
  );
  return record;
}

export function listFeedback(db: Database, namespace: string, limit: number): FeedbackRecord[] {
  const rows = stmt(db, 'SELECT * FROM feedback WHERE namespace = ? ORDER BY created_at DESC, rowid DESC LIMIT ?').all(namespace, limit) as Array<{
    id: string; namespace: string; ref_id: string; text: string; category: string | null; important: number; created_at: string;
  }>;
  return rows.map((r) => ({ id: r.id, namespace: r.namespace, refId: r.ref_id, text: r.text, category: r.category, important: r.important === 1, createdAt: r.created_at }));
}

export function usageGet(db: Database, namespace: string, day: string): UsageRow {
  const row = stmt(db, 'SELECT * FROM llm_usage WHERE namespace = ? AND day = ?').get(namespace, day) as UsageDbRow | undefined;
  if (!row) return { ...EMPTY_USAGE };
  const { namespace: _n, day: _d, ...usage } = usageFromRow(row);
  return usage;
}

export function usageAdd(db: Database, namespace: string, day: string, d: Partial<UsageRow>): void {
  stmt(
    db,
    `INSERT INTO llm_usage (namespace, day, calls, failures, fallbacks, tokens_in, tokens_out, cost_usd) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (namespace, day) DO UPDATE SET calls = calls + excluded.calls, failures = failures + excluded.failures,
       fallbacks = fallbacks + excluded.fallbacks, tokens_in = tokens_in + excluded.tokens_in,
       tokens_out = tokens_out + excluded.tokens_out, cost_usd = cost_usd + excluded.cost_usd`,
  ).run(namespace, day, d.calls ?? 0, d.failures ?? 0, d.fallbacks ?? 0, d.tokensIn ?? 0, d.tokensOut ?? 0, d.costUsd ?? 0);
}

export function usageList(db: Database, day?: string): Array<UsageRow & { namespace: string; day: string }> {
  const rows = (day === undefined
    ? stmt(db, 'SELECT * FROM llm_usage ORDER BY day, namespace').all()
    : stmt(db, 'SELECT * FROM llm_usage WHERE day = ? ORDER BY namespace').all(day)) as UsageDbRow[];
  return rows.map(usageFromRow);
}

export function setMemoryImportance(db: Database, namespace: string, id: string, importance: number, now: string): boolean {
  return db
    .transaction(() => {
      const changed = stmt(db, 'UPDATE memories SET importance = ?, updated_at = ? WHERE namespace = ? AND id = ? AND valid_to IS NULL').run(importance, now, namespace, id).changes > 0;
      if (changed) stmt(db, "UPDATE entries SET importance = ? WHERE kind = 'memory' AND ref_id = ?").run(importance, id);
      return changed;
    })
    .immediate();
}
