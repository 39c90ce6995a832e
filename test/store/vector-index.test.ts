// The ANN index is derived data kept beside the store: saved once a namespace has enough vectors,
// loaded by the next process (which then catches up only what is new), rebuilt from the store when
// its file is damaged, and never mixed across namespaces or models.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { VectorIndex } from '../../src/search/vector-index.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';

const MODEL = 'test-hash@1';
const embedder = new HashEmbedder({ dims: 32 });
const TOPICS = ['postgres migration', 'billing retry', 'deploy rollback', 'cache latency', 'schema review', 'token budget', 'queue backlog', 'release notes'];

async function withStore(fn: (store: SqliteStore, dir: string) => Promise<void>): Promise<void> {
  const tmp = tempDir('cairn-ann-');
  const store = new SqliteStore(join(tmp.dir, 'cairn.db'));
  try {
    await fn(store, join(tmp.dir, 'index'));
  } finally {
    await store.close();
    tmp.cleanup();
  }
}

/** Stores `count` memories in `namespace` with their vectors; returns their texts. */
async function seed(store: SqliteStore, namespace: string, count: number, from = 0): Promise<string[]> {
  const texts = Array.from({ length: count }, (_, i) => `${TOPICS[(from + i) % TOPICS.length]} note ${from + i} item${(from + i) % 37}`);
  await store.addMemories(texts.map((text) => ({ namespace, text })));
  const missing = await store.entriesMissingVector(MODEL, 100_000, namespace);
  await store.putVectors(MODEL, missing.map((e) => ({ seq: e.seq, vector: embedder.vector(e.text) })));
  return texts;
}

const files = (dir: string) => {
  try {
    return readdirSync(join(dir, MODEL.replace(/[^A-Za-z0-9._-]+/g, '_'))).sort();
  } catch {
    return [];
  }
};

describe('VectorIndex persistence', () => {
  it('keeps a small namespace in memory only, and saves one with a few hundred vectors', async () => {
    await withStore(async (store, dir) => {
      await seed(store, 'tiny', 40);
      await seed(store, 'notes', 400);
      const index = new VectorIndex(store, MODEL, dir);
      assert.equal(await index.catchUp('tiny'), 40);
      assert.equal(await index.catchUp('notes'), 400);
      index.flush();
      assert.deepEqual(files(dir).map((f) => f.replace(/\.\d+\.\d+b\.usearch$/, '')), ['notes.32d']);
    });
  });

  it('a new process loads the saved index and catches up only what is new, with the same answers', async () => {
    await withStore(async (store, dir) => {
      await seed(store, 'notes', 400);
      const first = new VectorIndex(store, MODEL, dir);
      const query = embedder.vector('billing retry');
      const before = await first.search('notes', query, 10);
      first.flush();
      const [saved] = files(dir);
      const mtime = statSync(join(dir, MODEL.replace('@', '_'), saved!)).mtimeMs;

      const second = new VectorIndex(store, MODEL, dir);
      assert.equal(await second.catchUp('notes'), 0, 'loaded, not rebuilt');
      assert.deepEqual((await second.search('notes', query, 10)).map((h) => h.seq), before.map((h) => h.seq));
      second.flush();
      assert.equal(statSync(join(dir, MODEL.replace('@', '_'), saved!)).mtimeMs, mtime, 'nothing new: not rewritten');

      await seed(store, 'notes', 25, 400);
      const third = new VectorIndex(store, MODEL, dir);
      assert.equal(await third.catchUp('notes'), 25);
      third.flush();
      assert.equal(files(dir).length, 1, 'the older file is replaced');
      assert.notEqual(files(dir)[0], saved);
      assert.equal(await new VectorIndex(store, MODEL, dir).catchUp('notes'), 0);
    });
  });

  it('a truncated, garbled, empty or resized saved file is rebuilt from the store, never loaded', async () => {
    // usearch aborts the process on such files instead of throwing: they must never reach it.
    await withStore(async (store, dir) => {
      const texts = await seed(store, 'notes', 300);
      const first = new VectorIndex(store, MODEL, dir);
      await first.catchUp('notes');
      first.flush();
      const folder = join(dir, MODEL.replace('@', '_'));
      const damages: Array<[string, (path: string) => void]> = [
        ['truncated', (path) => truncateSync(path, Math.floor(statSync(path).size * 0.9))],
        ['garbled', (path) => writeFileSync(path, Buffer.alloc(statSync(path).size, 0x5a))],
        ['empty', (path) => writeFileSync(path, '')],
        ['header only', (path) => writeFileSync(path, readFileSync(path).subarray(0, 4096))],
      ];
      for (const [what, harm] of damages) {
        harm(join(folder, files(dir)[0]!));
        const rebuilt = new VectorIndex(store, MODEL, dir);
        assert.equal(await rebuilt.catchUp('notes'), 300, what);
        const hits = await rebuilt.search('notes', embedder.vector(texts[7]!), 5);
        assert.equal((await store.getEntries('notes', [hits[0]!.seq]))[0]!.text, texts[7], what);
        rebuilt.flush();
        assert.equal(files(dir).length, 1, what);
        assert.equal(await new VectorIndex(store, MODEL, dir).catchUp('notes'), 0, `${what}: saved again, whole`);
      }
    });
  });

  it('files saved by earlier versions (no size in the name) are removed, not loaded', async () => {
    await withStore(async (store, dir) => {
      await seed(store, 'notes', 300);
      const first = new VectorIndex(store, MODEL, dir);
      await first.catchUp('notes');
      first.flush();
      const folder = join(dir, MODEL.replace('@', '_'));
      const [saved] = files(dir);
      const legacy = saved!.replace(/\.\d+b\.usearch$/, '.usearch');
      renameSync(join(folder, saved!), join(folder, legacy));
      writeFileSync(join(folder, 'other.32d.5.usearch'), 'another namespace, left alone');
      assert.equal(await new VectorIndex(store, MODEL, dir).catchUp('notes'), 300);
      assert.deepEqual(files(dir), ['other.32d.5.usearch']);
    });
  });

  it('a save removes temp files that writers which died mid-save left long ago, not fresh ones', async () => {
    await withStore(async (store, dir) => {
      await seed(store, 'notes', 300);
      const folder = join(dir, MODEL.replace('@', '_'));
      mkdirSync(folder, { recursive: true });
      const old = join(folder, 'notes.32d.120.tmp-4242');
      const fresh = join(folder, 'other.32d.7.tmp-4343');
      writeFileSync(old, 'half an index');
      writeFileSync(fresh, 'a save in progress');
      const hourAgo = new Date(Date.now() - 3_600_000);
      utimesSync(old, hourAgo, hourAgo);
      const index = new VectorIndex(store, MODEL, dir);
      await index.catchUp('notes');
      index.flush();
      assert.equal(existsSync(old), false);
      assert.equal(existsSync(fresh), true);
    });
  });

  it('never answers from another namespace or model', async () => {
    await withStore(async (store, dir) => {
      await seed(store, 'a', 300);
      await seed(store, 'b', 300);
      const index = new VectorIndex(store, MODEL, dir);
      const seqsOf = async (ns: string) => new Set((await store.getEntries(ns, (await index.search(ns, embedder.vector('deploy rollback'), 50)).map((h) => h.seq))).map((e) => e.namespace));
      assert.deepEqual(await seqsOf('a'), new Set(['a']));
      assert.deepEqual(await seqsOf('b'), new Set(['b']));
      index.flush();
      assert.deepEqual(await new VectorIndex(store, 'other-model@1', dir).search('a', embedder.vector('deploy rollback'), 5), []);
    });
  });
});
