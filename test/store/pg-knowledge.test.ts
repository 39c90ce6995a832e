// What only the PostgreSQL backend has to prove for digests and knowledge (issue 26): several
// writers on several machines at once. Two stores (two pools, as two machines would have) on one
// schema race the same knowledge batch, a batch against a reset, and the same new digest; a third
// connection holds a table lock until both racers are inside the database, so they truly overlap.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { KnowledgeBatch, Store } from '../../src/store/store.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { rememberIn } from '../../src/memory/remember.js';
import { freshPgStore } from '../helpers/postgres.js';

const NS = 'alpha';
const NOW = '2026-02-01T00:00:00.000Z';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function batch(over: Partial<KnowledgeBatch>): KnowledgeBatch {
  return {
    namespace: NS, expectCursor: 0, cursor: 0, entities: [], entityUpdates: [], aliases: [], mentions: [], memoryEntities: [], facts: [],
    factUpdates: [], retirements: [], now: NOW, ...over,
  };
}

describe('PostgreSQL digests and knowledge under concurrent writers', () => {
  let made: Awaited<ReturnType<typeof freshPgStore>>;
  let one: PgStore;
  let two: Store;
  let gate: pg.Client;
  const app = `cairn-pgk-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  before(async () => {
    made = await freshPgStore({ applicationName: app });
    one = made.store;
    two = await made.connect();
    gate = new pg.Client({ connectionString: made.url, options: `-c search_path=${made.schema},public` });
    await gate.connect();
  });
  after(async () => {
    await gate.end();
    await one.close();
    await made.cleanup();
  });

  async function waitingSessions(): Promise<number> {
    return (await gate.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.application_name = $1',
      [app],
    )).rows[0]!.n;
  }

  /**
   * Runs the racers while `table` is locked: each starts once the stores' sessions waiting on a
   * lock number `after` (its predecessors are inside the database), and the table is released
   * once `release` wait (or after 20 s each, so a backend that never waits fails on its results).
   */
  async function raced<T>(table: string, racers: Array<{ after: number; run: () => Promise<T> }>, release: number): Promise<T[]> {
    await gate.query('BEGIN');
    await gate.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const until = async (n: number) => {
      for (let i = 0; i < 400 && (await waitingSessions()) < n; i++) await sleep(50);
    };
    const running: Array<Promise<T>> = [];
    for (const r of racers) {
      await until(r.after);
      const p = r.run();
      p.catch(() => undefined);
      running.push(p);
    }
    await until(release);
    await gate.query('COMMIT');
    return Promise.all(running);
  }
  const together = <T>(...runs: Array<() => Promise<T>>) => runs.map((run) => ({ after: 0, run }));

  it('two stores applying the same batch at once: exactly one applies it, the other is refused with the moved cursor', async () => {
    const m1 = (await one.addMemory({ namespace: NS, text: 'Ana reviewed the walrus release' })).memory.id;
    const m2 = (await two.addMemory({ namespace: NS, text: 'Bo fixed the heron build' })).memory.id;
    for (const [round, memoryId] of [[1, m1], [2, m2], [3, m1]] as const) {
      // Round 1 is the namespace's first batch: there is no cursor row yet for either to lock.
      const b = batch({
        expectCursor: round - 1, cursor: round,
        entities: [{ id: `e_${round}`, name: `Person ${round}`, slug: `person-${round}`, type: 'person', relation: null }],
        aliases: [{ key: `person ${round}`, entityId: `e_${round}`, display: `Person ${round}` }],
        mentions: [{ entityId: `e_${round}`, memoryId }],
        facts: [{ id: `f_${round}`, namespace: NS, subject: `person ${round}`, subjectName: `Person ${round}`, entityId: `e_${round}`, attribute: 'role',
          value: 'reviewer', memoryId, validFrom: NOW, validTo: null, recordedAt: NOW, confidence: 0.9, supersededBy: null, mentions: 1, extractor: 'offline@1', provenance: [] }],
      });
      // One waits on the entities table, the other on the first's namespace lock.
      const results = await raced('entities', together(() => one.applyKnowledge(b), () => two.applyKnowledge(b)), 2);
      assert.deepEqual(
        results.map((r) => r.applied).sort(),
        [false, true],
        `round ${round}: exactly one applied (${JSON.stringify(results)})`,
      );
      assert.deepEqual(results.find((r) => !r.applied), { applied: false, cursor: round }, 'the refusal names the cursor the winner wrote');
      assert.equal(await two.knowledgeCursor(NS), round);
    }
    const entities = await one.listEntities(NS);
    assert.deepEqual(entities.map((e) => [e.entity.id, e.entity.aliases, e.stats.mentions]), [
      ['e_1', ['Person 1'], 1], ['e_2', ['Person 2'], 1], ['e_3', ['Person 3'], 1],
    ]);
    assert.deepEqual((await one.listFacts(NS)).map((f) => f.id), ['f_1', 'f_2', 'f_3'], 'each fact written once');
    const stale = await one.applyKnowledge(batch({ expectCursor: 1, cursor: 9, entities: [{ id: 'e_late', name: 'Late', slug: 'late', type: 'person', relation: null }] }));
    assert.deepEqual(stale, { applied: false, cursor: 3 });
    assert.equal((await one.getEntity(NS, 'e_late')), null, 'a refused batch writes nothing');
  });

  it('a batch racing a reset never leaves derived rows behind a rewound cursor', async () => {
    const cursor = await one.knowledgeCursor(NS);
    const [m1] = await one.memoriesAfter(NS, 0, 1);
    const b = batch({
      expectCursor: cursor, cursor: cursor + 1,
      entities: [{ id: 'e_race', name: 'Racer', slug: 'racer', type: 'person', relation: null }],
      mentions: [{ entityId: 'e_race', memoryId: m1!.memory.id }],
    });
    const [applied] = await raced('entities', together(() => one.applyKnowledge(b), async () => (await two.resetKnowledge(NS), null)), 2);
    // Whichever went first, the reset leaves cursor 0 and nothing derived (the batch either ran
    // before it and was forgotten, or after it and was refused).
    assert.equal(await one.knowledgeCursor(NS), 0);
    assert.deepEqual(await one.listEntities(NS), [], `nothing derived survives (batch result ${JSON.stringify(applied)})`);
    assert.deepEqual(await one.listFacts(NS, { includeSuperseded: true }), []);
  });

  it('a duplicate retired while another store re-mentions its survivor: no mention is lost', async () => {
    const keep = (await one.addMemory({ namespace: NS, text: 'Ana runs the ferry', provenance: [{ source: 'a' }] })).memory;
    const dup = (await one.addMemory({ namespace: NS, text: 'Ana operates the ferry', provenance: [{ source: 'b' }] })).memory;
    const cursor = await one.knowledgeCursor(NS);
    const b = batch({ expectCursor: cursor, cursor: cursor + 1, retirements: [{ memoryId: dup.id, by: keep.id, validTo: NOW, reason: 'duplicate' }] });
    // The batch first (it stops at the index, holding what it read), then the re-mention of the survivor.
    const [applied] = await raced('entries', [
      { after: 0, run: async () => (await one.applyKnowledge(b)).applied },
      { after: 1, run: async () => (await two.addMemory({ namespace: NS, text: 'ana runs the ferry!', provenance: [{ source: 'c' }] })).duplicate },
    ], 2);
    assert.equal(applied, true);
    const survivor = (await two.getMemory(NS, keep.id))!;
    assert.equal(survivor.mentions, 3, 'its own, the duplicate\'s and the re-mention');
    assert.deepEqual(survivor.provenance.map((p) => p.source), ['a', 'b', 'c']);
    assert.equal((await two.getMemory(NS, dup.id))!.supersededBy, keep.id);
  });

  it('the same new digest written by two stores at once: both succeed, one row, one entry per section', async () => {
    const digest = {
      namespace: NS, kind: 'daily' as const, path: 'daily/2026-01-10.md', periodStart: '2026-01-10T06:00:00.000Z', periodEnd: '2026-01-10T21:00:00.000Z',
      text: '# 2026-01-10\n## Decisions\npelican rollout\n## Problems\nwalrus build\n',
      sections: [{ heading: 'Decisions', text: 'pelican rollout', sources: [] }, { heading: 'Problems', text: 'walrus build', sources: [] }],
      inputsHash: 'h1', generator: 'extractive@1',
    };
    // One waits on the digests table, the other on the first's lock on the path.
    const results = await raced('digests', together(() => one.putDigest(digest), () => two.putDigest(digest)), 2);
    assert.deepEqual(results.map((r) => r.changed).sort(), [false, true], 'the second finds the first\'s digest and writes nothing');
    assert.equal(results[0]!.digest.id, results[1]!.digest.id);
    const entries = (await one.pool.query<{ ref_id: string }>("SELECT ref_id FROM entries WHERE kind = 'digest' ORDER BY ref_id")).rows.map((r) => r.ref_id);
    assert.deepEqual(entries, [`${results[0]!.digest.id}#0`, `${results[0]!.digest.id}#1`]);
    assert.deepEqual((await two.listDigests(NS)).map((d) => d.path), [digest.path]);
  });

  it('a digest shrinking from 12 sections to 2 keeps those two entries and drops the ten others; deleting it drops the rest', async () => {
    const sections = (n: number) => Array.from({ length: n }, (_, i) => ({ heading: `H${i}`, text: `kestrel note ${i}`, sources: [] }));
    const put = (n: number, hash: string) => one.putDigest({
      namespace: NS, kind: 'weekly', path: 'weekly/2026-W02.md', periodStart: '2026-01-05T00:00:00.000Z', periodEnd: '2026-01-12T00:00:00.000Z',
      text: `week ${hash}`, sections: sections(n), inputsHash: hash, generator: 'extractive@1',
    });
    const id = (await put(12, 'a')).digest.id;
    const entries = async () => (await one.pool.query<{ seq: number; ref_id: string }>(
      "SELECT seq, ref_id FROM entries WHERE kind = 'digest' AND starts_with(ref_id, $1) ORDER BY seq", [`${id}#`])).rows;
    const before = await entries();
    assert.equal(before.length, 12);
    await put(2, 'b');
    assert.deepEqual(await entries(), before.slice(0, 2), 'sections #0 and #1 keep their entries; #2 … #11 (#10 and #11 sorting before #2) are gone');
    assert.equal(await two.deleteDigest(NS, 'weekly/2026-W02.md'), true);
    assert.deepEqual(await entries(), []);
  });

  it('a memory whose seq was drawn first but committed last is not skipped by the pass reading past a later one', async () => {
    await one.ensureNamespace(NS); // else the second writer would wait on the first's new namespace row
    const after = (await one.memoriesAfter(NS, 0, 1000)).at(-1)?.seq ?? 0;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let drawn!: () => void;
    const inserted = new Promise<void>((r) => (drawn = r));
    // A writer on another machine: its memory has its seq, its transaction is still open.
    const slow = two.memoryUnit(async (unit) => {
      const res = await rememberIn(unit, { namespace: NS, text: 'drawn first, committed last' }, NOW);
      drawn();
      await held;
      return res.memory;
    });
    await inserted;
    const fast = (await one.addMemory({ namespace: NS, text: 'drawn second, committed first' })).memory;
    const page = one.memoriesAfter(NS, after, 10);
    page.catch(() => undefined);
    for (let i = 0; i < 400 && (await waitingSessions()) < 1; i++) await sleep(50);
    release();
    const first = await slow;
    assert.deepEqual((await page).map((m) => m.memory.id), [first.id, fast.id], 'the page waited for the open writer and holds both, in seq order');
  });
});
