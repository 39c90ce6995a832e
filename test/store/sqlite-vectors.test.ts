// Vectors on disk (schema V15): int8 with a scale per block of 128 values, read back as float32;
// the embedding cache in small rows; and an existing home of the float32 layout
// migrated, vacuumed, and read back through the same API.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { COMPACT_VECTORS_VERSION, MIGRATIONS, SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { registerIndexText } from '../../src/store/sqlite/fts-text.js';
import { QUANT_BLOCK, decodeVector, encodeVector, quantisedBytes } from '../../src/store/vector-codec.js';
import { tempDir } from '../helpers/store-fixtures.js';

const NS = 'alpha';
const MODEL = 'use-lite';
const T = '2026-01-01T00:00:00.000Z';
const hash = (text: string): string => createHash('sha256').update(text).digest('hex');

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

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

const float32Blob = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

describe('vector codec (int8, a scale per block)', () => {
  it('a 512-d vector takes 528 bytes and comes back with cosine ≥ 0.9999', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const v = unitVector(512, seed);
      const blob = encodeVector(v);
      assert.equal(blob.byteLength, 528);
      const back = decodeVector(blob);
      assert.equal(back.length, 512);
      assert.ok(cosine(v, back) >= 0.9999, `seed ${seed}: ${cosine(v, back)}`);
    }
  });

  it('packed rows of several vectors, odd lengths and the empty row round-trip', () => {
    const packed = new Float32Array(3 * 384);
    for (let i = 0; i < 3; i++) packed.set(unitVector(384, 7 + i).map((x) => x * (i + 1) * 10), i * 384);
    for (const v of [packed, unitVector(1, 3), unitVector(QUANT_BLOCK, 4), unitVector(QUANT_BLOCK + 1, 5), unitVector(300, 6), new Float32Array(0)]) {
      const blob = encodeVector(v);
      assert.equal(blob.byteLength, quantisedBytes(v.length));
      const back = decodeVector(blob);
      assert.equal(back.length, v.length);
      for (let i = 0; i < v.length; i++) {
        // Rounding to the nearest of 255 steps across the block's range: at most half a step off.
        const from = i - (i % QUANT_BLOCK);
        const blockMax = Math.max(...v.subarray(from, from + QUANT_BLOCK).map(Math.abs));
        assert.ok(Math.abs(back[i]! - v[i]!) <= blockMax / 254 + 1e-7, `${v.length}: value ${i}`);
      }
    }
  });

  it('an all-zero block and values that are not finite decode as zeros, never NaN', () => {
    const v = new Float32Array(2 * QUANT_BLOCK);
    v[QUANT_BLOCK + 3] = Number.NaN;
    v[QUANT_BLOCK + 4] = Number.POSITIVE_INFINITY;
    const back = decodeVector(encodeVector(v));
    assert.ok(back.every((x) => x === 0));
  });

  it('a blob of a length no vector encodes to is refused', () => {
    assert.throws(() => decodeVector(new Uint8Array(133)), /not a quantised vector/);
    assert.throws(() => decodeVector(new Uint8Array(3)), /not a quantised vector/);
  });
});

