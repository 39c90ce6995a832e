// Day and night windows in a home's time zone (issue 24): boundaries at 22:00 and 07:00, midnight,
// DST in both directions (Europe/Berlin, America/New_York, Pacific/Auckland), a half-hour offset
// (Asia/Kolkata), a skipped calendar day (Pacific/Apia), ISO week 53 and New Year, custom bounds,
// and malformed input rejected with a message that says what was expected.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  addDays, checkBounds, daysOfIsoWeek, isoWeekOf, localDayOf, localToUtc, parseIsoWeek, placeInstant, weekWindow, windowsOf,
} from '../../src/consolidate/windows.js';
import { consolidationConfigSchema } from '../../src/core/consolidation-config.js';

const BERLIN = 'Europe/Berlin';
const NEW_YORK = 'America/New_York';
const HOUR = 3_600_000;
const lengthHours = (span: { start: string; end: string }) => (Date.parse(span.end) - Date.parse(span.start)) / HOUR;

describe('localToUtc', () => {
  it('reads a local clock time in the zone', () => {
    assert.equal(localToUtc('2026-11-26', '07:00', BERLIN), '2026-11-26T06:00:00.000Z');
    assert.equal(localToUtc('2026-07-01', '07:00', BERLIN), '2026-07-01T05:00:00.000Z');
    assert.equal(localToUtc('2026-01-15', '07:00', 'Asia/Kolkata'), '2026-01-15T01:30:00.000Z');
    assert.equal(localToUtc('2026-01-01', '07:00', 'Pacific/Auckland'), '2025-12-31T18:00:00.000Z');
    assert.equal(localToUtc('2026-01-01', '00:00', 'UTC'), '2026-01-01T00:00:00.000Z');
  });

  it('maps a time in the spring-forward gap to the first instant after it', () => {
    assert.equal(localToUtc('2026-03-29', '02:30', BERLIN), '2026-03-29T01:00:00.000Z'); // 03:00 CEST
    assert.equal(localToUtc('2026-03-29', '02:00', BERLIN), '2026-03-29T01:00:00.000Z');
    assert.equal(localToUtc('2026-03-29', '03:00', BERLIN), '2026-03-29T01:00:00.000Z');
    assert.equal(localToUtc('2026-03-08', '02:30', NEW_YORK), '2026-03-08T07:00:00.000Z'); // 03:00 EDT
    assert.equal(localToUtc('2026-09-27', '02:15', 'Pacific/Auckland'), '2026-09-26T14:00:00.000Z'); // 03:00 NZDT
  });

  it('maps a repeated fall-back time to its first occurrence', () => {
    assert.equal(localToUtc('2026-10-25', '02:30', BERLIN), '2026-10-25T00:30:00.000Z'); // CEST, not CET
    assert.equal(localToUtc('2026-11-01', '01:30', NEW_YORK), '2026-11-01T05:30:00.000Z'); // EDT, not EST
  });

  it('handles a calendar day the zone skipped (Samoa, 2011-12-30)', () => {
    assert.equal(localToUtc('2011-12-30', '07:00', 'Pacific/Apia'), '2011-12-30T10:00:00.000Z'); // 2011-12-31 00:00 local
    assert.equal(localToUtc('2011-12-29', '23:00', 'Pacific/Apia'), '2011-12-30T09:00:00.000Z');
  });

  it('rejects malformed days, times and zones with clear errors', () => {
    assert.throws(() => localToUtc('2026-02-30', '07:00', BERLIN), /no such date/);
    assert.throws(() => localToUtc('2026-2-3', '07:00', BERLIN), /expected YYYY-MM-DD/);
    assert.throws(() => localToUtc('', '07:00', BERLIN), /not a day: ""/);
    assert.throws(() => localToUtc('0999-01-01', '07:00', BERLIN), /years 1000–9999/);
    assert.throws(() => localToUtc('2026-01-01T00:00', '07:00', BERLIN), /expected YYYY-MM-DD/);
    assert.throws(() => localToUtc('2026-01-01', '24:00', BERLIN), /expected HH:MM/);
    assert.throws(() => localToUtc('2026-01-01', '7:00', BERLIN), /expected HH:MM/);
    assert.throws(() => localToUtc('2026-01-01', '07:00:00', BERLIN), /expected HH:MM/);
    assert.throws(() => localToUtc('2026-01-01', '07:00', 'Mars/Olympus_Mons'), /not an IANA time zone/);
    assert.throws(() => localToUtc('2026-01-01', '07:00', ''), /not an IANA time zone/);
  });
});

