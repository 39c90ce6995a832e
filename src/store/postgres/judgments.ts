// Judgments, feedback and LLM usage for PostgreSQL. Recording judgments with the memories they make
// is a memory unit (memory-unit.ts) under the rules of src/memory/remember.ts.
import { newId } from '../../core/ids.js';
import type { Turn } from '../../core/types.js';
import type { FeedbackRecord, JudgeStats, StoredJudgment, UsageRow } from '../store.js';
import { EMPTY_USAGE, judgmentFromRow, usageFromRow, type JudgmentRow, type UsageDbRow } from '../judgment-rows.js';
import { turnFromRow, type TurnRow } from '../rows.js';
import { transaction, type Db } from './connect.js';

export async function turnsBefore(db: Db, namespace: string, sessionId: string, beforeSeq: number, limit: number): Promise<Turn[]> {
  const rows = (await db.query<TurnRow>(
    'SELECT * FROM turns WHERE namespace = $1 AND session_id = $2 AND seq < $3 ORDER BY seq DESC LIMIT $4',
    [namespace, sessionId, beforeSeq, limit],
  )).rows;
  return rows.reverse().map(turnFromRow);
}

// unjudgedTurns and judgedTurns page by turn seq, but no caller keeps the cursor: the judge
// (service/judging.ts) starts each run at 0, and a turn still to commit when a page passed its seq
// is still unjudged (or still marked for re-judging) on the next run, which finds it. Turns of a
// namespace commit in seq order anyway (turns.ts: one writer per namespace until commit).
export async function unjudgedTurns(db: Db, namespace: string, afterSeq: number, limit: number): Promise<Array<{ seq: number; turn: Turn }>> {
  const rows = (await db.query<TurnRow & { seq: number }>(
    `SELECT t.* FROM turns t WHERE t.namespace = $1 AND t.seq > $2
       AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.turn_id = t.id)
     ORDER BY t.seq LIMIT $3`,
    [namespace, afterSeq, limit],
  )).rows;
  return rows.map((r) => ({ seq: r.seq, turn: turnFromRow(r) }));
}

type JudgedRow = TurnRow & { seq: number } & { [K in keyof JudgmentRow as `j_${K}`]: JudgmentRow[K] };

export async function judgedTurns(
  db: Db,
  namespace: string,
  afterSeq: number,
  limit: number,
  filter: { since?: string; onlyNeedsRejudge?: boolean } = {},
): Promise<Array<{ seq: number; turn: Turn; judgment: StoredJudgment }>> {
  const rows = (await db.query<JudgedRow>(
    `SELECT t.*, j.turn_id AS j_turn_id, j.namespace AS j_namespace, j.turn_seq AS j_turn_seq, j.importance AS j_importance,
            j.category AS j_category, j.judge AS j_judge, j.reason AS j_reason, j.statement AS j_statement,
            j.memory_id AS j_memory_id, j.needs_rejudge AS j_needs_rejudge, j.judged_at AS j_judged_at
     FROM judgments j JOIN turns t ON t.id = j.turn_id
     WHERE j.namespace = $1 AND j.turn_seq > $2 AND ($3::text IS NULL OR t.ts >= $3) AND (NOT $4::boolean OR j.needs_rejudge = 1)
     ORDER BY j.turn_seq LIMIT $5`,
    [namespace, afterSeq, filter.since ?? null, Boolean(filter.onlyNeedsRejudge), limit],
  )).rows;
  return rows.map((r) => ({
    seq: r.seq,
    turn: turnFromRow(r),
    judgment: judgmentFromRow({
      turn_id: r.j_turn_id, namespace: r.j_namespace, turn_seq: r.j_turn_seq, importance: r.j_importance, category: r.j_category, judge: r.j_judge,
      reason: r.j_reason, statement: r.j_statement, memory_id: r.j_memory_id, needs_rejudge: r.j_needs_rejudge, judged_at: r.j_judged_at,
    }),
  }));
}

export async function getJudgment(db: Db, turnId: string): Promise<StoredJudgment | null> {
  const row = (await db.query<JudgmentRow>('SELECT * FROM judgments WHERE turn_id = $1', [turnId])).rows[0];
  return row ? judgmentFromRow(row) : null;
}

