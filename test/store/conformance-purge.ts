// Store conformance, purge (issue 30 item 5): the one deletion. Called from conformance.ts inside
// every backend's suite; talks to the store only through the `Store` interface.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { NewTurn } from '../../src/core/types.js';
import { PURGED_MARKER, type Store } from '../../src/store/store.js';
import { indexTerms } from '../helpers/index-terms.js';

const NS = 'alpha';
const OTHER = 'beta';
const SECRET = 'hunter2-correct-horse';

function turn(messageId: string, text: string, over: Partial<NewTurn> = {}): NewTurn {
  return { namespace: NS, sessionId: 's1', messageId, role: 'user', speaker: 'Ana', text, timestamp: '2026-01-10T12:00:00.000Z', ...over };
}

const vec = (...v: number[]) => Float32Array.from(v);

/** Ref ids of the entries keyword search finds for `words` in a namespace (superseded included). */
async function found(store: Store, ns: string, words: string[]): Promise<string[]> {
  const hits = await store.keywordSearch(ns, indexTerms(words), 100, { includeSuperseded: true });
  return (await store.getEntries(ns, hits.map((h) => h.seq))).map((e) => e.refId).sort();
}

async function seqOf(store: Store, kind: 'memory' | 'turn' | 'document', id: string): Promise<number> {
  const entry = await store.entryFor(kind, id);
  assert.ok(entry, `no entry for ${id}`);
  return entry.seq;
}

