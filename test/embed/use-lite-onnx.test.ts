// USE lite on ONNX Runtime: the graph rebuilt from the package's TF.js weights must give the very
// vectors TF.js gives, pick its runtime as configured, fall back when onnxruntime-node is missing,
// and fail clearly on damaged weights.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UseLiteEmbedder } from '../../src/embed/use-lite.js';
import { loadUseLiteArtifacts, useLiteModelDir } from '../../src/embed/use-lite-weights.js';
import { buildUseLiteGraph } from '../../src/embed/use-lite-onnx.js';
import { VOCABULARY_CACHE_FILE } from '../../src/embed/use-lite-vocab-cache.js';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { loadConfigFile } from '../../src/core/config.js';
import { Cairn } from '../../src/service/cairn.js';
import { HANG_GUARD_MS } from '../helpers/cli.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// Texts that stress the tokenizer and the masking: empty, whitespace, one character, unknown
// characters, emoji, more than 128 tokens, the 2,048-character cut, and ordinary chat.
const CORPUS = [
  '',
  '   ',
  'x',
  'ok',
  'I went to Paris last summer with Caroline, and we visited the Louvre twice.',
  '日本語のテキストと中文的句子',
  '🚀🔥 deploy went fine 👍',
  'rate limiting '.repeat(60),
  'The meeting moved to Thursday. '.repeat(100),
  'a'.repeat(5000),
  'Tool output: {"status": 500, "error": "Internal Server Error", "trace": ["at foo (bar.js:1:2)"]}',
  'We decided to use PostgreSQL for the store because SQLite cannot be shared across hosts.',
];

describe('use-lite on onnxruntime', { concurrency: false }, () => {
  const ort = new UseLiteEmbedder({ runtime: 'onnxruntime', batchSize: 5 });
  const tfjs = new UseLiteEmbedder({ runtime: 'tfjs', batchSize: 7 });
  before(async () => {
    await Promise.all([ort.init(), tfjs.init()]);
  });
  after(async () => {
    await Promise.all([ort.close(), tfjs.close()]);
  });

  test('gives the TF.js vectors within int8 rounding, and a text the same vector whatever the batch around it', async () => {
    const [a, b] = await Promise.all([ort.embed(CORPUS), tfjs.embed(CORPUS)]);
    for (let i = 0; i < CORPUS.length; i++) {
      // The matrices are int8 (use-lite-onnx.ts): 0.998–0.9995 on LoCoMo's questions and turns.
      const cos = dot(a[i]!, b[i]!);
      assert.ok(cos > 0.997, `text ${i} ${JSON.stringify(CORPUS[i]!.slice(0, 30))}: cos ${cos}`);
      assert.ok(Math.abs(Math.sqrt(dot(a[i]!, a[i]!)) - 1) < 1e-5);
    }
    // Each text is a run of its own: its vector is bit for bit the same alone and in any batch.
    const [alone] = await ort.embed([CORPUS[4]!]);
    assert.deepEqual(alone, a[4], 'a text alone and inside a batch agree');
    const reordered = await ort.embed([...CORPUS].reverse());
    assert.deepEqual(reordered.reverse(), a, 'the same vectors in any order');
    // Different texts stay different (the mask keeps padding out of short texts).
    assert.ok(dot(a[3]!, a[4]!) < 0.9);
  });

  test('reports the runtime it runs on', async () => {
    assert.equal(ort.runtime, 'onnxruntime');
    assert.equal(tfjs.runtime, 'tfjs');
    assert.deepEqual(await ort.init(), { modelId: 'use-lite@1', dimensions: 512, runtime: 'onnxruntime' });
    const auto = new UseLiteEmbedder();
    assert.equal(auto.runtime, undefined, 'nothing loaded before init');
    assert.equal((await auto.init()).runtime, 'onnxruntime');
    assert.equal(auto.fallbackReason, undefined);
    await auto.close();
    assert.equal(auto.runtime, undefined);
  });

  test('worker threads run it too and say so', async () => {
    const pool = new WorkerEmbedder('use-lite@1', { provider: 'use-lite', runtime: 'onnxruntime' }, 2);
    try {
      assert.equal((await pool.init()).runtime, 'onnxruntime');
      const vectors = await pool.embed(CORPUS.slice(4, 9));
      const direct = await ort.embed(CORPUS.slice(4, 9));
      vectors.forEach((v, i) => assert.ok(dot(v, direct[i]!) > 0.99999));
    } finally {
      await pool.close();
    }
  });
});

