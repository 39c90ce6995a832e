// The health of one namespace for people: its capture sources with their figures, the daemon and
// the judge (LLM or fallback, breaker, today's spend against the budget), activity per logical day,
// the importance of its memories, and what its daily reviews recorded (mood, kinds of activity).
// Built from `cairn status` (the same report the CLI prints) narrowed to the namespace, and from
// counts the index answers per day window (windows.ts), so nothing of another namespace shows.
import { invalidInput } from '../../core/errors.js';
import type { CairnConfig } from '../../core/config.js';
import type { Store } from '../../store/store.js';
import type { StatusReport } from '../status.js';
import { boundsOf } from '../../consolidate/runner.js';
import { addDays, checkDay, placeInstant, windowsOf } from '../../consolidate/windows.js';

export const HEALTH_DEFAULT_DAYS = 14;
export const HEALTH_MAX_DAYS = 90;
/** Records counted per day and kind at most; a busier day shows as "at least" this many. */
export const HEALTH_COUNT_CAP = 50_000;
const CITATIONS_RE = /\s*`[mt]_[^`]*`/g;

export interface HealthSource {
  id: number;
  kind: string;
  path: string;
  watched: boolean;
  missing: boolean;
  units: number;
  turns: number;
  linesRead: number;
  malformed: number;
  skipped: number;
  redactions: number;
  redactionsByKind: Record<string, number>;
  errors: number;
  firstErrors: string[];
  lagSeconds: number;
  pendingBytes: number;
  lastCaptureAt: string | null;
}

export interface HealthView {
  namespace: string;
  timezone: string;
  today: string;
  /** The days shown: `days` days up to `to` (default today). */
  from: string;
  to: string;
  counts: { memories: number; currentMemories: number; turns: number; documents: number };
  sources: HealthSource[];
  daemon: { running: boolean; pid?: number; startedAt?: string; lastScanAt?: string | null; queued?: number };
  judge: {
    threshold: number;
    mode: 'llm' | 'heuristic';
    llm: { provider: string; model: string } | null;
    /** The daemon's circuit breaker as it last reported it (null: no daemon or no LLM). */
    breaker: { state: string; consecutiveFailures: number } | null;
    judged: number;
    pending: number;
    byJudge: Record<string, number>;
    today: { calls: number; failures: number; fallbacks: number; costUsd: number; budgetUsd: number | null };
  };
  alerts: Array<{ kind: string; message: string; since: string }>;
  /** Oldest day first; capped counts say so. */
  activity: Array<{ day: string; turns: number; memories: number; capped: boolean }>;
  /** Current memories of the period by importance 1–10. */
  importance: Array<{ importance: number; memories: number }>;
  reviews: Array<{ day: string; path: string; mood: string | null; lean: 'upbeat' | 'frustrated' | 'mixed' | null; activities: Array<{ name: string; lines: number }> }>;
}

function sourceOf(s: StatusReport['capture']['sources'][number]): HealthSource {
  const redactionsByKind = { ...s.stats.redactions };
  return {
    id: s.id, kind: s.kind, path: s.path, watched: s.watched, missing: s.missing, units: s.units, turns: s.turns,
    linesRead: s.stats.linesRead, malformed: s.stats.malformed, skipped: s.stats.skipped,
    redactions: Object.values(redactionsByKind).reduce((a, b) => a + b, 0), redactionsByKind,
    errors: s.errors.length, firstErrors: s.errors.slice(0, 3).map((e) => e.message.slice(0, 300)),
    lagSeconds: s.lagSeconds, pendingBytes: s.pendingBytes, lastCaptureAt: s.stats.lastCaptureAt,
  };
}

function breakerOf(llm: unknown): HealthView['judge']['breaker'] {
  const b = llm as { state?: unknown; consecutiveFailures?: unknown } | null | undefined;
  if (!b || typeof b.state !== 'string') return null;
  return { state: b.state, consecutiveFailures: typeof b.consecutiveFailures === 'number' ? b.consecutiveFailures : 0 };
}

/** What a review's sections record: its mood line and how many lines each kind of activity has. */
export function reviewSummary(sections: ReadonlyArray<{ heading: string; text: string }>): { mood: string | null; lean: HealthView['reviews'][number]['lean']; activities: Array<{ name: string; lines: number }> } {
  let mood: string | null = null;
  const activities: Array<{ name: string; lines: number }> = [];
  for (const s of sections) {
    if (s.heading === '') continue;
    const lines = s.text.split('\n').filter((l) => /^\s*[-*]\s/.test(l));
    if (s.heading === 'Mood') mood = lines[0]?.replace(/^\s*[-*]\s+/, '').replace(CITATIONS_RE, '').replace(/^Mood:\s*/, '').trim() || null;
    else if (lines.length > 0) activities.push({ name: s.heading, lines: lines.length });
  }
  const lean = mood === null ? null : mood.startsWith('mostly upbeat') ? 'upbeat' : mood.startsWith('mostly frustrated') ? 'frustrated' : 'mixed';
  return { mood, lean, activities };
}

export async function buildHealthView(store: Store, config: CairnConfig, status: StatusReport, namespace: string, input: { days?: number; to?: string } = {}, now = new Date()): Promise<HealthView> {
  const n = input.days ?? HEALTH_DEFAULT_DAYS;
  if (!Number.isInteger(n) || n < 1 || n > HEALTH_MAX_DAYS) throw invalidInput(`days must be a whole number from 1 to ${HEALTH_MAX_DAYS}`);
  const timeZone = config.timezone;
  const bounds = boundsOf(config);
  const today = placeInstant(now.toISOString(), timeZone, bounds)?.day ?? now.toISOString().slice(0, 10);
  let last = today;
  if (input.to !== undefined) {
    try {
      last = checkDay(input.to);
    } catch (err) {
      throw invalidInput(`to: ${(err as Error).message}`);
    }
  }
  const first = addDays(last, -(n - 1));

  const activity: HealthView['activity'] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) {
    const w = windowsOf(d, timeZone, bounds);
    const count = async (kind: 'turn' | 'memory') => {
      const seqs = await store.filterEntries(namespace, { kinds: [kind], since: w.day.start, until: w.night.end, includeSuperseded: true }, HEALTH_COUNT_CAP + 1);
      return seqs.length;
    };
    const [turns, memories] = [await count('turn'), await count('memory')];
    activity.push({ day: d, turns: Math.min(turns, HEALTH_COUNT_CAP), memories: Math.min(memories, HEALTH_COUNT_CAP), capped: turns > HEALTH_COUNT_CAP || memories > HEALTH_COUNT_CAP });
  }

  // Memories at or above each importance, so each level's count is a difference of two.
  const period = { since: windowsOf(first, timeZone, bounds).day.start, until: windowsOf(last, timeZone, bounds).night.end };
  const atLeast: number[] = [];
  for (let level = 1; level <= 11; level++) {
    atLeast.push(level === 11 ? 0 : (await store.filterEntries(namespace, { kinds: ['memory'], minImportance: level, ...period }, HEALTH_COUNT_CAP)).length);
  }
  const importance = Array.from({ length: 10 }, (_, i) => ({ importance: i + 1, memories: atLeast[i]! - atLeast[i + 1]! }));

  const reviews = (await store.listDigests(namespace, { kinds: ['review'], since: period.since, until: period.until }))
    .map((d) => ({ day: /(\d{4}-\d{2}-\d{2})\.md$/.exec(d.path)?.[1] ?? d.periodStart.slice(0, 10), path: d.path, ...reviewSummary(d.sections) }))
    .sort((a, b) => (a.day < b.day ? -1 : 1));

  const mine = status.capture.sources.filter((s) => s.namespace === namespace);
  const ids = new Set(mine.map((s) => s.id));
  const ns = status.namespaces.find((s) => s.namespace === namespace);
  const judgeNs = status.judge.namespaces.find((j) => j.namespace === namespace);
  const usage = status.judge.today.usage.find((u) => u.namespace === namespace);
  const breaker = breakerOf(status.capture.daemon.llm);
  const d = status.capture.daemon;
  return {
    namespace,
    timezone: timeZone,
    today,
    from: first,
    to: last,
    counts: { memories: ns?.memories ?? 0, currentMemories: ns?.currentMemories ?? 0, turns: ns?.turns ?? 0, documents: ns?.documents ?? 0 },
    sources: mine.map(sourceOf),
    daemon: { running: d.running, ...(d.pid !== undefined ? { pid: d.pid } : {}), ...(d.startedAt ? { startedAt: d.startedAt } : {}), ...(d.lastScanAt !== undefined ? { lastScanAt: d.lastScanAt } : {}), ...(d.queued !== undefined ? { queued: d.queued } : {}) },
    judge: {
      threshold: status.judge.threshold,
      mode: status.judge.llm && (breaker === null || (breaker.state === 'closed' && breaker.consecutiveFailures === 0)) ? 'llm' : 'heuristic',
      llm: status.judge.llm ? { provider: status.judge.llm.provider, model: status.judge.llm.model } : null,
      breaker,
      judged: judgeNs?.judged ?? 0,
      pending: judgeNs?.pending ?? 0,
      byJudge: judgeNs?.byJudge ?? {},
      today: { calls: usage?.calls ?? 0, failures: usage?.failures ?? 0, fallbacks: usage?.fallbacks ?? 0, costUsd: usage?.costUsd ?? 0, budgetUsd: status.judge.llm?.dailyBudgetUsd ?? null },
    },
    // Capture-lag alerts name a source: only this namespace's; the rest are about the home.
    alerts: status.alerts
      .filter((a) => (a.kind === 'capture-lag' ? ids.has(Number(a.id.split(':')[1])) : true))
      .map((a) => ({ kind: a.kind, message: a.message, since: a.since })),
    activity,
    importance,
    reviews,
  };
}
