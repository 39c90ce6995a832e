// The nearest-neighbour index is derived data kept beside the store. A namespace of a person's size
// is searched exactly (the same answer whatever order its vectors came in); a larger one by an HNSW
// graph, saved, loaded by the next process (which then catches up only what is new), rebuilt from
// the store when its file is damaged. Neither ever mixes namespaces or models.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { VectorIndex } from '../../src/search/vector-index.js';
import { dot } from '../../src/search/pipeline/cosines.js';
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

/** Persistence tests use a small exact-search ceiling so a few hundred vectors make an HNSW graph. */
const EXACT_MAX = 100;
const graphIndex = (store: SqliteStore, dir: string) => new VectorIndex(store, MODEL, dir, { exactMax: EXACT_MAX });

const files = (dir: string) => {
  try {
    return readdirSync(join(dir, MODEL.replace(/[^A-Za-z0-9._-]+/g, '_'))).sort();
  } catch {
    return [];
  }
};

describe('VectorIndex persistence', () => {
  it('searches a namespace up to exactMax exactly, from memory; saves the graph of a larger one', async () => {
    await withStore(async (store, dir) => {
      await seed(store, 'tiny', 40);
      await seed(store, 'notes', 400);
      const index = graphIndex(store, dir);
      assert.equal(await index.catchUp('tiny'), 40);
      assert.equal(await index.catchUp('notes'), 400);
      assert.equal(index.isExact('tiny'), true);
      assert.equal(index.isExact('notes'), false);
      index.flush();
      assert.deepEqual(files(dir).map((f) => f.replace(/\.\d+\.\d+b\.usearch$/, '')), ['notes.32d']);
      // With the default ceiling a few hundred vectors are searched exactly and nothing is saved.
      const byDefault = new VectorIndex(store, MODEL, join(dir, 'default'));
      await byDefault.catchUp('notes');
      assert.equal(byDefault.isExact('notes'), true);
      byDefault.flush();
      assert.equal(existsSync(join(dir, 'default')), false);
    });
  });

  it('a new process loads the saved index and catches up only what is new, with the same answers', async () => {
    await withStore(async (store, dir) => {
      await seed(store, 'notes', 400);
      const first = graphIndex(store, dir);
      const query = embedder.vector('billing retry');
      const before = await first.search('notes', query, 10);
      first.flush();
      const [saved] = files(dir);
      const mtime = statSync(join(dir, MODEL.replace('@', '_'), saved!)).mtimeMs;

      const second = graphIndex(store, dir);
      assert.equal(await second.catchUp('notes'), 0, 'loaded, not rebuilt');
      assert.deepEqual((await second.search('notes', query, 10)).map((h) => h.seq), before.map((h) => h.seq));
      second.flush();
      assert.equal(statSync(join(dir, MODEL.replace('@', '_'), saved!)).mtimeMs, mtime, 'nothing new: not rewritten');

      await seed(store, 'notes', 25, 400);
      const third = graphIndex(store, dir);
      assert.equal(await third.catchUp('notes'), 25);
      third.flush();
      assert.equal(files(dir).length, 1, 'the older file is replaced');
      assert.notEqual(files(dir)[0], saved);
      assert.equal(await graphIndex(store, dir).catchUp('notes'), 0);
    });
  });

  it('a graph mapped from a file another process has since replaced still takes new vectors, losing none', async () => {
    // The saved graph is mapped, not read; the first vector added copies it into memory. Here its
    // file is gone by then (a newer save removed it), so the copy comes from the mapping itself.
    await withStore(async (store, dir) => {
      const texts = await seed(store, 'notes', 300);
      const writer = graphIndex(store, dir);
      await writer.catchUp('notes');
      writer.flush();
      const [mapped] = files(dir);

      const reader = graphIndex(store, dir);
      const query = embedder.vector(texts[11]!);
      const before = await reader.search('notes', query, 10);
      const added = await seed(store, 'notes', 20, 300);
      assert.equal(await writer.catchUp('notes'), 20);
      writer.flush();
      assert.equal(files(dir).length, 1);
      assert.notEqual(files(dir)[0], mapped, 'the file the reader maps was replaced');

      assert.equal(await reader.catchUp('notes'), 20);
      assert.equal(reader.size('notes'), 320);
      assert.deepEqual((await reader.search('notes', query, 10)).map((h) => h.seq).slice(0, 1), before.map((h) => h.seq).slice(0, 1));
      // Among the first ten, not first: the 32-dimension hash vectors of some texts coincide (added[19]
      // has three twins), and which of equal vectors comes first varies with the graph's build.
      for (const text of [added[0]!, added[19]!, texts[0]!]) {
        const hits = await reader.search('notes', embedder.vector(text), 10);
        const found = (await store.getEntries('notes', hits.map((h) => h.seq))).map((e) => e.text);
        assert.ok(found.includes(text), `${text} among ${found.join(', ')}`);
      }
      reader.flush();
      assert.equal(await graphIndex(store, dir).catchUp('notes'), 0, 'saved whole');
    });
  });

  it('a truncated, garbled, empty or resized saved file is rebuilt from the store, never loaded', async () => {
    // usearch aborts the process on such files instead of throwing: they must never reach it.
    await withStore(async (store, dir) => {
      const texts = await seed(store, 'notes', 300);
      const first = graphIndex(store, dir);
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
        const rebuilt = graphIndex(store, dir);
        assert.equal(await rebuilt.catchUp('notes'), 300, what);
        const hits = await rebuilt.search('notes', embedder.vector(texts[7]!), 5);
        assert.equal((await store.getEntries('notes', [hits[0]!.seq]))[0]!.text, texts[7], what);
        rebuilt.flush();
        assert.equal(files(dir).length, 1, what);
        assert.equal(await graphIndex(store, dir).catchUp('notes'), 0, `${what}: saved again, whole`);
      }
    });
  });

  it('files saved by earlier versions (no size in the name) are removed, not loaded', async () => {
    await withStore(async (store, dir) => {
      await seed(store, 'notes', 300);
      const first = graphIndex(store, dir);
      await first.catchUp('notes');
      first.flush();
      const folder = join(dir, MODEL.replace('@', '_'));
      const [saved] = files(dir);
      const legacy = saved!.replace(/\.\d+b\.usearch$/, '.usearch');
      renameSync(join(folder, saved!), join(folder, legacy));
      writeFileSync(join(folder, 'other.32d.5.usearch'), 'another namespace, left alone');
      assert.equal(await graphIndex(store, dir).catchUp('notes'), 300);
      // Rebuilt, the graph is saved again at once, in the current form.
      const [resaved, other] = files(dir);
      assert.match(resaved!, /^notes\.32d\.300\.\d+b\.usearch$/);
      assert.equal(other, 'other.32d.5.usearch');
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
      const index = graphIndex(store, dir);
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
      const index = graphIndex(store, dir);
      const seqsOf = async (ns: string) => new Set((await store.getEntries(ns, (await index.search(ns, embedder.vector('deploy rollback'), 50)).map((h) => h.seq))).map((e) => e.namespace));
      assert.deepEqual(await seqsOf('a'), new Set(['a']));
      assert.deepEqual(await seqsOf('b'), new Set(['b']));
      index.flush();
      assert.deepEqual(await new VectorIndex(store, 'other-model@1', dir, { exactMax: EXACT_MAX }).search('a', embedder.vector('deploy rollback'), 5), []);
    });
  });
});

