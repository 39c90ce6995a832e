// A query that names a time ("last week", "in October 2023", "on May 3") prefers what is from
// then: the window it reads, and the factor search gives memories of those days.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Cairn } from '../../src/service/cairn.js';
import * as chrono from 'chrono-node/en';
import { DURATION_PARSERS, durationMayFollow, inTimeWindow, mayNameTime, queryTimeWindow, type TimeWindow } from '../../src/search/query-time.js';
import { loadAgentWork } from '../../bench/agentwork/devset.js';
import { rejectsSearchConfig, searchHomes } from '../helpers/search-homes.js';

const NOW = Date.parse('2026-11-22T12:00:00Z'); // a Sunday
const days = (from: string, to: string) => ({ kind: 'days', from, to });
const shape = (w: TimeWindow | null) => (w === null ? null : w.kind === 'days' ? days(w.from, w.to) : { kind: 'yearly', month: w.month, day: w.day });

describe('queryTimeWindow', () => {
  const read = async (q: string) => shape(await queryTimeWindow(q, NOW));

  it('a date, a month of a year, a year', async () => {
    assert.deepEqual(await read('What painting did Ana show on October 13, 2023?'), days('2023-10-13', '2023-10-13'));
    assert.deepEqual(await read('what did Gina find on 1 February, 2023'), days('2023-02-01', '2023-02-01'));
    assert.deepEqual(await read('the port change on 2023-05-07'), days('2023-05-07', '2023-05-07'));
    assert.deepEqual(await read('What setback did Ana face in October 2023?'), days('2023-10-01', '2023-10-31'));
    assert.deepEqual(await read('decisions in February 2024'), days('2024-02-01', '2024-02-29'));
    assert.deepEqual(await read('How often did we deploy in 2023?'), days('2023-01-01', '2023-12-31'));
  });

  it('relative times resolve against now', async () => {
    assert.deepEqual(await read('what did I say yesterday'), days('2026-11-21', '2026-11-21'));
    assert.deepEqual(await read('what did we decide last week'), days('2026-11-12', '2026-11-18'));
    assert.deepEqual(await read('what did we decide last year'), days('2025-01-01', '2025-12-31'));
    assert.deepEqual(await read('last month'), days('2026-10-01', '2026-10-31'));
  });

  it('a month or a day without a year means that month (and day) of any year', async () => {
    assert.deepEqual(await read('When did Ana go camping in June?'), { kind: 'yearly', month: 6, day: null });
    assert.deepEqual(await read('what did we do in june'), { kind: 'yearly', month: 6, day: null });
    assert.deepEqual(await read('What did Joanna do on the 3rd of May?'), { kind: 'yearly', month: 5, day: 3 });
  });

  it('"march" and "may" as verbs, a time of day, and no time at all: no window', async () => {
    assert.equal(await read('Would Caroline march in a parade?'), null);
    assert.equal(await read('What may John do next?'), null);
    assert.equal(await read('staging port change at 10am'), null);
    assert.equal(await read('which port is the staging db on'), null);
  });

  it('empty, oversized and hostile queries: no window, no error', async () => {
    for (const q of ['', '   ', '\u0000\uFFFF', '0000-00-00', '2023-13-45', 'on 31 February, 2023'.repeat(1), 'x'.repeat(100_000), 'in 2023 '.repeat(20_000)]) {
      const w = await queryTimeWindow(q, NOW);
      assert.ok(w === null || w.kind === 'days' || w.kind === 'yearly', q.slice(0, 20));
    }
    assert.equal(await queryTimeWindow('x'.repeat(100_000), NOW), null);
  });
});

