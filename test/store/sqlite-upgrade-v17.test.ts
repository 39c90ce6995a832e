// Schema V17 on a real home: a home in the V16 layout (every embedded text's vector a second time
// in the embedding cache under its hex hash, '#windows' passage rows starting with the entry's own
// vector) upgrades without losing a vector, a cached vector or a search result, and comes out
// smaller. The V16 home is this test's home rewritten the way V16 stored the same vectors, byte for byte.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Cairn } from '../../src/service/cairn.js';
import { passageModelId, passagesOf } from '../../src/embed/passages.js';
import { textHashKey } from '../../src/store/text-hash-key.js';
import { QUANT_BLOCK, withoutFirstVector } from '../../src/store/vector-codec.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';

const MODEL = 'test-hash@1';
const DIMS = 256;
const sha = (t: string) => createHash('sha256').update(t).digest('hex');

const SENTENCES = [
  'The ferry to the island leaves at seven every morning from the old harbour pier.',
  'Maria keeps a spare key to the boathouse under the blue flower pot by the door.',
  'Our build server ran out of disk twice because nightly artifacts were never pruned.',
  'The dentist moved the appointment to Thursday afternoon at half past three.',
  'Ravi wrote a cron job that deletes anything older than ten days from the bucket.',
  'The garden needs a new fence before the goats find the vegetable beds again.',
];
// Each with words of its own: the hash embedder gives texts of the same words the same vector.
const LONG_TEXTS = [['apples', 'kayak'], ['violin', 'tundra'], ['saffron', 'glacier']].map(([a, b], k) =>
  [...SENTENCES.map((_, i) => SENTENCES[(i + k) % SENTENCES.length]), `Remember the ${a} and the ${b}.`].join(' '));
const SHORT_TEXTS = ['Lisbon trams are old and yellow.', 'The cat sleeps on the warm laptop.', 'Lisbon trams are old and yellow.'];
const QUERIES = ['ferry harbour morning', 'spare key boathouse', 'disk artifacts pruned', 'yellow trams', 'goats vegetable fence'];

/** Two int8 rows of whole blocks as one, byte for byte as the codec encodes their concatenation. */
function joinRows(a: Buffer, b: Buffer): Buffer {
  const scales = (row: Buffer) => row.subarray(0, (row.length / (QUANT_BLOCK + 4)) * 4);
  const codes = (row: Buffer) => row.subarray((row.length / (QUANT_BLOCK + 4)) * 4);
  return Buffer.concat([scales(a), scales(b), codes(a), codes(b)]);
}

/** Rewrites a current home's vectors and cache the way schema V16 held them. */
function toV16(path: string, cachedTexts: readonly string[]): void {
  const db = new Database(path);
  try {
    db.transaction(() => {
      const rows = db.prepare(`SELECT p.id, p.vector AS passages, o.vector AS own FROM vectors p JOIN vectors o ON o.entry_seq = p.entry_seq AND o.model = ?
                               WHERE p.model = ? AND length(p.vector) > 0`).all(MODEL, passageModelId(MODEL, 'windows')) as Array<{ id: number; passages: Buffer; own: Buffer }>;
      const put = db.prepare('UPDATE vectors SET vector = ?, dim = dim + ? WHERE id = ?');
      for (const r of rows) put.run(joinRows(r.own, r.passages), DIMS, r.id);
      const bytesOf = db.prepare(`SELECT vector FROM vectors WHERE text_hash = ? AND model = ? UNION ALL SELECT vector FROM embed_cache WHERE text_hash = ? AND model = ? LIMIT 1`).pluck();
      const cache = cachedTexts.map((t) => ({ hash: sha(t), bytes: bytesOf.get(textHashKey(sha(t)), MODEL, textHashKey(sha(t)), MODEL) as Buffer | undefined }));
      db.exec(`DROP TRIGGER vectors_keep_cached; DROP INDEX vectors_text_hash; ALTER TABLE vectors DROP COLUMN text_hash; DROP TABLE embed_cache;
               ALTER TABLE vectors ADD COLUMN created_at TEXT NOT NULL DEFAULT '2026-11-01T09:00:00.000Z';
               CREATE TABLE embed_cache (model TEXT NOT NULL, text_hash TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model, text_hash)) WITHOUT ROWID;`);
      const add = db.prepare('INSERT OR IGNORE INTO embed_cache (model, text_hash, vector) VALUES (?, ?, ?)');
      for (const c of cache) if (c.bytes) add.run(MODEL, c.hash, c.bytes);
      db.pragma('user_version = 16');
    })();
    db.exec('VACUUM');
  } finally {
    db.close();
  }
}

