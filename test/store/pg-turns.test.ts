// Turns, neighbours, speakers, judgments' reads, feedback and usage on both backends, through the
// Store interface, against a model of what was written: the neighbour checks of
// turn-neighbours.test.ts without SQLite's baseline, plus what several writers need on PostgreSQL
// (two connections adding the same turns at once: nothing lost, nothing doubled, counts exact).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { NeighbourTurns, Store } from '../../src/store/store.js';
import type { NewTurn, Turn } from '../../src/core/types.js';
import pg from 'pg';
import { dropSchema, freshPgStore, freshSchemaName, testDatabaseUrl } from '../helpers/postgres.js';
import { PgStore } from '../../src/store/postgres/pg-store.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { seeded } from '../helpers/prng.js';
import { conversational } from '../../src/search/neighbours.js';

interface Harness {
  store: Store;
  /** A second connection to the same database (another process, another machine). */
  other: Store;
  /** Raw SQL for what the Store interface does not offer (`?` placeholders on both backends). */
  exec(sql: string, params: unknown[]): Promise<void>;
  all(sql: string, params: unknown[]): Promise<Array<Record<string, unknown>>>;
  cleanup(): Promise<void>;
}

const backends: Record<string, () => Promise<Harness>> = {
  sqlite: async () => {
    const dir = tempDir('cairn-turns-');
    const path = join(dir.dir, 'cairn.db');
    const store = new SqliteStore(path);
    const other = new SqliteStore(path);
    return {
      store,
      other,
      exec: async (sql, params) => void store.db.prepare(sql).run(...params),
      all: async (sql, params) => store.db.prepare(sql).all(...params) as Array<Record<string, unknown>>,
      cleanup: async () => {
        await store.close();
        await other.close();
        dir.cleanup();
      },
    };
  },
  postgres: async () => {
    const made = await freshPgStore();
    const other = await made.connect();
    const numbered = (sql: string) => {
      let n = 0;
      return sql.replace(/\?/g, () => `$${++n}`);
    };
    return {
      store: made.store,
      other,
      exec: async (sql, params) => void (await made.store.pool.query(numbered(sql), params)),
      all: async (sql, params) => (await made.store.pool.query(numbered(sql), params)).rows as Array<Record<string, unknown>>,
      cleanup: async () => {
        await made.store.close();
        await made.cleanup();
      },
    };
  },
};

const NS = 'default';
const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
const turn = (sessionId: string, messageId: string, over: Partial<NewTurn> = {}): NewTurn => ({
  namespace: NS, sessionId, messageId, role: 'user', speaker: null, text: `turn ${sessionId}/${messageId}`, timestamp: at(Number(messageId.replace(/\D/g, '')) || 0), line: null, meta: {}, ...over,
});
const ids = (xs: ReadonlyArray<{ id: string }>) => xs.map((x) => x.id);

/** What turnNeighbours must answer, from the turns as inserted (insertion order is session order). */
function model(inserted: readonly Turn[], namespace: string, asked: readonly string[], radius: number): Array<{ turnId: string; before: string[]; after: string[] }> {
  const byId = new Map(inserted.filter((t) => t.namespace === namespace).map((t) => [t.id, t]));
  return asked.flatMap((id) => {
    const t = byId.get(id);
    if (!t) return [];
    const session = inserted.filter((x) => x.namespace === namespace && x.sessionId === t.sessionId).map((x) => x.id);
    const i = session.indexOf(id);
    return [{ turnId: id, before: session.slice(Math.max(0, i - radius), i), after: session.slice(i + 1, i + 1 + radius) }];
  });
}

const shape = (rows: readonly NeighbourTurns[]) => rows.map((r) => ({ turnId: r.turnId, before: ids(r.before), after: ids(r.after) }));

