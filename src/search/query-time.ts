// When a query says when: "what did we decide last week", "the painting Ana showed on October 13,
// 2023", "the setback in October 2023". Memories from that time are preferred (a soft factor, not
// a filter: people talk about an event days after it, and a date can be misread). Dates are read
// by chrono-node; relative ones resolve against the search's `now` in this process's time zone.
import type { ParsedResult } from 'chrono-node';
import { localDayTime } from '../core/local-time.js';
import { queryLanguage } from './query-terms.js';
import { mayNameTime } from './time-words.js';
import type { Language } from './text-analysis.js';

export { mayNameTime };

type Chrono = Pick<typeof import('chrono-node/en'), 'parse'>;
type EnglishModule = typeof import('chrono-node/en');
/** The languages chrono-node reads dates in that a query's language can be told as (text-analysis.ts, script). */
type TimeLocale = Language | 'ja' | 'zh';
const LOADERS: Readonly<Record<TimeLocale, () => Promise<Chrono>>> = {
  en: () => import('chrono-node/en'),
  de: () => import('chrono-node/de'),
  es: () => import('chrono-node/es'),
  fr: () => import('chrono-node/fr'),
  it: () => import('chrono-node/it'),
  pt: () => import('chrono-node/pt'),
  nl: () => import('chrono-node/nl'),
  ru: () => import('chrono-node/ru'),
  ja: () => import('chrono-node/ja'),
  zh: () => import('chrono-node/zh'),
};
const parsers = new Map<TimeLocale, Promise<Chrono>>();
/** One locale, loaded on the first query in its language that may name a time: all locales take ~110 ms to import, one ~30. */
export const loadTimeParser = (locale: TimeLocale = 'en'): Promise<Chrono> => {
  let p = parsers.get(locale);
  if (!p) parsers.set(locale, (p = LOADERS[locale]()));
  return p;
};

/**
 * chrono-node's English parsers of durations ("3 days ago", "in two weeks", "a couple of months
 * later", "past 2 hours"): their patterns embed its whole number-and-unit pattern, and V8 compiles
 * each again to machine code on its second use: the second query naming a date in a process (a
 * daemon's, a benchmark's) took 110–450 ms of CPU, 10 without them. (A one-query `cairn search`
 * compiles them once, to bytecode: ~10 ms.)
 * A query without a duration (durationMayFollow) is read without them: a parser that would have
 * matched nothing there adds nothing.
 */
export const DURATION_PARSERS: readonly string[] = ['ENTimeUnitWithinFormatParser', 'ENTimeUnitAgoFormatParser', 'ENTimeUnitLaterFormatParser', 'ENTimeUnitCasualRelativeFormatParser'];
let withoutDurations: Promise<Chrono> | undefined;
function englishWithoutDurations(): Promise<Chrono> {
  withoutDurations ??= (loadTimeParser('en') as Promise<EnglishModule>).then(({ Chrono, casual }) => {
    const kept = casual.parsers.filter((p) => !DURATION_PARSERS.includes(p.constructor.name));
    return new Chrono({ parsers: kept, refiners: casual.refiners });
  });
  return withoutDurations;
}

/**
 * Loads the English date parser and has V8 compile its patterns (both tiers: two parses), for a
 * long-lived process before its first search: ~90 ms of CPU there rather than in the first answer
 * that names a month. The duration parsers are left to the rare query that names a duration.
 */
export async function warmTimeParser(): Promise<void> {
  const parser = await englishWithoutDurations();
  for (let i = 0; i < 2; i++) parser.parse('on Friday, June 5 2023 at 3pm, last week, yesterday', new Date(0), { forwardDate: false });
}

// chrono-node's English duration: a number (its NUMBER_PATTERN: digits, one to twelve, "a", "an",
// "a few", "several", "half an", "the", "a couple of") then, after at most three spaces, a time
// unit (its TIME_UNIT_DICTIONARY). Read here as ASCII words and digit runs, as its patterns read
// (ASCII, case-insensitive), a unit word counts when the word or digits before it can end such a
// number ("3d" is two runs: digits, then "d"). Not read as durations: a unit glued to a number word
// or to the word after it, which chrono-node would take ("they" as "the y(ear)" after "after",
// "oneday"): a query of words as people write them gets the window it got before (the dev sets'
// questions, tested).
const UNITS = new Set(['s', 'sec', 'second', 'seconds', 'm', 'min', 'mins', 'minute', 'minutes', 'h', 'hr', 'hrs', 'hour', 'hours', 'd', 'day', 'days', 'w', 'week', 'weeks', 'mo', 'mon', 'mos', 'month', 'months', 'qtr', 'quarter', 'quarters', 'y', 'yr', 'year', 'years']);
const NUMBER_ENDS = new Set(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'half', 'a', 'an', 'few', 'several', 'the', 'couple', 'of']);
const ASCII_RUNS = /[a-z]+|[0-9]+/g;

/** Whether English text may hold a duration chrono-node reads (false: its duration parsers are not run on it). */
export function durationMayFollow(text: string): boolean {
  const runs = text.toLowerCase().match(ASCII_RUNS);
  if (!runs) return false;
  for (let i = 1; i < runs.length; i++) {
    if (!UNITS.has(runs[i]!)) continue;
    const before = runs[i - 1]!;
    if (NUMBER_ENDS.has(before) || (before.charCodeAt(0) >= 48 && before.charCodeAt(0) <= 57)) return true;
  }
  return false;
}

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/u;

