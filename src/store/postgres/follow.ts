// Following a table by seq on PostgreSQL: a reader that pages "seq > cursor" and keeps its cursor
// (the knowledge pass over memories, consolidation over entries) must never pass a seq that is
// still to commit. Under SQLite's single writer a seq is visible once a later one is; here a
// writer draws seq 100, another draws 101 and commits first, and a page ending at 101 would skip
// 100 for good.
//
// How, without holding writers off (a table lock in SHARE mode did: every memory writer of every
// namespace waited while a page was read):
// - every writer of a followed table registers before it draws a seq: an exclusive advisory
//   transaction lock keyed (the table and namespace, its backend pid), so it is held until commit
//   and no two writers ever wait for each other on it (writerCte, fused into the INSERT);
// - a reader takes, in one statement, the table's highest visible seq (its bound: the primary
//   key's last entry, whatever the namespace) and the namespace's writers registered at that moment, waits for those writers' transactions to end (a shared lock
//   on each one's key: other writers hold other keys; the same connection's next transaction
//   waits at most for this short one to commit), then reads the page up to the bound in a new
//   statement. Waiting and reading cost a reader two or three round trips more than a plain read
//   (bench/pg-followers.ts) and scan pg_locks once per page.
// Every seq up to the bound is then final: it was drawn before the bound's snapshot, so its
// writer had registered by then and was either visible, or seen in the lock table and waited for.
// A writer registering after that draws a seq above every one drawn before, so above the bound.
// This needs identity sequences that hand out numbers in time order: CACHE 1, their default (a
// session caching a block would insert below the bound later). Rows given an explicit seq (cairn
// migrate) are visible when committed, so they count too.
import { transaction, type Db } from './connect.js';

export type FollowedTable = 'memories' | 'entries';

/** How long a reader waits for a writer that keeps its transaction open (then STORE_LOCKED: retry). */
const WRITER_WAIT = '30s';

/** The lock class of a table's writers in one namespace, as SQL over the namespace parameter. */
function classOf(table: FollowedTable, nsParam: string): string {
  return `hashtext('cairn.follow ' || current_schema() || ' ${table} ' || ${nsParam})`;
}

/**
 * A WITH item registering the statement's transaction as a writer of `table` in the namespace
 * `nsParam` (a parameter reference such as `$2`); the INSERT must select FROM it, so the lock is
 * held before the identity default draws the row's seq.
 */
export function writerCte(table: FollowedTable, nsParam: string): string {
  return `follow_writer AS MATERIALIZED (SELECT pg_advisory_xact_lock(${classOf(table, nsParam)}, pg_backend_pid()))`;
}

/**
 * A seq up to which every row of the namespace in `table` is committed (or rolled back) and
 * visible to a statement that starts now; 0 when the table is empty. Waits for writers of the
 * namespace that were open at the start (see the top of this file). The bound is the table's
 * highest seq, not the namespace's: one step down the primary key however many namespaces share
 * the table, and a later row of another namespace only proves more seqs final.
 */
export async function followBound(db: Db, table: FollowedTable, namespace: string): Promise<number> {
  const row = (await db.query<{ bound: number | null; writers: number[] }>(
    `SELECT (SELECT max(seq) FROM ${table}) AS bound,
       ARRAY(SELECT DISTINCT l.objid::text::int FROM pg_locks l
             WHERE l.locktype = 'advisory' AND l.objsubid = 2 AND l.mode = 'ExclusiveLock' AND l.granted
               AND l.classid = ${classOf(table, '$1')}::oid AND l.pid <> pg_backend_pid()
               AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS writers`,
    [namespace],
  )).rows[0]!;
  if (row.bound === null) return 0;
  if (row.writers.length > 0) {
    await transaction(db, async (c) => {
      await c.query(`SET LOCAL lock_timeout = '${WRITER_WAIT}'`);
      await c.query(`SELECT pg_advisory_xact_lock_shared(${classOf(table, '$1')}, w) FROM unnest($2::int[]) AS w`, [namespace, row.writers]);
    });
  }
  return row.bound;
}
