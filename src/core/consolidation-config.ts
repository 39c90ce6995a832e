// The consolidation part's settings (<home>/config.json, key "consolidation"): when the day and
// the night begin, when the jobs run (cron expressions in the home's time zone), how the prose is
// written and how many backups are kept. The time zone is the home's `timezone`.
import { Cron } from 'croner';
import { z } from 'zod';
import { lazily } from './lazily.js';

export const clockTime = lazily(() => z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a 24-hour time "HH:MM"'));

/** A cron expression croner accepts (5 fields, or 6 with seconds). */
export const cronExpression = lazily(() => z.string().min(1).refine((expr) => {
  try {
    new Cron(expr, { paused: true });
    return true;
  } catch {
    return false;
  }
}, 'must be a cron expression such as "0 10,13,16,19,22 * * *"'));

export const scheduleConfigSchema = lazily(() => z.strictObject({
  /** The day file grows during the day. */
  microSync: cronExpression().default('0 10,13,16,19,22 * * *'),
  /** Last night's file, once the night window is over. */
  lateSync: cronExpression().default('0 7 * * *'),
  /** The daily review, then the sleep protocol (backup → consolidate → content → prep). */
  review: cronExpression().default('10 22 * * *'),
  /** The weekly distill and topics (croner: 0 = Sunday). */
  weekly: cronExpression().default('55 23 * * 0'),
}));

export const backupConfigSchema = lazily(() => z.strictObject({
  /** Nightly backups kept (the newest of each day). */
  keepDaily: z.number().int().min(0).max(365).default(7),
  /** Weekly backups kept (the newest of each ISO week, beyond the daily ones). */
  keepWeekly: z.number().int().min(0).max(520).default(4),
}));

export const consolidationConfigSchema = lazily(() => z.strictObject({
  /** The daemon runs the jobs on schedule (and catches up at start); `cairn consolidate` always works. */
  enabled: z.boolean().default(true),
  /**
   * Start of the day window; the night window runs from nightStart to the next morning's dayStart
   * and belongs to the day it started. dayStart must come before nightStart on the clock.
   */
  dayStart: clockTime().default('07:00'),
  nightStart: clockTime().default('22:00'),
  schedule: scheduleConfigSchema().default(scheduleConfigSchema().parse({})),
  /**
   * Let the judge's chat model (judge.llm) write the prose, within the judge's budget and breaker;
   * the extractive text is the fallback.
   */
  llmProse: z.boolean().default(true),
  /** Most lines of MEMORY.md (the bar: 150). */
  memoryMdMaxLines: z.number().int().min(30).max(150).default(150),
  backups: backupConfigSchema().default(backupConfigSchema().parse({})),
  // Requiring dayStart < nightStart keeps both edges on one calendar date, so every date has
  // exactly one day window and one night window (the night runs past midnight into the next date).
}).refine((c) => c.dayStart < c.nightStart, { message: 'nightStart must come after dayStart on the clock (e.g. dayStart "07:00", nightStart "22:00")', path: ['nightStart'] }));

export type ConsolidationConfig = z.infer<ReturnType<typeof consolidationConfigSchema>>;