/** The language a query's dates are read in: Japanese by its kana, Chinese by Han without kana, else the query's language. */
function timeLocale(text: string): TimeLocale {
  if (KANA.test(text)) return 'ja';
  if (HAN.test(text)) return 'zh';
  return queryLanguage(text);
}
/** A week in the languages read: "last week", "letzte Woche", "la semana pasada", "на прошлой неделе", "先週", "上周". */
const WEEK = /\bweeks?\b|woche|semaine|semana|settiman|week|недел|週|周|星期/iu;

/** Local calendar days (YYYY-MM-DD, inclusive), or a month (and day) of any year. */
export type TimeWindow =
  | { kind: 'days'; from: string; to: string; text: string }
  | { kind: 'yearly'; month: number; day: number | null; text: string };

const DAY_MS = 86_400_000;
/** A month named without a year or day must be capitalised or follow one of these ("in june"). */
const MONTH_CUE = /\b(?:in|during|since|until|by|early|late|mid|of|last|this|next)\s*$/i;
/** chrono-node reads no bare year; "in 2023" is common enough to read here. */
const YEAR = /\b(?:in|during|of|since|throughout)\s+((?:19|20)\d{2})\b/i;

/** The time a query points at, or null when it names none. Long queries are read in their first 500 chars. */
export async function queryTimeWindow(query: string, now: number): Promise<TimeWindow | null> {
  const text = query.slice(0, 500);
  const locale = timeLocale(text);
  if (locale === 'en' && !mayNameTime(text)) return null;
  let results: ParsedResult[];
  try {
    const parser = locale === 'en' && !durationMayFollow(text) ? englishWithoutDurations() : loadTimeParser(locale);
    results = (await parser).parse(text, new Date(now), { forwardDate: false });
  } catch {
    return null; // an unreadable date is no date: the search goes on without a preference
  }
  for (const r of results) {
    const w = windowOf(r, text);
    if (w) return w;
  }
  const year = YEAR.exec(text);
  return year ? { kind: 'days', from: `${year[1]}-01-01`, to: `${year[1]}-12-31`, text: year[0] } : null;
}

function windowOf(r: ParsedResult, text: string): TimeWindow | null {
  const c = r.start;
  const year = c.isCertain('year') ? c.get('year') : null;
  const month = c.isCertain('month') ? c.get('month') : null;
  const day = c.isCertain('day') ? c.get('day') : null;
  const relative = !year && !month && !day && c.isCertain('weekday');
  if (relative || (year && month && day)) {
    const date = c.date(); // chrono resolves in this process's local time
    const at = day ? isoDay(c.get('year')!, c.get('month')!, c.get('day')!) : isoDay(date.getFullYear(), date.getMonth() + 1, date.getDate());
    // "last week", "two weeks ago": chrono names one day of that week.
    const spread = WEEK.test(r.text) ? 3 : 0;
    return { kind: 'days', from: shiftDay(at, -spread), to: shiftDay(at, spread), text: r.text };
  }
  if (year && month) return { kind: 'days', from: isoDay(year, month, 1), to: isoDay(year, month, daysIn(year, month)), text: r.text };
  if (year) return { kind: 'days', from: `${year}-01-01`, to: `${year}-12-31`, text: r.text };
  if (month) {
    // "march" and "may" are verbs too: a month alone counts when written as one.
    const cued = /^\p{Lu}/u.test(r.text) || MONTH_CUE.test(text.slice(0, r.index));
    return cued || day ? { kind: 'yearly', month, day, text: r.text } : null;
  }
  return null;
}

/** Whether `iso` falls in the window (read in `timeZone`), or up to `graceDays` after it. */
export function inTimeWindow(w: TimeWindow, iso: string, timeZone: string, graceDays: number): boolean {
  const local = localDay(iso, timeZone);
  if (!local) return false;
  if (w.kind === 'days') return local >= w.from && local <= shiftDay(w.to, graceDays);
  for (let back = 0; back <= graceDays; back++) {
    const [, m, d] = shiftDay(local, -back).split('-').map(Number) as [number, number, number];
    if (m === w.month && (w.day === null || d === w.day)) return true;
  }
  return false;
}

/**
 * Local days of entry times, per time zone: a search whose query names a time places every scored
 * entry (~300) in it, and Intl's formatToParts for each was ~3 % of a LoCoMo search; the same
 * entries come back search after search. Bounded: emptied when full.
 */
const LOCAL_DAYS_MAX = 50_000;
const localDays = new Map<string, Map<string, string | null>>();

function localDay(iso: string, timeZone: string): string | null {
  let days = localDays.get(timeZone);
  if (!days) localDays.set(timeZone, (days = new Map()));
  let day = days.get(iso);
  if (day === undefined) {
    if (days.size >= LOCAL_DAYS_MAX) days.clear();
    days.set(iso, (day = localDayTime(iso, timeZone)?.day ?? null));
  }
  return day;
}

function isoDay(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function shiftDay(day: string, by: number): string {
  return by === 0 ? day : new Date(Date.parse(`${day}T00:00:00Z`) + by * DAY_MS).toISOString().slice(0, 10);
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
