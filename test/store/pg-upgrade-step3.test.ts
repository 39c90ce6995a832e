// PostgreSQL migration step 3 on a real server (as SQLite's V17, test/store/sqlite-upgrade-v17.test.ts):
// a schema in the step-2 layout (every embedded text's vector again in the cache under its hex
// hash, '#windows' rows starting with the entry's own vector, created_at on vector rows) upgrades
// without losing a vector or a cached vector. The step-2 schema is this test's store rewritten the
// way step 2 held the same vectors, byte for byte.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { freshPgStore } from '../helpers/postgres.js';
import { MIGRATION_LOCK } from '../../src/store/postgres/migrations.js';
import { PgStore } from '../../src/store/postgres/pg-store.js';
import { textHashKey } from '../../src/store/text-hash-key.js';
import { QUANT_BLOCK, decodeVector, withoutFirstVector } from '../../src/store/vector-codec.js';

const NS = 'upgrade';
const MODEL = 'm@1';
const WINDOWS = `${MODEL}#windows`;
const DIMS = 256;
const sha = (t: string) => createHash('sha256').update(t).digest('hex');

function unit(seed: number): Float32Array {
  const v = Float32Array.from({ length: DIMS }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function joinRows(a: Buffer, b: Buffer): Buffer {
  const scaleBytes = (row: Buffer) => (row.length / (QUANT_BLOCK + 4)) * 4;
  return Buffer.concat([a.subarray(0, scaleBytes(a)), b.subarray(0, scaleBytes(b)), a.subarray(scaleBytes(a)), b.subarray(scaleBytes(b))]);
}

describe('PostgreSQL migration step 3', () => {
  it('a step-2 schema upgrades: the same vectors and cached vectors, passage rows without the own vector, no copy of a stored vector in the cache', async () => {
    const { store, url, schema, cleanup } = await freshPgStore();
    let reopened: PgStore | null = null;
    try {
      const texts = ['first memory about ferries', 'second memory about keys', 'third memory about disks'];
      for (const text of texts) await store.addMemory({ namespace: NS, text });
      const seqs = (await store.entriesMissingVector(MODEL, 10, NS)).map((m) => m.seq);
      await store.putVectors(MODEL, seqs.map((seq, i) => ({ seq, vector: unit(i + 1), textHash: sha(texts[i]!) })));
      await store.putVectors(WINDOWS, [{ seq: seqs[0]!, vector: new Float32Array([...unit(10), ...unit(11)]) }, { seq: seqs[1]!, vector: new Float32Array(0) }, { seq: seqs[2]!, vector: unit(12) }]);
      const windowTexts = ['w10', 'w11', 'w12', 'a text no entry holds'];
      await store.cachePut(MODEL, windowTexts.map((t, i) => ({ textHash: sha(t), vector: unit([10, 11, 12, 13][i]!) })));
      const allTexts = [...texts, ...windowTexts];
      const snapshot = async (s: PgStore) => ({
        own: [...(await s.getVectors(MODEL, seqs))].map(([k, v]) => [k, [...v]]).sort(),
        windows: [...(await s.getVectors(WINDOWS, seqs))].map(([k, v]) => [k, [...v]]).sort(),
        cached: [...(await s.cacheGet(MODEL, allTexts.map(sha)))].map(([k, v]) => [k, [...v]]).sort(),
      });
      const before = await snapshot(store);
      assert.equal(before.cached.length, allTexts.length);

      // The step-2 layout, written by hand.
      const db = store.pool;
      const bytesOf = async (t: string) => (await db.query<{ v: Buffer }>('SELECT vector AS v FROM vectors WHERE text_hash = $1 UNION ALL SELECT vector FROM embed_cache WHERE text_hash = $1 LIMIT 1', [textHashKey(sha(t))])).rows[0]!.v;
      const cache = await Promise.all(allTexts.map(async (t) => ({ hash: sha(t), bytes: await bytesOf(t) })));
      const rows = (await db.query<{ id: string; passages: Buffer; own: Buffer }>(
        `SELECT p.id, p.vector AS passages, o.vector AS own FROM vectors p JOIN vectors o ON o.entry_seq = p.entry_seq AND o.model = $1 WHERE p.model = $2 AND length(p.vector) > 0`, [MODEL, WINDOWS])).rows;
      // Under the migration lock (one implicit transaction), as test/helpers/postgres.ts drops
      // schemas: DDL of test files running side by side takes turns instead of deadlocking.
      await db.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK}); DROP TRIGGER vectors_keep_cached_delete ON vectors; DROP TRIGGER vectors_keep_cached_replace ON vectors; DROP FUNCTION cairn_keep_cached();
                      DROP INDEX vectors_text_hash; ALTER TABLE vectors DROP COLUMN text_hash; ALTER TABLE vectors ADD COLUMN created_at TEXT NOT NULL DEFAULT '2026-11-01T09:00:00.000Z';
                      DELETE FROM embed_cache; ALTER TABLE embed_cache ALTER COLUMN text_hash TYPE TEXT USING encode(text_hash, 'hex')`);
      const v2Rows = new Map<string, Buffer>();
      for (const r of rows) {
        v2Rows.set(String(r.id), joinRows(r.own, r.passages));
        await db.query('UPDATE vectors SET vector = $1, dim = dim + $2 WHERE id = $3', [v2Rows.get(String(r.id)), DIMS, r.id]);
      }
      for (const c of cache) await db.query('INSERT INTO embed_cache (model, text_hash, vector) VALUES ($1, $2, $3)', [MODEL, c.hash, c.bytes]);
      await db.query('UPDATE cairn_schema SET version = 2');
      await store.close();

      reopened = await PgStore.open({ url, schema, max: 4 });
      assert.deepEqual(await snapshot(reopened), before, 'vectors and cached vectors as before');
      for (const [id, v2] of v2Rows) {
        const now: { vector: Buffer; dim: number } = (await reopened.pool.query<{ vector: Buffer; dim: number }>('SELECT vector, dim FROM vectors WHERE id = $1', [id])).rows[0]!;
        assert.deepEqual(now.vector, withoutFirstVector(v2, DIMS), 'the first window cut off byte for byte');
        assert.equal(now.dim, decodeVector(now.vector).length);
      }
      const count = async (sql: string) => Number((await reopened!.pool.query<{ n: string }>(sql)).rows[0]!.n);
      assert.equal(await count('SELECT count(*) AS n FROM embed_cache'), windowTexts.length, 'the cache keeps what no vector row holds');
      assert.equal(await count('SELECT count(*) AS n FROM vectors WHERE text_hash IS NOT NULL'), texts.length);
      assert.equal(await count("SELECT count(*) AS n FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'vectors' AND column_name = 'created_at'"), 0);
    } finally {
      await reopened?.close();
      await cleanup();
    }
  });
});
