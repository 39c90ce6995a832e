// Which days a consolidation run looks at: those whose records changed since the last run (the
// store's entry sequence is the watermark), those a request names, and those whose later jobs were
// not due yet when they last ran (a day file written at 10:00 still owes its night and review).
// Jobs are due once their window has begun; their content depends only on their material, so a
// job run early, late or twice writes the same file for the same material.
import type { Store } from '../store/store.js';
import { placeInstant, windowsOf, type DayBounds } from './windows.js';

/** The namespace's consolidation bookkeeping, kept in the store. */
export interface ConsolidationState {
  version: 1;
  /** Highest index entry seq whose day has been consolidated. */
  entrySeq: number;
  /** Days with a job that was not due yet (night, review). */
  pendingDays: string[];
  /** The settings days were cut with (time zone, bounds): a change redoes every day. */
  cut: string;
  lastRunAt: string | null;
}

export function parseState(raw: Record<string, unknown> | null): ConsolidationState | null {
  if (!raw || raw.version !== 1 || typeof raw.entrySeq !== 'number' || !Array.isArray(raw.pendingDays) || typeof raw.cut !== 'string') return null;
  return {
    version: 1,
    entrySeq: raw.entrySeq,
    pendingDays: raw.pendingDays.filter((d): d is string => typeof d === 'string'),
    cut: raw.cut,
    lastRunAt: typeof raw.lastRunAt === 'string' ? raw.lastRunAt : null,
  };
}

export function cutOf(timeZone: string, bounds: DayBounds): string {
  return `${timeZone}|${bounds.dayStart}|${bounds.nightStart}`;
}

const PAGE = 5000;

/** Days (local, per the bounds) of the entries after `afterSeq`, and the highest seq seen. */
export async function changedDays(store: Store, namespace: string, afterSeq: number, timeZone: string, bounds: DayBounds): Promise<{ days: Set<string>; lastSeq: number }> {
  const days = new Set<string>();
  let seq = afterSeq;
  for (;;) {
    const page = await store.entryChangesAfter(namespace, seq, PAGE);
    if (page.length === 0) break;
    for (const change of page) {
      const placed = placeInstant(change.time, timeZone, bounds);
      if (placed) days.add(placed.day);
    }
    seq = page[page.length - 1]!.seq;
    if (page.length < PAGE) break;
  }
  return { days, lastSeq: seq };
}

export interface DayJobs {
  day: string;
  daily: boolean;
  night: boolean;
  review: boolean;
  /** Some job of the day is not due yet: look at it again next run. */
  pending: boolean;
}

/** Which of a day's jobs are due at `now`: each once its window has begun; the review once the day window is over. */
export function dueJobs(day: string, now: Date, timeZone: string, bounds: DayBounds): DayJobs {
  const w = windowsOf(day, timeZone, bounds);
  const t = now.toISOString();
  const daily = t >= w.day.start;
  const night = t >= w.night.start;
  return { day, daily, night, review: night, pending: !night };
}