describe('SQLite vectors and embedding cache', () => {
  it('stores int8 rows, returns float32 vectors, and finds cached vectors by the hex hash', async () => {
    const tmp = tempDir();
    try {
      const store = new SqliteStore(join(tmp.dir, 'cairn.db'));
      store.db.prepare('INSERT INTO namespaces (id, created_at) VALUES (?, ?)').run(NS, T);
      const seq = Number(store.db.prepare("INSERT INTO entries (namespace, kind, ref_id, body, time, current) VALUES (?, 'memory', 'm1', 'the ferry leaves at nine', ?, 1)").run(NS, T).lastInsertRowid);
      const entries = [{ seq }];
      const v = unitVector(512, 11);
      await store.putVectors(MODEL, [{ seq: entries[0]!.seq, vector: v }]);
      const got = (await store.getVectors(MODEL, [entries[0]!.seq])).get(entries[0]!.seq)!;
      assert.ok(got instanceof Float32Array && got.length === 512 && cosine(got, v) >= 0.9999);
      assert.equal((store.db.prepare('SELECT length(vector) AS n FROM vectors').get() as { n: number }).n, 528);

      const h = hash('the ferry leaves at nine');
      await store.cachePut(MODEL, [{ textHash: h, vector: v }]);
      await store.cachePut(MODEL, [{ textHash: h, vector: unitVector(512, 99) }]); // the first vector of a text stays
      const cached = await store.cacheGet(MODEL, [h, hash('unknown'), '', "'; DROP TABLE embed_cache; --"]);
      assert.deepEqual([...cached.keys()], [h]);
      assert.ok(cosine(cached.get(h)!, v) >= 0.9999);
      assert.equal((await store.cacheGet('other-model', [h])).size, 0);
      assert.equal(await store.dropCachedVectors([h, hash('unknown')]), 1);
      assert.equal((await store.cacheGet(MODEL, [h])).size, 0);
      await store.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('a home of the float32 layout migrates: vectors and cache read back, no overflow pages, the file shrinks', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    const before = COMPACT_VECTORS_VERSION - 1;
    try {
      // Built the way Cairn wrote it before V15: its own migrations, 8 KiB pages, float32 blobs.
      const raw = new Database(path);
      raw.pragma('page_size = 8192');
      raw.pragma('journal_mode = WAL');
      registerIndexText(raw); // the keyword index's SQL function (schema V14)
      for (let v = 0; v < before; v++) raw.exec(MIGRATIONS[v]!);
      raw.pragma(`user_version = ${before}`);
      raw.prepare('INSERT INTO namespaces (id, created_at) VALUES (?, ?)').run(NS, T);
      const addEntry = raw.prepare("INSERT INTO entries (namespace, kind, ref_id, body, time, current) VALUES (?, 'memory', ?, ?, ?, 1)");
      const addVector = raw.prepare('INSERT INTO vectors (entry_seq, namespace, model, dim, vector, created_at) VALUES (?, ?, ?, ?, ?, ?)');
      const addCache = raw.prepare('INSERT INTO embed_cache (model, text_hash, dim, vector, created_at) VALUES (?, ?, ?, ?, ?)');
      const N = 400;
      raw.transaction(() => {
        for (let i = 0; i < N; i++) {
          const text = `memory number ${i} about the ferry`;
          const seq = Number(addEntry.run(NS, `m${i}`, text, T).lastInsertRowid);
          addVector.run(seq, NS, MODEL, 512, float32Blob(unitVector(512, i + 1)), T);
          addVector.run(seq, NS, `${MODEL}#passages`, 1024, float32Blob(new Float32Array([...unitVector(512, i + 1000), ...unitVector(512, i + 2000)])), T);
          addCache.run(MODEL, hash(text), 512, float32Blob(unitVector(512, i + 1)), T);
        }
        addCache.run(MODEL, 'short', 0, Buffer.alloc(0), T); // an empty vector stays empty
      })();
      raw.pragma('wal_checkpoint(TRUNCATE)');
      raw.close();
      const oldBytes = statSync(path).size;

      const store = new SqliteStore(path);
      assert.equal(store.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      const seqs = (store.db.prepare('SELECT seq FROM entries ORDER BY seq').pluck().all() as number[]);
      const own = await store.getVectors(MODEL, seqs);
      const passages = await store.getVectors(`${MODEL}#passages`, seqs);
      assert.equal(own.size, N);
      for (let i = 0; i < N; i++) {
        assert.ok(cosine(own.get(seqs[i]!)!, unitVector(512, i + 1)) >= 0.9999);
        const p = passages.get(seqs[i]!)!;
        assert.equal(p.length, 1024);
        assert.ok(cosine(p.subarray(512), unitVector(512, i + 2000)) >= 0.9999);
      }
      const cached = await store.cacheGet(MODEL, [hash('memory number 7 about the ferry')]);
      assert.ok(cosine(cached.get(hash('memory number 7 about the ferry'))!, unitVector(512, 8)) >= 0.9999);
      // Since V17 a cached vector that a vector row holds lives there, under its text's hash.
      assert.equal(store.db.prepare('SELECT COUNT(*) FROM embed_cache').pluck().get(), 1);
      assert.equal(store.db.prepare('SELECT COUNT(*) FROM vectors WHERE text_hash IS NOT NULL').pluck().get(), N);
      assert.equal((await store.cacheGet(MODEL, ['short'])).get('short')!.length, 0);
      const overflow = store.db.prepare("SELECT COUNT(*) FROM dbstat WHERE name IN ('vectors', 'embed_cache') AND pagetype = 'overflow'").pluck().get();
      assert.equal(overflow, 0);
      store.db.pragma('wal_checkpoint(TRUNCATE)');
      const newBytes = statSync(path).size;
      assert.ok(newBytes < oldBytes / 2, `${oldBytes} → ${newBytes} bytes`);
      assert.equal((await store.health({ integrity: true })).ok, true);
      await store.close();

      const again = new SqliteStore(path); // current: nothing migrates twice
      assert.equal((await again.getVectors(MODEL, [seqs[0]!])).size, 1);
      await again.close();
    } finally {
      tmp.cleanup();
    }
  });
});