describe('windowsOf', () => {
  it('cuts a day into [dayStart, nightStart) and a night to the next dayStart', () => {
    assert.deepEqual(windowsOf('2026-11-26', BERLIN), {
      day: { start: '2026-11-26T06:00:00.000Z', end: '2026-11-26T21:00:00.000Z' },
      night: { start: '2026-11-26T21:00:00.000Z', end: '2026-11-27T06:00:00.000Z' },
    });
  });

  it('a night spanning spring-forward is 8 hours, one spanning fall-back 10', () => {
    assert.equal(lengthHours(windowsOf('2026-03-28', BERLIN).night), 8);
    assert.equal(lengthHours(windowsOf('2026-10-24', BERLIN).night), 10);
    assert.equal(lengthHours(windowsOf('2026-03-07', NEW_YORK).night), 8);
    assert.equal(lengthHours(windowsOf('2026-10-31', NEW_YORK).night), 10);
    assert.equal(lengthHours(windowsOf('2026-04-04', 'Pacific/Auckland').night), 10); // NZ autumn
    assert.equal(lengthHours(windowsOf('2026-09-26', 'Pacific/Auckland').night), 8);
    // The day windows around them keep their 15 hours.
    assert.equal(lengthHours(windowsOf('2026-03-29', BERLIN).day), 15);
    assert.equal(lengthHours(windowsOf('2026-10-25', BERLIN).day), 15);
  });

  it('tiles time: each night ends where the next day begins, across DST and New Year', () => {
    for (const zone of [BERLIN, NEW_YORK, 'Asia/Kolkata', 'Pacific/Auckland', 'UTC']) {
      for (const first of ['2026-03-01', '2026-09-20', '2026-10-20', '2026-12-28']) {
        for (let i = 0; i < 14; i++) {
          const day = addDays(first, i);
          const w = windowsOf(day, zone);
          assert.equal(w.day.end, w.night.start);
          assert.equal(w.night.end, windowsOf(addDays(day, 1), zone).day.start, `${zone} ${day}`);
          assert.ok(w.day.start < w.day.end && w.night.start < w.night.end);
        }
      }
    }
  });

  it('takes custom bounds and rejects bounds out of order', () => {
    const bounds = { dayStart: '06:30', nightStart: '23:00' };
    assert.deepEqual(windowsOf('2026-06-10', 'UTC', bounds), {
      day: { start: '2026-06-10T06:30:00.000Z', end: '2026-06-10T23:00:00.000Z' },
      night: { start: '2026-06-10T23:00:00.000Z', end: '2026-06-11T06:30:00.000Z' },
    });
    assert.throws(() => windowsOf('2026-06-10', 'UTC', { dayStart: '22:00', nightStart: '07:00' }), /dayStart \(22:00\) must come before nightStart \(07:00\)/);
    assert.throws(() => windowsOf('2026-06-10', 'UTC', { dayStart: '07:00', nightStart: '07:00' }), /must come before/);
    assert.throws(() => checkBounds({ dayStart: '07:00', nightStart: '25:00' }), /not a time: "25:00"/);
  });
});

