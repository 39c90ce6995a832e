// Leases: a name (a capture source) held by one holder (a daemon) until a time, so processes on
// several machines sharing one database agree on who does a piece of work, and a holder that dies
// loses it once it stops renewing. Shared by both backends: the checks and the row shape.
// Times are milliseconds since the epoch on the database's clock (PostgreSQL's, when no `now` is
// given), so machines whose clocks differ still agree on when a lease runs out.
import { invalidInput } from '../core/errors.js';

export interface LeaseRecord {
  name: string;
  holder: string;
  /** When the current holder took it (renewals keep it). */
  acquiredAt: string;
  expiresAt: string;
}

export interface LeaseRow {
  name: string;
  holder: string;
  acquired_ms: number;
  expires_ms: number;
}

/** Longest lease name or holder id accepted. */
const MAX_CHARS = 200;
/** Longest lease: a day (a holder renews well before it runs out). */
const MAX_TTL_MS = 86_400_000;

/** Refuses an empty or oversized name or holder, or a ttl that is not a whole number of ms in (0, a day]. */
export function checkLease(name: string, holder: string, ttlMs?: number): void {
  for (const [what, value] of [['name', name], ['holder', holder]] as const) {
    if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_CHARS || value.includes('\0')) {
      throw invalidInput(`A lease ${what} must be a non-empty string of at most ${MAX_CHARS} characters`);
    }
  }
  if (ttlMs !== undefined && (!Number.isSafeInteger(ttlMs) || ttlMs < 1 || ttlMs > MAX_TTL_MS)) {
    throw invalidInput(`A lease's ttl must be a whole number of milliseconds from 1 to ${MAX_TTL_MS}, got ${String(ttlMs)}`);
  }
}

/** `now` (ISO) as ms, or null for "the database's clock". */
export function leaseClock(now: string | undefined): number | null {
  if (now === undefined) return null;
  const ms = Date.parse(now);
  if (!Number.isFinite(ms)) throw invalidInput(`Invalid time "${String(now).slice(0, 40)}"`);
  return ms;
}

export function leaseFromRow(r: LeaseRow): LeaseRecord {
  return { name: r.name, holder: r.holder, acquiredAt: new Date(r.acquired_ms).toISOString(), expiresAt: new Date(r.expires_ms).toISOString() };
}