describe('mayNameTime (which English queries chrono-node parses)', () => {
  // chrono-node's month and weekday forms (its MONTH_DICTIONARY and WEEKDAY_DICTIONARY, 2.10).
  const MONTHS = ['january', 'jan', 'jan.', 'february', 'feb', 'feb.', 'march', 'mar', 'mar.', 'april', 'apr', 'apr.', 'may', 'june', 'jun', 'jun.', 'july', 'jul', 'jul.', 'august', 'aug', 'aug.', 'september', 'sep', 'sep.', 'sept', 'sept.', 'october', 'oct', 'oct.', 'november', 'nov', 'nov.', 'december', 'dec', 'dec.'];
  const WEEKDAYS = ['sunday', 'sun', 'sun.', 'monday', 'mon', 'mon.', 'tuesday', 'tue', 'tue.', 'wednesday', 'wed', 'wed.', 'thursday', 'thurs', 'thurs.', 'thur', 'thur.', 'thu', 'thu.', 'friday', 'fri', 'fri.', 'saturday', 'sat', 'sat.', 'weekend', 'weekday'];

  it('lets through every month and weekday form chrono-node reads, in any case', () => {
    for (const form of [...MONTHS, ...WEEKDAYS]) {
      for (const text of [`what happened on ${form}`, `${form.toUpperCase()}, the review`, `(${form[0]!.toUpperCase()}${form.slice(1)})`]) assert.ok(mayNameTime(text), text);
    }
    const parsed = (text: string) => chrono.parse(text, new Date(NOW), { forwardDate: false }).length > 0;
    for (const form of WEEKDAYS) assert.ok(parsed(`what did we do last ${form}`), form);
    for (const form of MONTHS.filter((m) => m !== 'may')) assert.ok(parsed(`what did we ship in ${form} 2023`), form);
  });

  it('skips words that only begin like one, where chrono-node finds nothing either', () => {
    const words = ['friend', 'friends', 'decide', 'decided', 'Maria', 'market', 'monitor', 'money', 'wedding', 'satisfied', 'sunny', 'Sunil', 'thumb', 'novel', 'octopus', 'junior', 'Julian', 'augment', 'Mel', 'separate', 'tuesdays'];
    for (const w of words) {
      const text = `what did my ${w} say about the plan`;
      assert.equal(mayNameTime(text), false, w);
      assert.deepEqual(chrono.parse(text, new Date(NOW), { forwardDate: false }), [], w);
    }
  });
});

describe('durationMayFollow (which English queries chrono-node reads with its duration parsers)', () => {
  const full = chrono.casual;
  const only = (keep: boolean) => new chrono.Chrono({ parsers: full.parsers.filter((p) => DURATION_PARSERS.includes(p.constructor.name) === keep), refiners: keep ? [] : full.refiners });
  const durations = only(true);
  const others = only(false);
  const read = (c: chrono.Chrono, text: string) => JSON.stringify(c.parse(text, new Date(NOW), { forwardDate: false }).map((r) => [r.index, r.text, r.start.date().getTime(), r.end?.date().getTime()]));

  it('names parsers chrono-node has (a renamed one would silently run on every query)', () => {
    const names = full.parsers.map((p) => p.constructor.name);
    for (const name of DURATION_PARSERS) assert.ok(names.includes(name), name);
  });

  it('lets through every duration of a number and a unit, as chrono-node writes them, in any case and spacing', () => {
    const numbers = ['3', '1.5', 'one', 'twelve', 'a', 'an', 'a few', 'several', 'half an', 'the', 'a couple of', 'couple of', 'few'];
    const units = ['s', 'sec', 'second', 'seconds', 'm', 'min', 'mins', 'minute', 'minutes', 'h', 'hr', 'hrs', 'hour', 'hours', 'd', 'day', 'days', 'w', 'week', 'weeks', 'mo', 'mon', 'mos', 'month', 'months', 'qtr', 'quarter', 'quarters', 'y', 'yr', 'year', 'years'];
    let read = 0;
    for (const n of numbers) {
      for (const u of units) {
        // Glued only to digits ("3d"): "a fews", "oneday" are not read as durations (query-time.ts).
        for (const space of /^[\d.]+$/.test(n) ? ['', ' ', '   '] : [' ', '   ']) {
          const d = `${n}${space}${u}`;
          for (const text of [`what did we ship ${d} ago?`, `within ${d}`, `${d} later, on Friday`, `the past ${d}`, `next ${d}`, `+${d}`]) {
            for (const cased of [text, text.toUpperCase()]) {
              if (durations.parse(cased, new Date(NOW), { forwardDate: false }).length === 0) continue;
              read++;
              assert.ok(durationMayFollow(cased), cased);
            }
          }
        }
      }
    }
    assert.ok(read > 2000, `chrono-node read ${read} of them`);
  });

  it('elsewhere, reading without the duration parsers finds the same: every question and turn of the agent-work set, and plain questions', () => {
    const set = loadAgentWork();
    const texts = [
      ...set.conversations.flatMap((c) => [...c.questions.map((q) => q.question), ...c.turns.map((t) => t.text.slice(0, 500))]),
      'When did Melanie go camping in June?', 'What did they do after they moved in May 2023?', 'Which hobby did Sam take up last year?', 'What did I say on Friday at 3pm?',
    ];
    let lean = 0;
    for (const text of texts) {
      if (!mayNameTime(text) || durationMayFollow(text)) continue;
      lean++;
      assert.equal(read(others, text), read(full, text), text.slice(0, 120));
    }
    assert.ok(lean > 500, `${lean} texts read without the duration parsers`);
  });

  it('a query naming a duration still gets its window', async () => {
    assert.deepEqual(shape(await queryTimeWindow('what did we decide 3 days ago', NOW)), days('2026-11-19', '2026-11-19'));
    assert.deepEqual(shape(await queryTimeWindow('what changed in the past two weeks about the deploy', NOW)), days('2026-11-05', '2026-11-11'));
    assert.deepEqual(shape(await queryTimeWindow('in 3 days, what is due', NOW)), days('2026-11-25', '2026-11-25'));
    assert.equal(durationMayFollow('When did Melanie go camping in June?'), false);
    assert.equal(durationMayFollow("it's what I'm after, they said"), false);
  });
});