export async function judgeStats(db: Db): Promise<JudgeStats[]> {
  // Both counts in one statement, so they describe the same moment even while daemons write.
  const rows = (await db.query<{ namespace: string; judge: string | null; n: number; promoted: number; rejudge: number }>(
    `SELECT namespace, NULL AS judge, count(*) AS n, 0::bigint AS promoted, 0::bigint AS rejudge FROM turns GROUP BY namespace
     UNION ALL
     SELECT namespace, judge, count(*), count(memory_id), coalesce(sum(needs_rejudge), 0) FROM judgments GROUP BY namespace, judge`,
  )).rows;
  const out = new Map<string, JudgeStats>();
  for (const t of rows) if (t.judge === null) out.set(t.namespace, { namespace: t.namespace, judged: 0, pending: t.n, promoted: 0, needsRejudge: 0, byJudge: {} });
  for (const r of rows) {
    if (r.judge === null) continue;
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

export async function addFeedback(db: Db, fb: Omit<FeedbackRecord, 'id' | 'createdAt'>, now: string): Promise<FeedbackRecord> {
  const record: FeedbackRecord = { ...fb, id: newId('x'), createdAt: now };
  await db.query(
    'INSERT INTO feedback (id, namespace, ref_id, text, category, important, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [record.id, record.namespace, record.refId, record.text, record.category, record.important ? 1 : 0, now],
  );
  return record;
}

export async function listFeedback(db: Db, namespace: string, limit: number): Promise<FeedbackRecord[]> {
  // seq stands in for SQLite's rowid: feedback given in the same millisecond lists newest first too.
  const rows = (await db.query<{ id: string; namespace: string; ref_id: string; text: string; category: string | null; important: number; created_at: string }>(
    'SELECT id, namespace, ref_id, text, category, important, created_at FROM feedback WHERE namespace = $1 ORDER BY created_at DESC, seq DESC LIMIT $2',
    [namespace, limit],
  )).rows;
  return rows.map((r) => ({ id: r.id, namespace: r.namespace, refId: r.ref_id, text: r.text, category: r.category, important: r.important === 1, createdAt: r.created_at }));
}

export async function usageGet(db: Db, namespace: string, day: string): Promise<UsageRow> {
  const row = (await db.query<UsageDbRow>('SELECT * FROM llm_usage WHERE namespace = $1 AND day = $2', [namespace, day])).rows[0];
  if (!row) return { ...EMPTY_USAGE };
  const { namespace: _n, day: _d, ...usage } = usageFromRow(row);
  return usage;
}

/** Adds to the day's row in one upsert: processes on several machines counting at once lose nothing. */
export async function usageAdd(db: Db, namespace: string, day: string, d: Partial<UsageRow>): Promise<void> {
  await db.query(
    `INSERT INTO llm_usage (namespace, day, calls, failures, fallbacks, tokens_in, tokens_out, cost_usd) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (namespace, day) DO UPDATE SET calls = llm_usage.calls + excluded.calls, failures = llm_usage.failures + excluded.failures,
       fallbacks = llm_usage.fallbacks + excluded.fallbacks, tokens_in = llm_usage.tokens_in + excluded.tokens_in,
       tokens_out = llm_usage.tokens_out + excluded.tokens_out, cost_usd = llm_usage.cost_usd + excluded.cost_usd`,
    [namespace, day, d.calls ?? 0, d.failures ?? 0, d.fallbacks ?? 0, d.tokensIn ?? 0, d.tokensOut ?? 0, d.costUsd ?? 0],
  );
}

export async function usageList(db: Db, day?: string): Promise<Array<UsageRow & { namespace: string; day: string }>> {
  const rows = (day === undefined
    ? await db.query<UsageDbRow>('SELECT * FROM llm_usage ORDER BY day COLLATE "C", namespace COLLATE "C"')
    : await db.query<UsageDbRow>('SELECT * FROM llm_usage WHERE day = $1 ORDER BY namespace COLLATE "C"', [day])).rows;
  return rows.map(usageFromRow);
}

/** Changes a current memory's importance and its index entry with it (a superseded version keeps its own). */
export async function setMemoryImportance(db: Db, namespace: string, id: string, importance: number, now: string): Promise<boolean> {
  return transaction(db, async (c) => {
    const changed = ((await c.query(
      'UPDATE memories SET importance = $1, updated_at = $2 WHERE namespace = $3 AND id = $4 AND valid_to IS NULL',
      [importance, now, namespace, id],
    )).rowCount ?? 0) > 0;
    if (changed) await c.query("UPDATE entries SET importance = $1 WHERE kind = 'memory' AND ref_id = $2", [importance, id]);
    return changed;
  });
}
