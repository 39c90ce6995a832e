// The Ollama and OpenAI-compatible embedders against a real loopback HTTP server that speaks both
// wire formats and is scripted per test: good answers, 429/500, hangs, malformed and wrong shapes.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { embedderConfigSchema } from '../../src/core/config.js';
import { CairnError } from '../../src/core/errors.js';
import { OllamaEmbedder, type OllamaEmbedderConfig } from '../../src/embed/ollama.js';
import { OpenAIEmbedder, type OpenAIEmbedderConfig } from '../../src/embed/openai-compatible.js';
import { backoffMs, parseRetryAfter, DEFAULT_RETRY } from '../../src/embed/http-json.js';
import { createEmbedder, embedderModelId } from '../../src/embed/factory.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; input?: string[]; dimensions?: number };
}
/** One scripted answer; `'valid'` computes a correct answer for the request. */
type Reply = 'valid' | 'hang' | { status: number; body: string; headers?: Record<string, string> };

const DIMS = 4;
/** The raw (unnormalised) vector the fake server returns for a text. */
function rawVector(text: string, dims = DIMS): number[] {
  const codes = [...text].reduce((s, c) => s + c.codePointAt(0)!, 0);
  return Array.from({ length: dims }, (_, i) => ((codes * (i + 3)) % 17) + text.length + i + 1);
}
function unit(v: number[]): number[] {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}
function validBody(seen: Seen): string {
  const input = seen.body.input ?? [];
  if (seen.url === '/api/embed') return JSON.stringify({ model: seen.body.model, embeddings: input.map((t) => rawVector(t)) });
  // OpenAI: answer in reverse order, as a server may; the client must sort by index.
  const data = input.map((t, index) => ({ object: 'embedding', index, embedding: rawVector(t, seen.body.dimensions ?? DIMS) }));
  return JSON.stringify({ object: 'list', model: seen.body.model, data: data.reverse() });
}

let server: Server;
let base = '';
let script: Reply[] = [];
let seen: Seen[] = [];

before(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const entry: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: JSON.parse(raw || '{}') };
      seen.push(entry);
      const reply = script.shift() ?? 'valid';
      if (reply === 'hang') return; // never answer; the client must time out
      if (reply === 'valid') {
        const known = entry.url === '/api/embed' || entry.url === '/v1/embeddings';
        res.writeHead(known ? 200 : 404, { 'content-type': 'application/json' });
        res.end(known ? validBody(entry) : '{"error":"no such route"}');
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  script = [];
  seen = [];
});

const fastRetry = { attempts: 3, baseDelayMs: 5, maxDelayMs: 50 };
function ollama(extra: Record<string, unknown> = {}, batchSize?: number) {
  const config = embedderConfigSchema().parse({ provider: 'ollama', baseUrl: base, model: 'nomic-embed-text', ...extra }) as OllamaEmbedderConfig;
  return new OllamaEmbedder(config, { retry: fastRetry, ...(batchSize ? { batchSize } : {}) });
}
function openai(extra: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = { TEST_EMBED_KEY: 'sk-test-123' }) {
  const config = embedderConfigSchema().parse({
    provider: 'openai',
    baseUrl: `${base}/v1`,
    model: 'text-embedding-3-small',
    apiKeyEnv: 'TEST_EMBED_KEY',
    ...extra,
  }) as OpenAIEmbedderConfig;
  return new OpenAIEmbedder(config, { retry: fastRetry, env });
}
function assertVector(actual: Float32Array | undefined, text: string, dims = DIMS) {
  assert.ok(actual instanceof Float32Array);
  const expected = unit(rawVector(text, dims));
  assert.equal(actual.length, expected.length);
  expected.forEach((x, i) => assert.ok(Math.abs(actual[i]! - x) < 1e-6, `component ${i} of "${text}"`));
}
async function rejectsEmbedder(promise: Promise<unknown>, pattern: RegExp): Promise<CairnError> {
  let caught: unknown;
  await promise.then(
    () => assert.fail('expected a rejection'),
    (err: unknown) => (caught = err),
  );
  assert.ok(caught instanceof CairnError, `not a CairnError: ${String(caught)}`);
  assert.equal(caught.code, 'EMBEDDER');
  assert.match(caught.message, pattern);
  return caught;
}
const errorReply = (status: number, body: string, headers?: Record<string, string>): Reply => ({ status, body, ...(headers ? { headers } : {}) });

