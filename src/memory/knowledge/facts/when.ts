// Dates inside a statement ("on March 3", "last week", "since 2020"), read by chrono-node against
// the memory's own time in UTC, so a text means the same day on every machine and every replay.
import { createRequire } from 'node:module';

type ChronoEn = typeof import('chrono-node/en');
let chrono: ChronoEn | undefined;
/** Loaded on the first statement that names a date (~80 ms); extraction without dates never pays for it. */
function parser(): ChronoEn {
  return (chrono ??= createRequire(import.meta.url)('chrono-node/en') as ChronoEn);
}

/** A date found in a text: the day (YYYY-MM-DD) or month (YYYY-MM) it names, and where it was written. */
export interface FoundDate {
  iso: string;
  precision: 'day' | 'month' | 'year';
  /** Offset and text of the date as written. */
  index: number;
  text: string;
}

/** chrono-node reads no bare year; "since 2020", "in 2024" are common enough to read here. */
const YEAR = /\b(?:in|since|from|as of|back in)\s+((?:19|20)\d{2})\b/iu;

/**
 * The first date in `text`, resolved against `refIso`. `ahead`: a date without a year is the next
 * one (an event), otherwise the last one (a change that happened). Null when none is written or the
 * reference time is unreadable.
 */
export function findDate(text: string, refIso: string, ahead: boolean): FoundDate | null {
  const ref = new Date(refIso);
  if (Number.isNaN(ref.getTime())) return null;
  let results;
  try {
    results = parser().parse(text, { instant: ref, timezone: 0 }, { forwardDate: ahead });
  } catch {
    return null; // an unreadable date is no date
  }
  for (const r of results) {
    const c = r.start;
    const y = c.get('year');
    const m = c.get('month');
    const d = c.get('day');
    if (y === null || m === null) continue;
    // A recurring day ("on Mondays") is no date.
    if (/s$/iu.test(r.text) && c.isCertain('weekday')) continue;
    const dayKnown = c.isCertain('day') || c.isCertain('weekday');
    if (dayKnown && d !== null) return { iso: isoDay(y, m, d), precision: 'day', index: r.index, text: r.text };
    if (c.isCertain('month')) return { iso: `${pad(y, 4)}-${pad(m, 2)}`, precision: 'month', index: r.index, text: r.text };
  }
  const year = YEAR.exec(text);
  if (year) return { iso: year[1]!, precision: 'year', index: year.index, text: year[0] };
  return null;
}

/** The instant a found date starts, ISO (UTC midnight of its first day). */
export function startOf(found: FoundDate): string {
  const day = found.precision === 'day' ? found.iso : found.precision === 'month' ? `${found.iso}-01` : `${found.iso}-01-01`;
  return `${day}T00:00:00.000Z`;
}

function isoDay(y: number, m: number, d: number): string {
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
