// What only the PostgreSQL backend has to prove for digests and knowledge (issue 26): several
// writers on several machines at once. Two stores (two pools, as two machines would have) on one
// schema race the same knowledge batch, a batch against a reset, and the same new digest; a third
// connection holds a table lock until both racers are inside the database, so they truly overlap.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { KnowledgeBatch, Store } from '../../src/store/store.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { insertEntry } from '../../src/store/postgres/entry-terms.js';
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

/** A memory row with its index entry, written as the memory unit writes them (that module is another port's). */
async function seedMemory(store: PgStore, id: string, text: string): Promise<void> {
  await store.pool.query('INSERT INTO namespaces (id, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [NS, NOW]);
  await store.pool.query(
    `INSERT INTO memories (id, namespace, text, dedup_key, category, importance, created_at, updated_at, valid_from)
     VALUES ($1, $2, $3, $1, 'fact', 5, $4, $4, $4)`,
    [id, NS, text, NOW],
  );
  await insertEntry(store.pool, { namespace: NS, kind: 'memory', refId: id, body: text, time: NOW, category: 'fact', importance: 5 });
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

  /**
   * Runs the racers while `table` is locked, releasing it only once `waiting` of the stores'
   * sessions wait on a lock (or after 20 s, so a backend that never waits fails on its results).
   */
  async function raced<T>(table: string, waiting: number, racers: Array<() => Promise<T>>): Promise<T[]> {
    await gate.query('BEGIN');
    await gate.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const running = racers.map((r) => r());
    running.forEach((p) => p.catch(() => undefined));
    for (let i = 0; i < 400; i++) {
      const n = (await gate.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.application_name = $1`,
        [app],
      )).rows[0]!.n;
      if (n >= waiting) break;
      await sleep(50);
    }
    await gate.query('COMMIT');
    return Promise.all(running);
  }

  it('two stores applying the same batch at once: exactly one applies it, the other is refused with the moved cursor', async () => {
    await seedMemory(one, 'm_1', 'Ana reviewed the walrus release');
    await seedMemory(one, 'm_2', 'Bo fixed the heron build');
    for (const [round, memoryId] of [[1, 'm_1'], [2, 'm_2'], [3, 'm_1']] as const) {
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
      const results = await raced('entities', 2, [() => one.applyKnowledge(b), () => two.applyKnowledge(b)]);
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
    const b = batch({
      expectCursor: cursor, cursor: cursor + 1,
      entities: [{ id: 'e_race', name: 'Racer', slug: 'racer', type: 'person', relation: null }],
      mentions: [{ entityId: 'e_race', memoryId: 'm_1' }],
    });
    const [applied] = await raced('entities', 2, [() => one.applyKnowledge(b), async () => (await two.resetKnowledge(NS), null)]);
    // Whichever went first, the reset leaves cursor 0 and nothing derived (the batch either ran
    // before it and was forgotten, or after it and was refused).
    assert.equal(await one.knowledgeCursor(NS), 0);
    assert.deepEqual(await one.listEntities(NS), [], `nothing derived survives (batch result ${JSON.stringify(applied)})`);
    assert.deepEqual(await one.listFacts(NS, { includeSuperseded: true }), []);
  });

  it('the same new digest written by two stores at once: both succeed, one row, one entry per section', async () => {
    const digest = {
      namespace: NS, kind: 'daily' as const, path: 'daily/2026-01-10.md', periodStart: '2026-01-10T06:00:00.000Z', periodEnd: '2026-01-10T21:00:00.000Z',
      text: '# 2026-01-10\n## Decisions\npelican rollout\n## Problems\nwalrus build\n',
      sections: [{ heading: 'Decisions', text: 'pelican rollout', sources: [] }, { heading: 'Problems', text: 'walrus build', sources: [] }],
      inputsHash: 'h1', generator: 'extractive@1',
    };
    // One waits on the digests table, the other on the first's lock on the path.
    const results = await raced('digests', 2, [() => one.putDigest(digest), () => two.putDigest(digest)]);
    assert.deepEqual(results.map((r) => r.changed).sort(), [false, true], 'the second finds the first\'s digest and writes nothing');
    assert.equal(results[0]!.digest.id, results[1]!.digest.id);
    const entries = (await one.pool.query<{ ref_id: string }>("SELECT ref_id FROM entries WHERE kind = 'digest' ORDER BY ref_id")).rows.map((r) => r.ref_id);
    assert.deepEqual(entries, [`${results[0]!.digest.id}#0`, `${results[0]!.digest.id}#1`]);
    assert.deepEqual((await two.listDigests(NS)).map((d) => d.path), [digest.path]);
  });
});