// ---- Ollama -------------------------------------------------------------------------------------

test('ollama: probes dimensions, embeds in order, sends the native /api/embed format', async () => {
  const e = ollama();
  assert.equal(e.modelId, 'ollama:nomic-embed-text');
  assert.deepEqual(await e.init(), { modelId: 'ollama:nomic-embed-text', dimensions: DIMS });
  const texts = ['rate limiting', 'API throttling', 'banana'];
  const vecs = await e.embed(texts);
  texts.forEach((t, i) => assertVector(vecs[i], t));
  assert.equal(seen.length, 2);
  assert.equal(seen[1]!.method, 'POST');
  assert.equal(seen[1]!.url, '/api/embed');
  assert.equal(seen[1]!.headers['content-type'], 'application/json');
  assert.deepEqual(seen[1]!.body, { model: 'nomic-embed-text', input: texts });
  assert.deepEqual(await e.embed([]), []);
  assert.equal(seen.length, 2, 'an empty batch makes no request');
});

test('ollama: splits large inputs into batches and keeps the order', async () => {
  const e = ollama({}, 2);
  const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee'];
  const vecs = await e.embed(texts); // embed() runs init() itself
  texts.forEach((t, i) => assertVector(vecs[i], t));
  assert.deepEqual(
    seen.map((s) => s.body.input),
    [['dimension probe'], ['a', 'bb'], ['ccc', 'dddd'], ['eeeee']],
  );
});

test('ollama: 429 with Retry-After is retried after the asked wait, then succeeds', async () => {
  script = [errorReply(429, '{"error":"busy"}', { 'retry-after': '1' }), 'valid'];
  const e = new OllamaEmbedder(
    embedderConfigSchema().parse({ provider: 'ollama', baseUrl: base, model: 'm' }) as OllamaEmbedderConfig,
    { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5000 } },
  );
  const started = Date.now();
  const info = await e.init();
  const waited = Date.now() - started;
  assert.equal(info.dimensions, DIMS);
  assert.equal(seen.length, 2);
  assert.ok(waited >= 950, `waited only ${waited} ms despite Retry-After: 1`);
});

test('ollama: a Retry-After longer than maxDelayMs is capped', async () => {
  script = [errorReply(503, 'overloaded', { 'retry-after': '120' }), 'valid'];
  const waits: number[] = [];
  const config = embedderConfigSchema().parse({ provider: 'ollama', baseUrl: base, model: 'nomic-embed-text' }) as OllamaEmbedderConfig;
  await new OllamaEmbedder(config, { retry: fastRetry, sleep: async (ms) => void waits.push(ms) }).init();
  assert.deepEqual(waits, [fastRetry.maxDelayMs], 'waited maxDelayMs, not the 120 s asked for');
  assert.equal(seen.length, 2);
});

test('ollama: 500 then success is retried transparently', async () => {
  script = ['valid', errorReply(500, 'boom'), 'valid'];
  const e = ollama();
  await e.init();
  const [v] = await e.embed(['hello']);
  assertVector(v, 'hello');
  assert.equal(seen.length, 3);
});

test('ollama: persistent 500 gives up after the attempts with status and body excerpt', async () => {
  script = [errorReply(500, '{"error":"llama runner process has terminated"}'), errorReply(500, 'x'), errorReply(500, '{"error":"still broken"}')];
  const err = await rejectsEmbedder(ollama().init(), /HTTP 500.*still broken.*gave up after 3 attempts/);
  assert.equal(err.details?.['status'], 500);
  assert.equal(seen.length, 3);
});

test('ollama: a failed init is not cached; the next call tries again', async () => {
  script = [errorReply(500, 'a'), errorReply(500, 'b'), errorReply(500, 'c')];
  const e = ollama();
  await rejectsEmbedder(e.init(), /HTTP 500/);
  assert.equal((await e.init()).dimensions, DIMS);
});

