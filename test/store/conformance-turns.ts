// Store conformance, turns, sources and checkpoints. Called from conformance.ts inside every backend's
// suite; talks to the store only through the `Store` interface.
import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/store.js';
import { indexTerms } from '../helpers/index-terms.js';
import { NS, OTHER, at, turn, type ConformanceContext } from './conformance-fixtures.js';

export function turnConformance(ctx: ConformanceContext): void {
  describe('turns, sources and checkpoints', () => {
    let store: Store;
    beforeEach(() => {
      store = ctx.store();
    });

    it('speakers counts named speakers per namespace, duplicates not counted twice', async () => {
      await store.addTurns([
        turn({ messageId: 'a1', speaker: 'Ana' }),
        turn({ messageId: 'a2', speaker: 'Ana' }),
        turn({ messageId: 'b1', speaker: 'Bo' }),
        turn({ messageId: 'n1' }),
        turn({ messageId: 'x1', speaker: 'Ana', namespace: OTHER }),
      ]);
      await store.addTurns([turn({ messageId: 'a1', speaker: 'Ana' }), turn({ messageId: 'a3', speaker: 'Ana' })]);
      assert.deepEqual(await store.speakers(NS), [{ name: 'Ana', turns: 3 }, { name: 'Bo', turns: 1 }]);
      assert.deepEqual(await store.speakers(OTHER), [{ name: 'Ana', turns: 1 }]);
      assert.deepEqual(await store.speakers('nobody-here'), []);
    });

    it('turnNeighbours returns the turns around each turn within its session, in order, with entry seqs', async () => {
      const { inserted } = await store.addTurns([
        turn({ messageId: 'm1' }),
        turn({ messageId: 'm2' }),
        turn({ messageId: 'o1', sessionId: 's2' }),
        turn({ messageId: 'm3' }),
        turn({ messageId: 'm4' }),
      ]);
      const [m1, m2, , m3, m4] = inserted;
      const rows = await store.turnNeighbours(NS, [m3!.id, m1!.id, 't_unknown'], 2);
      assert.equal(rows.length, 2);
      const around3 = rows.find((r) => r.turnId === m3!.id)!;
      assert.deepEqual(around3.before.map((x) => x.id), [m1!.id, m2!.id]);
      assert.deepEqual(around3.after.map((x) => x.id), [m4!.id]);
      for (const x of [...around3.before, ...around3.after]) assert.equal(typeof x.entrySeq, 'number');
      const around1 = rows.find((r) => r.turnId === m1!.id)!;
      assert.deepEqual(around1.before, []);
      assert.deepEqual(around1.after.map((x) => x.id), [m2!.id, m3!.id]);
      // Namespaces are walls: the same ids asked for from another namespace find nothing.
      assert.deepEqual(await store.turnNeighbours(OTHER, [m3!.id], 2), []);
      assert.deepEqual(await store.turnNeighbours(NS, [], 2), []);
      // Bytes of a neighbour's indexed text bound its length from above (search reads passages by it).
      const text = 'Café ☕ at noon';
      const [accented, next] = (await store.addTurns([turn({ messageId: 'a1', sessionId: 's3', text }), turn({ messageId: 'a2', sessionId: 's3' })])).inserted;
      const near = (await store.turnNeighbours(NS, [next!.id], 1, { entryBytes: true }))[0]!.before[0];
      assert.equal(near!.id, accented!.id);
      assert.equal(near!.text, text);
      assert.equal(near!.entryBytes, Buffer.byteLength(text));
      assert.ok(near!.entryBytes! > text.length);
    });

    it('turnNeighbours tells tool activity from conversation, by role or meta.kind', async () => {
      const { inserted } = await store.addTurns([
        turn({ messageId: 'c1', sessionId: 'tools' }),
        turn({ messageId: 'c2', sessionId: 'tools', role: 'tool' }),
        turn({ messageId: 'c3', sessionId: 'tools' }),
        turn({ messageId: 'c4', sessionId: 'tools', meta: { kind: 'tool', exit: 0 } }),
        turn({ messageId: 'c5', sessionId: 'tools', meta: { kind: 'message' } }),
      ]);
      const [around] = await store.turnNeighbours(NS, [inserted[2]!.id], 2);
      assert.deepEqual([...around!.before, ...around!.after].map((x) => [x.id, x.conversational]), [
        [inserted[0]!.id, true],
        [inserted[1]!.id, false],
        [inserted[3]!.id, false],
        [inserted[4]!.id, true],
      ]);
    });

    it('getTurns returns whole turns of one namespace, in the order asked, each once', async () => {
      const { inserted } = await store.addTurns([
        turn({ messageId: 'g1', speaker: 'Ana', meta: { model: 'x' } }),
        turn({ messageId: 'g2', role: 'assistant' }),
        turn({ messageId: 'g3', namespace: OTHER }),
      ]);
      const [g1, g2, g3] = inserted;
      assert.deepEqual(await store.getTurns(NS, [g2!.id, 't_unknown', g1!.id, g2!.id, g3!.id]), [g2, g1]);
      assert.deepEqual(await store.getTurns(OTHER, [g1!.id, g3!.id]), [g3]);
      assert.deepEqual(await store.getTurns(NS, []), []);
      assert.deepEqual(await store.getTurns(NS, [`'); DROP TABLE turns; --`, '"]', '\u0000']), []);
    });

    it('addTurns inserts, counts duplicates by namespace + session + message id, getTurn returns them', async () => {
      const src = await store.addSource(NS, 'jsonl', '/tmp/chat.jsonl');
      const first = await store.addTurns([
        turn({ messageId: 'm1', sourceId: src.id, line: 1, speaker: 'Ana', meta: { model: 'x' } }),
        turn({ messageId: 'm2', sourceId: src.id, line: 2, role: 'assistant' }),
      ]);
      assert.equal(first.inserted.length, 2);
      assert.equal(first.duplicates, 0);
      const t1 = first.inserted[0]!;
      assert.match(t1.id, /^t_/);
      assert.equal(t1.namespace, NS);
      assert.equal(t1.sourceId, src.id);
      assert.equal(t1.sessionId, 's1');
      assert.equal(t1.messageId, 'm1');
      assert.equal(t1.role, 'user');
      assert.equal(t1.speaker, 'Ana');
      assert.equal(t1.line, 1);
      assert.deepEqual(t1.meta, { model: 'x' });
      assert.equal(first.inserted[1]!.speaker, null);
      assert.deepEqual(await store.getTurn(NS, t1.id), t1);
      assert.equal(await store.getTurn(OTHER, t1.id), null);

      const second = await store.addTurns([
        turn({ messageId: 'm1', text: 'changed text, same message' }),
        turn({ messageId: 'm2' }),
        turn({ messageId: 'm1', sessionId: 's2' }),
        turn({ messageId: 'm1', namespace: OTHER }),
        turn({ messageId: 'm3' }),
        turn({ messageId: 'm3' }),
      ]);
      assert.equal(second.duplicates, 3);
      assert.deepEqual(second.inserted.map((t) => `${t.namespace}/${t.sessionId}/${t.messageId}`), ['alpha/s2/m1', 'beta/s1/m1', 'alpha/s1/m3']);
      assert.equal((await store.getTurn(NS, t1.id))!.text, 'message m1', 'a duplicate never overwrites');
      const stats = Object.fromEntries((await store.namespaceStats()).map((s) => [s.namespace, s.turns]));
      assert.deepEqual(stats, { alpha: 4, beta: 1 });
    });

    it('addTurns saves the checkpoint in the same call, and a failing call stores nothing', async () => {
      const src = await store.addSource(NS, 'jsonl', '/tmp/a.jsonl');
      assert.equal(await store.getCheckpoint(src.id, 'offset'), null);
      await store.addTurns([turn({ messageId: 'a' })], { sourceId: src.id, key: 'offset', state: { bytes: 120, inode: 7 } });
      assert.deepEqual(await store.getCheckpoint(src.id, 'offset'), { bytes: 120, inode: 7 });
      // Only a checkpoint (no turns) also moves.
      await store.addTurns([], { sourceId: src.id, key: 'offset', state: { bytes: 240 } });
      assert.deepEqual(await store.getCheckpoint(src.id, 'offset'), { bytes: 240 });
      // A checkpoint for a source that does not exist cannot be saved: the turns must not land either.
      await assert.rejects(store.addTurns([turn({ messageId: 'b', text: 'orphan zebra' })], { sourceId: 987654, key: 'offset', state: { bytes: 1 } }));
      assert.equal((await store.keywordSearch(NS, indexTerms(['zebra']), 10)).length, 0);
      assert.equal((await store.namespaceStats()).find((s) => s.namespace === NS)!.turns, 1);
      assert.equal(await store.getCheckpoint(987654, 'offset'), null);
    });

    it('addTurns can make the checkpoint from what it stored (new vs duplicate turns)', async () => {
      const src = await store.addSource(NS, 'jsonl', '/tmp/b.jsonl');
      const seen: Array<{ inserted: number; duplicates: number }> = [];
      const state = (added: { inserted: number; duplicates: number }) => {
        seen.push(added);
        return { stored: added.inserted };
      };
      await store.addTurns([turn({ messageId: 'x1' }), turn({ messageId: 'x2' })], { sourceId: src.id, key: 'k', state });
      assert.deepEqual(await store.getCheckpoint(src.id, 'k'), { stored: 2 });
      await store.addTurns([turn({ messageId: 'x1' }), turn({ messageId: 'x2' }), turn({ messageId: 'x3' })], { sourceId: src.id, key: 'k', state });
      assert.deepEqual(await store.getCheckpoint(src.id, 'k'), { stored: 1 });
      assert.deepEqual(seen, [{ inserted: 2, duplicates: 0 }, { inserted: 1, duplicates: 2 }]);
    });

    it('sources: add is idempotent per namespace/kind/path (options updated), list filters, remove', async () => {
      const a = await store.addSource(NS, 'jsonl', '/data/a.jsonl', { follow: true });
      assert.equal(a.namespace, NS);
      assert.equal(a.kind, 'jsonl');
      assert.equal(a.path, '/data/a.jsonl');
      assert.deepEqual(a.options, { follow: true });
      assert.ok(!Number.isNaN(Date.parse(a.createdAt)));
      const again = await store.addSource(NS, 'jsonl', '/data/a.jsonl', { follow: false });
      assert.equal(again.id, a.id);
      assert.deepEqual(again.options, { follow: false });
      const b = await store.addSource(OTHER, 'jsonl', '/data/a.jsonl');
      assert.notEqual(b.id, a.id);
      assert.deepEqual(b.options, {});
      const c = await store.addSource(NS, 'markdown', '/notes');
      assert.deepEqual((await store.listSources(NS)).map((s) => s.id), [a.id, c.id]);
      assert.deepEqual((await store.listSources(OTHER)).map((s) => s.id), [b.id]);
      assert.deepEqual((await store.listSources()).map((s) => s.id).sort((x, y) => x - y), [a.id, b.id, c.id].sort((x, y) => x - y));
      assert.deepEqual(await store.listSources('gamma'), []);

      await store.putCheckpoint({ sourceId: a.id, key: 'k', state: { n: 1 } });
      assert.equal(await store.removeSource(a.id), true);
      assert.equal(await store.removeSource(a.id), false);
      assert.deepEqual((await store.listSources(NS)).map((s) => s.id), [c.id]);
      assert.equal(await store.getCheckpoint(a.id, 'k'), null, 'checkpoints go with their source');
    });

    it('checkpoints: put, overwrite, keys are separate', async () => {
      const src = await store.addSource(NS, 'jsonl', '/x');
      await store.putCheckpoint({ sourceId: src.id, key: 'a', state: { offset: 1, nested: { ok: true }, list: [1, 2] } });
      await store.putCheckpoint({ sourceId: src.id, key: 'b', state: { offset: 2 } });
      assert.deepEqual(await store.getCheckpoint(src.id, 'a'), { offset: 1, nested: { ok: true }, list: [1, 2] });
      await store.putCheckpoint({ sourceId: src.id, key: 'a', state: { offset: 3 } });
      assert.deepEqual(await store.getCheckpoint(src.id, 'a'), { offset: 3 });
      assert.deepEqual(await store.getCheckpoint(src.id, 'b'), { offset: 2 });
      assert.equal(await store.getCheckpoint(src.id, 'c'), null);
      const listed = await store.listCheckpoints(src.id);
      assert.deepEqual(listed.map((c) => [c.key, c.state]), [['a', { offset: 3 }], ['b', { offset: 2 }]]);
      assert.ok(listed.every((c) => !Number.isNaN(Date.parse(c.updatedAt))));
      assert.deepEqual(await store.listCheckpoints(987654), []);
    });

    it('turnsAfter pages a namespace in insertion order; sourceTurnCounts counts per source', async () => {
      const src = await store.addSource(NS, 'jsonl', '/follow');
      const mk = (i: number, ns = NS) => ({ namespace: ns, sourceId: src.id, sessionId: 's', messageId: `m${i}`, role: 'user', speaker: null, text: `turn ${i}`, timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), line: i, meta: {} });
      await store.addTurns([mk(1), mk(2), mk(3)]);
      await store.addTurns([mk(1, OTHER)]);
      const first = await store.turnsAfter(NS, 0, 2);
      assert.deepEqual(first.map((t) => t.turn.text), ['turn 1', 'turn 2']);
      assert.ok(first[0]!.seq < first[1]!.seq);
      const rest = await store.turnsAfter(NS, first[1]!.seq, 10);
      assert.deepEqual(rest.map((t) => t.turn.text), ['turn 3']);
      assert.deepEqual(await store.turnsAfter(NS, rest[0]!.seq, 10), []);
      assert.equal((await store.sourceTurnCounts()).get(src.id), 4);
      await store.removeSource(src.id);
      assert.equal((await store.sourceTurnCounts()).get(src.id), undefined);
      assert.equal((await store.turnsAfter(NS, 0, 10)).length, 3, 'turns outlive their source');
    });
  });

}