describe('VectorIndex exact search', () => {
  const cosine = (a: Float32Array, b: Float32Array) => {
    let d = 0, na = 0, nb = 0;
    for (let i = 0; i < a.length; i++) {
      d += a[i]! * b[i]!;
      na += a[i]! * a[i]!;
      nb += b[i]! * b[i]!;
    }
    return d / Math.sqrt(na * nb || 1);
  };

  it('answers with the nearest vectors by cosine, whatever order they were stored in', async () => {
    const texts = Array.from({ length: 300 }, (_, i) => `${TOPICS[i % TOPICS.length]} note ${i} item${i % 37} word${i % 11}`);
    const query = embedder.vector('deploy rollback item5 word3');
    const answer = async (order: string[]) => {
      let out: Array<{ text: string; distance: number }> = [];
      await withStore(async (store, dir) => {
        await store.addMemories(order.map((text) => ({ namespace: 'notes', text })));
        const missing = await store.entriesMissingVector(MODEL, 100_000, 'notes');
        await store.putVectors(MODEL, missing.map((e) => ({ seq: e.seq, vector: embedder.vector(e.text) })));
        const index = new VectorIndex(store, MODEL, dir);
        const hits = await index.search('notes', query, 20);
        assert.equal(index.isExact('notes'), true);
        assert.deepEqual(await index.search('notes', new Float32Array(7), 5), [], 'a query of other dimensions finds nothing');
        const byId = new Map((await store.getEntries('notes', hits.map((h) => h.seq))).map((e) => [e.seq, e.text]));
        out = hits.map((h) => ({ text: byId.get(h.seq)!, distance: h.distance }));
      });
      return out;
    };
    const forward = await answer(texts);
    const backward = await answer([...texts].reverse());
    const best = texts.map((t) => cosine(embedder.vector(t), query)).sort((a, b) => b - a).slice(0, 20);
    assert.equal(forward.length, 20);
    // Stored vectors are int8 (store/sqlite/vector-codec.ts): on the fake model's sparse vectors a
    // cosine moves by up to half a step (1/254) of the largest value's share.
    forward.forEach((h, i) => assert.ok(Math.abs(1 - h.distance - best[i]!) < 5e-3, `rank ${i}: ${1 - h.distance} vs ${best[i]}`));
    // Same answer both ways (texts tied on distance at the cut may differ, so compare above it).
    const cut = forward[forward.length - 1]!.distance;
    const clear = (hits: typeof forward) => hits.filter((h) => h.distance < cut - 1e-6).map((h) => `${h.distance.toFixed(5)} ${h.text}`).sort();
    assert.ok(clear(forward).length > 0);
    assert.deepEqual(clear(backward), clear(forward));
  });

  it('a re-embedded entry replaces its vector, not adds one', async () => {
    await withStore(async (store, dir) => {
      await seed(store, 'notes', 50);
      const index = new VectorIndex(store, MODEL, dir);
      await index.catchUp('notes');
      const [target] = await store.getEntries('notes', [(await index.search('notes', embedder.vector('billing retry'), 1))[0]!.seq]);
      const fresh = embedder.vector('zebra xylophone quartz');
      await store.putVectors(MODEL, [{ seq: target!.seq, vector: fresh }]);
      assert.equal(await index.catchUp('notes'), 1);
      assert.equal(index.size('notes'), 50);
      const [hit] = await index.search('notes', fresh, 1);
      assert.equal(hit!.seq, target!.seq);
      assert.ok(hit!.distance < 1e-5);
    });
  });

  it('rescores with the vectors it holds for an exact namespace, equal to the store\'s, a re-embedded one too; none for a graph until kept', async () => {
    await withStore(async (store, dir) => {
      await seed(store, 'notes', 60);
      await seed(store, 'other', 5);
      await seed(store, 'big', 150);
      const index = graphIndex(store, dir);
      const probe = embedder.vector('billing retry note');
      assert.equal(index.heldCosines('notes', probe, [1, 2]).size, 0, 'nothing before the namespace is loaded');
      await index.catchUp('notes');
      await index.catchUp('big');
      const seqs = (await store.entriesMissingVector('none@1', 1000, 'notes')).map((e) => e.seq);
      const fresh = embedder.vector('zebra xylophone quartz');
      await store.putVectors(MODEL, [{ seq: seqs[7]!, vector: fresh }]);
      await index.catchUp('notes');
      const otherSeq = (await store.entriesMissingVector('none@1', 10, 'other'))[0]!.seq;
      const held = index.heldCosines('notes', probe, [...seqs, otherSeq, 999_999]);
      const stored = await store.getVectors(MODEL, seqs);
      assert.deepEqual([...held.keys()], seqs, 'every asked seq of the namespace, in the order asked; another namespace\'s and unknown ones left out');
      for (const seq of seqs) assert.ok(Object.is(held.get(seq), dot(probe, stored.get(seq)!)), `seq ${seq}`);
      assert.equal(index.heldCosines('notes', embedder.vector('x').subarray(1), seqs).size, 0, 'a query of another width');
      const bigSeqs = (await store.entriesMissingVector('none@1', 10, 'big')).map((e) => e.seq);
      assert.equal(index.isExact('big'), false);
      assert.equal(index.heldCosines('big', probe, bigSeqs).size, 0);
      const before = index.keepMark('big');
      await store.putVectors(MODEL, [{ seq: bigSeqs[5]!, vector: fresh }]);
      await index.catchUp('big');
      index.keepVectors(before, await store.getQuantisedVectors(MODEL, bigSeqs.slice(0, 6)));
      assert.equal(index.heldCosines('big', probe, bigSeqs).size, 0, 'rows read across a catch-up are not kept');
      index.keepVectors(index.keepMark('big'), await store.getQuantisedVectors(MODEL, bigSeqs.slice(0, 4)));
      const kept = index.heldCosines('big', probe, bigSeqs);
      const bigStored = await store.getVectors(MODEL, bigSeqs);
      assert.deepEqual([...kept.keys()], bigSeqs.slice(0, 4), 'a graph holds the rows kept');
      for (const [seq, c] of kept) assert.ok(Object.is(c, dot(probe, bigStored.get(seq)!)), `big seq ${seq}`);
      assert.equal(index.keepMark('notes'), null, 'an exact namespace holds every vector already');
      assert.equal(index.heldCosines('notes', probe, []).size, 0);
      index.reset();
      assert.equal(index.heldCosines('big', probe, bigSeqs).size, 0, 'a reset drops kept rows');
    });
  });

  it('a graph search told to explore more keeps as many candidates as a search asking for that many', async () => {
    await withStore(async (store, dir) => {
      await seed(store, 'notes', 1500);
      const index = graphIndex(store, dir);
      await index.catchUp('notes');
      assert.equal(index.isExact('notes'), false);
      for (const q of ['deploy rollback', 'budget review', 'item7 note']) {
        const query = embedder.vector(q);
        const deep = await index.search('notes', query, 300);
        const asked = await index.search('notes', query, 10, 300);
        assert.deepEqual(asked, deep.slice(0, 10), q);
        assert.equal((await index.search('notes', query, 10, 0)).length, 10);
        assert.equal((await index.search('notes', query, 10, 5)).length, 10, 'exploring less than asked changes nothing');
      }
    });
  });

  it('grows into a saved graph past exactMax, still finding each vector first', async () => {
    await withStore(async (store, dir) => {
      const texts = await seed(store, 'notes', 90);
      const index = graphIndex(store, dir);
      await index.catchUp('notes');
      assert.equal(index.isExact('notes'), true);
      texts.push(...(await seed(store, 'notes', 30, 90)));
      assert.equal(await index.catchUp('notes'), 30);
      assert.equal(index.isExact('notes'), false);
      assert.equal(index.size('notes'), 120);
      assert.equal(files(dir).length, 1, 'saved as soon as it became a graph');
      for (const i of [3, 95, 119]) {
        const [hit] = await index.search('notes', embedder.vector(texts[i]!), 1);
        assert.ok(hit!.distance < 1e-3, `${texts[i]}: ${hit!.distance}`);
      }
    });
  });

  it('a saved graph of a namespace now under the ceiling is removed, and the namespace searched exactly', async () => {
    await withStore(async (store, dir) => {
      await seed(store, 'notes', 300);
      const small = graphIndex(store, dir);
      await small.catchUp('notes');
      small.flush();
      assert.equal(files(dir).length, 1);
      const byDefault = new VectorIndex(store, MODEL, dir);
      assert.equal(await byDefault.catchUp('notes'), 300, 'read from the store, not loaded');
      assert.equal(byDefault.isExact('notes'), true);
      assert.deepEqual(files(dir), []);
    });
  });
});

