// The daemon's consolidation timer on a fake clock (issue 24): one catch-up run after three days
// off, each firing of a day in order (and a 02:30 job on spring-forward day), firings that pass
// during a run coalesced into one more run, stop() during a run, a laptop that slept through
// firings, failing runs, capped waits. No real waiting: the clock and the timers are the test's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConsolidationTimer, MAX_WAIT_MS } from '../../src/daemon/consolidation-timer.js';
import type { ScheduleConfig, Trigger } from '../../src/consolidate/schedule.js';
import { scheduleConfigSchema } from '../../src/core/consolidation-config.js';

const BERLIN = 'Europe/Berlin';
const DEFAULTS: ScheduleConfig = scheduleConfigSchema().parse({});

/** Lets promise chains started by a fired timer run to their next real wait. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

class FakeClock {
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  private seq = 0;
  readonly waits: number[] = [];
  ms: number;

  constructor(iso: string) {
    this.ms = Date.parse(iso);
  }

  now = (): Date => new Date(this.ms);
  setTimer = (fn: () => void, ms: number): number => {
    this.waits.push(ms);
    this.timers.set(++this.seq, { at: this.ms + ms, fn });
    return this.seq;
  };
  clearTimer = (handle: unknown): void => {
    this.timers.delete(handle as number);
  };

  get pending(): number {
    return this.timers.size;
  }

  /** Moves the clock to `iso`, firing each timer that comes due at its time, in order. */
  async advanceTo(iso: string): Promise<void> {
    const target = Date.parse(iso);
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.ms = Math.max(this.ms, due[1].at);
      due[1].fn();
      await settle();
    }
    this.ms = Math.max(this.ms, target);
  }

  /** A suspended machine: the wall clock jumps to `iso`, then the pending timer fires, late. */
  async wakeAt(iso: string): Promise<void> {
    this.ms = Date.parse(iso);
    const [entry] = [...this.timers.entries()];
    assert.ok(entry, 'a timer is armed');
    this.timers.delete(entry[0]);
    entry[1].fn();
    await settle();
  }
}

interface Harness {
  clock: FakeClock;
  timer: ConsolidationTimer;
  runs: Array<[Trigger | 'catch-up', string]>;
  errors: unknown[];
}

function harness(opts: { now: string; lastRunAt: string | null | Error; schedule?: ScheduleConfig; run?: (trigger: Trigger | 'catch-up', at: string) => Promise<void> }): Harness {
  const clock = new FakeClock(opts.now);
  const runs: Harness['runs'] = [];
  const errors: unknown[] = [];
  const timer = new ConsolidationTimer({
    schedule: opts.schedule ?? DEFAULTS,
    timeZone: BERLIN,
    lastRunAt: async () => {
      if (opts.lastRunAt instanceof Error) throw opts.lastRunAt;
      return opts.lastRunAt;
    },
    run: async (trigger, at) => {
      runs.push([trigger, at]);
      await opts.run?.(trigger, at);
    },
    onError: (err) => errors.push(err),
    now: clock.now,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
  });
  return { clock, timer, runs, errors };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => { resolve = r; });
  return { promise, resolve };
}

