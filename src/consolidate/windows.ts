// The windows a person's days are cut into: the day window [dayStart, nightStart) of a local date and
// its night window [nightStart, next dayStart) — the night belongs to the day it started, so turns
// at 23:30 and 02:00 of one working night land in one file. All math is in the home's IANA time zone
// through Intl (the same tz data as the rest of Cairn), so DST switches move window edges, not
// contents: a night that spans a switch is simply an hour longer or shorter.
//
// Rules at the edges of a zone's clock: a local time that does not exist (the spring-forward gap)
// means the first instant after the gap; a local time that happens twice (fall-back) means its
// first occurrence. Croner reads cron times the same way, so a job scheduled at 02:30 and a window
// starting at 02:30 agree on the switch day.
import { invalidInput } from '../core/errors.js';
import { isValidTimeZone } from '../core/local-time.js';

/** Where the day and the night begin, `HH:MM` on a 24-hour clock; dayStart must come before nightStart. */
export interface DayBounds {
  dayStart: string;
  nightStart: string;
}

/** A span of time, UTC ISO strings; start inclusive, end exclusive. */
export interface Span {
  start: string;
  end: string;
}

export interface DayWindows {
  day: Span;
  night: Span;
}

export const DEFAULT_BOUNDS: DayBounds = { dayStart: '07:00', nightStart: '22:00' };

const DAY_PATTERN = /^([1-9]\d{3})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;
const WEEK_PATTERN = /^([1-9]\d{3})-W(\d{2})$/;
const MS_PER_DAY = 86_400_000;

// ---------------------------------------------------------------- validation

/** A local day `YYYY-MM-DD` that exists in the calendar, as given; INVALID_INPUT otherwise. */
export function checkDay(day: string): string {
  parseDay(day);
  return day;
}

function parseDay(day: string): { y: number; m: number; d: number } {
  const match = typeof day === 'string' ? DAY_PATTERN.exec(day) : null;
  if (!match) throw invalidInput(`not a day: ${JSON.stringify(day)} (expected YYYY-MM-DD, years 1000–9999)`);
  const y = Number(match[1]);
  const m = Number(match[2]);
  const d = Number(match[3]);
  const probe = new Date(Date.UTC(y, m - 1, d));
  if (probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) {
    throw invalidInput(`not a day: ${JSON.stringify(day)} (no such date in the calendar)`);
  }
  return { y, m, d };
}

function parseTime(time: string): { h: number; min: number } {
  const match = typeof time === 'string' ? TIME_PATTERN.exec(time) : null;
  if (!match) throw invalidInput(`not a time: ${JSON.stringify(time)} (expected HH:MM on a 24-hour clock, 00:00–23:59)`);
  return { h: Number(match[1]), min: Number(match[2]) };
}

function checkZone(timeZone: string): void {
  if (typeof timeZone !== 'string' || !isValidTimeZone(timeZone)) {
    throw invalidInput(`not an IANA time zone: ${JSON.stringify(timeZone)}`);
  }
}

/** Throws unless both bounds are valid times and dayStart comes before nightStart on the clock. */
export function checkBounds(bounds: DayBounds): void {
  parseTime(bounds.dayStart);
  parseTime(bounds.nightStart);
  if (bounds.dayStart >= bounds.nightStart) {
    throw invalidInput(`dayStart (${bounds.dayStart}) must come before nightStart (${bounds.nightStart}) on the clock`);
  }
}

// ---------------------------------------------------------------- days

function formatDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

function dayMs(day: string): number {
  const { y, m, d } = parseDay(day);
  return Date.UTC(y, m - 1, d);
}

/** The calendar day `n` days after `day` (n may be negative). */
export function addDays(day: string, n: number): string {
  if (!Number.isInteger(n)) throw invalidInput(`not a whole number of days: ${n}`);
  const out = formatDay(dayMs(day) + n * MS_PER_DAY);
  parseDay(out); // stays within the years a day may have
  return out;
}

// ---------------------------------------------------------------- zone offsets

const formatters = new Map<string, Intl.DateTimeFormat>();

function secondsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone, year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The local wall clock of an instant, read as if it were UTC (ms), to the second. */
function wallMs(instantMs: number, timeZone: string): number {
  const p: Record<string, number> = {};
  for (const part of secondsFormatter(timeZone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

/**
 * The instant (UTC ISO) a local date and clock time denote in `timeZone`. A time in a
 * spring-forward gap gives the first instant after the gap; a fall-back time, its first occurrence.
 */
export function localToUtc(day: string, time: string, timeZone: string): string {
  const { y, m, d } = parseDay(day);
  const { h, min } = parseTime(time);
  checkZone(timeZone);
  const wall = Date.UTC(y, m - 1, d, h, min);
  // Offsets lie within −12 h … +14 h, so the instant (if any) lies within [wall − 14 h, wall + 12 h];
  // sampling offsets across that range finds every offset in force there.
  const hour = 3_600_000;
  const offsets = new Set<number>();
  for (const probe of [wall - 15 * hour, wall - 7 * hour, wall, wall + 7 * hour, wall + 13 * hour]) {
    offsets.add(wallMs(probe, timeZone) - probe);
  }
  let first: number | null = null;
  for (const offset of offsets) {
    const candidate = wall - offset;
    if (wallMs(candidate, timeZone) === wall && (first === null || candidate < first)) first = candidate;
  }
  if (first !== null) return new Date(first).toISOString();
  // In a gap: the transition is the first instant whose wall clock reads past `wall`.
  let lo = Math.floor((wall - 15 * hour) / 1000); // seconds; wall clock before `wall` here
  let hi = Math.ceil((wall + 13 * hour) / 1000); // and after it here
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallMs(mid * 1000, timeZone) > wall) hi = mid;
    else lo = mid;
  }
  return new Date(hi * 1000).toISOString();
}

/** The local calendar day of an instant in `timeZone`. */
export function localDayOf(iso: string, timeZone: string): string {
  checkZone(timeZone);
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw invalidInput(`not a time: ${JSON.stringify(iso)} (expected an ISO 8601 instant)`);
  return formatDay(wallMs(ms, timeZone));
}

// ---------------------------------------------------------------- windows

// Placing a year of turns asks for the same few days' windows again and again.
const windowCache = new Map<string, DayWindows>();
const WINDOW_CACHE_SIZE = 2048;

/** The day window and the night window that belong to local date `day` (frozen: shared by callers). */
export function windowsOf(day: string, timeZone: string, bounds: DayBounds = DEFAULT_BOUNDS): DayWindows {
  checkBounds(bounds);
  const key = `${timeZone}|${bounds.dayStart}|${bounds.nightStart}|${day}`;
  const cached = windowCache.get(key);
  if (cached) return cached;
  const dayStart = localToUtc(day, bounds.dayStart, timeZone);
  const nightStart = localToUtc(day, bounds.nightStart, timeZone);
  const nextDayStart = localToUtc(addDays(day, 1), bounds.dayStart, timeZone);
  const windows: DayWindows = Object.freeze({
    day: Object.freeze({ start: dayStart, end: nightStart }),
    night: Object.freeze({ start: nightStart, end: nextDayStart }),
  });
  if (windowCache.size >= WINDOW_CACHE_SIZE) windowCache.clear();
  windowCache.set(key, windows);
  return windows;
}

/**
 * The logical day and window an instant belongs to: 02:00 on the 26th is the night of the 25th,
 * 07:00 on the 26th the 26th's day. Null when `iso` is not a time. Decided by the same edges as
 * windowsOf, so the two always agree, even in the hour a fall-back repeats.
 */
export function placeInstant(iso: string, timeZone: string, bounds: DayBounds = DEFAULT_BOUNDS): { day: string; part: 'day' | 'night' } | null {
  checkBounds(bounds);
  checkZone(timeZone);
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  const local = formatDay(wallMs(ms, timeZone));
  // The windows tile time, and the one holding `ms` started on its local day or the day before
  // (two days before only when a whole local day was skipped, as Samoa did on 2011-12-30).
  for (const day of [local, addDays(local, -1), addDays(local, -2)]) {
    const w = windowsOf(day, timeZone, bounds);
    if (ms >= Date.parse(w.night.start) && ms < Date.parse(w.night.end)) return { day, part: 'night' };
    if (ms >= Date.parse(w.day.start) && ms < Date.parse(w.day.end)) return { day, part: 'day' };
  }
  /* c8 ignore next */
  throw new Error(`no window holds ${iso} in ${timeZone}`);
}

// ---------------------------------------------------------------- ISO weeks

/** 1 = Monday … 7 = Sunday. */
function isoWeekday(ms: number): number {
  return ((new Date(ms).getUTCDay() + 6) % 7) + 1;
}

function weekLabel(year: number, week: number): string {
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The ISO-8601 week of a day, `YYYY-Www`, in week-years: 2021-01-03 is in 2020-W53. */
export function isoWeekOf(day: string): string {
  const ms = dayMs(day);
  // The week belongs to the year that holds its Thursday.
  const thursday = ms + (4 - isoWeekday(ms)) * MS_PER_DAY;
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * MS_PER_DAY)) + 1;
  return weekLabel(year, week);
}

function weeksInYear(year: number): number {
  // 28 December is always in the last week of its week-year.
  return Number(isoWeekOf(`${year}-12-28`).slice(6));
}

/** `{ year, week }` of an ISO week label `YYYY-Www`; throws for a malformed label or a week the year has not (W53 of a 52-week year). */
export function parseIsoWeek(text: string): { year: number; week: number } {
  const match = typeof text === 'string' ? WEEK_PATTERN.exec(text) : null;
  if (!match) throw invalidInput(`not an ISO week: ${JSON.stringify(text)} (expected YYYY-Www such as 2026-W09)`);
  const year = Number(match[1]);
  const week = Number(match[2]);
  const weeks = weeksInYear(year);
  if (week < 1 || week > weeks) {
    throw invalidInput(`not an ISO week: ${JSON.stringify(text)} (${year} has weeks W01–W${weeks})`);
  }
  return { year, week };
}

/** The seven days of an ISO week, Monday first. */
export function daysOfIsoWeek(week: string): string[] {
  const { year, week: n } = parseIsoWeek(week);
  // 4 January is always in week 1.
  const jan4 = Date.UTC(year, 0, 4);
  const monday = jan4 - (isoWeekday(jan4) - 1) * MS_PER_DAY + (n - 1) * 7 * MS_PER_DAY;
  return Array.from({ length: 7 }, (_, i) => formatDay(monday + i * MS_PER_DAY));
}

/** An ISO week's span: Monday's day-window start to the end of Sunday's night window (Monday's dayStart after). */
export function weekWindow(week: string, timeZone: string, bounds: DayBounds = DEFAULT_BOUNDS): Span {
  const days = daysOfIsoWeek(week);
  return {
    start: windowsOf(days[0]!, timeZone, bounds).day.start,
    end: windowsOf(days[6]!, timeZone, bounds).night.end,
  };
}