test('ollama: 404 (model not pulled) fails at once with the server message', async () => {
  script = [errorReply(404, '{"error":"model \\"nomic-embed-text\\" not found, try pulling it first"}')];
  await rejectsEmbedder(ollama().init(), /Ollama answered HTTP 404 .*POST http:\/\/127\.0\.0\.1:\d+\/api\/embed.*not found, try pulling it first/);
  assert.equal(seen.length, 1, '4xx other than 408/429 is not retried');
});

test('ollama: a hanging server times out (and is not retried)', async () => {
  script = ['hang'];
  await rejectsEmbedder(ollama({ timeoutMs: 200 }).init(), /did not answer within 200 ms/);
  assert.equal(seen.length, 1);
});

test('ollama: malformed JSON is reported with an excerpt', async () => {
  script = [{ status: 200, body: '{"embeddings": [[1,2,' }];
  await rejectsEmbedder(ollama().init(), /invalid JSON.*\{"embeddings": \[\[1,2,/);
});

test('ollama: wrong shapes, counts, dimensions and numbers are rejected', async () => {
  const cases: [string, RegExp][] = [
    ['{"embedding":[1,2,3]}', /unexpected response shape.*embeddings/],
    ['{"embeddings":[[1,"2",3]]}', /unexpected response shape/],
    ['{"embeddings":[]}', /returned 0 embeddings for 1 inputs/],
    ['{"embeddings":[[1e999,1,1]]}', /non-finite|unexpected response shape/],
    ['{"embeddings":[[0,0,0]]}', /all-zero/],
    ['{"embeddings":[[]]}', /empty embedding for input 0/],
  ];
  for (const [body, pattern] of cases) {
    script = [{ status: 200, body }];
    await rejectsEmbedder(ollama().init(), pattern);
  }
  // A batch whose vectors disagree with each other, or with the probed dimensions.
  const e = ollama();
  await e.init();
  script = [{ status: 200, body: '{"embeddings":[[1,2,3,4],[1,2,3]]}' }];
  await rejectsEmbedder(e.embed(['x', 'y']), /inconsistent dimensions: embedding 1 has 3, expected 4/);
  script = [{ status: 200, body: '{"embeddings":[[1,2,3,4,5],[1,2,3,4,5]]}' }];
  await rejectsEmbedder(e.embed(['x', 'y']), /inconsistent dimensions: embedding 0 has 5, expected 4/);
});

test('ollama: an unreachable server is retried, then reported with the connection error', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const config = embedderConfigSchema().parse({ provider: 'ollama', baseUrl: `http://127.0.0.1:${port}`, model: 'm' }) as OllamaEmbedderConfig;
  await rejectsEmbedder(new OllamaEmbedder(config, { retry: fastRetry }).init(), /cannot reach Ollama at .*ECONNREFUSED.*gave up after 3 attempts/);
});

// ---- OpenAI-compatible --------------------------------------------------------------------------

test('openai: sends model, input, dimensions and the bearer key; sorts answers by index', async () => {
  const e = openai({ dimensions: 6 });
  assert.equal(e.modelId, 'openai:text-embedding-3-small@6');
  assert.deepEqual(await e.init(), { modelId: 'openai:text-embedding-3-small@6', dimensions: 6 });
  const texts = ['first', 'second text', 'third'];
  const vecs = await e.embed(texts);
  texts.forEach((t, i) => assertVector(vecs[i], t, 6));
  const last = seen.at(-1)!;
  assert.equal(last.url, '/v1/embeddings');
  assert.equal(last.headers.authorization, 'Bearer sk-test-123');
  assert.deepEqual(last.body, { model: 'text-embedding-3-small', input: texts, dimensions: 6 });
});

test('openai: without apiKeyEnv no Authorization header is sent', async () => {
  const config = embedderConfigSchema().parse({ provider: 'openai', baseUrl: `${base}/v1`, model: 'local' }) as OpenAIEmbedderConfig;
  const e = new OpenAIEmbedder(config, { retry: fastRetry });
  assert.equal(e.modelId, 'openai:local');
  const [v] = await e.embed(['x']);
  assertVector(v, 'x');
  assert.equal(seen[0]!.headers.authorization, undefined);
  assert.equal('dimensions' in seen[0]!.body, false);
});

test('openai: a missing API key variable is a clear error naming it, before any request', async () => {
  const err = await rejectsEmbedder(openai({}, {}).init(), /API key variable TEST_EMBED_KEY is not set/);
  assert.equal(err.details?.['apiKeyEnv'], 'TEST_EMBED_KEY');
  await rejectsEmbedder(openai({}, { TEST_EMBED_KEY: '' }).embed(['x']), /TEST_EMBED_KEY/);
  assert.equal(seen.length, 0);
});

test('openai: 429 with an HTTP-date Retry-After is retried, then succeeds', async () => {
  script = [errorReply(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': new Date(Date.now() - 1000).toUTCString() }), 'valid'];
  assert.equal((await openai().init()).dimensions, DIMS);
  assert.equal(seen.length, 2);
});

test('openai: 401 fails at once and does not leak the key', async () => {
  script = [errorReply(401, '{"error":{"message":"Incorrect API key provided"}}')];
  const err = await rejectsEmbedder(openai().init(), /HTTP 401.*Incorrect API key provided/);
  assert.doesNotMatch(err.message, /sk-test-123/);
  assert.equal(seen.length, 1);
});

test('openai: wrong index sets, counts and dimensions are rejected', async () => {
  const item = (index: number, embedding: number[]) => ({ index, embedding });
  const cases: [unknown, RegExp][] = [
    [{ data: [item(0, [1, 2, 3, 4]), item(0, [1, 2, 3, 4])] }, /indexes 0,0 for 2 inputs/],
    [{ data: [item(0, [1, 2, 3, 4])] }, /returned 1 embeddings for 2 inputs/],
    [{ data: [item(0, [1, 2, 3, 4]), item(1, [1, 2, 3])] }, /inconsistent dimensions/],
    [{ data: [{ index: 0, embedding: 'AAAA' }] }, /unexpected response shape.*data\.0\.embedding/],
    [{ object: 'list' }, /unexpected response shape.*data/],
  ];
  const e = openai();
  await e.init();
  for (const [body, pattern] of cases) {
    script = [{ status: 200, body: JSON.stringify(body) }];
    await rejectsEmbedder(e.embed(['x', 'y']), pattern);
  }
  // The probe answered with the wrong dimensions for the configured `dimensions`.
  script = [{ status: 200, body: JSON.stringify({ data: [item(0, [1, 2, 3, 4])] }) }];
  await rejectsEmbedder(openai({ dimensions: 8 }).init(), /embedding 0 has 4, expected 8/);
});

// ---- shared pieces ------------------------------------------------------------------------------

test('Retry-After parsing: seconds, HTTP dates, garbage', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('3', now), 3000);
  assert.equal(parseRetryAfter(' 0 ', now), 0);
  assert.equal(parseRetryAfter('Tue, 01 Jan 2030 00:00:05 GMT', now), 5000);
  assert.equal(parseRetryAfter('Mon, 31 Dec 2029 23:59:00 GMT', now), 0);
  assert.equal(parseRetryAfter('soon', now), undefined);
  assert.equal(parseRetryAfter(null, now), undefined);
});

test('backoff doubles per attempt with bounded jitter and a cap', () => {
  const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
  assert.equal(backoffMs(1, policy, () => 0.5), 100);
  assert.equal(backoffMs(2, policy, () => 0.5), 200);
  assert.equal(backoffMs(3, policy, () => 0), 300);
  assert.equal(backoffMs(3, policy, () => 1), 500);
  assert.equal(backoffMs(10, policy, () => 0.5), 1000);
});

test('factory: builds the HTTP embedders and names them without contacting anything', () => {
  const o = embedderConfigSchema().parse({ provider: 'ollama', model: 'mxbai-embed-large' });
  const a = embedderConfigSchema().parse({ provider: 'openai', model: 'text-embedding-3-large', dimensions: 256, apiKeyEnv: 'NOPE_NOT_SET' });
  assert.equal(embedderModelId(o), 'ollama:mxbai-embed-large');
  assert.equal(embedderModelId(a), 'openai:text-embedding-3-large@256');
  assert.ok(createEmbedder(o) instanceof OllamaEmbedder);
  assert.equal(createEmbedder(a)?.modelId, 'openai:text-embedding-3-large@256');
});
