// When the consolidation jobs run: the four cron expressions of `consolidation.schedule`, read in
// the home's time zone by croner (a firing in a spring-forward gap runs at the first instant after
// it, a fall-back time once). Pure functions of the schedule, the zone and explicit instants, so a
// fake clock tests them.
import { Cron } from 'croner';
import type { ConsolidationConfig } from '../core/consolidation-config.js';
import { invalidInput } from '../core/errors.js';
import { addDays, localDayOf, localToUtc } from './windows.js';

export type Trigger = 'micro-sync' | 'late-sync' | 'review' | 'weekly';

export type ScheduleConfig = ConsolidationConfig['schedule'];

export interface Firing {
  trigger: Trigger;
  /** UTC ISO instant of the firing. */
  at: string;
}

/** Every trigger with its config key, in the order tied firings run. */
export const TRIGGERS: ReadonlyArray<{ trigger: Trigger; key: keyof ScheduleConfig }> = [
  { trigger: 'late-sync', key: 'lateSync' },
  { trigger: 'micro-sync', key: 'microSync' },
  { trigger: 'review', key: 'review' },
  { trigger: 'weekly', key: 'weekly' },
];

/**
 * How far back missed firings are listed. The catch-up run consolidates everything due whatever
 * this list holds; the list only says that something was missed, and must stay short after
 * months off (at most one entry per trigger per day: ≤ 4 × 93).
 */
export const MISSED_LOOKBACK_DAYS = 92;

function crons(schedule: ScheduleConfig, timeZone: string): Array<{ trigger: Trigger; cron: Cron }> {
  return TRIGGERS.map(({ trigger, key }) => {
    try {
      return { trigger, cron: new Cron(schedule[key], { timezone: timeZone, paused: true }) };
    } catch (err) {
      throw invalidInput(`consolidation.schedule.${key}: ${JSON.stringify(schedule[key])} is not a usable cron expression in ${timeZone}: ${(err as Error).message}`);
    }
  });
}

function byTimeThenTrigger(a: Firing, b: Firing): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  return TRIGGERS.findIndex((t) => t.trigger === a.trigger) - TRIGGERS.findIndex((t) => t.trigger === b.trigger);
}

/**
 * Firings in (lastRunAt, now], oldest first (ties in TRIGGERS order). Only the latest firing of
 * each trigger per local calendar day is listed — an earlier micro-sync of a day is covered by its
 * later one — and only within the last MISSED_LOOKBACK_DAYS days. A home that never ran
 * (lastRunAt null) has missed nothing.
 */
export function missedRuns(schedule: ScheduleConfig, timeZone: string, lastRunAt: string | null, now: Date): Firing[] {
  if (lastRunAt === null) return [];
  const lastMs = Date.parse(lastRunAt);
  if (Number.isNaN(lastMs)) throw invalidInput(`not a time: ${JSON.stringify(lastRunAt)} (lastRunAt must be an ISO 8601 instant)`);
  const nowMs = now.getTime();
  if (Number.isNaN(nowMs)) throw invalidInput('now is not a valid date');
  if (lastMs >= nowMs) return [];

  const jobs = crons(schedule, timeZone);
  const today = localDayOf(now.toISOString(), timeZone);
  const lookbackStart = addDays(today, -MISSED_LOOKBACK_DAYS);
  const lastDay = localDayOf(new Date(lastMs).toISOString(), timeZone);
  let day = lastDay > lookbackStart ? lastDay : lookbackStart;
  const out: Firing[] = [];
  let dayStartMs = Date.parse(localToUtc(day, '00:00', timeZone));
  while (day <= today) {
    const next = addDays(day, 1);
    const nextStartMs = Date.parse(localToUtc(next, '00:00', timeZone));
    // croner's previousRuns is strict (< reference), so reach one millisecond past `now`.
    const reference = new Date(Math.min(nextStartMs, nowMs + 1));
    for (const { trigger, cron } of jobs) {
      const latest = cron.previousRuns(1, reference)[0];
      if (!latest) continue;
      const at = latest.getTime();
      if (at >= dayStartMs && at > lastMs && at <= nowMs) out.push({ trigger, at: latest.toISOString() });
    }
    day = next;
    dayStartMs = nextStartMs;
  }
  return out.sort(byTimeThenTrigger);
}

/** The first firing strictly after `after` (ties in TRIGGERS order); null when no expression fires again. */
export function nextRun(schedule: ScheduleConfig, timeZone: string, after: Date): Firing | null {
  return nextRuns(schedule, timeZone, after)[0] ?? null;
}

/** Every trigger that fires at the first firing instant strictly after `after` (usually one). */
export function nextRuns(schedule: ScheduleConfig, timeZone: string, after: Date): Firing[] {
  let best: Firing[] = [];
  for (const { trigger, cron } of crons(schedule, timeZone)) {
    const next = cron.nextRun(after);
    if (!next) continue;
    const at = next.toISOString();
    if (best.length === 0 || at < best[0]!.at) best = [{ trigger, at }];
    else if (at === best[0]!.at) best.push({ trigger, at });
  }
  return best;
}