describe('VectorIndex memory budget', () => {
  it('drops the least recently searched namespaces past its budget, saving a changed graph first; they come back whole', async () => {
    await withStore(async (store, dir) => {
      for (const ns of ['a', 'b', 'c']) await seed(store, ns, 60);
      const query = embedder.vector('cache latency item4');
      const budget = 60 * (32 * 4 + 16) + 1; // one exactly searched namespace of 60 vectors
      const index = new VectorIndex(store, MODEL, dir, { memoryBudgetBytes: budget });
      const first = await index.search('a', query, 10);
      await index.search('b', query, 10);
      assert.deepEqual(index.inMemory(), ['b']);
      assert.deepEqual(await index.search('a', query, 10), first, 'rebuilt from the store, same answer');
      assert.deepEqual(index.inMemory(), ['a']);
      assert.equal(await index.ready('c'), 60, 'caught up and counted in one step');
      assert.deepEqual(index.inMemory(), ['c']);

      // A graph changed since its last save is saved before it is dropped.
      const graphs = new VectorIndex(store, MODEL, dir, { exactMax: 10, memoryBudgetBytes: 1 });
      await graphs.search('c', query, 5);
      const saved = files(dir).filter((f) => f.startsWith('c.'));
      assert.equal(saved.length, 1);
      await seed(store, 'c', 5, 60);
      assert.equal(await graphs.catchUp('c'), 5);
      await graphs.search('b', query, 5);
      assert.deepEqual(graphs.inMemory(), ['b']);
      const resaved = files(dir).filter((f) => f.startsWith('c.'));
      assert.equal(resaved.length, 1);
      assert.notEqual(resaved[0], saved[0], 'saved again with its new vectors');
      assert.equal(await new VectorIndex(store, MODEL, dir, { exactMax: 10 }).catchUp('c'), 0);
    });
  });
});

