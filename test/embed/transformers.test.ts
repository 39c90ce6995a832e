// The transformers.js embedder on a tiny ONNX model these tests build themselves: loading from a
// local folder, downloading from a loopback "hub", and the errors when the model or package is absent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embedderConfigSchema } from '../../src/core/config.js';
import { CairnError } from '../../src/core/errors.js';
import { TransformersEmbedder, type TransformersEmbedderConfig } from '../../src/embed/transformers.js';
import { createEmbedder, embedderModelId } from '../../src/embed/factory.js';
import { TINY_DIMS, tinyEmbeddingRow, tinyModelFiles, writeTinyModel } from '../helpers/tiny-onnx-model.js';

const MODEL = 'cairn-test/tiny-bert';
const tmpRoots: string[] = [];
const embedders: TransformersEmbedder[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-transformers-'));
  tmpRoots.push(dir);
  return dir;
}
function make(config: Record<string, unknown>): TransformersEmbedder {
  const parsed = embedderConfigSchema().parse({ provider: 'transformers', model: MODEL, ...config }) as TransformersEmbedderConfig;
  const e = new TransformersEmbedder(parsed);
  embedders.push(e);
  return e;
}
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
/** Mean of the token rows, normalised: what mean pooling over the tiny model must produce. */
function expectedMean(tokens: string[]): Float32Array {
  const sum = new Float32Array(TINY_DIMS);
  for (const t of tokens) tinyEmbeddingRow(t).forEach((x, i) => (sum[i] = sum[i]! + x));
  const n = Math.sqrt(dot(sum, sum));
  return sum.map((x) => x / n);
}
async function rejectsEmbedder(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof CairnError, `not a CairnError: ${String(err)}`);
    assert.equal(err.code, 'EMBEDDER');
    assert.match(err.message, pattern);
    return true;
  });
}

// A loopback stand-in for the Hugging Face hub: GET <host>/<model>/resolve/<revision>/<file>.
let hub: Server;
let hubUrl = '';
const hubRequests: string[] = [];
before(async () => {
  const files = tinyModelFiles();
  hub = createServer((req, res) => {
    hubRequests.push(`${req.method} ${req.url}`);
    const prefix = `/${MODEL}/resolve/main/`;
    const file = req.url?.startsWith(prefix) ? files.get(decodeURIComponent(req.url.slice(prefix.length))) : undefined;
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Entry not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(file.length) });
    res.end(req.method === 'HEAD' ? undefined : file);
  });
  await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve));
  hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}/`;
});
after(async () => {
  for (const e of embedders) await e.close();
  hub.closeAllConnections();
  await new Promise<void>((resolve) => hub.close(() => resolve()));
  for (const dir of tmpRoots) rmSync(dir, { recursive: true, force: true });
});

test('local folder, no remote: 8 dims, unit norm, exact mean pooling, deterministic', async () => {
  const root = tempDir();
  writeTinyModel(root, MODEL);
  const e = make({ path: root });
  assert.equal(e.modelId, `transformers:${MODEL}`);
  assert.deepEqual(await e.init(), { modelId: `transformers:${MODEL}`, dimensions: TINY_DIMS });

  const [a, b, c, a2] = await e.embed(['Rate limiting', 'API throttling', 'banana bread recipe', 'Rate limiting']);
  for (const v of [a!, b!, c!]) {
    assert.ok(v instanceof Float32Array);
    assert.equal(v.length, TINY_DIMS);
    assert.ok(Math.abs(Math.sqrt(dot(v, v)) - 1) < 1e-5);
  }
  assert.ok(dot(a!, b!) < 0.999, 'different texts give different vectors');
  assert.ok(dot(a!, a2!) > 0.99999, 'the same text gives the same vector');
  // [CLS] rate limiting [SEP], lower-cased by the tokenizer, averaged over the attention mask.
  const expected = expectedMean(['[CLS]', 'rate', 'limiting', '[SEP]']);
  expected.forEach((x, i) => assert.ok(Math.abs(a![i]! - x) < 1e-5, `component ${i}`));
  // Padding inside a batch must not change a vector.
  const [alone] = await e.embed(['rate limiting']);
  assert.ok(dot(alone!, a!) > 0.99999);
  assert.deepEqual(await e.embed([]), []);
});

test('dtype q8 loads onnx/model_quantized.onnx and is named apart', async () => {
  const root = tempDir();
  writeTinyModel(root, MODEL, { quantized: true });
  rmSync(join(root, MODEL, 'onnx/model.onnx'));
  const e = make({ path: root, dtype: 'q8' });
  assert.equal(e.modelId, `transformers:${MODEL}:q8`);
  assert.equal((await e.init()).dimensions, TINY_DIMS);
  assert.equal(embedderModelId(embedderConfigSchema().parse({ provider: 'transformers', model: 'x', path: root, pooling: 'cls' })), 'transformers:x:cls');
});

test('download path: fetches from remoteHost into the model folder, then works offline', async () => {
  const root = tempDir();
  hubRequests.length = 0;
  const e = make({ path: root, allowRemote: true, remoteHost: hubUrl });
  assert.equal((await e.init()).dimensions, TINY_DIMS);
  const [v] = await e.embed(['rate limiting']);
  const expected = expectedMean(['[CLS]', 'rate', 'limiting', '[SEP]']);
  expected.forEach((x, i) => assert.ok(Math.abs(v![i]! - x) < 1e-5, `component ${i}`));
  for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) {
    assert.ok(hubRequests.includes(`GET /${MODEL}/resolve/main/${file}`), `${file} was not downloaded: ${hubRequests.join(', ')}`);
    assert.ok(existsSync(join(root, MODEL, file)), `${file} was not saved into the model folder`);
  }
  // The saved files are a complete local model: a second embedder loads them with remote off.
  const before = hubRequests.length;
  const offline = make({ path: root, allowRemote: false });
  const [w] = await offline.embed(['rate limiting']);
  assert.ok(dot(v!, w!) > 0.99999);
  assert.equal(hubRequests.length, before, 'the offline load made no request');
});

test('download path: a model the remote host does not have is a clear error', async () => {
  const e = make({ path: tempDir(), model: 'cairn-test/absent', allowRemote: true, remoteHost: hubUrl });
  await rejectsEmbedder(e.init(), /Cannot load transformers model "cairn-test\/absent".*Could not locate file: "http:\/\/127\.0\.0\.1:\d+\/cairn-test\/absent\/resolve\/main\/config\.json"/);
});

test('missing folder with allowRemote false: clear error naming the folder and the fix', async () => {
  const root = join(tempDir(), 'does-not-exist');
  const e = make({ path: root });
  await rejectsEmbedder(e.init(), /not in .*does-not-exist\/cairn-test\/tiny-bert \(missing config\.json, tokenizer\.json, onnx\/model\.onnx\).*allowRemote/);
  await rejectsEmbedder(e.embed(['x']), /allowRemote/);
});

test('the package not installed: clear error with the install command', async () => {
  const root = tempDir();
  writeTinyModel(root, MODEL);
  const config = embedderConfigSchema().parse({ provider: 'transformers', model: MODEL, path: root }) as TransformersEmbedderConfig;
  const absent = Object.assign(new Error("Cannot find package '@huggingface/transformers' imported from /x.js"), { code: 'ERR_MODULE_NOT_FOUND' });
  const e = new TransformersEmbedder(config, { importModule: () => Promise.reject(absent) });
  await rejectsEmbedder(e.init(), /optional package @huggingface\/transformers, which is not installed.*npm install @huggingface\/transformers/);
  assert.ok(createEmbedder(config) instanceof TransformersEmbedder);
});
