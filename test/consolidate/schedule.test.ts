// The consolidation schedule (issue 24): the next firing and the firings missed while the daemon
// was off, read in the home's time zone by croner — defaults, a 02:30 job on both DST switch days,
// a half-hour zone, ties, three days off, months off (a bounded list), malformed input.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MISSED_LOOKBACK_DAYS, missedRuns, nextRun, nextRuns, type ScheduleConfig } from '../../src/consolidate/schedule.js';
import { scheduleConfigSchema } from '../../src/core/consolidation-config.js';

const BERLIN = 'Europe/Berlin';
const DEFAULTS: ScheduleConfig = scheduleConfigSchema().parse({});
const with230 = (over: Partial<ScheduleConfig> = {}): ScheduleConfig => ({ ...DEFAULTS, review: '30 2 * * *', ...over });
const next = (after: string, schedule = DEFAULTS, zone = BERLIN) => nextRun(schedule, zone, new Date(after));

describe('nextRun', () => {
  it('walks through a default day in Berlin (winter, UTC+1)', () => {
    assert.deepEqual(next('2026-11-26T05:30:00Z'), { trigger: 'late-sync', at: '2026-11-26T06:00:00.000Z' }); // 07:00
    assert.deepEqual(next('2026-11-26T06:00:00Z'), { trigger: 'micro-sync', at: '2026-11-26T09:00:00.000Z' }); // strictly after
    assert.deepEqual(next('2026-11-26T20:59:59Z'), { trigger: 'micro-sync', at: '2026-11-26T21:00:00.000Z' }); // 22:00
    assert.deepEqual(next('2026-11-26T21:00:00Z'), { trigger: 'review', at: '2026-11-26T21:10:00.000Z' }); // 22:10
    assert.deepEqual(next('2026-11-26T21:10:00Z'), { trigger: 'late-sync', at: '2026-11-27T06:00:00.000Z' });
    assert.deepEqual(next('2026-11-29T21:10:00Z'), { trigger: 'weekly', at: '2026-11-29T22:55:00.000Z' }); // Sunday 23:55
  });

  it('fires a 02:30 job at 03:00 on spring-forward day and once on fall-back day', () => {
    assert.deepEqual(next('2026-03-28T21:00:00Z', with230()), { trigger: 'review', at: '2026-03-29T01:00:00.000Z' });
    assert.deepEqual(next('2026-03-08T03:00:00Z', with230(), 'America/New_York'), { trigger: 'review', at: '2026-03-08T07:00:00.000Z' });
    assert.deepEqual(next('2026-10-24T20:00:00Z', with230()), { trigger: 'review', at: '2026-10-25T00:30:00.000Z' }); // 02:30 CEST
    assert.deepEqual(next('2026-10-25T00:30:00Z', with230()), { trigger: 'late-sync', at: '2026-10-25T06:00:00.000Z' }); // not again at 02:30 CET
  });

  it('reads the crons in the home zone: half-hour and far-east offsets', () => {
    assert.deepEqual(next('2026-01-15T00:00:00Z', DEFAULTS, 'Asia/Kolkata'), { trigger: 'late-sync', at: '2026-01-15T01:30:00.000Z' });
    assert.deepEqual(next('2026-01-15T01:30:00Z', DEFAULTS, 'Asia/Kolkata'), { trigger: 'micro-sync', at: '2026-01-15T04:30:00.000Z' });
    // Sunday 23:55 in Auckland (NZDT, +13) is Sunday 10:55 UTC.
    assert.deepEqual(next('2026-01-04T10:30:00Z', DEFAULTS, 'Pacific/Auckland'), { trigger: 'weekly', at: '2026-01-04T10:55:00.000Z' });
  });

  it('names every trigger of a tie, in a fixed order', () => {
    const tied = { ...DEFAULTS, review: '0 22 * * *' };
    assert.deepEqual(nextRuns(tied, BERLIN, new Date('2026-11-26T20:00:00Z')), [
      { trigger: 'micro-sync', at: '2026-11-26T21:00:00.000Z' },
      { trigger: 'review', at: '2026-11-26T21:00:00.000Z' },
    ]);
    assert.equal(next('2026-11-26T20:00:00Z', tied)?.trigger, 'micro-sync');
  });

  it('rejects an unusable cron expression by its config key', () => {
    assert.throws(() => next('2026-11-26T00:00:00Z', { ...DEFAULTS, weekly: 'every sunday' }), /consolidation\.schedule\.weekly: "every sunday"/);
  });
});