describe('without onnxruntime-node', { concurrency: 2 }, () => {
  // Resolve hooks make `onnxruntime-node` unresolvable, as on a platform it does not install on.
  const dir = mkdtempSync(join(tmpdir(), 'cairn-no-ort-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const hook = join(dir, 'hook.mjs');
  writeFileSync(
    hook,
    `export async function resolve(spec, ctx, next) {
  if (spec === 'onnxruntime-node') { const e = new Error("Cannot find package 'onnxruntime-node'"); e.code = 'ERR_MODULE_NOT_FOUND'; throw e; }
  return next(spec, ctx);
}\n`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(new URL(`file://${hook}`).href)});\n`);
  // use-lite-ort.ts loads it with require(), which those hooks do not see on Node 20: CommonJS
  // resolution refuses it too.
  const noRequire = join(dir, 'no-require.cjs');
  writeFileSync(
    noRequire,
    `const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'onnxruntime-node') { const e = new Error("Cannot find module 'onnxruntime-node'"); e.code = 'MODULE_NOT_FOUND'; throw e; }
  return resolve.call(this, request, ...rest);
};\n`,
  );
  const run = (runtime: string) => {
    const moduleUrl = new URL('../../src/embed/use-lite.ts', import.meta.url).href;
    const script = `const { UseLiteEmbedder } = await import(${JSON.stringify(moduleUrl)});
const e = new UseLiteEmbedder({ runtime: ${JSON.stringify(runtime)} });
try { const info = await e.init(); const [v] = await e.embed(['hello world']);
  process.stderr.write(JSON.stringify({ info, dims: v.length, reason: e.fallbackReason }));
} catch (err) { process.stderr.write(JSON.stringify({ code: err.code, message: err.message })); }
await e.close();`;
    const res = spawnSync(process.execPath, ['--import', 'tsx', '--import', register, '--require', noRequire, '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: HANG_GUARD_MS,
    });
    assert.equal(res.status, 0, res.stderr);
    return JSON.parse(res.stderr.slice(res.stderr.indexOf('{'))) as Record<string, unknown>;
  };

  test('"auto" falls back to TF.js and keeps the reason', () => {
    const out = run('auto');
    assert.deepEqual(out.info, { modelId: 'use-lite@1', dimensions: 512, runtime: 'tfjs' });
    assert.equal(out.dims, 512);
    assert.match(String(out.reason), /needs the optional package onnxruntime-node, which is not installed/);
  });

  test('"onnxruntime" fails with a clear embedder error instead of falling back', () => {
    const out = run('onnxruntime');
    assert.equal(out.code, 'EMBEDDER');
    assert.match(String(out.message), /needs the optional package onnxruntime-node, which is not installed; install it with: .*npm install onnxruntime-node@/);
  });
});

describe('damaged weights', { concurrency: 2 }, () => {
  const copy = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-use-lite-'));
    cpSync(useLiteModelDir(), dir, { recursive: true });
    return dir;
  };

  test('a missing package folder names the folder', async () => {
    await assert.rejects(loadUseLiteArtifacts('/nonexistent/use-lite'), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'EMBEDDER');
      assert.match(err.message, /Cannot read the use-lite weights: \/nonexistent\/use-lite/);
      return true;
    });
  });

  test('a truncated shard, a garbled manifest and a quantized weight are refused', async () => {
    const dir = copy();
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8'));
      const last = join(dir, manifest.weightsManifest[0].paths.at(-1));
      truncateSync(last, statSync(last).size - 4);
      await assert.rejects(loadUseLiteArtifacts(dir), /the shards end before/);

      writeFileSync(join(dir, 'model.json'), '{"weightsManifest": 5}');
      await assert.rejects(loadUseLiteArtifacts(dir), /has no weightsManifest|not iterable/);

      writeFileSync(join(dir, 'model.json'), '{not json');
      await assert.rejects(loadUseLiteArtifacts(dir), /Cannot read the use-lite weights: .*model\.json|JSON/);

      manifest.weightsManifest[0].weights[0].dtype = 'uint8';
      writeFileSync(join(dir, 'model.json'), JSON.stringify(manifest));
      await assert.rejects(loadUseLiteArtifacts(dir), /is uint8, not float32 or int32/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a weight that is missing or reshaped stops the graph build with its name', async () => {
    const artifacts = await loadUseLiteArtifacts();
    const name = 'module/Encoder_en/hidden_layers/tanh_layer_0/weights';
    const saved = artifacts.tensors.get(name)!;
    artifacts.tensors.delete(name);
    assert.throws(() => buildUseLiteGraph(artifacts), new RegExp(`lack ${name}: the model package changed`));
    const layerNorm = 'module_apply_default/Encoder_en/KonaTransformer/Encode/Layer_0/TransformerLayer/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat';
    artifacts.tensors.set(name, saved);
    artifacts.tensors.set(layerNorm, { shape: [255], data: new Float32Array(255) });
    assert.throws(() => buildUseLiteGraph(artifacts), /has shape \[255\], expected \[256\]/);
  });
});

test('config: embedder.runtime takes auto, onnxruntime or tfjs and names the key otherwise', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-runtime-cfg-'));
  try {
    const file = join(dir, 'config.json');
    for (const runtime of ['auto', 'onnxruntime', 'tfjs']) {
      writeFileSync(file, JSON.stringify({ embedder: { provider: 'use-lite', runtime } }));
      assert.deepEqual(loadConfigFile(file).embedder, { provider: 'use-lite', runtime });
    }
    writeFileSync(file, JSON.stringify({ embedder: { provider: 'use-lite', runtime: 'gpu' } }));
    assert.throws(() => loadConfigFile(file), /embedder\.runtime/);
    writeFileSync(file, JSON.stringify({ embedder: { provider: 'none', runtime: 'tfjs' } }));
    assert.throws(() => loadConfigFile(file), /unknown key "embedder\.runtime"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('the built graph cached in the home', { concurrency: false }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-graph-cache-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const graphs = (d: string) => (existsSync(d) ? readdirSync(d).filter((f) => f.endsWith('.onnx')) : []);
  const prepacked = (d: string) => (existsSync(d) ? readdirSync(d).filter((f) => f.endsWith('.prepacked')) : []);
  const embedWith = async (cacheDir: string) => {
    const e = new UseLiteEmbedder({ runtime: 'onnxruntime', cacheDir });
    try {
      return await e.embed(CORPUS.slice(3, 6));
    } finally {
      await e.close();
    }
  };

  test('the first load writes it, the next loads it and gets the same vectors', async () => {
    const cacheDir = join(dir, 'a', 'cache');
    const first = await embedWith(cacheDir);
    assert.equal(graphs(cacheDir).length, 1);
    const [name] = graphs(cacheDir);
    assert.match(name!, /^use-lite-[0-9a-f]{8}-t128\.onnx$/);
    // A small graph and its weights beside it (external data ONNX Runtime maps).
    const weights = join(cacheDir, name!.replace(/\.onnx$/, '.weights'));
    assert.ok(statSync(join(cacheDir, name!)).size < 200_000);
    // The token embeddings as floats (~10 MB: a lookup, not a matrix product) and int8 matrices.
    assert.ok(statSync(weights).size > 10_000_000);
    // And the graph as ONNX Runtime prepared it for this processor and runtime version.
    const [ready] = prepacked(cacheDir);
    assert.match(ready!, /^use-lite-[0-9a-f]{8}-t128-[0-9a-f]{8}\.prepacked$/);
    assert.deepEqual(readdirSync(join(cacheDir, ready!)).sort(), ['graph.data', 'graph.onnx']);
    // And the tokenizer's vocabulary in the form it uses (use-lite-vocab-cache.ts).
    assert.deepEqual(readdirSync(cacheDir).sort(), [name, basename(weights), ready, VOCABULARY_CACHE_FILE].sort());
    const mtime = statSync(join(cacheDir, name!)).mtimeMs;
    const readyMtime = statSync(join(cacheDir, ready!, 'graph.onnx')).mtimeMs;
    const second = await embedWith(cacheDir);
    assert.equal(statSync(join(cacheDir, name!)).mtimeMs, mtime, 'read, not rewritten');
    assert.equal(statSync(join(cacheDir, ready!, 'graph.onnx')).mtimeMs, readyMtime, 'prepacked graph read, not rewritten');
    // The same kernels on the same packed weights: bit for bit what a session without any cache gives.
    assert.deepEqual(second, first);
    assert.deepEqual(await embedWith(join(dir, 'a', 'no-cache', 'x')), first);
  });

  test('a damaged prepacked graph is dropped and written again; the vectors stay the same', async () => {
    const cacheDir = join(dir, 'c');
    const first = await embedWith(cacheDir);
    const [ready] = prepacked(cacheDir);
    const damage: Array<[string, () => void]> = [
      ['garbled prepacked graph', () => writeFileSync(join(cacheDir, ready!, 'graph.onnx'), 'not a protobuf')],
      ['truncated prepacked data', () => truncateSync(join(cacheDir, ready!, 'graph.data'), 1000)],
      ['prepacked folder of another host', () => cpSync(join(cacheDir, ready!), join(cacheDir, ready!.replace(/-[0-9a-f]{8}\.prepacked$/, '-01234567.prepacked')), { recursive: true })],
      ['prepacked folder under the longer names of earlier versions', () => cpSync(join(cacheDir, ready!), join(cacheDir, 'use-lite-0123456789abcdef-t128-0123456789ab.prepacked'), { recursive: true })],
    ];
    for (const [what, harm] of damage) {
      harm();
      assert.deepEqual(await embedWith(cacheDir), first, what);
      assert.deepEqual(prepacked(cacheDir), [ready], what);
      assert.deepEqual(await embedWith(cacheDir), first, `${what}: written again`);
    }
  });

  test('a damaged graph or weights file is dropped and rebuilt; files of other weights are removed', async () => {
    const cacheDir = join(dir, 'b');
    const reference = await new UseLiteEmbedder({ runtime: 'tfjs' }).embed(CORPUS.slice(3, 6));
    await embedWith(cacheDir);
    const [name] = graphs(cacheDir);
    const weights = join(cacheDir, name!.replace(/\.onnx$/, '.weights'));
    const size = statSync(weights).size;
    const damage: Array<[string, () => void]> = [
      ['garbled graph', () => writeFileSync(join(cacheDir, name!), 'not a protobuf')],
      ['truncated weights', () => truncateSync(weights, 1000)],
      ['missing weights', () => rmSync(weights)],
    ];
    for (const [what, harm] of damage) {
      harm();
      // The prepacked graph would load first: without it, the plain graph is read (or rebuilt).
      for (const ready of prepacked(cacheDir)) rmSync(join(cacheDir, ready), { recursive: true });
      writeFileSync(join(cacheDir, 'use-lite-0123456789abcdef-t128.onnx'), 'an old graph');
      writeFileSync(join(cacheDir, 'use-lite-0123456789abcdef-t128.weights'), 'old weights');
      const vectors = await embedWith(cacheDir);
      assert.equal(prepacked(cacheDir).length, 1, `${what}: prepared again`);
      assert.deepEqual(readdirSync(cacheDir).sort(), [name, basename(weights), ...prepacked(cacheDir), VOCABULARY_CACHE_FILE].sort(), what);
      assert.equal(statSync(weights).size, size, `${what}: rebuilt`);
      vectors.forEach((v, i) => assert.ok(dot(v, reference[i]!) > 0.997, what));
    }
  });

  test('a cache folder that cannot be created costs nothing but the cache', async () => {
    const blocker = join(dir, 'file');
    writeFileSync(blocker, 'a file where the folder would go');
    const vectors = await embedWith(join(blocker, 'cache'));
    assert.equal(vectors.length, 3);
    assert.equal(readFileSync(blocker, 'utf8'), 'a file where the folder would go');
  });

  test('Cairn keeps it in <home>/cache', async () => {
    const home = join(dir, 'home');
    const cairn = await Cairn.open({ home, config: { embedder: { provider: 'use-lite', runtime: 'onnxruntime' } } });
    try {
      await cairn.remember({ text: 'We picked PostgreSQL for the shared store.' });
      assert.equal((await cairn.search('database choice')).mode, 'hybrid');
    } finally {
      await cairn.close();
    }
    assert.equal(graphs(join(home, 'cache')).length, 1);
  });
});
