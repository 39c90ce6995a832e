// The default embedder on the real USE-lite weights shipped in node_modules (no network).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { UseLiteEmbedder } from '../../src/embed/use-lite.js';
import { createEmbedder, embedderModelId } from '../../src/embed/factory.js';
import { HANG_GUARD_MS } from '../helpers/cli.js';

const embedder = new UseLiteEmbedder({ batchSize: 4 });
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));

before(async () => {
  await embedder.init();
});
after(async () => {
  await embedder.close();
});

test('init reports use-lite@1 with 512 dimensions', async () => {
  assert.deepEqual(await embedder.init(), { modelId: 'use-lite@1', dimensions: 512, runtime: 'onnxruntime' });
  assert.equal(embedder.modelId, 'use-lite@1');
});

test('vectors are 512-dim Float32Arrays of unit length', async () => {
  const [v] = await embedder.embed(['The agent remembers user preferences.']);
  assert.ok(v instanceof Float32Array);
  assert.equal(v.length, 512);
  assert.ok(Math.abs(norm(v) - 1) < 1e-5, `norm ${norm(v)}`);
});

test('semantic sanity: rate limiting is closer to API throttling than to banana bread', async () => {
  const [a, b, c] = await embedder.embed(['rate limiting', 'API throttling', 'banana bread recipe']);
  const near = dot(a!, b!);
  const far = dot(a!, c!);
  assert.ok(near > far + 0.1, `rate limiting·API throttling=${near.toFixed(3)} vs ·banana bread=${far.toFixed(3)}`);
});

test('batches larger than batchSize keep input order (empty strings included)', async () => {
  const texts = ['alpha particles', '', 'the stock market fell', 'kittens', 'database index', 'kittens', 'ocean tides', ''];
  const batched = await embedder.embed(texts);
  assert.equal(batched.length, texts.length);
  for (let i = 0; i < texts.length; i++) {
    const [single] = await embedder.embed([texts[i]!]);
    assert.ok(dot(batched[i]!, single!) > 0.9999, `text ${i} (${JSON.stringify(texts[i])}) moved inside a batch`);
  }
  assert.ok(dot(batched[3]!, batched[5]!) > 0.9999);
  assert.ok(dot(batched[0]!, batched[2]!) < 0.9);
});

test('an empty batch returns [] without touching the model', async () => {
  const fresh = new UseLiteEmbedder();
  assert.deepEqual(await fresh.embed([]), []);
});

test('factory builds it and names it without loading', () => {
  assert.equal(embedderModelId({ provider: 'use-lite' }), 'use-lite@1');
  assert.ok(createEmbedder({ provider: 'use-lite' }) instanceof UseLiteEmbedder);
  assert.equal(createEmbedder({ provider: 'none' }), null);
  assert.equal(embedderModelId({ provider: 'none' }), null);
});

test('loading and embedding print nothing on stdout (the CLI --json output stays clean)', () => {
  const moduleUrl = new URL('../../src/embed/use-lite.ts', import.meta.url).href;
  const script = `const { UseLiteEmbedder } = await import(${JSON.stringify(moduleUrl)});
const e = new UseLiteEmbedder(); await e.init(); const v = await e.embed(['hello', 'world']);
await e.close(); process.stderr.write('dims=' + v[0].length);`;
  const res = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    encoding: 'utf8',
    timeout: HANG_GUARD_MS,
  });
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stderr, /dims=512/);
  assert.equal(res.stdout, '');
});