for (const [name, open] of Object.entries(backends)) {
  describe(`turns on ${name}`, () => {
    let h: Harness;
    before(async () => {
      h = await open();
    });
    after(async () => {
      await h.cleanup();
    });

    it('turnNeighbours answers what the model does, for interleaved sessions, any radius, repeated and unknown ids', async () => {
      const rand = seeded(29);
      const list: NewTurn[] = [];
      for (let i = 0; i < 400; i++) {
        const s = `s${Math.floor(rand() * 12)}`;
        list.push(turn(s, `m${i}`, { role: rand() < 0.3 ? 'assistant' : 'user', speaker: rand() < 0.5 ? 'Ana' : null, text: `said ${i} ${'é'.repeat(Math.floor(rand() * 900))}`, meta: rand() < 0.1 ? { kind: 'tool' } : {} }));
      }
      list.push(turn('lonely', 'm999'));
      list.push(turn('s1', 'elsewhere', { namespace: 'other' }));
      const { inserted } = await h.store.addTurns(list);
      const byId = new Map(inserted.map((t) => [t.id, t]));
      const all = inserted.filter((t) => t.namespace === NS).map((t) => t.id);
      const entrySeqs = new Map<string, number>();
      for (const radius of [0, 1, 2, 5]) {
        for (let round = 0; round < 3; round++) {
          const asked = [...Array.from({ length: 60 }, () => all[Math.floor(rand() * all.length)]!), 't_unknown', all[0]!, all[0]!, all.at(-1)!];
          const lean = await h.store.turnNeighbours(NS, asked, radius);
          assert.deepEqual(shape(lean), model(inserted, NS, asked, radius), `radius ${radius}, round ${round}`);
          const got = await h.store.turnNeighbours(NS, asked, radius, { entryBytes: true });
          assert.deepEqual(shape(got), model(inserted, NS, asked, radius), `radius ${radius}, round ${round}`);
          for (const near of got.flatMap((r) => [...r.before, ...r.after])) {
            const t = byId.get(near.id)!;
            assert.equal(near.text, t.text);
            assert.equal(near.conversational, conversational(t));
            assert.equal(near.entryBytes, Buffer.byteLength(near.text));
            assert.ok(Number.isInteger(near.entrySeq));
            assert.equal(entrySeqs.get(near.id) ?? near.entrySeq, near.entrySeq, 'one entry per turn');
            entrySeqs.set(near.id, near.entrySeq!);
          }
        }
      }
      assert.equal(new Set(entrySeqs.values()).size, entrySeqs.size, 'no two turns share an entry');
      const whole = all.slice(100, 130);
      assert.deepEqual(shape(await h.store.turnNeighbours(NS, whole, Infinity)), model(inserted, NS, whole, inserted.length));
      assert.deepEqual(shape(await h.store.turnNeighbours(NS, whole, -1)), model(inserted, NS, whole, 0));
      const lonely = inserted.find((t) => t.sessionId === 'lonely')!.id;
      assert.deepEqual(await h.store.turnNeighbours(NS, [lonely], 3), [{ turnId: lonely, before: [], after: [] }]);
      const foreign = inserted.find((t) => t.namespace === 'other')!.id;
      assert.deepEqual(await h.store.turnNeighbours(NS, [foreign], 2), [], 'namespaces are walls');
      assert.deepEqual(await h.store.turnNeighbours('other', [all[0]!], 2), []);
      assert.deepEqual(await h.store.turnNeighbours(NS, [], 2), []);
    });

    it('turnNeighbours takes hostile and oversized id lists: quotes, JSON, NUL, 5,000 ids', async () => {
      const { inserted } = await h.store.addTurns([turn('h', 'h1'), turn('h', 'h2')]);
      const hostile = [`'); DROP TABLE turns; --`, '"]', '[1,2]', '{a,b}', '', '\u0000', `${inserted[0]!.id}\u0000`, 'x'.repeat(10_000)];
      assert.deepEqual(await h.store.turnNeighbours(NS, hostile, 1), []);
      const many = [...Array.from({ length: 5000 }, (_, i) => `t_missing_${i}`), '\u0000', inserted[1]!.id];
      assert.deepEqual(shape(await h.store.turnNeighbours(NS, many, 1)), [{ turnId: inserted[1]!.id, before: [inserted[0]!.id], after: [] }]);
    });

    it("sees another connection's writes at once: a new turn, a rewritten text, a deleted entry, a moved anchor", async () => {
      const { inserted } = await h.store.addTurns([turn('p', 'p1'), turn('p', 'p2')]);
      const [p1, p2] = inserted;
      assert.deepEqual(ids((await h.store.turnNeighbours(NS, [p1!.id], 3))[0]!.after), [p2!.id]);
      const { inserted: added } = await h.other.addTurns([turn('p', 'p3')]);
      assert.deepEqual(ids((await h.store.turnNeighbours(NS, [p1!.id], 3))[0]!.after), [p2!.id, added[0]!.id]);
      await h.exec('UPDATE turns SET text = ? WHERE id = ?', ['changed elsewhere', p2!.id]);
      assert.equal((await h.store.turnNeighbours(NS, [p1!.id], 3))[0]!.after[0]!.text, 'changed elsewhere');
      await h.exec("DELETE FROM entries WHERE kind = 'turn' AND ref_id = ?", [p2!.id]);
      const near = (await h.store.turnNeighbours(NS, [p1!.id], 3, { entryBytes: true }))[0]!.after[0]!;
      assert.equal(near.entrySeq, null);
      assert.equal(near.entryBytes, null);
      await h.exec("UPDATE turns SET session_id = 'moved' WHERE id = ?", [p1!.id]);
      assert.deepEqual(await h.store.turnNeighbours(NS, [p1!.id], 3), [{ turnId: p1!.id, before: [], after: [] }]);
    });

    it('speakers: exact counts, most turns first then by name, fresh after another connection writes, never shared for mutation', async () => {
      await h.store.addTurns([turn('sp', 'sp1', { namespace: 'people', speaker: 'Ana' })]);
      assert.deepEqual(await h.store.speakers('people'), [{ name: 'Ana', turns: 1 }]);
      // A caller cannot change what the next one reads: the list is a copy, or frozen (a shared one).
      const first = (await h.store.speakers('people'))[0]!;
      try {
        first.turns = 99;
      } catch (err) {
        assert.ok(err instanceof TypeError);
      }
      assert.deepEqual(await h.store.speakers('people'), [{ name: 'Ana', turns: 1 }]);
      await h.other.addTurns([turn('sp', 'sp2', { namespace: 'people', speaker: 'Bo' }), turn('sp', 'sp3', { namespace: 'people', speaker: 'Bo' }), turn('sp', 'sp1', { namespace: 'people', speaker: 'Ana' })]);
      assert.deepEqual(await h.store.speakers('people'), [{ name: 'Bo', turns: 2 }, { name: 'Ana', turns: 1 }]);
      await h.store.addTurns([turn('sp', 'sp4', { namespace: 'people', speaker: 'Cy' }), turn('sp', 'sp5', { namespace: 'people', speaker: "O'Brien; --" })]);
      assert.deepEqual((await h.store.speakers('people')).map((x) => x.name), ['Bo', 'Ana', 'Cy', "O'Brien; --"]);
      assert.deepEqual(await h.store.speakers('nobody'), []);
    });

    it('judgments read side: unjudged and judged pages, since and needs-rejudge filters, stats, turnsBefore', async () => {
      const ns = 'judged';
      const { inserted } = await h.store.addTurns([1, 2, 3, 4].map((i) => turn(i === 4 ? 'side' : 'main', `j${i}`, { namespace: ns })));
      const page = await h.store.unjudgedTurns(ns, 0, 10);
      assert.deepEqual(page.map((p) => p.turn.id), inserted.map((t) => t.id));
      const seq = new Map(page.map((p) => [p.turn.id, p.seq]));
      const judge = (t: Turn, judgeName: string, memoryId: string | null, rejudge: number) =>
        h.exec('INSERT INTO judgments (turn_id, namespace, turn_seq, importance, category, judge, reason, statement, memory_id, needs_rejudge, judged_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
          t.id, ns, seq.get(t.id), 7, 'decision', judgeName, 'because', null, memoryId, rejudge, at(50),
        ]);
      await judge(inserted[0]!, 'llm@a', 'm_x', 0);
      await judge(inserted[2]!, 'heuristic@b', null, 1);
      assert.deepEqual((await h.store.unjudgedTurns(ns, 0, 10)).map((p) => p.turn.id), [inserted[1]!.id, inserted[3]!.id]);
      assert.deepEqual((await h.store.unjudgedTurns(ns, seq.get(inserted[1]!.id)!, 10)).map((p) => p.turn.id), [inserted[3]!.id]);
      const judged = await h.store.judgedTurns(ns, 0, 10);
      assert.deepEqual(judged.map((j) => [j.turn.id, j.judgment.judge, j.judgment.memoryId, j.judgment.needsRejudge]), [
        [inserted[0]!.id, 'llm@a', 'm_x', false],
        [inserted[2]!.id, 'heuristic@b', null, true],
      ]);
      assert.deepEqual(judged[0]!.turn, inserted[0]);
      assert.equal(judged[0]!.judgment.turnSeq, seq.get(inserted[0]!.id));
      assert.deepEqual((await h.store.judgedTurns(ns, 0, 10, { onlyNeedsRejudge: true })).map((j) => j.turn.id), [inserted[2]!.id]);
      assert.deepEqual((await h.store.judgedTurns(ns, 0, 10, { since: at(2) })).map((j) => j.turn.id), [inserted[2]!.id]);
      assert.deepEqual(await h.store.judgedTurns(ns, 0, 1), [judged[0]]);
      assert.deepEqual(await h.store.getJudgment(inserted[0]!.id), judged[0]!.judgment);
      assert.equal(await h.store.getJudgment('t_missing'), null);
      const stats = (await h.store.judgeStats()).find((s) => s.namespace === ns);
      assert.deepEqual(stats, { namespace: ns, judged: 2, pending: 2, promoted: 1, needsRejudge: 1, byJudge: { 'llm@a': 1, 'heuristic@b': 1 } });
      assert.deepEqual((await h.store.turnsBefore(ns, 'main', seq.get(inserted[2]!.id)!, 5)).map((t) => t.id), [inserted[0]!.id, inserted[1]!.id]);
      assert.deepEqual(await h.store.turnsBefore(ns, 'side', seq.get(inserted[2]!.id)!, 5), []);
      assert.deepEqual(await h.store.turnsBefore(NS, 'main', Number.MAX_SAFE_INTEGER, 5), [], 'namespaces are walls');
    });

    it('setMemoryImportance: the current memory and its entry, in its namespace; a superseded version is left alone', async () => {
      const memory = (id: string, text: string, validTo: string | null) =>
        h.exec("INSERT INTO memories (id, namespace, text, dedup_key, category, importance, created_at, updated_at, valid_from, valid_to) VALUES (?, 'mem', ?, ?, 'fact', 5, ?, ?, ?, ?)", [id, text, text, at(1), at(1), at(1), validTo]);
      const entry = (id: string, text: string) =>
        h.exec("INSERT INTO entries (namespace, kind, ref_id, body, time, category, importance) VALUES ('mem', 'memory', ?, ?, ?, 'fact', 5)", [id, text, at(1)]);
      await h.store.addSource('mem', 'jsonl', '/mem.jsonl');
      await memory('m_current', 'deploys on friday', null);
      await entry('m_current', 'deploys on friday');
      await memory('m_old', 'deploys on monday', at(2));
      assert.equal(await h.store.setMemoryImportance('elsewhere', 'm_current', 2), false);
      assert.equal(await h.store.setMemoryImportance('mem', 'm_old', 2), false);
      assert.equal(await h.store.setMemoryImportance('mem', 'm_missing', 2), false);
      assert.equal(await h.store.setMemoryImportance('mem', 'm_current', 9), true);
      const importance = async (table: 'memories' | 'entries', id: string) =>
        (await h.all(table === 'memories' ? 'SELECT importance FROM memories WHERE id = ?' : "SELECT importance FROM entries WHERE kind = 'memory' AND ref_id = ?", [id]))[0]!.importance;
      assert.equal(await importance('memories', 'm_current'), 9);
      assert.equal(await importance('entries', 'm_current'), 9, 'the entry follows');
      assert.equal(await importance('memories', 'm_old'), 5);
    });

    it('feedback lists newest first, also within one millisecond, per namespace; usage adds up from two connections at once', async () => {
      const { inserted } = await h.store.addTurns([turn('f', 'f1', { namespace: 'fb' })]);
      const given = [];
      for (let i = 0; i < 6; i++) given.push(await h.store.addFeedback({ namespace: 'fb', refId: inserted[0]!.id, text: `note ${i} '; --`, category: i % 2 ? null : 'decision', important: i % 3 === 0 }));
      const listed = await h.store.listFeedback('fb', 10);
      assert.deepEqual(listed, [...given].reverse());
      assert.deepEqual(await h.store.listFeedback('fb', 2), [given[5], given[4]]);
      assert.deepEqual(await h.store.listFeedback(NS, 10), []);

      const day = '2026-02-03';
      await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? h.store : h.other).usageAdd('fb', day, { calls: 1, tokensIn: 10, tokensOut: 3, costUsd: 0.25, failures: i % 4 === 0 ? 1 : 0 })));
      assert.deepEqual(await h.store.usageGet('fb', day), { calls: 40, failures: 10, fallbacks: 0, tokensIn: 400, tokensOut: 120, costUsd: 10 });
      await h.store.usageAdd('fb', '2026-02-04', { fallbacks: 1 });
      assert.deepEqual((await h.store.usageList()).filter((u) => u.namespace === 'fb').map((u) => [u.day, u.calls, u.fallbacks]), [[day, 40, 0], ['2026-02-04', 0, 1]]);
      assert.deepEqual((await h.store.usageList(day)).map((u) => u.namespace), ['fb']);
      assert.deepEqual(await h.store.usageGet('fb', '1999-01-01'), { calls: 0, failures: 0, fallbacks: 0, tokensIn: 0, tokensOut: 0, costUsd: 0 });
    });

    it('two connections adding the same 200 turns at once store each once, count the rest as duplicates, and keep speakers exact', async () => {
      const ns = 'race';
      const speakers = ['Ana', 'Bo', 'Cy', 'Dee', 'Eli'];
      const list = Array.from({ length: 200 }, (_, i) => turn(`r${i % 4}`, `r${i}`, { namespace: ns, speaker: i % 7 === 0 ? null : speakers[i % 5]!, text: `race turn ${i}` }));
      const src = await h.store.addSource(ns, 'jsonl', '/race.jsonl');
      const checkpoint = (who: string) => ({ sourceId: src.id, key: 'offset', state: (n: { inserted: number; duplicates: number }) => ({ who, ...n }) });
      // One writer in file order, one in reverse: overlapping turns taken in opposite orders.
      const [a, b] = await Promise.all([h.store.addTurns(list, checkpoint('a')), h.other.addTurns([...list].reverse(), checkpoint('b'))]);
      assert.equal(a.inserted.length + b.inserted.length, 200);
      assert.equal(a.duplicates + b.duplicates, 200);
      assert.equal(a.inserted.length + a.duplicates, 200);
      const stored = new Set([...a.inserted, ...b.inserted].map((t) => `${t.sessionId}/${t.messageId}`));
      assert.equal(stored.size, 200);
      const page = await h.store.turnsAfter(ns, 0, 1000);
      assert.equal(page.length, 200);
      assert.deepEqual(new Set(page.map((p) => p.turn.id)), new Set([...a.inserted, ...b.inserted].map((t) => t.id)));
      const want = new Map<string, number>();
      for (const t of list) if (t.speaker) want.set(t.speaker, (want.get(t.speaker) ?? 0) + 1);
      assert.deepEqual(new Map((await h.store.speakers(ns)).map((s) => [s.name, s.turns])), want);
      const cp = (await h.store.getCheckpoint(src.id, 'offset')) as { who: string; inserted: number; duplicates: number };
      assert.equal(cp.inserted, (cp.who === 'a' ? a : b).inserted.length, 'the last commit wrote its own checkpoint');

      // Then in rounds of 20-turn batches from both, overlapping by half.
      const more = Array.from({ length: 200 }, (_, i) => turn(`q${i % 3}`, `q${i}`, { namespace: ns, speaker: speakers[i % 5]! }));
      const results = await Promise.all(Array.from({ length: 19 }, (_, k) => (k % 2 ? h.store : h.other).addTurns(more.slice(k * 10, k * 10 + 20))));
      assert.equal(results.reduce((n, r) => n + r.inserted.length, 0), 200);
      assert.equal(results.reduce((n, r) => n + r.duplicates, 0), 19 * 20 - 200);
      assert.equal((await h.store.turnsAfter(ns, 0, 1000)).length, 400);
      for (const t of more) want.set(t.speaker!, (want.get(t.speaker!) ?? 0) + 1);
      assert.deepEqual(new Map((await h.other.speakers(ns)).map((s) => [s.name, s.turns])), want);
      const neighbours = await h.store.turnNeighbours(ns, page.map((p) => p.turn.id), 1);
      assert.ok(neighbours.flatMap((r) => [...r.before, ...r.after]).every((n) => n.entrySeq !== null), 'every stored turn has its entry');
    });
  });
}

