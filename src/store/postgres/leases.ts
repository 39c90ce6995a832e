// Leases for PostgreSQL (store/leases.ts): daemons on several machines agree on who captures a
// source. Taking one is a single INSERT ... ON CONFLICT DO UPDATE ... WHERE: racing takers are
// serialised on the row (the loser re-evaluates the WHERE against the winner's committed row), so
// exactly one gets a free or expired lease. The clock is the server's unless `now` is given, so
// hosts with skewed clocks still agree on expiry.
import { checkLease, leaseClock, leaseFromRow, type LeaseRecord, type LeaseRow } from '../leases.js';
import type { Db } from './connect.js';

export async function acquireLease(db: Db, name: string, holder: string, ttlMs: number, now?: string): Promise<boolean> {
  checkLease(name, holder, ttlMs);
  const result = await db.query(
    `WITH clock AS (SELECT COALESCE($3::bigint, (extract(epoch FROM clock_timestamp()) * 1000)::bigint) AS ms)
     INSERT INTO leases (name, holder, acquired_ms, expires_ms)
       SELECT $1, $2, ms, ms + $4::bigint FROM clock
     ON CONFLICT (name) DO UPDATE SET
       holder = excluded.holder,
       acquired_ms = CASE WHEN leases.holder = excluded.holder THEN leases.acquired_ms ELSE excluded.acquired_ms END,
       expires_ms = excluded.expires_ms
     WHERE leases.holder = excluded.holder OR leases.expires_ms <= excluded.acquired_ms
     RETURNING holder`,
    [name, holder, leaseClock(now), ttlMs],
  );
  return result.rowCount === 1;
}

export async function releaseLease(db: Db, name: string, holder: string): Promise<boolean> {
  checkLease(name, holder);
  return ((await db.query('DELETE FROM leases WHERE name = $1 AND holder = $2', [name, holder])).rowCount ?? 0) > 0;
}

export async function listLeases(db: Db): Promise<LeaseRecord[]> {
  return ((await db.query('SELECT name, holder, acquired_ms, expires_ms FROM leases ORDER BY name')).rows as LeaseRow[]).map(leaseFromRow);
}
