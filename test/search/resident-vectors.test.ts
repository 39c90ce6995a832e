// Stored vectors kept in memory as stored (int8 codes and block scales) rescore a large namespace's
// candidates with the very cosines the store's decoded copy gives: search results do not change,
// bit for bit, whether rows come from memory, from the store's bytes, or from its decoded floats.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { decodeVector, encodeVector, quantisedBlobDot, quantisedBytes } from '../../src/store/vector-codec.js';
import { dot } from '../../src/search/pipeline/cosines.js';
import { ResidentRows } from '../../src/search/resident-vectors.js';
import { VectorIndex } from '../../src/search/vector-index.js';
import { Cairn } from '../../src/service/cairn.js';
import { hybridSearch, type SearchParams } from '../../src/search/hybrid.js';
import { passageModelId } from '../../src/embed/passages.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import type { NewTurn } from '../../src/core/types.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';
import { seeded } from '../helpers/prng.js';

function randomVector(rand: () => number, n: number, magnitude = 1): Float32Array {
  return Float32Array.from({ length: n }, () => (rand() * 2 - 1) * magnitude);
}

describe('dot at a row of a matrix', () => {
  it('is, bit for bit, the dot with a view of that row', () => {
    const rand = seeded(7);
    for (const n of [1, 3, 4, 7, 512]) {
      const q = randomVector(rand, n);
      const rows = new Float32Array(n * 5);
      for (let i = 0; i < rows.length; i++) rows[i] = rand() * 2 - 1;
      for (let r = 0; r < 5; r++) assert.ok(Object.is(dot(q, rows, r * n), dot(q, rows.subarray(r * n, (r + 1) * n))), `n=${n} row ${r}`);
    }
  });
});

describe('rescoring from quantised bytes', () => {
  it('equals the dot product with the decoded vector, bit for bit, at any length and scale', () => {
    const rand = seeded(11);
    for (const n of [1, 3, 127, 128, 129, 300, 512, 768]) {
      for (const magnitude of [1, 1e-6, 3e30, 0.5]) {
        const v = randomVector(rand, n, magnitude);
        const q = randomVector(rand, n);
        const blob = encodeVector(v);
        assert.ok(Object.is(quantisedBlobDot(q, blob), dot(q, decodeVector(blob))), `n=${n} magnitude=${magnitude}`);
      }
    }
  });

  it('an all-zero block, values that are not finite, and a blob inside a larger buffer at an odd offset', () => {
    const rand = seeded(12);
    const v = randomVector(rand, 300);
    v.fill(0, 0, 128);
    v[200] = Number.NaN;
    const q = randomVector(rand, 300);
    const blob = encodeVector(v);
    const shifted = new Uint8Array(blob.byteLength + 7);
    shifted.set(blob, 3);
    const inside = shifted.subarray(3, 3 + blob.byteLength);
    const want = dot(q, decodeVector(blob));
    assert.ok(Number.isFinite(want));
    assert.ok(Object.is(quantisedBlobDot(q, inside), want));
  });

  it('a blob of another length (another model\'s vector) gives no cosine', () => {
    const rand = seeded(13);
    assert.equal(quantisedBlobDot(randomVector(rand, 512), encodeVector(randomVector(rand, 384))), null);
    assert.equal(quantisedBlobDot(randomVector(rand, 4), new Uint8Array(0)), null);
    assert.equal(quantisedBlobDot(randomVector(rand, 4), new Uint8Array(3)), null);
  });
});

describe('ResidentRows', () => {
  const rand = seeded(21);
  const vectors = Array.from({ length: 2100 }, () => randomVector(rand, 64));
  const q = randomVector(rand, 64);
  const want = (i: number) => dot(q, decodeVector(encodeVector(vectors[i]!)));

  it('keeps rows as stored and rescores them exactly, across more than one chunk', () => {
    const rows = new ResidentRows(64);
    vectors.forEach((v, i) => rows.keep(i + 1, encodeVector(v)));
    assert.equal(rows.size, 2100);
    for (let i = 0; i < vectors.length; i++) assert.ok(Object.is(rows.dot(i + 1, q), want(i)), `row ${i}`);
    assert.equal(rows.dot(9999, q), undefined, 'a seq never kept');
    assert.equal(rows.dot(1, randomVector(rand, 32)), undefined, 'a query of another width');
  });

  it('refuses rows of another width, replaces a seq in place, forgets, and keeps nothing on a zero budget', () => {
    const rows = new ResidentRows(64);
    rows.keep(1, encodeVector(randomVector(rand, 65)));
    rows.keep(2, new Uint8Array(10));
    assert.equal(rows.size, 0);
    rows.keep(1, encodeVector(vectors[0]!));
    rows.keep(1, encodeVector(vectors[1]!));
    assert.equal(rows.size, 1);
    assert.ok(Object.is(rows.dot(1, q), want(1)), 'the newest row of a seq');
    rows.forget(1);
    rows.forget(42);
    assert.equal(rows.dot(1, q), undefined);
    const none = new ResidentRows(64, 0);
    none.keep(1, encodeVector(vectors[0]!));
    assert.equal(none.size, 0);
    assert.equal(none.bytes, 0);
  });

  it('holds at most its budget, replacing the oldest rows first', () => {
    const rows = new ResidentRows(64, quantisedBytes(64) * 3);
    for (let i = 0; i < 3; i++) rows.keep(i + 1, encodeVector(vectors[i]!));
    rows.keep(2, encodeVector(vectors[5]!)); // in place: nothing evicted
    rows.keep(4, encodeVector(vectors[3]!));
    assert.equal(rows.has(1), false, 'the oldest went');
    assert.deepEqual([2, 3, 4].map((s) => rows.has(s)), [true, true, true]);
    assert.ok(Object.is(rows.dot(2, q), want(5)));
    assert.ok(Object.is(rows.dot(4, q), want(3)));
    rows.keep(5, encodeVector(vectors[4]!));
    assert.equal(rows.has(2), false, 'then the next oldest slot');
    assert.ok(rows.bytes <= quantisedBytes(64) * 3);
  });
});