describe('VectorIndex catch-up', () => {
  /** The store, counting what the index asks it about changes. */
  function counted(store: SqliteStore): { store: SqliteStore; asked: { vectorsAfter: number; lastPurgeId: number } } {
    const asked = { vectorsAfter: 0, lastPurgeId: 0 };
    const proxy = new Proxy(store, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (key === 'vectorsAfter' || key === 'lastPurgeId') asked[key]++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    return { store: proxy, asked };
  }

  it('asks the store nothing more while nothing was written; sees a write of its own or another connection at once', async () => {
    await withStore(async (store, dir) => {
      const texts = await seed(store, 'ns', 20);
      const { store: watched, asked } = counted(store);
      const idx = new VectorIndex(watched, MODEL, dir);
      assert.equal(await idx.ready('ns'), 20);
      const before = { ...asked };
      assert.ok(before.vectorsAfter > 0 && before.lastPurgeId > 0);
      for (let i = 0; i < 3; i++) assert.equal((await idx.search('ns', embedder.vector(texts[3]!), 1))[0]!.seq > 0, true);
      assert.deepEqual(asked, before, 'no question while nothing changed');

      // A write on another connection (another process): found by the next search.
      const other = new SqliteStore(store.path);
      try {
        const [added] = await seed(other, 'ns', 1, 500);
        const hit = await idx.search('ns', embedder.vector(added!), 1);
        const seq = (await other.entriesMissingVector('none@0', 100_000, 'ns')).find((e) => e.text === added)!.seq;
        assert.equal(hit[0]!.seq, seq);
        assert.equal(idx.size('ns'), 21);
        // A purge finished elsewhere: what is held is dropped and read again.
        const purge = await other.startPurge({ namespace: 'ns', via: 'cli', rule: { kind: 'text' } });
        await other.finishPurge(purge.id, {});
      } finally {
        await other.close();
      }
      const purgesAsked = asked.lastPurgeId;
      assert.equal(await idx.ready('ns'), 21);
      assert.ok(asked.lastPurgeId > purgesAsked);
      assert.deepEqual(idx.inMemory(), ['ns']);

      // A write of its own connection moves the mark too.
      const [own] = await seed(store, 'ns', 1, 900);
      assert.equal(await idx.ready('ns'), 22);
      assert.ok((await idx.search('ns', embedder.vector(own!), 1)).length === 1);
    });
  });
});
