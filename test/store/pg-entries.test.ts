// The PostgreSQL entries, keyword search, vectors and ANN path against a real server
// (test/helpers/postgres.ts), with rows written straight into the tables so these checks do not
// wait for the other ported modules: BM25 ranks as SQLite's FTS5 does, hostile terms stay words,
// vectorsAfter never skips a row when writers commit out of order, and nearestVectors finds what
// exact search finds.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type pg from 'pg';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { insertEntry } from '../../src/store/postgres/entry-terms.js';
import * as entries from '../../src/store/postgres/entries.js';
import { decodeVector, encodeVector } from '../../src/store/vector-codec.js';
import { VectorIndex } from '../../src/search/vector-index.js';
import type { NewTurn } from '../../src/core/types.js';
import type { Store } from '../../src/store/store.js';
import { freshPgStore } from '../helpers/postgres.js';
import { tempDir } from '../helpers/store-fixtures.js';
import { indexTerms } from '../helpers/index-terms.js';

const NS = 'alpha';
const OTHER = 'beta';
const T0 = Date.UTC(2026, 0, 10, 12);
const at = (hours: number): string => new Date(T0 + hours * 3_600_000).toISOString();

type Made = Awaited<ReturnType<typeof freshPgStore>>;

/**
 * The store as VectorIndex sees it, with a purge log that is empty: purge-log.ts is ported by
 * another part of issue 26, and no purge runs in these tests.
 */
function noPurges(store: Store): Store {
  return Object.assign(Object.create(store) as Store, { lastPurgeId: async () => 0 });
}

