// Time parsing for user input: ISO dates and datetimes, and relative forms such as "7d" or "2w",
// so `--since 7d` means what a person expects.
import { invalidInput } from './errors.js';

const RELATIVE = /^(\d{1,5})\s*(m|min|h|d|w|y)$/i;
const UNIT_MS: Record<string, number> = { m: 60e3, min: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3, y: 365 * 86400e3 };

/** Parses an ISO date/datetime or a relative age ("90m", "12h", "7d", "2w", "1y") into an ISO string. */
export function parseTime(value: string, label: string, now = Date.now()): string {
  const trimmed = value.trim();
  const rel = RELATIVE.exec(trimmed);
  if (rel) {
    const unit = rel[2]!.toLowerCase();
    return new Date(now - Number(rel[1]) * UNIT_MS[unit]!).toISOString();
  }
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(trimmed)) {
    const ms = Date.parse(trimmed);
    if (!Number.isNaN(ms)) {
      // Date.parse rolls 2026-02-31 over to March; reject calendar dates that do not round-trip.
      // (Checked on the date as written: an offset or local time may move the UTC day.)
      const [y, mo, d] = trimmed.slice(0, 10).split('-').map(Number) as [number, number, number];
      const day = new Date(Date.UTC(y, mo - 1, d));
      if (day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d) return new Date(ms).toISOString();
    }
  }
  throw invalidInput(`Invalid ${label} "${value.slice(0, 60)}": use an ISO date (2026-03-02, 2026-03-02T09:14:00Z) or an age like 7d, 12h, 2w`);
}

export const DAY_MS = 86_400_000;

