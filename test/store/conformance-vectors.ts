// Store conformance, vectors and the embedding cache. Called from conformance.ts inside every backend's
// suite; talks to the store only through the `Store` interface.
import { createHash } from 'node:crypto';
import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/store.js';
import { decodeVector, quantisedBytes } from '../../src/store/vector-codec.js';
import { indexTerms } from '../helpers/index-terms.js';
import { NS, OTHER, at, vec, assertVectorNear, turn, type ConformanceContext } from './conformance-fixtures.js';

export function vectorConformance(ctx: ConformanceContext): void {
  const { add } = ctx;
  describe('vectors and cache', () => {
    let store: Store;
    beforeEach(() => {
      store = ctx.store();
    });

    it('a busy namespace crowding the best keyword hits never hides another namespace\'s matches', async () => {
      // OTHER's memories all outscore NS's (the word twice, short texts), so the global top hits
      // are all OTHER's: NS must still get its own, in BM25 order, and filters still apply.
      await store.addMemories(Array.from({ length: 60 }, (_, i) => ({ namespace: OTHER, text: `walrus walrus ${i}` })));
      const weak = (await add('a long note that mentions a walrus once among many other unrelated words here', { importance: 2 })).memory;
      const strong = (await add('walrus facts: the walrus eats clams', { importance: 9 })).memory;
      const hits = await store.keywordSearch(NS, indexTerms(['walrus']), 2);
      const entries = await store.getEntries(NS, hits.map((h) => h.seq));
      assert.deepEqual(hits.map((h) => entries.find((e) => e.seq === h.seq)!.refId), [strong.id, weak.id]);
      const filtered = await store.keywordSearch(NS, indexTerms(['walrus']), 5, { minImportance: 5 });
      assert.deepEqual((await store.getEntries(NS, filtered.map((h) => h.seq))).map((e) => e.refId), [strong.id]);
      assert.equal((await store.keywordSearch(OTHER, indexTerms(['walrus']), 100)).length, 60);
    });

    it('entriesMissingVector → putVectors → vectorsAfter with monotonic ids and watermark paging', async () => {
      const texts = ['v one', 'v two', 'v three', 'v four', 'v five'];
      for (const [i, text] of texts.entries()) await add(text, {}, at(i));
      await store.addMemory({ namespace: OTHER, text: 'v other' });
      const missing = await store.entriesMissingVector('model-a', 100, NS);
      assert.deepEqual(missing.map((m) => m.text), texts, 'oldest first, only this namespace');
      assert.ok(missing.every((m) => m.namespace === NS));
      assert.equal((await store.entriesMissingVector('model-a', 100)).length, 6, 'all namespaces without a filter');
      assert.deepEqual((await store.entriesMissingVector('model-a', 2, NS)).map((m) => m.text), texts.slice(0, 2));
      const page2 = await store.entriesMissingVector('model-a', 2, NS, missing[1]!.seq);
      assert.deepEqual(page2.map((m) => m.text), texts.slice(2, 4), 'afterSeq pages past the cursor');
      const entry = await store.entryFor('memory', (await store.listMemories({ namespace: NS, limit: 1 }))[0]!.id);
      assert.equal(entry?.text, 'v five');
      assert.equal(await store.entryFor('memory', 'm_doesnotexist'), null);

      await store.putVectors('model-a', missing.slice(0, 3).map((m, i) => ({ seq: m.seq, vector: vec(i, 1, 0) })));
      assert.deepEqual((await store.entriesMissingVector('model-a', 100, NS)).map((m) => m.text), texts.slice(3));
      assert.equal((await store.entriesMissingVector('model-b', 100, NS)).length, 5, 'other models are separate');
      await store.putVectors('model-a', missing.slice(3).map((m, i) => ({ seq: m.seq, vector: vec(i + 3, 1, 0) })));
      assert.deepEqual(await store.entriesMissingVector('model-a', 100, NS), []);

      const all = await store.vectorsAfter(NS, 'model-a', 0, 100);
      assert.equal(all.length, 5);
      for (let i = 1; i < all.length; i++) assert.ok(all[i]!.id > all[i - 1]!.id, 'ids strictly increase');
      assert.deepEqual(all.map((v) => v.seq), missing.map((m) => m.seq));
      assertVectorNear(all[4]!.vector, [4, 1, 0]);
      // Paging by watermark sees each vector exactly once.
      const paged: number[] = [];
      for (let mark = 0; ; ) {
        const page = await store.vectorsAfter(NS, 'model-a', mark, 2);
        if (page.length === 0) break;
        assert.ok(page.length <= 2);
        paged.push(...page.map((p) => p.seq));
        mark = page[page.length - 1]!.id;
      }
      assert.deepEqual(paged, all.map((v) => v.seq));
      // A re-embedded entry comes back past the watermark with a newer id.
      const watermark = all[4]!.id;
      await store.putVectors('model-a', [{ seq: all[0]!.seq, vector: vec(9, 9, 9) }]);
      const after = await store.vectorsAfter(NS, 'model-a', watermark, 10);
      assert.equal(after.length, 1);
      assert.equal(after[0]!.seq, all[0]!.seq);
      assert.ok(after[0]!.id > watermark);
      assertVectorNear(after[0]!.vector, [9, 9, 9]);
      assert.equal((await store.vectorsAfter(NS, 'model-a', 0, 100)).length, 5, 'replaced, not doubled');
      assert.deepEqual(await store.vectorsAfter(OTHER, 'model-a', 0, 100), [], 'namespace wall');
    });

    it('getVectors returns Float32 values by seq for one model (within int8 quantisation)', async () => {
      await add('g one');
      await add('g two');
      const [a, b] = await store.entriesMissingVector('m', 10, NS);
      const va = vec(0.1, -0.25, 1e-7, 3.4e38);
      await store.putVectors('m', [{ seq: a!.seq, vector: va }, { seq: b!.seq, vector: vec(1, 2, 3, 4) }]);
      // A vector view with an offset inside a larger buffer is stored by value.
      const big = new Float32Array([7, 7, 0.5, 0.25, 0.125, 0.0625]);
      await store.putVectors('other-model', [{ seq: a!.seq, vector: big.subarray(2) }]);
      const got = await store.getVectors('m', [a!.seq, b!.seq, 424242]);
      assert.equal(got.size, 2);
      assert.ok(got.get(a!.seq) instanceof Float32Array);
      assertVectorNear(got.get(a!.seq), [...va]);
      assertVectorNear(got.get(b!.seq), [1, 2, 3, 4]);
      assertVectorNear((await store.getVectors('other-model', [a!.seq])).get(a!.seq), [0.5, 0.25, 0.125, 0.0625]);
      assert.equal((await store.getVectors('nope', [a!.seq])).size, 0);
      assert.equal((await store.getVectors('m', [])).size, 0);
    });

    it('getQuantisedVectors returns the stored bytes, decoding to what getVectors returns', async () => {
      await add('q one');
      await add('q two');
      const [a, b] = await store.entriesMissingVector('m', 10, NS);
      await store.putVectors('m', [{ seq: a!.seq, vector: vec(0.1, -0.25, 1e-7, 3.4e38) }, { seq: b!.seq, vector: vec(1, 2, 3, 4, 5) }]);
      await store.putVectors('other-model', [{ seq: a!.seq, vector: vec(0.5, 0.25) }]);
      assert.ok(store.getQuantisedVectors, 'both backends read stored bytes');
      const got = await store.getQuantisedVectors('m', [a!.seq, b!.seq, 424242, a!.seq]);
      const decoded = await store.getVectors('m', [a!.seq, b!.seq]);
      assert.deepEqual([...got.keys()].sort(), [a!.seq, b!.seq].sort());
      for (const [seq, bytes] of got) {
        assert.ok(bytes instanceof Uint8Array);
        assert.deepEqual([...decodeVector(bytes)], [...decoded.get(seq)!], `seq ${seq}`);
      }
      assert.equal(got.get(b!.seq)!.byteLength, quantisedBytes(5));
      assert.deepEqual([...decodeVector((await store.getQuantisedVectors('other-model', [a!.seq])).get(a!.seq)!)], [...(await store.getVectors('other-model', [a!.seq])).get(a!.seq)!]);
      assert.equal((await store.getQuantisedVectors('nope', [a!.seq])).size, 0);
      assert.equal((await store.getQuantisedVectors('m', [])).size, 0);
    });

    it('changeMark, where offered, changes with every write through the store', async () => {
      if (!store.changeMark) return;
      const marks = [await store.changeMark()];
      await add('mark one');
      marks.push(await store.changeMark());
      const [a] = await store.entriesMissingVector('m', 10, NS);
      await store.putVectors('m', [{ seq: a!.seq, vector: vec(1, 2) }]);
      marks.push(await store.changeMark());
      await store.putVectors('m', [{ seq: a!.seq, vector: vec(2, 1) }]);
      marks.push(await store.changeMark());
      for (let i = 1; i < marks.length; i++) assert.notEqual(marks[i], marks[i - 1], `write ${i}`);
      assert.equal(typeof marks[0], 'string');
    });

    it('putVectors for an unknown entry is skipped', async () => {
      await store.putVectors('m', [{ seq: 999999, vector: vec(1) }]);
      assert.deepEqual(await store.vectorModels(), []);
    });

    it('vectorStats, vectorModels and dropVectorsExcept', async () => {
      await store.ensureNamespace('empty');
      for (const t of ['s1', 's2', 's3']) await add(t);
      await store.addMemory({ namespace: OTHER, text: 'b1' });
      await store.addTurns([turn({ messageId: 'vt', namespace: OTHER })]);
      const alpha = await store.entriesMissingVector('old', 10, NS);
      const beta = await store.entriesMissingVector('old', 10, OTHER);
      await store.putVectors('old', [...alpha, ...beta].map((e) => ({ seq: e.seq, vector: vec(1, 0, 0, 0) })));
      await store.putVectors('new', alpha.slice(0, 1).map((e) => ({ seq: e.seq, vector: vec(1, 0) })));

      const statsOld = await store.vectorStats('old');
      const pick = (s: typeof statsOld) => Object.fromEntries(s.map((x) => [x.namespace, { vectors: x.vectors, missing: x.missing, model: x.model }]));
      assert.deepEqual(pick(statsOld), {
        alpha: { vectors: 3, missing: 0, model: 'old' },
        beta: { vectors: 2, missing: 0, model: 'old' },
        empty: { vectors: 0, missing: 0, model: 'old' },
      });
      assert.deepEqual(pick(await store.vectorStats('new')), {
        alpha: { vectors: 1, missing: 2, model: 'new' },
        beta: { vectors: 0, missing: 2, model: 'new' },
        empty: { vectors: 0, missing: 0, model: 'new' },
      });
      assert.deepEqual(await store.vectorModels(), [
        { model: 'new', dimensions: 2, vectors: 1 },
        { model: 'old', dimensions: 4, vectors: 5 },
      ]);
      // A packed row (several vectors end to end) and an empty one are stored as they are.
      const [a0, a1] = [alpha[0]!.seq, alpha[1]!.seq];
      await store.putVectors('new#passages', [{ seq: a0, vector: new Float32Array([1, 0, 0, 1]) }, { seq: a1, vector: new Float32Array(0) }]);
      const packed = await store.getVectors('new#passages', [a0, a1]);
      assert.deepEqual([...packed.get(a0)!], [1, 0, 0, 1]);
      assert.equal(packed.get(a1)!.length, 0);
      assert.equal(await store.dropVectorsExcept(['new', 'new#passages']), 5);
      assert.deepEqual((await store.vectorModels()).map((m) => m.model), ['new', 'new#passages']);
      assert.deepEqual(await store.vectorsAfter(NS, 'old', 0, 10), []);
      assert.equal((await store.entriesMissingVector('old', 10)).length, 5);
      assert.equal(await store.dropVectorsExcept(['new']), 2);
      assert.equal(await store.dropVectorsExcept(['new']), 0);
      assert.equal(await store.dropVectorsExcept([]), 1);
      assert.deepEqual(await store.vectorModels(), []);
    });

    it('cacheGet / cachePut by model and text hash', async () => {
      assert.equal((await store.cacheGet('m', ['h1'])).size, 0);
      await store.cachePut('m', [
        { textHash: 'h1', vector: vec(1, 2) },
        { textHash: 'h2', vector: vec(0.5, -0.5) },
      ]);
      await store.cachePut('m2', [{ textHash: 'h1', vector: vec(9, 9, 9) }]);
      const got = await store.cacheGet('m', ['h1', 'h2', 'h3']);
      assert.deepEqual([...got.keys()].sort(), ['h1', 'h2']);
      assertVectorNear(got.get('h1'), [1, 2]);
      assertVectorNear(got.get('h2'), [0.5, -0.5]);
      assertVectorNear((await store.cacheGet('m2', ['h1'])).get('h1'), [9, 9, 9]);
      assert.equal((await store.cacheGet('m', [])).size, 0);
      // Many hashes in one call.
      const many = Array.from({ length: 1200 }, (_, i) => ({ textHash: `bulk-${i}`, vector: vec(i) }));
      await store.cachePut('m', many);
      const back = await store.cacheGet('m', many.map((m) => m.textHash));
      assert.equal(back.size, 1200);
      assertVectorNear(back.get('bulk-1199'), [1199]);
    });

    it('a vector stored with its text hash is that text\'s cached vector; it stays cached when its row goes; a purge of the hash forgets it', async () => {
      const sha = (t: string) => createHash('sha256').update(t).digest('hex');
      const [a, b, c] = ['cache one', 'cache two', 'cache three'];
      for (const t of [a, b, c]) await add(t);
      const seqOf = new Map((await store.entriesMissingVector('m', 10, NS)).map((m) => [m.text, m.seq]));
      // b was cached before its row was written (with the same bytes): one copy is enough, it still reads back.
      await store.cachePut('m', [{ textHash: sha(b), vector: vec(0, 1) }]);
      await store.putVectors('m', [
        { seq: seqOf.get(a)!, vector: vec(1, 0), textHash: sha(a) },
        { seq: seqOf.get(b)!, vector: vec(0, 1), textHash: sha(b) },
        { seq: seqOf.get(c)!, vector: vec(0.6, 0.8) },
      ]);
      let got = await store.cacheGet('m', [sha(a), sha(b), sha(c), 'not-a-hash', '']);
      assert.deepEqual([...got.keys()].sort(), [sha(a), sha(b)].sort(), 'a row without a hash is not a cache entry');
      assertVectorNear(got.get(sha(a)), [1, 0]);
      assertVectorNear(got.get(sha(b)), [0, 1]);
      assert.equal((await store.cacheGet('other-model', [sha(a)])).size, 0, 'by model');
      // The row of a replaced by another text's vector, and b's row dropped with its model: both stay cached.
      await store.putVectors('m', [{ seq: seqOf.get(a)!, vector: vec(0.8, 0.6), textHash: sha('cache one, edited') }]);
      await store.dropVectorsExcept(['kept-model']);
      got = await store.cacheGet('m', [sha(a), sha(b), sha('cache one, edited')]);
      assert.equal(got.size, 3);
      assertVectorNear(got.get(sha(a)), [1, 0]);
      assertVectorNear(got.get(sha(b)), [0, 1]);
      assertVectorNear(got.get(sha('cache one, edited')), [0.8, 0.6]);
      // A purge forgets a text's cached vector wherever it is, and keeps the vector of an entry that holds it.
      await store.putVectors('m', [{ seq: seqOf.get(c)!, vector: vec(0.6, 0.8), textHash: sha(c) }]);
      assert.ok((await store.dropCachedVectors([sha(a), sha(c)])) >= 2);
      got = await store.cacheGet('m', [sha(a), sha(b), sha(c)]);
      assert.deepEqual([...got.keys()], [sha(b)]);
      assertVectorNear((await store.getVectors('m', [seqOf.get(c)!])).get(seqOf.get(c)!), [0.6, 0.8]);
      // Hashes that only share their first half are one key: the store keeps 16 bytes of a sha256.
      assert.equal((await store.cacheGet('m', [sha(b).slice(0, 32) + '0'.repeat(32)])).size, 1);
    });

    it('entries keep working with more seqs than one query can bind', async () => {
      await store.addMemories(Array.from({ length: 1100 }, (_, i) => ({ namespace: NS, text: `bulk narwhal ${i}` })), { now: at(0) });
      const seqs = await store.filterEntries(NS, {}, 5000);
      assert.equal(seqs.length, 1100);
      assert.equal((await store.getEntries(NS, seqs)).length, 1100);
      await store.putVectors('m', seqs.map((seq) => ({ seq, vector: vec(seq) })));
      const vectors = await store.getVectors('m', seqs);
      assert.equal(vectors.size, 1100);
      assertVectorNear(vectors.get(seqs[17]!), [seqs[17]!]);
    });
  });

}