export function purgeConformance(current: () => Store): void {
  describe('purge', () => {
    it('purgeRecords removes a memory with its entry, vectors and feedback, and closes its supersede chain', async () => {
      const store = current();
      const a = (await store.addMemory({ namespace: NS, text: 'the vault code is 1111' })).memory;
      const b = (await store.supersedeMemory(NS, a.id, { namespace: NS, text: 'the vault code is 2222' })).current;
      const c = (await store.supersedeMemory(NS, b.id, { namespace: NS, text: 'the vault code is 3333' })).current;
      await store.putVectors('model-a', [{ seq: await seqOf(store, 'memory', b.id), vector: vec(1, 0) }]);
      await store.addFeedback({ namespace: NS, refId: b.id, text: 'the vault code is 2222', category: 'fact', important: true });
      const res = await store.purgeRecords(NS, [b.id]);
      assert.deepEqual(res.missing, []);
      assert.deepEqual(res.removed, [{ kind: 'memory', id: b.id, namespace: NS }]);
      assert.equal(res.entriesRemoved, 1);
      assert.equal(res.vectors, 1);
      assert.deepEqual(res.formerTexts, ['the vault code is 2222']);
      assert.deepEqual(res.namespaces, [NS]);
      assert.equal(await store.getMemory(NS, b.id), null);
      assert.deepEqual(await found(store, NS, ['2222']), []);
      assert.equal((await store.vectorStats('model-a')).find((v) => v.namespace === NS)?.vectors ?? 0, 0);
      assert.deepEqual(await store.listFeedback(NS, 10), []);
      assert.deepEqual((await store.memoryHistory(NS, a.id)).map((m) => m.id), [a.id, c.id], 'the chain skips the purged version');
      assert.equal((await store.getMemory(NS, c.id))!.supersedes, a.id);
    });

    it('a purged turn becomes a tombstone: no text, no index entry, judged noise, its memory gone, and capture never stores it again', async () => {
      const store = current();
      const { inserted } = await store.addTurns([turn('m1', `my password is ${SECRET}`), turn('m2', 'the deploy is on friday')]);
      const [t1, t2] = inserted;
      const [judged] = await store.applyJudgments([{ turnId: t1!.id, importance: 8, category: 'fact', judge: 'test', reason: 'r', statement: `Ana's password is ${SECRET}`, needsRejudge: false, memory: { namespace: NS, text: `Ana's password is ${SECRET}` } }]);
      const res = await store.purgeRecords(NS, [t1!.id]);
      assert.deepEqual(res.removed.map((r) => r.kind).sort(), ['memory', 'turn']);
      assert.equal(await store.getMemory(NS, judged!.memoryId!), null, 'the memory made of the turn goes with it');
      const tomb = await store.getTurn(NS, t1!.id);
      assert.equal(tomb?.text, PURGED_MARKER);
      assert.equal(tomb?.speaker, null);
      assert.equal(tomb?.sessionId, 's1');
      assert.equal(tomb?.messageId, 'm1');
      assert.equal(await store.entryFor('turn', t1!.id), null);
      assert.deepEqual(await found(store, NS, ['hunter2']), []);
      assert.deepEqual(await store.speakers(NS), [{ name: 'Ana', turns: 1 }]);
      assert.equal((await store.getJudgment(t1!.id))?.category, 'noise');
      assert.equal((await store.unjudgedTurns(NS, 0, 10)).some((u) => u.turn.id === t1!.id), false);
      const again = await store.addTurns([turn('m1', `my password is ${SECRET}`)]);
      assert.deepEqual([again.inserted.length, again.duplicates], [0, 1], 'the transcript line is not taken in again');
      assert.ok(await store.entryFor('turn', t2!.id), 'other turns stay');
    });

    it('purges a document chunk; a missing id (or one in another namespace) changes nothing; a dry run only reports', async () => {
      const store = current();
      await store.replaceDocument({ namespace: NS, sourceId: null, path: '/notes/a.md', fileHash: 'h', time: '2026-01-10T12:00:00.000Z', chunks: [{ heading: 'Keys', text: `wifi ${SECRET}`, startLine: 1, endLine: 2 }, { heading: 'Other', text: 'plants need water', startLine: 3, endLine: 4 }] });
      const memory = (await store.addMemory({ namespace: OTHER, text: `other namespace ${SECRET}` })).memory;
      const [chunk] = await found(store, NS, ['wifi']);
      const missing = await store.purgeRecords(NS, [chunk!, memory.id, 'm_nosuchid']);
      assert.deepEqual(missing.missing.sort(), [memory.id, 'm_nosuchid'].sort(), 'namespaces are walls');
      assert.deepEqual(missing.removed, []);
      assert.ok(await store.getDocumentChunk(NS, chunk!), 'nothing changed while an id is missing');
      const dry = await store.purgeRecords(NS, [chunk!], { dryRun: true });
      assert.deepEqual(dry.removed, [{ kind: 'document', id: chunk, namespace: NS }]);
      assert.equal(dry.entriesRemoved, 1);
      assert.ok(await store.getDocumentChunk(NS, chunk!), 'a dry run changes nothing');
      const real = await store.purgeRecords(NS, [chunk!]);
      assert.deepEqual(real.removed, dry.removed);
      assert.equal(await store.getDocumentChunk(NS, chunk!), null);
      assert.deepEqual(await found(store, NS, ['wifi']), []);
      assert.deepEqual((await store.documentFiles(NS)).map((f) => f.chunks), [1]);
      const everywhere = await store.purgeRecords(null, [memory.id]);
      assert.deepEqual(everywhere.removed, [{ kind: 'memory', id: memory.id, namespace: OTHER }], 'scope null reaches every namespace');
    });

    it('rewriteTexts replaces a literal in every text of the scope and keeps the index consistent', async () => {
      const store = current();
      const rule = { rewrite: (t: string) => t.split(SECRET).join(PURGED_MARKER), mustContain: SECRET };
      const { inserted } = await store.addTurns([turn('m1', `wifi password ${SECRET} for guests`, { speaker: `Ana ${SECRET}`, meta: { kind: 'message', note: `q"${SECRET}` } })]);
      const t = inserted[0]!;
      const mem = (await store.addMemory({ namespace: NS, text: `The wifi password is ${SECRET}`, tags: [`tag ${SECRET}`], provenance: [{ source: 'cli', sessionId: SECRET }] })).memory;
      await store.applyJudgments([{ turnId: t.id, importance: 3, category: 'fact', judge: 'test', reason: `saw ${SECRET}`, statement: `password ${SECRET}`, needsRejudge: false }]);
      await store.addFeedback({ namespace: NS, refId: mem.id, text: `The wifi password is ${SECRET}`, category: 'fact', important: true });
      await store.replaceDocument({ namespace: NS, sourceId: null, path: '/notes/b.md', fileHash: 'h', time: '2026-01-10T12:00:00.000Z', chunks: [{ heading: `Wifi ${SECRET}`, text: 'guest network', startLine: 1, endLine: 2 }] });
      await store.mergeHotState(NS, { notes: `rotate ${SECRET}`, blockers: [SECRET] });
      const keep = (await store.addMemory({ namespace: OTHER, text: `beta keeps ${SECRET}` })).memory;
      const memSeq = await seqOf(store, 'memory', mem.id);
      await store.putVectors('model-a', [{ seq: memSeq, vector: vec(1, 0) }]);
      await store.cachePut('model-a', [{ textHash: 'h-secret', vector: vec(1, 0) }]);

      const dry = await store.rewriteTexts(NS, rule, { dryRun: true });
      assert.equal((await store.getMemory(NS, mem.id))!.text, `The wifi password is ${SECRET}`, 'a dry run changes nothing');
      const res = await store.rewriteTexts(NS, rule);
      assert.deepEqual(res.rewritten, dry.rewritten, 'the dry run counts what the run does');
      assert.deepEqual(res.rewritten, { turns: 1, memories: 1, documents: 1, judgments: 1, feedback: 1, hot_state: 1 });
      assert.equal(res.entriesRewritten, 3);
      assert.equal(res.vectors, 1);
      assert.deepEqual(res.namespaces, [NS]);
      assert.ok(res.formerTexts.some((x) => x.includes(SECRET)));
      assert.equal((await store.getTurn(NS, t.id))!.text, `wifi password ${PURGED_MARKER} for guests`);
      assert.equal((await store.getTurn(NS, t.id))!.speaker, `Ana ${PURGED_MARKER}`);
      assert.equal((await store.getTurn(NS, t.id))!.meta.note, `q"${PURGED_MARKER}`);
      const m = (await store.getMemory(NS, mem.id))!;
      assert.deepEqual([m.text, m.tags, m.provenance[0]!.sessionId], [`The wifi password is ${PURGED_MARKER}`, [`tag ${PURGED_MARKER}`], PURGED_MARKER]);
      assert.equal((await store.getJudgment(t.id))!.statement, `password ${PURGED_MARKER}`);
      assert.equal((await store.listFeedback(NS, 5))[0]!.text, `The wifi password is ${PURGED_MARKER}`);
      assert.deepEqual((await store.getHotState(NS))!.state, { notes: `rotate ${PURGED_MARKER}`, blockers: [PURGED_MARKER] });
      assert.deepEqual(await found(store, NS, ['hunter2']), []);
      assert.deepEqual((await store.entriesMissingVector('model-a', 10, NS)).map((e) => e.seq).includes(memSeq), true, 'a changed entry needs a new vector');
      assert.deepEqual((await store.speakers(NS)).map((s) => s.name), [`Ana ${PURGED_MARKER}`]);
      assert.equal((await store.getMemory(OTHER, keep.id))!.text, `beta keeps ${SECRET}`, 'another namespace is untouched');
      assert.deepEqual((await store.rewriteTexts(NS, rule)).rewritten, {}, 'running it again finds nothing');
      assert.equal(await store.dropCachedVectors(['h-secret', 'h-unknown']), 1);
      assert.equal((await store.cacheGet('model-a', ['h-secret'])).size, 0);
    });

    it('a memory rewritten into the same statement as a current one is superseded by it', async () => {
      const store = current();
      const plain = (await store.addMemory({ namespace: NS, text: `door code ${PURGED_MARKER}` })).memory;
      const secret = (await store.addMemory({ namespace: NS, text: `door code ${SECRET}` })).memory;
      await store.rewriteTexts(null, { rewrite: (t) => t.split(SECRET).join(PURGED_MARKER) });
      const after = (await store.getMemory(NS, secret.id))!;
      assert.equal(after.supersededBy, plain.id);
      assert.ok(after.validTo);
      assert.deepEqual((await store.listMemories({ namespace: NS })).map((x) => x.id), [plain.id]);
    });

    it('the audit: startPurge, finishPurge, listPurges newest first, lastPurgeId', async () => {
      const store = current();
      assert.equal(await store.lastPurgeId(), 0);
      const first = await store.startPurge({ namespace: NS, via: 'cli', rule: { kind: 'text', chars: 21 }, startedAt: '2026-01-10T12:00:00.000Z' });
      assert.equal(first.finishedAt, null);
      await store.finishPurge(first.id, { removed: [] }, { finishedAt: '2026-01-10T12:00:01.000Z' });
      assert.equal(await store.lastPurgeId(), first.id);
      const second = await store.startPurge({ namespace: null, via: 'http', rule: { kind: 'secrets' } });
      assert.equal(await store.lastPurgeId(), first.id, 'a purge counts once it has finished');
      const list = await store.listPurges();
      assert.deepEqual(list.map((p) => p.id), [second.id, first.id]);
      assert.deepEqual(list[1], { id: first.id, startedAt: '2026-01-10T12:00:00.000Z', finishedAt: '2026-01-10T12:00:01.000Z', namespace: NS, via: 'cli', rule: { kind: 'text', chars: 21 }, result: { removed: [] } });
      assert.equal(list[0]!.namespace, null);
      assert.deepEqual((await store.listPurges({ limit: 1 })).length, 1);
      await store.finishPurge(second.id, {});
      assert.equal(await store.lastPurgeId(), second.id);
      assert.equal((await store.scrub()).complete, true);
    });

    it('lastPurgeId changes when an older purge finishes after a newer one (a vector index drops what it holds when it changes)', async () => {
      const store = current();
      const older = await store.startPurge({ namespace: NS, via: 'cli', rule: { kind: 'ids' } });
      const newer = await store.startPurge({ namespace: null, via: 'http', rule: { kind: 'secrets' } });
      await store.finishPurge(newer.id, {});
      const mark = await store.lastPurgeId();
      assert.equal(mark, newer.id);
      await store.finishPurge(older.id, {});
      assert.notEqual(await store.lastPurgeId(), mark, 'the older purge finishing is seen');
      assert.equal(await store.lastPurgeId(), older.id);
      await store.finishPurge(987654, {}); // no such purge: nothing moves
      assert.equal(await store.lastPurgeId(), older.id);
    });
  });
}
