// Followers on PostgreSQL (issue 26): readers that page a table by "seq > cursor" and keep the
// cursor (the knowledge pass over memoriesAfter, consolidation and prepared briefs over
// entryChangesAfter) while writers on other connections commit out of seq order. A writer on one
// machine draws a seq and keeps its transaction open; another draws a higher one and commits; the
// follower reads and keeps its cursor; the first commits; the follower reads on from its cursor
// and must have seen every row exactly once. A third writer must meanwhile commit unhindered: the
// follower waits for the open writer alone, never holds writers off.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { Memory } from '../../src/core/types.js';
import type { Store } from '../../src/store/store.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { rememberIn } from '../../src/memory/remember.js';
import { freshPgStore } from '../helpers/postgres.js';

const NOW = '2026-02-01T00:00:00.000Z';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PostgreSQL followers beside writers committing out of seq order', () => {
  let made: Awaited<ReturnType<typeof freshPgStore>>;
  let one: PgStore;
  let two: Store;
  let watch: pg.Client;
  const app = `cairn-pgf-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  before(async () => {
    made = await freshPgStore({ applicationName: app });
    one = made.store;
    two = await made.connect();
    watch = new pg.Client({ connectionString: made.url, options: `-c search_path=${made.schema},public` });
    await watch.connect();
  });
  after(async () => {
    await watch.end();
    await one.close();
    await made.cleanup();
  });

  async function waitingSessions(): Promise<number> {
    return (await watch.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.application_name = $1',
      [app],
    )).rows[0]!.n;
  }

  /** Resolves once `p` has settled or `n` of the stores' sessions wait on a lock (20 s at most). */
  async function settledOrWaiting(p: Promise<unknown>, n: number): Promise<boolean> {
    let settled = false;
    p.then(() => (settled = true), () => (settled = true));
    for (let i = 0; i < 400 && !settled && (await waitingSessions()) < n; i++) await sleep(50);
    return settled;
  }

  /** A writer on another machine: its memory has drawn its seq, its transaction stays open until released (or rolled back). */
  async function openWriter(namespace: string, text: string): Promise<{ done: Promise<Memory>; commit: () => void; rollback: () => void }> {
    let commit!: () => void;
    let rollback!: () => void;
    const held = new Promise<void>((resolve, reject) => ((commit = resolve), (rollback = () => reject(new Error('rolled back on purpose')))));
    let drawn!: () => void;
    const inserted = new Promise<void>((r) => (drawn = r));
    const done = two.memoryUnit(async (unit) => {
      const res = await rememberIn(unit, { namespace, text }, NOW);
      drawn();
      await held;
      return res.memory;
    });
    done.catch(() => undefined);
    await inserted;
    return { done, commit, rollback };
  }

  /**
   * The scenario for one follower: `read(cursor)` returns the page's seqs with an id for each;
   * `idOf` names what a memory stands for in those pages.
   */
  async function followAcrossOpenWriter(
    namespace: string,
    read: (cursor: number) => Promise<Array<{ seq: number; id: string }>>,
    idOf: (m: Memory) => Promise<string>,
  ): Promise<void> {
    await one.ensureNamespace(namespace); // else the writers would wait on each other's new namespace row
    const slow = await openWriter(namespace, 'drawn first, committed last');
    const fast = (await one.addMemory({ namespace, text: 'drawn second, committed first' })).memory;
    const page = read(0);
    page.catch(() => undefined);
    await settledOrWaiting(page, 1);
    // Another writer of the namespace while the follower reads: it must not wait for the follower.
    const third = one.addMemory({ namespace, text: 'written while the follower reads' });
    assert.equal(await settledOrWaiting(third, 2), true, 'a writer commits while the follower waits for the open writer');
    slow.commit();
    const first = await slow.done;
    const seen = await page;
    const cursor = seen.at(-1)?.seq ?? 0;
    seen.push(...(await read(cursor)));
    const ids = seen.map((x) => x.id);
    const expected = await Promise.all([first, fast, (await third).memory].map(idOf));
    assert.deepEqual([...ids].sort(), [...expected].sort(), 'every row seen once, whatever the commit order');
    assert.deepEqual(seen.map((x) => x.seq), [...seen.map((x) => x.seq)].sort((a, b) => a - b), 'in seq order');
  }

  it('memoriesAfter (the knowledge pass) misses no memory committed after a higher seq, and holds no writer off', async () => {
    await followAcrossOpenWriter(
      'know',
      async (cursor) => (await one.memoriesAfter('know', cursor, 100)).map((p) => ({ seq: p.seq, id: p.memory.id })),
      async (m) => m.id,
    );
  });

  it('entryChangesAfter (consolidation, prepared briefs) misses no entry committed after a higher seq, and holds no writer off', async () => {
    const entrySeq = async (m: Memory) => String((await one.entryFor('memory', m.id))!.seq);
    await followAcrossOpenWriter(
      'days',
      async (cursor) => (await one.entryChangesAfter('days', cursor, 100)).map((c) => ({ seq: c.seq, id: String(c.seq) })),
      entrySeq,
    );
  });

  it('a writer that rolls back releases the follower, which then reads on past its drawn seq', async () => {
    const ns = 'rollback';
    await one.ensureNamespace(ns);
    const slow = await openWriter(ns, 'drawn, then rolled back');
    const fast = (await one.addMemory({ namespace: ns, text: 'committed' })).memory;
    const page = one.memoriesAfter(ns, 0, 100);
    page.catch(() => undefined);
    await settledOrWaiting(page, 1);
    slow.rollback();
    await assert.rejects(slow.done, /rolled back on purpose/);
    assert.deepEqual((await page).map((p) => p.memory.id), [fast.id]);
    assert.deepEqual(await one.entryChangesAfter(ns, (await one.entryFor('memory', fast.id))!.seq, 100), []);
  });

  it('writers of another namespace are not waited for, and an empty namespace or a cursor past the end reads nothing', async () => {
    await one.ensureNamespace('quiet');
    const other = await openWriter('busy', 'open in another namespace');
    try {
      const m = (await one.addMemory({ namespace: 'quiet', text: 'alone here' })).memory;
      // Answered while the other namespace's writer is still open: nothing waits for it.
      assert.deepEqual((await one.memoriesAfter('quiet', 0, 10)).map((p) => p.memory.id), [m.id]);
      assert.equal((await one.entryChangesAfter('quiet', 0, 10)).length, 1);
      assert.deepEqual(await one.memoriesAfter('quiet', Number.MAX_SAFE_INTEGER, 10), []);
      assert.deepEqual(await one.memoriesAfter('nobody', 0, 10), []);
      assert.deepEqual(await one.entryChangesAfter('nobody', 0, 10), []);
    } finally {
      other.commit();
      await other.done;
    }
  });
});