/** Bytes the vectors and the cache hold in their rows and index entries (a home this small is a few pages either way). */
function vectorBytes(db: Database.Database): number {
  return db.prepare("SELECT SUM(payload) FROM dbstat WHERE name IN ('vectors', 'embed_cache') OR name LIKE 'vectors\\_%' ESCAPE '\\' OR name LIKE 'sqlite_autoindex_vectors%'").pluck().get() as number;
}

async function snapshot(cairn: Cairn, texts: readonly string[]) {
  const seqs = (cairn.store as unknown as { db: Database.Database }).db.prepare('SELECT seq FROM entries ORDER BY seq').pluck().all() as number[];
  const own = await cairn.store.getVectors(MODEL, seqs);
  const passages = await cairn.store.getVectors(passageModelId(MODEL, 'windows'), seqs);
  const cached = await cairn.store.cacheGet(MODEL, texts.map(sha));
  const searches = [];
  for (const q of QUERIES) {
    for (const mode of ['hybrid', 'vector'] as const) {
      const { results } = await cairn.search(q, { mode, limit: 5 });
      searches.push(results.map((r) => [r.id, r.score, r.text]));
    }
  }
  return {
    own: [...own].map(([s, v]) => [s, [...v]]),
    passages: [...passages].map(([s, v]) => [s, [...v]]),
    cached: [...cached].sort(([a], [b]) => a.localeCompare(b)).map(([h, v]) => [h, [...v]]),
    searches,
  };
}