describe('placeInstant', () => {
  const at = (iso: string, zone = BERLIN, bounds?: { dayStart: string; nightStart: string }) => placeInstant(iso, zone, bounds);

  it('places the edges 21:59 / 22:00 / midnight / 06:59 / 07:00 (Berlin, winter: UTC+1)', () => {
    assert.deepEqual(at('2026-11-26T20:59:59.999Z'), { day: '2026-11-26', part: 'day' }); // 21:59
    assert.deepEqual(at('2026-11-26T21:00:00.000Z'), { day: '2026-11-26', part: 'night' }); // 22:00
    assert.deepEqual(at('2026-11-26T23:00:00.000Z'), { day: '2026-11-26', part: 'night' }); // 00:00 on the 27th
    assert.deepEqual(at('2026-11-27T01:00:00.000Z'), { day: '2026-11-26', part: 'night' }); // 02:00
    assert.deepEqual(at('2026-11-27T05:59:00.000Z'), { day: '2026-11-26', part: 'night' }); // 06:59
    assert.deepEqual(at('2026-11-27T06:00:00.000Z'), { day: '2026-11-27', part: 'day' }); // 07:00
    assert.deepEqual(at('2026-11-26T05:59:59.000Z'), { day: '2026-11-25', part: 'night' }); // 06:59:59 on the 26th
  });

  it('puts 23:30 and 02:00 of one working night into one night', () => {
    assert.deepEqual(at('2026-11-26T22:30:00Z'), at('2026-11-27T01:00:00Z'));
  });

  it('follows the switch nights and the repeated hour', () => {
    assert.deepEqual(at('2026-03-29T04:59:00Z'), { day: '2026-03-28', part: 'night' }); // 06:59 CEST
    assert.deepEqual(at('2026-03-29T05:00:00Z'), { day: '2026-03-29', part: 'day' }); // 07:00 CEST
    assert.deepEqual(at('2026-10-25T05:59:00Z'), { day: '2026-10-24', part: 'night' }); // 06:59 CET
    // With the day starting at 01:30 in New York, 01:10 EST (the second 01:10) comes after the
    // first 01:30 (EDT): it is the day, although its clock time is earlier.
    const early = { dayStart: '01:30', nightStart: '22:00' };
    assert.deepEqual(at('2026-11-01T05:10:00Z', NEW_YORK, early), { day: '2026-10-31', part: 'night' }); // 01:10 EDT
    assert.deepEqual(at('2026-11-01T05:30:00Z', NEW_YORK, early), { day: '2026-11-01', part: 'day' }); // 01:30 EDT
    assert.deepEqual(at('2026-11-01T06:10:00Z', NEW_YORK, early), { day: '2026-11-01', part: 'day' }); // 01:10 EST
  });

  it('works with half-hour offsets, far-east zones and custom bounds', () => {
    assert.deepEqual(at('2026-01-15T16:29:59Z', 'Asia/Kolkata'), { day: '2026-01-15', part: 'day' }); // 21:59:59 IST
    assert.deepEqual(at('2026-01-15T16:30:00Z', 'Asia/Kolkata'), { day: '2026-01-15', part: 'night' });
    assert.deepEqual(at('2025-12-31T17:59:00Z', 'Pacific/Auckland'), { day: '2025-12-31', part: 'night' }); // 06:59 on 1 Jan
    assert.deepEqual(at('2025-12-31T18:00:00Z', 'Pacific/Auckland'), { day: '2026-01-01', part: 'day' });
    const bounds = { dayStart: '06:30', nightStart: '23:00' };
    assert.deepEqual(at('2026-06-10T06:29:00Z', 'UTC', bounds), { day: '2026-06-09', part: 'night' });
    assert.deepEqual(at('2026-06-10T06:30:00Z', 'UTC', bounds), { day: '2026-06-10', part: 'day' });
    assert.deepEqual(at('2026-06-10T22:59:00Z', 'UTC', bounds), { day: '2026-06-10', part: 'day' });
    assert.deepEqual(at('2026-06-10T23:00:00Z', 'UTC', bounds), { day: '2026-06-10', part: 'night' });
  });

  it('agrees with windowsOf at every window edge', () => {
    for (const zone of [BERLIN, NEW_YORK, 'Pacific/Auckland']) {
      for (let i = 0; i < 10; i++) {
        const day = addDays('2026-10-20', i);
        const w = windowsOf(day, zone);
        assert.deepEqual(placeInstant(w.day.start, zone), { day, part: 'day' });
        assert.deepEqual(placeInstant(new Date(Date.parse(w.night.start) - 1).toISOString(), zone), { day, part: 'day' });
        assert.deepEqual(placeInstant(w.night.start, zone), { day, part: 'night' });
        assert.deepEqual(placeInstant(new Date(Date.parse(w.night.end) - 1).toISOString(), zone), { day, part: 'night' });
      }
    }
  });

  it('places the hours after a skipped day into its night', () => {
    assert.deepEqual(placeInstant('2011-12-30T12:00:00Z', 'Pacific/Apia'), { day: '2011-12-30', part: 'night' });
    assert.deepEqual(placeInstant('2011-12-30T17:00:00Z', 'Pacific/Apia'), { day: '2011-12-31', part: 'day' });
  });

  it('gives null for a string that is not a time', () => {
    assert.equal(placeInstant('yesterday', BERLIN), null);
    assert.equal(placeInstant('', BERLIN), null);
    assert.throws(() => placeInstant('2026-01-01T00:00:00Z', 'Nowhere/Else'), /not an IANA time zone/);
  });
});