describe('missedRuns', () => {
  it('a home that never ran has missed nothing', () => {
    assert.deepEqual(missedRuns(DEFAULTS, BERLIN, null, new Date('2026-11-26T12:00:00Z')), []);
  });

  it('lists three days off oldest first, the latest firing of each trigger per day', () => {
    // Last run: Monday's review (22:10); back on Thursday at 13:30.
    const missed = missedRuns(DEFAULTS, BERLIN, '2026-11-23T21:10:00.000Z', new Date('2026-11-26T12:30:00Z'));
    assert.deepEqual(missed, [
      { trigger: 'late-sync', at: '2026-11-24T06:00:00.000Z' },
      { trigger: 'micro-sync', at: '2026-11-24T21:00:00.000Z' },
      { trigger: 'review', at: '2026-11-24T21:10:00.000Z' },
      { trigger: 'late-sync', at: '2026-11-25T06:00:00.000Z' },
      { trigger: 'micro-sync', at: '2026-11-25T21:00:00.000Z' },
      { trigger: 'review', at: '2026-11-25T21:10:00.000Z' },
      { trigger: 'late-sync', at: '2026-11-26T06:00:00.000Z' },
      { trigger: 'micro-sync', at: '2026-11-26T12:00:00.000Z' },
    ]);
  });

  it('counts (lastRunAt, now]: a firing at lastRunAt is done, one at now is missed', () => {
    assert.deepEqual(missedRuns(DEFAULTS, BERLIN, '2026-11-26T06:00:00.000Z', new Date('2026-11-26T09:00:00.000Z')), [
      { trigger: 'micro-sync', at: '2026-11-26T09:00:00.000Z' },
    ]);
    assert.deepEqual(missedRuns(DEFAULTS, BERLIN, '2026-11-26T09:00:00.000Z', new Date('2026-11-26T11:59:59.999Z')), []);
    assert.deepEqual(missedRuns(DEFAULTS, BERLIN, '2026-11-26T12:00:00.000Z', new Date('2026-11-26T09:00:00.000Z')), []); // clock set back
  });

  it('includes the weekly job of a Sunday missed, and a 02:30 job on spring-forward day', () => {
    const missed = missedRuns(with230(), BERLIN, '2026-03-28T21:10:00.000Z', new Date('2026-03-30T05:00:00Z'));
    assert.deepEqual(missed.filter((f) => f.trigger === 'weekly' || f.trigger === 'review'), [
      { trigger: 'review', at: '2026-03-29T01:00:00.000Z' },
      { trigger: 'weekly', at: '2026-03-29T21:55:00.000Z' }, // Sunday 23:55 CEST
      { trigger: 'review', at: '2026-03-30T00:30:00.000Z' },
    ]);
  });

  it('stays short after months off, even with a job every minute', () => {
    const now = new Date('2026-11-26T12:30:00Z');
    const everyMinute = { ...DEFAULTS, microSync: '* * * * *' };
    const missed = missedRuns(everyMinute, BERLIN, '2025-06-01T00:00:00.000Z', now);
    assert.ok(missed.length <= 4 * (MISSED_LOOKBACK_DAYS + 1), `${missed.length} entries`);
    assert.ok(missed.length > 200);
    const times = missed.map((f) => f.at);
    assert.deepEqual([...times].sort(), times);
    assert.equal(missed.filter((f) => f.trigger === 'micro-sync').length, MISSED_LOOKBACK_DAYS + 1);
    assert.deepEqual(missed.at(-1), { trigger: 'micro-sync', at: '2026-11-26T12:30:00.000Z' }); // the minute of now
    assert.ok(missed[0]!.at >= '2026-08-25');
  });

  it('rejects a lastRunAt that is not a time', () => {
    assert.throws(() => missedRuns(DEFAULTS, BERLIN, 'last tuesday', new Date()), /lastRunAt must be an ISO 8601 instant/);
  });
});