describe('schema V17 upgrade', () => {
  it('a V16 home upgrades: the same vectors, cached vectors and search results; passage rows without the own vector; a smaller file', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    try {
      const embedder = new HashEmbedder({ modelId: MODEL, dims: DIMS });
      let cairn = await Cairn.open({ home: tmp.dir, embedder, config: { search: { focusWeight: 0 }, index: { passages: 'windows' } } });
      for (const text of [...LONG_TEXTS, ...SHORT_TEXTS]) await cairn.remember({ text });
      // A text whose vector only the cache holds (its entry is long gone).
      await cairn.store.cachePut(MODEL, [{ textHash: sha('a text no entry holds'), vector: embedder.vector('a text no entry holds') }]);
      const windows = LONG_TEXTS.flatMap((t) => passagesOf(t, 'windows').slice(1));
      const texts = [...LONG_TEXTS, ...SHORT_TEXTS, ...windows, 'a text no entry holds'];
      const before = await snapshot(cairn, texts);
      assert.equal(before.cached.length, new Set(texts).size, 'every embedded text is cached');
      await cairn.close();

      toV16(path, texts);
      const v16 = new Database(path, { readonly: true });
      const v16Rows = v16.prepare('SELECT id, vector FROM vectors WHERE model = ? AND length(vector) > 0').all(passageModelId(MODEL, 'windows')) as Array<{ id: number; vector: Buffer }>;
      assert.equal(v16Rows.length, LONG_TEXTS.length);
      const perVector = DIMS + (DIMS / QUANT_BLOCK) * 4;
      assert.deepEqual(v16Rows.map((r) => r.vector.length / perVector), LONG_TEXTS.map((t) => passagesOf(t, 'windows').length), 'V16: the own vector, then the later windows');
      assert.equal(v16.prepare('SELECT COUNT(*) FROM embed_cache').pluck().get(), new Set(texts).size);
      const v16Bytes = vectorBytes(v16);
      v16.close();

      cairn = await Cairn.open({ home: tmp.dir, embedder, config: { search: { focusWeight: 0 }, index: { passages: 'windows' } } });
      const db = (cairn.store as unknown as { db: Database.Database }).db;
      assert.equal(db.pragma('user_version', { simple: true }), 17);
      assert.equal(db.pragma('freelist_count', { simple: true }), 0, 'vacuumed once after the upgrade: the freed pages are given back');
      assert.deepEqual(await snapshot(cairn, texts), before, 'vectors, cached vectors and searches as before');
      for (const r of v16Rows) {
        assert.deepEqual(db.prepare('SELECT vector FROM vectors WHERE id = ?').pluck().get(r.id), withoutFirstVector(r.vector, DIMS), 'the first window cut off byte for byte');
      }
      // What the cache still holds itself: the later windows and the text no entry holds.
      assert.equal(db.prepare('SELECT COUNT(*) FROM embed_cache').pluck().get(), new Set([...windows, 'a text no entry holds']).size);
      assert.equal(db.prepare('SELECT COUNT(*) FROM vectors WHERE text_hash IS NOT NULL').pluck().get(), db.prepare('SELECT COUNT(*) FROM vectors WHERE model = ?').pluck().get(MODEL), 'every own vector row holds its text\'s hash');
      assert.equal(db.prepare("SELECT COUNT(*) FROM pragma_table_info('vectors') WHERE name = 'created_at'").pluck().get(), 0);
      const v17Bytes = vectorBytes(db);
      assert.ok(v17Bytes < 0.75 * v16Bytes, `${v16Bytes} → ${v17Bytes} bytes of vectors and cache`);
      assert.equal((await cairn.store.health({ integrity: true })).ok, true);
      // Nothing waits: the upgraded rows count as done, and a new text embeds as before.
      assert.equal((await cairn.embedPending()).total, 0);
      const calls = embedder.calls.length;
      await cairn.remember({ text: SHORT_TEXTS[1]! + ' Again.' });
      assert.equal(embedder.calls.length, calls + 1);
      await cairn.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('a passage row of a width that is not whole blocks is dropped by the upgrade and written again from the cache, without the model', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    try {
      const embedder = new HashEmbedder({ modelId: MODEL, dims: 100 });
      let cairn = await Cairn.open({ home: tmp.dir, embedder, config: { index: { passages: 'windows' } } });
      await cairn.remember({ text: LONG_TEXTS[0]! });
      await cairn.close();
      const db = new Database(path);
      // As V16 held it: the row with the own vector first (an unaligned width is re-encoded whole, as V16 did).
      db.exec("DROP TRIGGER vectors_keep_cached; DROP INDEX vectors_text_hash; ALTER TABLE vectors DROP COLUMN text_hash; ALTER TABLE vectors ADD COLUMN created_at TEXT NOT NULL DEFAULT '2026-11-01T09:00:00.000Z'");
      db.pragma('user_version = 16');
      db.close();
      cairn = await Cairn.open({ home: tmp.dir, embedder, config: { index: { passages: 'windows' } } });
      const raw = (cairn.store as unknown as { db: Database.Database }).db;
      assert.equal(raw.prepare('SELECT COUNT(*) FROM vectors WHERE model = ?').pluck().get(passageModelId(MODEL, 'windows')), 0);
      const calls = embedder.calls.length;
      const pass = await cairn.embedPending();
      assert.equal(pass.done, 1);
      assert.equal(embedder.calls.length, calls, 'the windows come from the cache');
      assert.equal(raw.prepare('SELECT COUNT(*) FROM vectors WHERE model = ?').pluck().get(passageModelId(MODEL, 'windows')), 1);
      await cairn.close();
    } finally {
      tmp.cleanup();
    }
  });
});