describe('turns on postgres: writers that really overlap', () => {
  /** A PgStore pair whose connections are told apart in pg_stat_activity, and a raw client. */
  async function racing() {
    const app = `cairn-race-${process.pid}-${Date.now()}`;
    const made = await freshPgStore({ applicationName: app });
    const other = await made.connect();
    const blocker = new pg.Client({ connectionString: made.url, options: `-c search_path=${made.schema},public` });
    await blocker.connect();
    const waiting = async () => (await blocker.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'", [app])).rows[0]!.n;
    const until = async (ok: () => Promise<boolean>) => {
      while (!(await ok())) await new Promise((r) => setTimeout(r, 20));
    };
    /** Holds the turn's key uncommitted: a writer of the same turn waits for it. */
    const hold = async (t: NewTurn) => {
      await blocker.query('BEGIN');
      await blocker.query("INSERT INTO turns (id, namespace, session_id, message_id, role, text, ts, created_at) VALUES ('t_blocker', $1, $2, $3, 'user', 'x', 'x', 'x')", [t.namespace, t.sessionId, t.messageId]);
    };
    const close = async () => {
      await blocker.end();
      await made.store.close();
      await made.cleanup();
    };
    return { store: made.store, other, blocker, waiting, until, hold, close };
  }

  it('a follower paging turnsAfter from its watermark misses no turn while two writers of one namespace commit out of order', async () => {
    const r = await racing();
    try {
      await r.store.addSource('follow', 'jsonl', '/follow');
      const first = Array.from({ length: 50 }, (_, i) => turn('one', `a${i}`, { namespace: 'follow' }));
      const second = Array.from({ length: 50 }, (_, i) => turn('two', `b${i}`, { namespace: 'follow' }));
      // The first writer stalls on its last turn, after it has taken seqs for the others.
      await r.hold(first.at(-1)!);
      const a = r.store.addTurns(first);
      await r.until(async () => (await r.waiting()) >= 1);
      let bDone = false;
      const b = r.other.addTurns(second).then((x) => ((bDone = true), x));
      await r.until(async () => bDone || (await r.waiting()) >= 2);
      const seen = await r.store.turnsAfter('follow', 0, 1000);
      const watermark = seen.at(-1)?.seq ?? 0;
      await r.blocker.query('ROLLBACK');
      await Promise.all([a, b]);
      seen.push(...(await r.store.turnsAfter('follow', watermark, 1000)));
      assert.equal(seen.length, 100, 'every turn seen once, whatever the commit order');
      assert.equal(new Set(seen.map((x) => x.turn.id)).size, 100);
    } finally {
      await r.close();
    }
  });

  it('two writers blocked on one uncommitted turn, then released together, taking the batch in opposite orders: no deadlock, each turn once', async () => {
    const r = await racing();
    try {
      const list = Array.from({ length: 200 }, (_, i) => turn(`b${i % 2}`, `b${i}`, { namespace: 'race', speaker: i % 2 ? 'Ana' : 'Bo' }));
      await r.store.addSource('race', 'jsonl', '/race');
      // A third session holds the first turn uncommitted: both writers must wait for it.
      await r.hold(list[0]!);
      const writes = Promise.all([r.store.addTurns(list), r.other.addTurns([...list].reverse())]);
      await r.until(async () => (await r.waiting()) >= 2);
      await r.blocker.query('ROLLBACK');
      const [a, b] = await writes;
      assert.deepEqual([a.inserted.length + b.inserted.length, a.duplicates + b.duplicates], [200, 200]);
      assert.ok(a.inserted.length === 0 || b.inserted.length === 0, 'one writer stored the batch, the other found it there');
      assert.equal((await r.store.turnsAfter('race', 0, 1000)).length, 200);
      assert.deepEqual(await r.other.speakers('race'), [{ name: 'Ana', turns: 100 }, { name: 'Bo', turns: 100 }]);
    } finally {
      await r.close();
    }
  });
});

describe('turns on postgres: byte order whatever the locale', () => {
  it('checkpoint keys, usage rows and tied speakers list in byte order (as SQLite) in a database whose locale sorts otherwise', async () => {
    const base = new URL(await testDatabaseUrl());
    const admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    try {
      await admin.query("CREATE DATABASE cairn_test_icu_en TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8' LOCALE_PROVIDER icu ICU_LOCALE 'en'");
    } catch (err) {
      if (!['42P04', '23505'].includes((err as { code?: string }).code ?? '')) throw err; // made by an earlier or parallel run
    } finally {
      await admin.end();
    }
    const icu = new URL(base);
    icu.pathname = '/cairn_test_icu_en';
    const schema = freshSchemaName();
    const en = await PgStore.open({ url: icu.toString(), schema, max: 2 });
    try {
      const names = ['beta', 'Zed', 'alpha', 'Émile', '_x', 'emile'];
      const bytes = [...names].sort();
      const src = await en.addSource(NS, 'jsonl', '/order');
      for (const key of names) await en.putCheckpoint({ sourceId: src.id, key, state: {} });
      assert.notDeepEqual((await en.pool.query('SELECT key FROM checkpoints ORDER BY key')).rows.map((r) => r.key), bytes, 'the locale sorts otherwise');
      assert.deepEqual((await en.listCheckpoints(src.id)).map((c) => c.key), bytes);
      for (const ns of names) await en.usageAdd(ns, '2026-01-01', { calls: 1 });
      assert.deepEqual((await en.usageList('2026-01-01')).map((u) => u.namespace), bytes);
      assert.deepEqual((await en.usageList()).map((u) => u.namespace), bytes);
      await en.addTurns(names.map((name, i) => turn('s', `o${i}`, { speaker: name })));
      assert.deepEqual((await en.speakers(NS)).map((s) => s.name), bytes);
    } finally {
      await en.close();
      await dropSchema(icu.toString(), schema);
    }
  });
});