describe('ISO weeks', () => {
  it('names the week by its week-year', () => {
    assert.equal(isoWeekOf('2026-11-26'), '2026-W48');
    assert.equal(isoWeekOf('2020-12-31'), '2020-W53');
    assert.equal(isoWeekOf('2021-01-03'), '2020-W53');
    assert.equal(isoWeekOf('2021-01-04'), '2021-W01');
    assert.equal(isoWeekOf('2024-12-30'), '2025-W01');
    assert.equal(isoWeekOf('2026-01-01'), '2026-W01');
    assert.equal(isoWeekOf('2027-01-03'), '2026-W53');
    assert.equal(isoWeekOf('2027-01-04'), '2027-W01');
  });

  it('lists Monday to Sunday, across New Year', () => {
    assert.deepEqual(daysOfIsoWeek('2026-W53'), ['2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02', '2027-01-03']);
    assert.deepEqual(daysOfIsoWeek('2025-W01'), ['2024-12-30', '2024-12-31', '2025-01-01', '2025-01-02', '2025-01-03', '2025-01-04', '2025-01-05']);
    for (const week of ['2020-W53', '2026-W01', '2026-W48', '2027-W52']) {
      for (const day of daysOfIsoWeek(week)) assert.equal(isoWeekOf(day), week);
    }
  });

  it('accepts W53 only in years that have it, and rejects malformed labels', () => {
    assert.deepEqual(parseIsoWeek('2020-W53'), { year: 2020, week: 53 });
    assert.deepEqual(parseIsoWeek('2026-W53'), { year: 2026, week: 53 });
    assert.throws(() => parseIsoWeek('2021-W53'), /2021 has weeks W01–W52/);
    assert.throws(() => parseIsoWeek('2025-W53'), /2025 has weeks W01–W52/);
    assert.throws(() => parseIsoWeek('2026-W00'), /W01–W53/);
    for (const bad of ['2026-W1', '2026W01', '2026-w01', '2026-W01-1', '', 'W01']) {
      assert.throws(() => parseIsoWeek(bad), /expected YYYY-Www/, bad);
    }
  });

  it('spans Monday morning to the next Monday morning, DST-correct', () => {
    assert.deepEqual(weekWindow('2026-W53', BERLIN), { start: '2026-12-28T06:00:00.000Z', end: '2027-01-04T06:00:00.000Z' });
    const spring = weekWindow('2026-W13', BERLIN);
    assert.deepEqual(spring, { start: '2026-03-23T06:00:00.000Z', end: '2026-03-30T05:00:00.000Z' });
    assert.equal(lengthHours(spring), 7 * 24 - 1);
    assert.deepEqual(weekWindow('2026-W02', 'UTC', { dayStart: '06:30', nightStart: '23:00' }), { start: '2026-01-05T06:30:00.000Z', end: '2026-01-12T06:30:00.000Z' });
  });
});

describe('days', () => {
  it('adds days across months, leap days and years', () => {
    assert.equal(addDays('2024-02-28', 1), '2024-02-29');
    assert.equal(addDays('2026-02-28', 1), '2026-03-01');
    assert.equal(addDays('2026-01-01', -1), '2025-12-31');
    assert.equal(addDays('2026-03-29', 0), '2026-03-29');
    assert.throws(() => addDays('2026-01-01', 0.5), /whole number/);
    assert.throws(() => addDays('9999-12-31', 1), /years 1000–9999/);
  });

  it('gives the local calendar day of an instant', () => {
    assert.equal(localDayOf('2026-03-29T22:30:00Z', BERLIN), '2026-03-30');
    assert.equal(localDayOf('2026-03-29T22:30:00Z', NEW_YORK), '2026-03-29');
    assert.equal(localDayOf('2025-12-31T11:00:00Z', 'Pacific/Auckland'), '2026-01-01');
    assert.throws(() => localDayOf('not a time', BERLIN), /expected an ISO 8601 instant/);
  });
});

describe('consolidation config bounds', () => {
  it('requires nightStart after dayStart on the clock', () => {
    assert.equal(consolidationConfigSchema().parse({ dayStart: '06:30', nightStart: '23:00' }).nightStart, '23:00');
    for (const bad of [{ dayStart: '22:00', nightStart: '07:00' }, { dayStart: '07:00', nightStart: '07:00' }, { dayStart: '07:00', nightStart: '01:30' }]) {
      const res = consolidationConfigSchema().safeParse(bad);
      assert.equal(res.success, false);
      assert.match(JSON.stringify(res.error?.issues), /nightStart must come after dayStart/);
    }
    assert.equal(consolidationConfigSchema().safeParse({ nightStart: '22:60' }).success, false);
  });
});