const NS = 'default';
const WORDS = 'dog cat snake paris museum chess climbing reading walk river shop hobby family test results adopt friday painting concert guitar sister'.split(' ');
const QUERIES = ['where did you buy the snake', 'chess club tonight', 'family painting results', 'guitar concert with my sister', 'adopt a dog on friday', 'river walk museum'];

function chat(seed: number, count: number): NewTurn[] {
  const rand = seeded(seed);
  return Array.from({ length: count }, (_, i) => ({
    namespace: NS, sessionId: `s${Math.floor(rand() * 12)}`, messageId: `m${i}`, role: 'user' as const, speaker: rand() < 0.5 ? 'Ana' : 'Bo',
    text: Array.from({ length: 4 + Math.floor(rand() * 10) }, () => WORDS[Math.floor(rand() * WORDS.length)]!).join(' '),
    timestamp: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(), line: null, meta: {},
  }));
}

/** The store as one without quantised reads: search falls back to decoded vectors. */
function decodedOnly(store: Store): Store {
  return new Proxy(store, { get: (target, key) => (key === 'getQuantisedVectors' ? undefined : Reflect.get(target, key, target)) });
}

describe('search over a graph namespace with rows kept in memory', () => {
  let dir: { dir: string; cleanup: () => void };
  let cairn: Cairn;
  let store: SqliteStore;
  const embedder = new HashEmbedder();
  before(async () => {
    dir = tempDir('cairn-resident-');
    cairn = await Cairn.open({ home: dir.dir, embedder, config: {} });
    store = cairn.store as SqliteStore;
    await store.addTurns(chat(5, 1500));
    await cairn.embedPending({ namespace: NS });
  });
  after(async () => {
    await cairn.close();
    dir.cleanup();
  });

  const run = async (s: Store, index: VectorIndex, query: string) => {
    await index.ready(NS);
    const vectors = { index, model: embedder.modelId, passageModel: passageModelId(embedder.modelId), queryVector: Promise.resolve(embedder.vector(query)) };
    const params: SearchParams = { namespace: NS, query, limit: 10, mode: 'hybrid', filter: { includeSuperseded: false }, now: Date.UTC(2025, 6, 1), speakers: await s.speakers(NS) };
    return hybridSearch({ store: s, ranking: { ...cairn.config.search, contextTurns: 1 }, candidates: cairn.config.search.candidates, vectors }, params);
  };

  it('ranks and scores exactly as from decoded vectors, first from the store, then from memory, then after a re-embed', async () => {
    // One graph, saved by the first index and loaded by the second: the same ANN candidates for both.
    const indexDir = join(dir.dir, 'ann');
    const plain = new VectorIndex(decodedOnly(store), embedder.modelId, indexDir, { exactMax: 50, residentBudgetBytes: 0 });
    await plain.ready(NS);
    plain.flush();
    const resident = new VectorIndex(store, embedder.modelId, indexDir, { exactMax: 50 });
    const compare = async () => {
      for (const q of QUERIES) assert.deepEqual(await run(store, resident, q), await run(decodedOnly(store), plain, q), q);
    };
    await compare();
    const probe = embedder.vector(QUERIES[0]!);
    const seqs = (await store.vectorsAfter(NS, embedder.modelId, 0, 5000)).map((v) => v.seq);
    const held = resident.heldCosines(NS, probe, seqs);
    assert.ok(held.size > 20 && held.size < seqs.length, `rows kept by searches: ${held.size} of ${seqs.length}`);
    const decoded = await store.getVectors(embedder.modelId, [...held.keys()]);
    for (const [seq, c] of held) assert.ok(Object.is(c, dot(probe, decoded.get(seq)!)), `seq ${seq}`);
    assert.equal(plain.heldCosines(NS, probe, seqs).size, 0, 'a zero budget keeps none');
    await compare(); // served from memory

    // A kept row's entry embedded again: the kept row is the old vector and must not be used.
    const seq = [...held.keys()][0]!;
    await store.putVectors(embedder.modelId, [{ seq, vector: embedder.vector('guitar concert with my sister museum') }]);
    await resident.ready(NS);
    assert.equal(resident.heldCosines(NS, probe, [seq]).size, 0, 'forgotten at catch-up');
    await compare();
  });
});