describe('ConsolidationTimer', () => {
  it('after three days off runs one catch-up at start, then the schedule', async () => {
    // Last run Monday 22:10; the daemon starts on Thursday at 13:30.
    const h = harness({ now: '2026-11-26T12:30:00Z', lastRunAt: '2026-11-23T21:10:00.000Z' });
    await h.timer.start();
    assert.deepEqual(h.runs, [['catch-up', '2026-11-26T12:30:00.000Z']]);
    await h.clock.advanceTo('2026-11-26T15:30:00Z');
    assert.deepEqual(h.runs, [['catch-up', '2026-11-26T12:30:00.000Z'], ['micro-sync', '2026-11-26T15:00:00.000Z']]);
    await h.timer.stop();
    assert.deepEqual(h.errors, []);
  });

  it('a new home has nothing to catch up, and runs each firing of a day in order', async () => {
    const h = harness({ now: '2026-11-26T05:00:00Z', lastRunAt: null });
    await h.timer.start();
    assert.equal(h.runs.length, 0);
    await h.clock.advanceTo('2026-11-27T06:30:00Z');
    assert.deepEqual(h.runs, [
      ['late-sync', '2026-11-26T06:00:00.000Z'],
      ['micro-sync', '2026-11-26T09:00:00.000Z'],
      ['micro-sync', '2026-11-26T12:00:00.000Z'],
      ['micro-sync', '2026-11-26T15:00:00.000Z'],
      ['micro-sync', '2026-11-26T18:00:00.000Z'],
      ['micro-sync', '2026-11-26T21:00:00.000Z'],
      ['review', '2026-11-26T21:10:00.000Z'],
      ['late-sync', '2026-11-27T06:00:00.000Z'],
    ]);
    assert.ok(h.clock.waits.every((ms) => ms >= 0 && ms <= MAX_WAIT_MS), 'every wait is capped');
    await h.timer.stop();
  });

  it('runs a 02:30 job at 03:00 on spring-forward day, and the weekly on Sunday night', async () => {
    const schedule = { ...DEFAULTS, review: '30 2 * * *' };
    const h = harness({ now: '2026-03-28T21:30:00Z', lastRunAt: '2026-03-28T21:00:00.000Z', schedule });
    await h.timer.start();
    assert.equal(h.runs.length, 0);
    await h.clock.advanceTo('2026-03-29T23:00:00Z');
    assert.deepEqual(h.runs.filter(([t]) => t === 'review' || t === 'weekly'), [
      ['review', '2026-03-29T01:00:00.000Z'],
      ['weekly', '2026-03-29T21:55:00.000Z'],
    ]);
    await h.timer.stop();
  });

  it('runs triggers set to the same minute one after the other', async () => {
    const h = harness({ now: '2026-11-26T20:30:00Z', lastRunAt: null, schedule: { ...DEFAULTS, review: '0 22 * * *' } });
    await h.timer.start();
    await h.clock.advanceTo('2026-11-26T21:30:00Z');
    assert.deepEqual(h.runs, [['micro-sync', '2026-11-26T21:00:00.000Z'], ['review', '2026-11-26T21:00:00.000Z']]);
    await h.timer.stop();
  });

  it('never overlaps runs: firings during a long run become one more run after it', async () => {
    const gate = deferred();
    let running = 0;
    let most = 0;
    const h = harness({
      now: '2026-11-26T08:30:00Z',
      lastRunAt: null,
      run: async (trigger) => {
        running++;
        most = Math.max(most, running);
        if (trigger === 'micro-sync') await gate.promise;
        running--;
      },
    });
    await h.timer.start();
    await h.clock.advanceTo('2026-11-26T09:00:00Z'); // the 10:00 micro-sync starts and hangs
    assert.deepEqual(h.runs, [['micro-sync', '2026-11-26T09:00:00.000Z']]);
    assert.equal(h.clock.pending, 0, 'no timer while a run is in progress');
    await h.clock.advanceTo('2026-11-26T15:30:00Z'); // 13:00 and 16:00 pass meanwhile
    assert.equal(h.runs.length, 1);
    gate.resolve();
    await settle();
    await h.clock.advanceTo('2026-11-26T15:30:00Z');
    // One more micro-sync, as of 16:00: it covers the 13:00 one.
    assert.deepEqual(h.runs, [['micro-sync', '2026-11-26T09:00:00.000Z'], ['micro-sync', '2026-11-26T15:00:00.000Z']]);
    assert.equal(most, 1);
    await h.timer.stop();
  });

  it('different jobs passing during a run become one catch-up after it', async () => {
    const gate = deferred();
    const h = harness({ now: '2026-11-26T17:30:00Z', lastRunAt: null, run: async (trigger, at) => { if (at === '2026-11-26T18:00:00.000Z') await gate.promise; } });
    await h.timer.start();
    await h.clock.advanceTo('2026-11-26T18:00:00Z'); // the 19:00 micro-sync hangs
    await h.clock.advanceTo('2026-11-26T21:30:00Z'); // 22:00 micro-sync and 22:10 review pass
    gate.resolve();
    await settle();
    await h.clock.advanceTo('2026-11-26T21:30:00Z');
    assert.deepEqual(h.runs, [['micro-sync', '2026-11-26T18:00:00.000Z'], ['catch-up', '2026-11-26T21:30:00.000Z']]);
    await h.clock.advanceTo('2026-11-27T06:00:00Z');
    assert.deepEqual(h.runs.at(-1), ['late-sync', '2026-11-27T06:00:00.000Z']);
    assert.equal(h.runs.length, 3);
    await h.timer.stop();
  });

  it('a single firing missed during a run is run by its own trigger', async () => {
    const gate = deferred();
    const h = harness({ now: '2026-11-26T20:30:00Z', lastRunAt: null, run: async (trigger) => { if (trigger === 'micro-sync') await gate.promise; } });
    await h.timer.start();
    await h.clock.advanceTo('2026-11-26T21:05:00Z');
    await h.clock.advanceTo('2026-11-26T21:20:00Z'); // the 22:10 review passes during the 22:00 run
    gate.resolve();
    await settle();
    await h.clock.advanceTo('2026-11-26T21:20:00Z');
    assert.deepEqual(h.runs, [['micro-sync', '2026-11-26T21:00:00.000Z'], ['review', '2026-11-26T21:10:00.000Z']]);
    await h.timer.stop();
  });

  it('stop() waits for the run in progress, then nothing more runs', async () => {
    const gate = deferred();
    const h = harness({ now: '2026-11-26T12:30:00Z', lastRunAt: '2026-11-25T12:00:00.000Z', run: () => gate.promise });
    const started = h.timer.start();
    await settle();
    assert.deepEqual(h.runs, [['catch-up', '2026-11-26T12:30:00.000Z']]);
    let stopped = false;
    const stopping = h.timer.stop().then(() => { stopped = true; });
    await settle();
    assert.equal(stopped, false, 'stop waits for the catch-up');
    gate.resolve();
    await stopping;
    await started;
    assert.equal(h.clock.pending, 0);
    await h.clock.advanceTo('2026-11-27T12:00:00Z');
    assert.equal(h.runs.length, 1);
    assert.equal(h.timer.nextFiring, null);
  });

  it('a laptop that slept through firings runs them on wake: one job as itself, several as one catch-up', async () => {
    const h = harness({ now: '2026-11-26T08:00:00Z', lastRunAt: null });
    await h.timer.start();
    assert.deepEqual(h.timer.nextFiring, { trigger: 'micro-sync', at: '2026-11-26T09:00:00.000Z' });
    await h.clock.wakeAt('2026-11-26T09:40:00Z');
    assert.deepEqual(h.runs, [['micro-sync', '2026-11-26T09:00:00.000Z']]);
    await h.clock.wakeAt('2026-11-26T18:30:00Z'); // 13:00, 16:00 and 19:00 slept through: the latest covers them
    assert.deepEqual(h.runs.at(-1), ['micro-sync', '2026-11-26T18:00:00.000Z']);
    await h.clock.wakeAt('2026-11-27T08:00:00Z'); // 22:00, the review and the late sync slept through
    assert.deepEqual(h.runs.at(-1), ['catch-up', '2026-11-27T08:00:00.000Z']);
    assert.equal(h.runs.length, 3);
    await h.timer.stop();
  });

  it('a failing run is reported and the schedule goes on', async () => {
    const h = harness({ now: '2026-11-26T08:30:00Z', lastRunAt: null, run: async (trigger) => { if (trigger === 'micro-sync') throw new Error('disk full'); } });
    await h.timer.start();
    await h.clock.advanceTo('2026-11-26T12:30:00Z');
    assert.equal(h.runs.length, 2);
    assert.deepEqual(h.errors.map((e) => (e as Error).message), ['disk full', 'disk full']);
    await h.timer.stop();
  });

  it('an unreadable state skips the catch-up but keeps the schedule', async () => {
    const h = harness({ now: '2026-11-26T08:30:00Z', lastRunAt: new Error('store locked') });
    await h.timer.start();
    assert.equal(h.runs.length, 0);
    assert.equal((h.errors[0] as Error).message, 'store locked');
    await h.clock.advanceTo('2026-11-26T09:00:00Z');
    assert.deepEqual(h.runs, [['micro-sync', '2026-11-26T09:00:00.000Z']]);
    await h.timer.stop();
  });

  it('caps every wait, even for a job a year away', async () => {
    const yearly = { microSync: '0 0 1 1 *', lateSync: '0 0 1 1 *', review: '0 0 1 1 *', weekly: '0 0 1 1 *' };
    const h = harness({ now: '2026-01-01T12:00:00Z', lastRunAt: null, schedule: yearly });
    await h.timer.start();
    await h.clock.advanceTo('2026-01-01T13:00:00Z');
    assert.ok(h.clock.waits.length >= 60, 'woke every minute to re-check the wall clock');
    assert.ok(h.clock.waits.every((ms) => ms === MAX_WAIT_MS));
    assert.equal(h.runs.length, 0);
    await h.timer.stop();
    assert.throws(() => h.timer.start(), /already started/);
  });
});