async function namespace(pool: pg.Pool, id: string): Promise<void> {
  await pool.query('INSERT INTO namespaces (id, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, at(0)]);
}

async function entry(pool: pg.Pool, ns: string, body: string, over: Partial<Parameters<typeof insertEntry>[1]> = {}): Promise<number> {
  await namespace(pool, ns);
  return insertEntry(pool, { namespace: ns, kind: 'turn', refId: `r${Math.random().toString(36).slice(2)}`, body, time: at(0), category: null, importance: null, ...over });
}

/** A unit vector from a seeded generator (deterministic across runs). */
function unitVector(dim: number, seed: number): Float32Array {
  let s = seed >>> 0 || 1;
  const v = new Float32Array(dim);
  for (let i = 0; i < dim; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    v[i] = s / 2 ** 32 - 0.5;
  }
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function cosineDistance(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return 1 - dot / Math.sqrt(na * nb);
}

const CORPUS = [
  'The harbour pilot boards ships at dawn',
  'A harbour harbour harbour with many boats',
  'Ships and boats in the harbour during the storm',
  'Storm warnings for the northern coast',
  'The pilot light of the boiler went out',
  'Boats are repaired in the dry dock near the harbour entrance every winter season',
  'Ana likes sailing boats on the lake',
  'The storm damaged three ships and one pilot boat',
  'Nothing about the sea at all, only gardening and tomatoes',
  'Tomatoes need sun; the storm flattened the tomatoes',
  'Dawn patrol: pilot, ships, harbour, storm, boats',
  'A very long note that mentions the harbour once among many other words about cooking pasta and bread and soup',
];

describe('PostgreSQL entries and keyword search', () => {
  let made: Made;
  let pool: pg.Pool;
  let store: PgStore;
  before(async () => {
    made = await freshPgStore();
    store = made.store;
    pool = store.pool;
  });
  after(async () => {
    await store.close();
    await made.cleanup();
  });

  it('ranks like SQLite FTS5 bm25(): the same top 5 in the same order with the same scores', async () => {
    const dir = tempDir('cairn-pg-bm25-');
    const sqlite = new SqliteStore(join(dir.dir, 'cairn.db'));
    try {
      const turns: NewTurn[] = CORPUS.map((text, i) => ({ namespace: 'bm25', sessionId: 's', messageId: `m${i}`, role: 'user', text, timestamp: at(i) }));
      await sqlite.addTurns(turns);
      const bodyOf = new Map<number, string>();
      for (const [i, text] of CORPUS.entries()) bodyOf.set(await entry(pool, 'bm25', text, { time: at(i) }), text);
      const sqliteBody = async (seqs: number[]) => (await sqlite.getEntries('bm25', seqs)).map((e) => [e.seq, e.text] as const);
      const queries: Array<{ words: string[]; allTerms?: boolean }> = [
        { words: ['harbour'] },
        { words: ['storm', 'ships'] },
        { words: ['pilot', 'boats', 'harbour'] },
        { words: ['tomatoes', 'storm'] },
        { words: ['dawn', 'pilot'], allTerms: true },
        { words: ['harbour', 'boats'], allTerms: true },
      ];
      for (const q of queries) {
        const terms = indexTerms(q.words);
        const filter = q.allTerms ? { allTerms: true } : undefined;
        const expected = await sqlite.keywordSearch('bm25', terms, 5, filter);
        const texts = new Map(await sqliteBody(expected.map((h) => h.seq)));
        const got = await store.keywordSearch('bm25', terms, 5, filter);
        assert.deepEqual(got.map((h) => bodyOf.get(h.seq)), expected.map((h) => texts.get(h.seq)), `order for ${q.words.join(' ')}`);
        got.forEach((h, i) => assert.ok(Math.abs(h.score - expected[i]!.score) < 1e-9 * Math.max(1, Math.abs(h.score)), `score ${h.score} vs ${expected[i]!.score}`));
        assert.ok(got.length > 0, `hits for ${q.words.join(' ')}`);
      }
    } finally {
      await sqlite.close();
      dir.cleanup();
    }
  });

  it('hostile terms never throw and never act as tsquery syntax', async () => {
    await entry(pool, 'hostile', 'plain words: alpha beta gamma, or near the end');
    await entry(pool, 'hostile', 'bravo only');
    await entry(pool, 'hostile', 'Le café est fermé à Zürich');
    const hostile = [
      '"', "'", "''", '\\', '\\\\', "\\'", '&', '|', '!', '(', ')', ':', '*', '&|!():*', 'alpha:*', 'alpha:A', '!alpha', "alpha' | 'bravo",
      "zzz' | 'bravo", 'zzz | bravo', 'zzz & !bravo', '<->', 'alpha <-> beta', '\u0000', 'alp\u0000ha', 'x'.repeat(3000), 'é'.repeat(1500),
      '', ' ', "'; DROP TABLE entries; --", '🚀', '日本語',
    ];
    for (const term of hostile) {
      for (const allTerms of [false, true]) {
        const hits = await store.keywordSearch('hostile', [term], 10, { allTerms });
        for (const h of hits) assert.ok(Number.isFinite(h.score) && h.score > 0, `score for ${JSON.stringify(term.slice(0, 20))}`);
      }
    }
    assert.ok(Array.isArray(await store.keywordSearch('hostile', hostile, 10)));
    assert.deepEqual(await store.keywordSearch('hostile', [], 10), []);
    const count = async (terms: string[], allTerms = false) => (await store.keywordSearch('hostile', terms, 10, { allTerms })).length;
    // Quotes and operators inside a term are separators: never an OR, a NOT or a prefix.
    assert.equal(await count(["zzz' | 'bravo"]), 0, 'an injected OR matches nothing');
    assert.equal(await count(['zzz | bravo']), 0);
    assert.equal(await count(['zzz & !bravo']), 0);
    assert.equal(await count(['!alpha']), 1, 'a leading ! does not negate');
    assert.equal(await count(['alpha:*']), 1, 'alpha:* is the word alpha');
    assert.equal(await count(['alp:*']), 0, 'no prefix expansion');
    assert.equal(await count(['alp\u0000ha']), 1, 'NUL is dropped');
    assert.equal(await count(['alpha beta']), 1, 'two words in one term are a phrase');
    assert.equal(await count(['beta alpha']), 0, 'in order');
    assert.equal(await count(['alpha', 'x'.repeat(3000)]), 1, 'an unmatchable term leaves the others');
    assert.equal(await count(['alpha', 'x'.repeat(3000)], true), 0, 'all terms: an unmatchable one matches nothing');
    assert.equal(await count(['alpha', 'bravo']), 2);
    assert.equal(await count(['alpha', 'bravo'], true), 0);
    assert.equal(await count(indexTerms(['café', 'zürich']), true), 1);
    assert.equal((await pool.query("SELECT count(*)::int AS n FROM entries WHERE namespace = 'hostile'")).rows[0].n, 3, 'the table is intact');
  });

  it('filters as SQLite does: kinds, categories, importance, times, superseded, validAt, memory ids, layers', async () => {
    const ns = 'filters';
    const dec = await entry(pool, ns, 'otter decision', { kind: 'memory', refId: 'm_dec', category: 'decision', importance: 9, time: at(-48) });
    const fact = await entry(pool, ns, 'otter fact', { kind: 'memory', refId: 'm_fact', category: 'fact', importance: 3, time: at(0) });
    const old = await entry(pool, ns, 'otter plan old', { kind: 'memory', refId: 'm_old', category: 'plan', importance: 6, time: at(1), current: false, validTo: at(2) });
    const turn = await entry(pool, ns, 'otter turn', { kind: 'turn', refId: 't_1', time: at(24) });
    const doc = await entry(pool, ns, 'otter document', { kind: 'document', refId: 'x_1', time: at(3) });
    await entry(pool, OTHER, 'otter elsewhere');
    const seqs = async (filter: object) => (await store.keywordSearch(ns, indexTerms(['otter']), 50, filter)).map((h) => h.seq).sort((a, b) => a - b);
    const sorted = (...xs: number[]) => xs.sort((a, b) => a - b);
    assert.deepEqual(await seqs({}), sorted(dec, fact, turn, doc));
    assert.deepEqual(await seqs({ includeSuperseded: true }), sorted(dec, fact, old, turn, doc));
    assert.deepEqual(await seqs({ validAt: at(1) }), sorted(dec, fact, old, turn, doc));
    assert.deepEqual(await seqs({ validAt: at(2) }), sorted(dec, fact, turn, doc));
    assert.deepEqual(await seqs({ kinds: ['turn'] }), [turn]);
    assert.deepEqual(await seqs({ categories: ['decision', 'plan'], includeSuperseded: true }), sorted(dec, old));
    assert.deepEqual(await seqs({ minImportance: 6 }), [dec]);
    assert.deepEqual(await seqs({ since: at(0), until: at(3) }), sorted(fact, doc));
    assert.deepEqual(await seqs({ memoryIds: ['m_fact', 'm_old', 't_1'] }), [fact]);
    assert.deepEqual(await seqs({ memoryIds: [] }), []);
    assert.deepEqual(await seqs({ layers: [4] }), [turn]);
    assert.deepEqual(await seqs({ layers: [3] }), sorted(dec, fact, doc));
    assert.deepEqual(await store.filterEntries(ns, { kinds: ['memory'] }, 10), [fact, dec]);
    assert.deepEqual(await store.filterEntries(ns, {}, 2), [turn, doc]);
    assert.deepEqual(await store.filterEntries('nobody', {}, 2), []);
  });

  it('getEntries and entryFor join the records: memory text, turn provenance, the turn a memory states word for word', async () => {
    const ns = 'joins';
    await namespace(pool, ns);
    const src = (await pool.query<{ id: number }>("INSERT INTO sources (namespace, kind, path, created_at) VALUES ($1, 'claude-code', '/logs/a.jsonl', $2) RETURNING id", [ns, at(0)])).rows[0]!.id;
    await pool.query(
      `INSERT INTO turns (id, namespace, source_id, session_id, message_id, role, speaker, text, ts, line, meta, created_at)
       VALUES ('t_j1', $1, $2, 'sess', 'msg1', 'user', 'Ana', 'We moved the launch to May', $3, 42, '{"path":"/logs/b.jsonl"}', $3)`,
      [ns, src, at(1)],
    );
    const turnSeq = await insertEntry(pool, { namespace: ns, kind: 'turn', refId: 't_j1', body: 'Ana: We moved the launch to May', time: at(1), category: null, importance: null });
    const memory = async (id: string, text: string, provenance: unknown) => {
      await pool.query(
        `INSERT INTO memories (id, namespace, text, dedup_key, category, importance, created_at, updated_at, valid_from, provenance)
         VALUES ($1, $2, $3, $1, 'fact', 5, $4, $4, $4, $5)`,
        [id, ns, text, at(2), JSON.stringify(provenance)],
      );
      return insertEntry(pool, { namespace: ns, kind: 'memory', refId: id, body: `${text}\ntag`, time: at(2), category: 'fact', importance: 5 });
    };
    const verbatim = await memory('m_v', 'We moved the launch to May', [{ source: 'cli', turnIds: ['t_j1'] }]);
    const own = await memory('m_o', 'Ana: launch in May', [{ source: 'cli', turnIds: ['t_j1'] }]);
    const odd = await memory('m_x', 'odd provenance', [{ turnIds: 't_j1' }]);
    const got = await store.getEntries(ns, [odd, turnSeq, own, verbatim, 999_999_999, turnSeq]);
    assert.deepEqual(got.map((e) => e.seq), [turnSeq, verbatim, own, odd].sort((a, b) => a - b));
    const t = got.find((e) => e.seq === turnSeq)!;
    assert.equal(t.text, 'We moved the launch to May');
    assert.deepEqual(t.provenance, [{ source: 'claude-code', path: '/logs/b.jsonl', sessionId: 'sess', messageId: 'msg1', line: 42, role: 'user', speaker: 'Ana', timestamp: at(1) }]);
    const m = got.find((e) => e.seq === own)!;
    assert.equal(m.text, 'Ana: launch in May');
    assert.equal(m.indexedChars, 'Ana: launch in May\ntag'.length);
    assert.deepEqual(m.provenance, [{ source: 'cli', turnIds: ['t_j1'] }]);
    assert.deepEqual(await store.getEntries(OTHER, [turnSeq, own]), [], 'namespace wall');
    assert.equal((await store.entryFor('memory', 'm_v'))?.text, 'Ana: We moved the launch to May', "the turn's body: its vector comes from the cache");
    assert.equal((await store.entryFor('memory', 'm_o'))?.text, 'Ana: launch in May');
    assert.equal((await store.entryFor('memory', 'm_x'))?.text, 'odd provenance', 'a malformed provenance does not fail the read');
    assert.equal(await store.entryFor('memory', 'm_none'), null);
    const missing = await store.entriesMissingVector('m', 10, ns);
    assert.deepEqual(missing.map((x) => x.seq), [turnSeq, verbatim, own, odd]);
  });
});

describe('PostgreSQL vectors', () => {
  let made: Made;
  let store: PgStore;
  before(async () => {
    made = await freshPgStore();
    store = made.store;
  });
  after(async () => {
    await store.close();
    await made.cleanup();
  });

  it('stores the int8 codec bytes SQLite stores, bit for bit', async () => {
    const seq = await entry(store.pool, NS, 'bytes');
    const v = unitVector(384, 7);
    await store.putVectors('bits', [{ seq, vector: v }]);
    const row = (await store.pool.query<{ vector: Buffer; dim: number }>('SELECT vector, dim FROM vectors WHERE entry_seq = $1', [seq])).rows[0]!;
    assert.ok(row.vector.equals(encodeVector(v)));
    assert.equal(row.dim, 384);
    assert.deepEqual([...(await store.getVectors('bits', [seq])).get(seq)!], [...decodeVector(encodeVector(v))]);
  });

  it('vectorsAfter never skips a row when writers on other connections commit out of order', async () => {
    const reader = await made.connect();
    const writerB = await made.connect();
    const seqs: number[] = [];
    for (let i = 0; i < 12; i++) seqs.push(await entry(store.pool, 'wm', `watermark ${i}`));
    const model = 'wm-model';
    const index = new VectorIndex(noPurges(reader), model, null);
    // Connection A opens a transaction and writes six vectors, uncommitted.
    const a = await store.pool.connect();
    try {
      await a.query('BEGIN');
      await entries.putVectors(a, model, seqs.slice(0, 6).map((seq, i) => ({ seq, vector: unitVector(8, i + 1) })));
      // Connection B writes and commits six more: their ids are higher than A's.
      await writerB.putVectors(model, seqs.slice(6).map((seq, i) => ({ seq, vector: unitVector(8, i + 7) })));
      const committed = (await reader.vectorsAfter('wm', model, 0, 100)).length;
      assert.equal(committed, 0, "B's rows wait behind A's open transaction");
      assert.equal(await index.catchUp('wm'), 0);
      await a.query('COMMIT');
    } catch (err) {
      await a.query('ROLLBACK');
      throw err;
    } finally {
      a.release();
    }
    assert.equal(await index.catchUp('wm'), 12, 'every row of both writers, none skipped');
    // Paging two at a time with the last id as watermark sees each exactly once, in id order.
    const paged: number[] = [];
    const ids: number[] = [];
    for (let mark = 0; ; ) {
      const page = await reader.vectorsAfter('wm', model, mark, 2);
      if (page.length === 0) break;
      paged.push(...page.map((p) => p.seq));
      ids.push(...page.map((p) => p.id));
      mark = page.at(-1)!.id;
    }
    assert.deepEqual([...paged].sort((x, y) => x - y), seqs);
    for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!, 'ids strictly increase');
    // A re-embedded entry comes back past the watermark; an unrelated open transaction holds nothing back.
    const other = await store.pool.connect();
    try {
      await other.query('BEGIN');
      await other.query("INSERT INTO namespaces (id, created_at) VALUES ('unrelated', 'x')");
      await store.putVectors(model, [{ seq: seqs[0]!, vector: unitVector(8, 99) }]);
      const after = await reader.vectorsAfter('wm', model, ids.at(-1)!, 10);
      assert.deepEqual(after.map((v) => v.seq), [seqs[0]]);
      assert.equal(await index.catchUp('wm'), 1);
    } finally {
      await other.query('ROLLBACK');
      other.release();
    }
    assert.equal((await reader.vectorsAfter('wm', model, 0, 100)).length, 12, 'replaced, not doubled');
    assert.deepEqual(await reader.vectorsAfter(OTHER, model, 0, 100), [], 'namespace wall');
  });

  it('nearestVectors (pgvector HNSW) finds what exact search finds, per namespace, and VectorIndex uses it past exactMax', async () => {
    const dim = 64;
    const model = 'ann-model';
    const big: Array<{ seq: number; vector: Float32Array }> = [];
    await namespace(store.pool, 'ann');
    const seqs = (await store.pool.query<{ seq: number }>(
      `INSERT INTO entries (namespace, kind, ref_id, body, time) SELECT 'ann', 'turn', 'ann' || g, 'v', $1 FROM generate_series(1, 3000) g RETURNING seq`,
      [at(0)],
    )).rows.map((r) => r.seq);
    seqs.forEach((seq, i) => big.push({ seq, vector: unitVector(dim, 1000 + i) }));
    await store.putVectors(model, big);
    const small: Array<{ seq: number; vector: Float32Array }> = [];
    for (let i = 0; i < 20; i++) small.push({ seq: await entry(store.pool, 'ann-small', `s${i}`), vector: unitVector(dim, 50_000 + i) });
    await store.putVectors(model, small);
    // A row copied by cairn migrate has no embedding: the build gives it one from its bytes.
    const copied = await entry(store.pool, 'ann', 'copied');
    const copiedVector = unitVector(dim, 31337);
    await store.pool.query("INSERT INTO vectors (entry_seq, namespace, model, dim, vector) VALUES ($1, 'ann', $2, $3, $4)", [copied, model, dim, encodeVector(copiedVector)]);
    const decoded = [...big, { seq: copied, vector: copiedVector }].map((b) => ({ seq: b.seq, vector: decodeVector(encodeVector(b.vector)) }));
    const exactTop = (query: Float32Array, k: number) =>
      decoded.map((d) => ({ seq: d.seq, distance: cosineDistance(d.vector, query) })).sort((x, y) => x.distance - y.distance).slice(0, k);
    // Until the index is built (the first call starts it) the answer is exact.
    const first = unitVector(dim, 77);
    assert.deepEqual((await store.nearestVectors('ann', model, first, 10)).map((h) => h.seq), exactTop(first, 10).map((h) => h.seq));
    await entries.buildAnnIndex(store.pool, model, dim);
    assert.equal((await store.nearestVectors('ann', model, copiedVector, 1))[0]?.seq, copied);
    const plan = (await store.pool.query(
      `EXPLAIN SELECT entry_seq FROM vectors WHERE model = $1 AND dim = ${dim} AND namespace = 'ann' ORDER BY embedding::halfvec(${dim}) <=> $2::halfvec(${dim}) LIMIT 10`,
      [model, `[${Array.from(first).join(',')}]`],
    )).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
    assert.match(plan, /Index Scan using vectors_ann_64_/, 'the HNSW index answers');
    let found = 0;
    let wanted = 0;
    for (let q = 0; q < 20; q++) {
      const query = unitVector(dim, 90_000 + q);
      const exact = exactTop(query, 10);
      const ann = await store.nearestVectors('ann', model, query, 10);
      assert.equal(ann.length, 10);
      for (let i = 1; i < ann.length; i++) assert.ok(ann[i]!.distance >= ann[i - 1]!.distance, `nearest first: ${ann.map((h) => h.distance).join(' ')}`);
      const annSeqs = new Set(ann.map((h) => h.seq));
      found += exact.filter((e) => annSeqs.has(e.seq)).length;
      wanted += exact.length;
    }
    const recall = found / wanted;
    assert.ok(recall >= 0.9, `recall@10 ${recall}`);
    // The small namespace beside the big one still gets its own k (iterative scan), nothing else.
    const smallHits = await store.nearestVectors('ann-small', model, unitVector(dim, 5), 10);
    assert.equal(smallHits.length, 10);
    const smallSeqs = new Set(small.map((s) => s.seq));
    assert.ok(smallHits.every((h) => smallSeqs.has(h.seq)));
    assert.deepEqual(await store.nearestVectors('ann', model, unitVector(dim + 1, 1), 5), [], 'another width has no vectors');
    const index = new VectorIndex(noPurges(store), model, null, { exactMax: 100 });
    const query = unitVector(dim, 424242);
    const viaIndex = await index.search('ann', query, 10);
    assert.equal(index.isExact('ann'), false);
    assert.ok((await index.ready('ann')) > 100);
    assert.deepEqual(viaIndex.map((h) => h.seq), (await store.nearestVectors('ann', model, query, 10)).map((h) => h.seq));
    // A small namespace stays exact in process: the same hits as brute force over its vectors.
    const exactSmall = small
      .map((s) => ({ seq: s.seq, distance: cosineDistance(decodeVector(encodeVector(s.vector)), query) }))
      .sort((x, y) => x.distance - y.distance)
      .slice(0, 5)
      .map((h) => h.seq);
    assert.deepEqual((await index.search('ann-small', query, 5)).map((h) => h.seq), exactSmall);
    assert.equal(index.isExact('ann-small'), true);
  });
});