describe('inTimeWindow', () => {
  it('reads an instant on the local calendar of the configured zone', async () => {
    const oct13 = (await queryTimeWindow('on October 13, 2023', NOW))!;
    // 23:30 UTC on the 12th is already the 13th in Berlin.
    assert.equal(inTimeWindow(oct13, '2023-10-12T23:30:00Z', 'UTC', 0), false);
    assert.equal(inTimeWindow(oct13, '2023-10-12T23:30:00Z', 'Europe/Berlin', 0), true);
  });

  it('counts the grace days after the window, never before it', async () => {
    const oct13 = (await queryTimeWindow('on October 13, 2023', NOW))!;
    assert.equal(inTimeWindow(oct13, '2023-10-20T10:00:00Z', 'UTC', 7), true);
    assert.equal(inTimeWindow(oct13, '2023-10-21T10:00:00Z', 'UTC', 7), false);
    assert.equal(inTimeWindow(oct13, '2023-10-12T10:00:00Z', 'UTC', 7), false);
    const june = (await queryTimeWindow('in June', NOW))!;
    assert.equal(inTimeWindow(june, '2019-06-30T10:00:00Z', 'UTC', 0), true);
    assert.equal(inTimeWindow(june, '2019-07-05T10:00:00Z', 'UTC', 7), true);
    assert.equal(inTimeWindow(june, '2019-07-09T10:00:00Z', 'UTC', 7), false);
    assert.equal(inTimeWindow(june, 'not a time', 'UTC', 7), false);
  });
});

describe('search with a time in the query', () => {
  // Two memories worded alike, months apart; the later one wins on recency alone.
  const { open, close } = searchHomes(async (cairn) => {
    await cairn.remember({ text: 'We had a long planning meeting about the garden beds.', eventTime: '2023-10-13T10:00:00Z' });
    await cairn.remember({ text: 'We had a long planning meeting about the garden path.', eventTime: '2024-03-02T10:00:00Z' });
  });
  const top = async (cairn: Cairn, query: string) => (await cairn.search(query, { limit: 5 })).results;

  after(close);

  it('the memory from the named day comes first, its time factor shown', async () => {
    const cairn = await open();
    const results = await top(cairn, 'planning meeting about the garden on October 13, 2023');
    assert.equal(results[0]!.time.slice(0, 10), '2023-10-13');
    assert.equal(results[0]!.parts.when, 1.5);
    assert.equal(results[1]!.parts.when, 1);
    const march = await top(cairn, 'the garden planning meeting in March 2024');
    assert.equal(march[0]!.time.slice(0, 10), '2024-03-02');
  });

  it('without a time in the query, or with timeBoost 0, nothing is preferred', async () => {
    const cairn = await open();
    const plain = await top(cairn, 'planning meeting about the garden');
    assert.ok(plain.every((r) => r.parts.when === 1));
    assert.equal(plain[0]!.time.slice(0, 10), '2024-03-02', 'the newer one, on recency');
    const off = await open({ timeBoost: 0 });
    const results = await top(off, 'planning meeting about the garden on October 13, 2023');
    assert.ok(results.every((r) => r.parts.when === 1));
    assert.equal(results[0]!.time.slice(0, 10), '2024-03-02');
  });

  it('timeBoost outside 0–2 is a config error', () => rejectsSearchConfig([{ timeBoost: -1 }, { timeBoost: 3 }, { timeBoost: 'a lot' }]));
});

