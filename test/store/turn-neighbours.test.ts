// The neighbour lookup search uses (store.turnNeighbours): batched reads and a per-connection cache
// of turn rows. It must return exactly what one query per anchor did (bench/baseline-neighbours.ts),
// and never serve a turn another writer has changed: not this Store's own writes, not another
// Store's (another process) on the same file.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { NewTurn } from '../../src/core/types.js';
import { baselineTurnNeighbours } from '../../bench/baseline-neighbours.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { seeded } from '../helpers/prng.js';

const NS = 'default';
const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
const turn = (sessionId: string, messageId: string, over: Partial<NewTurn> = {}): NewTurn => ({
  namespace: NS, sessionId, messageId, role: 'user', speaker: null, text: `turn ${sessionId}/${messageId}`, timestamp: at(Number(messageId.replace(/\D/g, '')) || 0), line: null, meta: {}, ...over,
});
const ids = (xs: ReadonlyArray<{ id: string }>) => xs.map((x) => x.id);
const BYTES = { entryBytes: true };

describe('turnNeighbours: batched and cached', () => {
  let dir: { dir: string; cleanup: () => void };
  let path: string;
  let store: SqliteStore;
  let other: SqliteStore;
  before(() => {
    dir = tempDir('cairn-neighbours-');
    path = join(dir.dir, 'cairn.db');
    store = new SqliteStore(path);
    other = new SqliteStore(path);
  });
  after(async () => {
    await store.close();
    await other.close();
    dir.cleanup();
  });

  it('returns what one query per anchor returned, for interleaved sessions, any radius, repeated calls', async () => {
    const rand = seeded(29);
    const list: NewTurn[] = [];
    // Sessions written interleaved (seqs of one session are not contiguous), some one turn long.
    for (let i = 0; i < 400; i++) {
      const s = `s${Math.floor(rand() * 12)}`;
      list.push(turn(s, `m${i}`, { role: rand() < 0.3 ? 'assistant' : 'user', speaker: rand() < 0.5 ? 'Ana' : null, text: `said ${i} ${'x'.repeat(Math.floor(rand() * 900))}`, meta: rand() < 0.1 ? { kind: 'tool' } : {} }));
    }
    list.push(turn('lonely', 'm999'));
    list.push(turn('s1', 'elsewhere', { namespace: 'other' }));
    const { inserted } = await store.addTurns(list);
    const all = inserted.map((t) => t.id);
    for (const radius of [0, 1, 2, 5]) {
      for (let round = 0; round < 3; round++) {
        const asked = [...Array.from({ length: 60 }, () => all[Math.floor(rand() * all.length)]!), 't_unknown', all[0]!, all[0]!];
        const want = baselineTurnNeighbours(store.db, NS, asked, radius);
        // Without entry bytes first: the rows cached then are read again for them.
        const lean = await store.turnNeighbours(NS, asked, radius);
        assert.deepEqual(lean.map((r) => [r.turnId, ids(r.before), ids(r.after)]), want.map((r) => [r.turnId, ids(r.before), ids(r.after)]));
        for (const near of lean.flatMap((r) => [...r.before, ...r.after])) assert.ok(near.entryBytes === undefined || typeof near.entryBytes === 'number');
        const got = await store.turnNeighbours(NS, asked, radius, BYTES);
        assert.deepEqual(got, want, `radius ${radius}, round ${round}`);
      }
    }
    // A turn of another namespace is not found from this one, nor this one's from there.
    const foreign = inserted.find((t) => t.namespace === 'other')!.id;
    assert.deepEqual(await store.turnNeighbours(NS, [foreign], 2), []);
    assert.deepEqual(await store.turnNeighbours('other', [all[0]!], 2), []);
    assert.deepEqual(await store.turnNeighbours(NS, [], 2), []);
  });

  it('takes hostile and oversized id lists: quotes, JSON, 5,000 ids', async () => {
    const { inserted } = await store.addTurns([turn('h', 'h1'), turn('h', 'h2')]);
    const hostile = [`'); DROP TABLE turns; --`, '"]', '[1,2]', '', '\u0000', 'x'.repeat(10_000)];
    assert.deepEqual(await store.turnNeighbours(NS, hostile, 1), []);
    const many = [...Array.from({ length: 5000 }, (_, i) => `t_missing_${i}`), inserted[1]!.id];
    const rows = await store.turnNeighbours(NS, many, 1);
    assert.deepEqual(rows.map((r) => ids(r.before)), [[inserted[0]!.id]]);
  });

  it("sees this store's own writes: a new turn beside a cached anchor, a purged text", async () => {
    const { inserted } = await store.addTurns([turn('w', 'w1'), turn('w', 'w2')]);
    const [w1, w2] = inserted;
    assert.deepEqual(ids((await store.turnNeighbours(NS, [w1!.id], 2))[0]!.after), [w2!.id]);
    const { inserted: more } = await store.addTurns([turn('w', 'w3')]);
    assert.deepEqual(ids((await store.turnNeighbours(NS, [w1!.id], 2))[0]!.after), [w2!.id, more[0]!.id]);
    store.db.prepare('UPDATE turns SET text = ? WHERE id = ?').run('[redacted]', w2!.id);
    assert.equal((await store.turnNeighbours(NS, [w1!.id], 2))[0]!.after[0]!.text, '[redacted]');
  });

  it('sees a write from a second Store on the same file (another process)', async () => {
    const { inserted } = await store.addTurns([turn('p', 'p1'), turn('p', 'p2')]);
    const [p1, p2] = inserted;
    // Cached in `store`, then changed through `other`: a new turn, a rewritten one, a deleted entry.
    assert.deepEqual(ids((await store.turnNeighbours(NS, [p1!.id], 3))[0]!.after), [p2!.id]);
    const { inserted: added } = await other.addTurns([turn('p', 'p3')]);
    assert.deepEqual(ids((await store.turnNeighbours(NS, [p1!.id], 3))[0]!.after), [p2!.id, added[0]!.id]);
    other.db.prepare('UPDATE turns SET text = ? WHERE id = ?').run('changed elsewhere', p2!.id);
    assert.equal((await store.turnNeighbours(NS, [p1!.id], 3))[0]!.after[0]!.text, 'changed elsewhere');
    other.db.prepare("DELETE FROM entries WHERE kind = 'turn' AND ref_id = ?").run(p2!.id);
    const near = (await store.turnNeighbours(NS, [p1!.id], 3, BYTES))[0]!.after[0]!;
    assert.equal(near.entrySeq, null);
    assert.equal(near.entryBytes, null);
    // The anchor itself moved to another session elsewhere: it now has that session's neighbours.
    other.db.prepare("UPDATE turns SET session_id = 'moved' WHERE id = ?").run(p1!.id);
    assert.deepEqual(await store.turnNeighbours(NS, [p1!.id], 3), [{ turnId: p1!.id, before: [], after: [] }]);
    assert.deepEqual(await store.turnNeighbours(NS, [p1!.id], 3, BYTES), baselineTurnNeighbours(store.db, NS, [p1!.id], 3));
  });
  it('stays exact past its size bound: 2,000 turns of 4,000 characters, asked for in rounds', async () => {
    const { inserted } = await store.addTurns(Array.from({ length: 2000 }, (_, i) => turn(`big${i % 3}`, `b${i}`, { text: `${i} ${'long text '.repeat(400)}` })));
    const all = inserted.map((t) => t.id);
    for (let from = 0; from < all.length; from += 250) {
      const asked = all.slice(from, from + 250);
      assert.deepEqual(await store.turnNeighbours(NS, asked, 2, BYTES), baselineTurnNeighbours(store.db, NS, asked, 2));
    }
    // The first rounds' rows were evicted to make room: read again, still the same.
    assert.deepEqual(await store.turnNeighbours(NS, all.slice(0, 300), 2, BYTES), baselineTurnNeighbours(store.db, NS, all.slice(0, 300), 2));
    // One call whose rows alone weigh more than the bound (~8 M characters): the cache makes room
    // while they are read, and every one of them is still in the answer.
    assert.deepEqual(await store.turnNeighbours(NS, all, 2, BYTES), baselineTurnNeighbours(store.db, NS, all, 2));
  });
  it("stays exact through this Store's own writes of every kind between lookups: turns added (taken in), rewritten, moved, entries deleted, other tables", async () => {
    const MIX = 'mix';
    const rand = seeded(41);
    const speakers = ['Ana', 'Bo', null];
    const mixTurn = (session: string, i: number) => turn(session, `x${i}`, { namespace: MIX, speaker: speakers[Math.floor(rand() * 3)]!, text: `mixed ${i} ${'y'.repeat(Math.floor(rand() * 300))}` });
    let n = 0;
    const all = ids((await store.addTurns(Array.from({ length: 120 }, () => mixTurn(`s${Math.floor(rand() * 6)}`, n++)))).inserted);
    const pick = () => all[Math.floor(rand() * all.length)]!;
    const steps: string[] = [];
    for (let step = 0; step < 80; step++) {
      const r = rand();
      if (r < 0.45) {
        // Into a session the cache knows, a new one, or one a new speaker opens.
        const session = rand() < 0.8 ? `s${Math.floor(rand() * 7)}` : `new${step}`;
        const batch = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => mixTurn(session, n++));
        if (rand() < 0.2) batch[0]!.speaker = `Speaker${step}`;
        if (rand() < 0.1) batch[0]!.speaker = null;
        all.push(...ids((await store.addTurns(batch)).inserted));
        steps.push('add');
      } else if (r < 0.6) {
        store.db.prepare('UPDATE turns SET text = ? WHERE id = ?').run(`rewritten at ${step}`, pick());
        steps.push('rewrite');
      } else if (r < 0.7) {
        store.db.prepare('UPDATE turns SET session_id = ? WHERE id = ?').run(`moved${step % 3}`, pick());
        steps.push('move');
      } else if (r < 0.8) {
        store.db.prepare("DELETE FROM entries WHERE kind = 'turn' AND ref_id = ?").run(pick());
        steps.push('entry deleted');
      } else if (r < 0.9) {
        await store.addMemory({ namespace: MIX, text: `a note at ${step}` });
        steps.push('memory');
      } else steps.push('none');
      const asked = [...Array.from({ length: 25 }, pick), 't_unknown'];
      const radius = 1 + (step % 3);
      assert.deepEqual(await store.turnNeighbours(MIX, asked, radius, BYTES), baselineTurnNeighbours(store.db, MIX, asked, radius), `after ${steps.join(', ')}`);
      // Most turns first; speakers with as many turns in no promised order.
      const fresh = store.db.prepare('SELECT name, turns FROM speakers WHERE namespace = ? ORDER BY turns DESC, name').all(MIX);
      const got = await store.speakers(MIX);
      assert.ok(got.every((sp, i) => i === 0 || got[i - 1]!.turns >= sp.turns), `speakers in order after ${steps.join(', ')}`);
      assert.deepEqual([...got].sort((a, b) => b.turns - a.turns || (a.name < b.name ? -1 : 1)), fresh, `speakers after ${steps.join(', ')}`);
    }
    assert.ok(steps.filter((s) => s === 'add').length > 20);
  });

  it('speakers: cached until a write here or from another Store, never shared for mutation', async () => {
    await store.addTurns([turn('sp', 'sp1', { namespace: 'people', speaker: 'Ana' })]);
    assert.deepEqual(await store.speakers('people'), [{ name: 'Ana', turns: 1 }]);
    // A caller cannot change what the next one reads: the list is a copy, or frozen (a shared one).
    const first = (await store.speakers('people'))[0]!;
    try {
      first.turns = 99;
    } catch (err) {
      assert.ok(err instanceof TypeError);
    }
    assert.deepEqual(await store.speakers('people'), [{ name: 'Ana', turns: 1 }]);
    await other.addTurns([turn('sp', 'sp2', { namespace: 'people', speaker: 'Bo' }), turn('sp', 'sp3', { namespace: 'people', speaker: 'Bo' })]);
    assert.deepEqual(await store.speakers('people'), [{ name: 'Bo', turns: 2 }, { name: 'Ana', turns: 1 }]);
    await store.addTurns([turn('sp', 'sp4', { namespace: 'people', speaker: 'Cy' })]);
    assert.deepEqual((await store.speakers('people')).map((x) => x.name), ['Bo', 'Ana', 'Cy']);
    assert.deepEqual(await store.speakers('nobody'), []);
  });
});
