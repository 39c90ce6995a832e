// The worker-thread embedder must be a drop-in for the in-process one: same vectors, same order,
// clear errors when the model cannot load.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UseLiteEmbedder } from '../../src/embed/use-lite.js';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { createThreadedEmbedder } from '../../src/embed/factory.js';
import { isCairnError } from '../../src/core/errors.js';

const texts = Array.from({ length: 70 }, (_, i) => `sentence number ${i} about ${i % 3 === 0 ? 'databases' : 'gardening'}`);

describe('WorkerEmbedder', () => {
  const pool = new WorkerEmbedder('use-lite@1', { provider: 'use-lite' }, 2);
  const local = new UseLiteEmbedder();
  after(async () => {
    await pool.close();
    await local.close();
  });

  it('returns the same vectors as the in-process model, in input order, across two threads', async () => {
    const info = await pool.init();
    assert.deepEqual(info, { modelId: 'use-lite@1', dimensions: 512, runtime: 'onnxruntime' });
    const [viaPool, viaLocal] = await Promise.all([pool.embed(texts), local.embed(texts)]);
    assert.equal(viaPool.length, texts.length);
    for (let i = 0; i < texts.length; i++) {
      assert.equal(viaPool[i]!.length, 512);
      let diff = 0;
      for (let d = 0; d < 512; d++) diff = Math.max(diff, Math.abs(viaPool[i]![d]! - viaLocal[i]![d]!));
      assert.ok(diff < 1e-5, `vector ${i} differs by ${diff}`);
    }
  });

  it('gives the in-process vectors for a call mixing short texts and long messages', async () => {
    // The threads run the model on fewer texts at a time than the in-process embedder: texts of
    // every length, spread over several runs, must still come back as the same vectors in order.
    const mixed = Array.from({ length: 45 }, (_, i) => (i % 4 === 0 ? `${texts[i]} `.repeat(20 + i) : i % 4 === 1 ? 'ok' : i % 4 === 2 ? '' : texts[i]!));
    const [viaPool, viaLocal] = await Promise.all([pool.embed(mixed), local.embed(mixed)]);
    assert.equal(viaPool.length, mixed.length);
    for (let i = 0; i < mixed.length; i++) {
      let diff = 0;
      for (let d = 0; d < 512; d++) diff = Math.max(diff, Math.abs(viaPool[i]![d]! - viaLocal[i]![d]!));
      assert.ok(diff < 1e-5, `vector ${i} differs by ${diff}`);
    }
  });

  it('lets spare threads go when idle and brings them back for a call large enough to share out', async () => {
    const shrinking = new WorkerEmbedder('use-lite@1', { provider: 'use-lite' }, 2, { spareIdleMs: 100 });
    const settle = async (count: number): Promise<void> => {
      for (let waited = 0; shrinking.threadCount !== count && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      assert.equal(shrinking.threadCount, count);
    };
    try {
      await shrinking.init();
      assert.equal(shrinking.threadCount, 2);
      await settle(1);
      const [one] = await shrinking.embed(['a query answered by the warm thread']);
      assert.equal(one!.length, 512);
      assert.equal(shrinking.threadCount, 1, 'one chunk does not bring a spare back');
      const [viaPool, viaLocal] = await Promise.all([shrinking.embed(texts), local.embed(texts)]);
      assert.equal(shrinking.threadCount, 2, 'three chunks do');
      for (let i = 0; i < texts.length; i++) {
        let diff = 0;
        for (let d = 0; d < 512; d++) diff = Math.max(diff, Math.abs(viaPool[i]![d]! - viaLocal[i]![d]!));
        assert.ok(diff < 1e-5, `vector ${i} differs by ${diff}`);
      }
      // Queries of one chunk each, one after another, do not keep the spare alive.
      for (let i = 0; i < 200 && shrinking.threadCount > 1; i++) {
        await shrinking.embed([`query ${i}`]);
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(shrinking.threadCount, 1, 'let go while the queries went on');
    } finally {
      await shrinking.close();
    }
    await assert.rejects(shrinking.embed(['x']), (err: unknown) => isCairnError(err) && err.code === 'EMBEDDER');
  });

  it('handles empty batches and concurrent callers', async () => {
    assert.deepEqual(await pool.embed([]), []);
    const [a, b] = await Promise.all([pool.embed(['alpha']), pool.embed(['beta', 'gamma'])]);
    assert.equal(a.length, 1);
    assert.equal(b.length, 2);
  });

  it('reports a model that cannot load as a CairnError, and closed pools refuse work', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-worker-'));
    const broken = new WorkerEmbedder('transformers:missing', { provider: 'transformers', model: 'missing', path: dir, dtype: 'fp32', pooling: 'mean', allowRemote: false }, 1);
    try {
      await assert.rejects(broken.embed(['x']), (err: unknown) => isCairnError(err) && err.code === 'EMBEDDER' && /missing/.test(err.message));
    } finally {
      await broken.close();
      rmSync(dir, { recursive: true, force: true });
    }
    await assert.rejects(broken.embed(['x']), (err: unknown) => isCairnError(err) && err.code === 'EMBEDDER');
  });

  it('createThreadedEmbedder keeps HTTP embedders and 0 threads in-process', () => {
    const http = createThreadedEmbedder({ provider: 'ollama', baseUrl: 'http://127.0.0.1:9', model: 'm', timeoutMs: 1000 }, 2);
    assert.ok(!(http instanceof WorkerEmbedder));
    assert.ok(!(createThreadedEmbedder({ provider: 'use-lite' }, 0) instanceof WorkerEmbedder));
    assert.equal(createThreadedEmbedder({ provider: 'none' }, 2), null);
  });
});

describe('closing while work is in flight (issue 30 item 7)', () => {
  const texts = Array.from({ length: 100 }, (_, i) => `closing test sentence ${i} about the weather and the garden`);

  it('a worker pool answers the batches it was sent, then releases the model and its threads exit', async () => {
    const pool = new WorkerEmbedder('use-lite@1', { provider: 'use-lite' }, 2);
    await pool.init();
    const work = pool.embed(texts);
    await new Promise((resolve) => setImmediate(resolve)); // the batches are on their way
    await pool.close();
    const vectors = await work;
    assert.equal(vectors.length, texts.length);
    assert.ok(vectors.every((v) => v.length === 512));
    await assert.rejects(pool.embed(['after close']), (err: unknown) => isCairnError(err) && err.code === 'EMBEDDER');
  });

  it('the in-process model finishes the embeds in progress before close() releases its session', async () => {
    const local = new UseLiteEmbedder();
    await local.init();
    const work = local.embed(texts);
    await local.close();
    const vectors = await work;
    assert.equal(vectors.length, texts.length);
    assert.ok(vectors.every((v) => v.length === 512));
  });
});
