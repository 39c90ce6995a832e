// The daemon's clock for consolidation: at start, one catch-up run when firings were missed while
// it was off; then a run at each firing of the schedule. Runs never overlap — firings that pass
// during a run are taken up by one more run after it. Each wait is capped and the wall clock is
// read again on waking, because a JS timer longer than 2^31−1 ms fires at once and a suspended
// laptop's timers run late: a firing slept through runs on wake.
import { missedRuns, nextRuns, type Firing, type ScheduleConfig, type Trigger } from '../consolidate/schedule.js';

/** Longest single wait: a wake-up a minute costs one schedule look-up, and bounds the lateness after a suspend. */
export const MAX_WAIT_MS = 60_000;

export type TimerHandle = unknown;

export interface ConsolidationTimerOptions {
  schedule: ScheduleConfig;
  timeZone: string;
  /** When the jobs last ran (the stored consolidation state); null for a home that never ran them. */
  lastRunAt: () => Promise<string | null>;
  /**
   * Runs the jobs. 'catch-up' means every job due up to `at`, oldest first; a trigger means that
   * firing's job(s). Rejections go to onError; the schedule goes on.
   */
  run: (trigger: Trigger | 'catch-up', at: string) => Promise<void>;
  /** A failed run or state read; the timer keeps going. */
  onError: (err: unknown) => void;
  /** The wall clock, and the timer functions (setTimeout/clearTimeout): injectable for fake-clock tests. */
  now?: () => Date;
  setTimer?: (fn: () => void, ms: number) => TimerHandle;
  clearTimer?: (handle: TimerHandle) => void;
  /** A shorter cap on each wait than MAX_WAIT_MS (a longer one is not taken). */
  maxWaitMs?: number;
}

export class ConsolidationTimer {
  private readonly now: () => Date;
  private readonly setTimer: (fn: () => void, ms: number) => TimerHandle;
  private readonly clearTimer: (handle: TimerHandle) => void;
  private readonly maxWaitMs: number;
  private timer: TimerHandle | null = null;
  /** The first firing after handledUpTo, kept so the minutely wake-ups cost nothing until it is due. */
  private upcoming: Firing | null = null;
  /** Firings up to this instant have been run (or judged not to be run). */
  private handledUpTo: Date | null = null;
  private active: Promise<void> | null = null;
  private started = false;
  private stopped = false;

  constructor(private readonly options: ConsolidationTimerOptions) {
    this.now = options.now ?? (() => new Date());
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as NodeJS.Timeout));
    this.maxWaitMs = Math.max(1, Math.min(options.maxWaitMs ?? MAX_WAIT_MS, MAX_WAIT_MS));
  }

  /**
   * Runs the catch-up if firings were missed since lastRunAt, then arms the timer. Resolves when
   * that first step is done (the daemon need not await it); never rejects.
   */
  start(): Promise<void> {
    if (this.started) throw new Error('ConsolidationTimer already started');
    this.started = true;
    return this.track(this.catchUp());
  }

  /** No more runs; resolves once a run in progress has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.disarm();
    while (this.active) await this.active;
  }

  /** The instant the timer waits for next, for status output; null when stopped or not armed. */
  get nextFiring(): Firing | null {
    if (this.stopped || !this.handledUpTo) return null;
    try {
      return nextRuns(this.options.schedule, this.options.timeZone, this.handledUpTo)[0] ?? null;
    } catch {
      return null;
    }
  }

  private async catchUp(): Promise<void> {
    const startedAt = this.now();
    this.handledUpTo = startedAt;
    let missed: Firing[] = [];
    try {
      const lastRunAt = await this.options.lastRunAt();
      missed = missedRuns(this.options.schedule, this.options.timeZone, lastRunAt, startedAt);
    } catch (err) {
      this.options.onError(err);
    }
    if (missed.length > 0 && !this.stopped) await this.runSafely('catch-up', startedAt.toISOString());
    this.arm();
  }

  private track(work: Promise<void>): Promise<void> {
    const tracked = work.finally(() => {
      if (this.active === tracked) this.active = null;
    });
    this.active = tracked;
    return tracked;
  }

  private async runSafely(trigger: Trigger | 'catch-up', at: string): Promise<void> {
    try {
      await this.options.run(trigger, at);
    } catch (err) {
      this.options.onError(err);
    }
  }

  private disarm(): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
  }

  private arm(): void {
    this.disarm();
    if (this.stopped || !this.handledUpTo) return;
    let wait = this.maxWaitMs;
    try {
      if (!this.upcoming) this.upcoming = nextRuns(this.options.schedule, this.options.timeZone, this.handledUpTo)[0] ?? null;
      if (this.upcoming) wait = Math.min(wait, Math.max(0, Date.parse(this.upcoming.at) - this.now().getTime()));
    } catch (err) {
      this.options.onError(err);
    }
    this.timer = this.setTimer(() => {
      this.timer = null;
      void this.track(this.wake());
    }, wait);
  }

  private async wake(): Promise<void> {
    if (this.stopped || !this.handledUpTo) return;
    const now = this.now();
    const from = this.handledUpTo;
    if (this.upcoming && now.getTime() < Date.parse(this.upcoming.at)) {
      // Nothing due yet (a capped wait): the upcoming firing stays the first after `now`.
      if (now > from) this.handledUpTo = now;
      this.arm();
      return;
    }
    this.upcoming = null;
    let due: Firing[] = [];
    try {
      due = firingsBetween(this.options.schedule, this.options.timeZone, from, now);
    } catch (err) {
      this.options.onError(err);
    }
    // A clock set back leaves handledUpTo ahead of now: keep it, so no firing runs twice.
    if (now > from) this.handledUpTo = now;
    if (due.length > 0) {
      if (due.every((f) => f.at === due[0]!.at)) {
        // One firing (or triggers configured at the same minute): run each, in TRIGGERS order.
        // Repeats of one trigger on one day count once, as their latest: a micro-sync at 16:00
        // covers the 13:00 one slept through.
        for (const firing of due) {
          if (this.stopped) break;
          await this.runSafely(firing.trigger, firing.at);
        }
      } else {
        // Different jobs came due at different times (a suspend, or a run longer than the gap
        // between firings): the catch-up does all that is due, oldest first, in one run.
        await this.runSafely('catch-up', now.toISOString());
      }
    }
    this.arm();
  }
}

/** The firings in (from, to], oldest first, each trigger's repeats on one local day as their latest (as missedRuns). */
function firingsBetween(schedule: ScheduleConfig, timeZone: string, from: Date, to: Date): Firing[] {
  if (to <= from) return [];
  const first = nextRuns(schedule, timeZone, from);
  if (first.length === 0 || Date.parse(first[0]!.at) > to.getTime()) return [];
  // Fast path: nothing else due after the first instant.
  const after = nextRuns(schedule, timeZone, new Date(first[0]!.at));
  if (after.length === 0 || Date.parse(after[0]!.at) > to.getTime()) return first;
  return missedRuns(schedule, timeZone, from.toISOString(), to);
}
