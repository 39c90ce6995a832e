// Leases for SQLite (store/leases.ts). One file on one machine: the clock is this process's. The
// upsert is one statement, so it is atomic under SQLite's write lock like every other write.
import type { Database } from 'better-sqlite3';
import { checkLease, leaseClock, leaseFromRow, type LeaseRecord, type LeaseRow } from '../leases.js';
import { stmt } from './statements.js';

export function acquireLease(db: Database, name: string, holder: string, ttlMs: number, now?: string): boolean {
  checkLease(name, holder, ttlMs);
  const ms = leaseClock(now) ?? Date.now();
  // Taken when free, expired, or already this holder's (a renewal keeps the time it was taken).
  const row = stmt(
    db,
    `INSERT INTO leases (name, holder, acquired_ms, expires_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET
       holder = excluded.holder,
       acquired_ms = CASE WHEN leases.holder = excluded.holder THEN leases.acquired_ms ELSE excluded.acquired_ms END,
       expires_ms = excluded.expires_ms
     WHERE leases.holder = excluded.holder OR leases.expires_ms <= excluded.acquired_ms
     RETURNING holder`,
  ).get(name, holder, ms, ms + ttlMs);
  return row !== undefined;
}

export function releaseLease(db: Database, name: string, holder: string): boolean {
  checkLease(name, holder);
  return stmt(db, 'DELETE FROM leases WHERE name = ? AND holder = ?').run(name, holder).changes > 0;
}

export function listLeases(db: Database): LeaseRecord[] {
  return (stmt(db, 'SELECT name, holder, acquired_ms, expires_ms FROM leases ORDER BY name').all() as LeaseRow[]).map(leaseFromRow);
}