describe('search as of a moment (asOf)', () => {
  // Three memories worded alike: one the week before 2023-10-20, one a month before, one after.
  const { open, close } = searchHomes(async (cairn) => {
    await cairn.remember({ text: 'We had a long planning meeting about the garden beds.', eventTime: '2023-10-13T10:00:00Z' });
    await cairn.remember({ text: 'We had a long planning meeting about the garden fence.', eventTime: '2023-09-15T10:00:00Z' });
    await cairn.remember({ text: 'We had a long planning meeting about the garden path.', eventTime: '2024-03-02T10:00:00Z' });
  });
  const ASOF = '2023-10-20T12:00:00Z'; // a Friday
  const found = async (cairn: Cairn, query: string, options: Parameters<Cairn['search']>[1] = {}) =>
    (await cairn.search(query, { limit: 5, ...options })).results.map((r) => ({ day: r.time.slice(0, 10), when: r.parts.when, recency: r.parts.recency }));

  after(close);

  it('"last week" is the week before asOf, and what came after asOf is left out', async () => {
    const cairn = await open();
    const asked = await found(cairn, 'the garden planning meeting last week', { asOf: ASOF });
    assert.deepEqual(asked.map((r) => [r.day, r.when]), [['2023-10-13', 1.5], ['2023-09-15', 1]]);
    // Today "last week" names none of them, and all three are there.
    const today = await found(cairn, 'the garden planning meeting last week');
    assert.equal(today.length, 3);
    assert.ok(today.every((r) => r.when === 1));
  });

  it('ages in since/until count back from asOf; an until past asOf stops at asOf', async () => {
    const cairn = await open();
    assert.deepEqual((await found(cairn, 'garden planning meeting', { asOf: ASOF, since: '14d' })).map((r) => r.day), ['2023-10-13']);
    assert.deepEqual((await found(cairn, 'garden planning meeting', { asOf: ASOF, until: '14d' })).map((r) => r.day), ['2023-09-15']);
    assert.deepEqual((await found(cairn, 'garden planning meeting', { asOf: ASOF, until: '2030-01-01' })).map((r) => r.day).sort(), ['2023-09-15', '2023-10-13']);
    assert.deepEqual((await found(cairn, 'garden planning meeting', { asOf: '2020-01-01' })), []);
  });

  it('recency counts from asOf: a memory of a week before it is recent', async () => {
    const cairn = await open();
    const asked = await found(cairn, 'garden planning meeting', { asOf: ASOF });
    const beds = asked.find((r) => r.day === '2023-10-13')!;
    const fence = asked.find((r) => r.day === '2023-09-15')!;
    assert.ok(beds.recency! > fence.recency!, `recency ${beds.recency} vs ${fence.recency}`);
    const today = await found(cairn, 'garden planning meeting');
    assert.equal(new Set(today.map((r) => r.recency)).size, 1, 'years old today: all alike');
  });

  it('an age as asOf, and bad values: a clear INVALID_INPUT naming asOf', async () => {
    const cairn = await open();
    assert.equal((await found(cairn, 'garden planning meeting', { asOf: '1d' })).length, 3);
    for (const bad of ['', 'yesterday', '2023-02-30', '2023-13-01', 'x'.repeat(10_000), '\u0000']) {
      await assert.rejects(cairn.search('garden', { asOf: bad }), (err: Error & { code?: string }) => err.code === 'INVALID_INPUT' && /asOf/.test(err.message), JSON.stringify(bad.slice(0, 20)));
    }
    for (const bad of [5, null, {}, ['2023-10-20']]) {
      await assert.rejects(cairn.search('garden', { asOf: bad as unknown as string }), (err: Error & { code?: string }) => err.code === 'INVALID_INPUT' && /asOf/.test(err.message));
    }
    await assert.rejects(cairn.search('garden', { since: '1'.repeat(65) + 'd' }), /since/);
  });
});
