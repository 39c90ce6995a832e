// Retries over real HTTP: Retry-After honoured on 429/503, backoff on 5xx, timeouts retried and
// then reported, non-transient statuses never retried, the caller's abort respected.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createChatClient } from '../../src/llm/factory.js';
import { DEFAULT_RETRY_TUNING, fullJitterMs, systemTiming } from '../../src/llm/retry.js';
import type { ChatRequest } from '../../src/llm/chat.js';
import { FakeLlmServer, reply } from '../helpers/fake-llm.js';
import { ENV, configFor, fakeTiming, instantRetry, rejectsLlm } from './fixtures.js';
import { HANG_GUARD_MS } from '../helpers/cli.js';

const REQ: ChatRequest = { messages: [{ role: 'user', content: 'Rate this turn.' }] };

let server: FakeLlmServer;
before(async () => {
  server = await FakeLlmServer.start();
});
after(() => server.close());
beforeEach(() => server.reset());

test('full jitter stays within the doubling window and its cap', () => {
  const t = { ...DEFAULT_RETRY_TUNING, baseDelayMs: 100, maxDelayMs: 1000 };
  assert.equal(fullJitterMs(1, t, () => 0), 0);
  assert.equal(fullJitterMs(1, t, () => 0.5), 50);
  assert.equal(fullJitterMs(2, t, () => 0.5), 100);
  assert.equal(fullJitterMs(3, t, () => 0.999), 400);
  assert.equal(fullJitterMs(10, t, () => 0.5), 500);
});

test('429 with Retry-After (seconds) is honoured in real time, then the call succeeds', async () => {
  server.enqueue(reply.rateLimited('0.3'), reply.answer('fine'));
  // Real sleeps, recorded: the wait asked for is exact; how long the machine took to come back is not asserted.
  const sleeps: number[] = [];
  const timing = { ...systemTiming, sleep: (ms: number, signal?: AbortSignal) => (sleeps.push(ms), systemTiming.sleep(ms, signal)) };
  const c = createChatClient(configFor(server, 'openai'), { env: ENV, timing, retry: { baseDelayMs: 1, maxDelayMs: 1 } });
  const started = Date.now();
  const res = await c.chat(REQ);
  const elapsed = Date.now() - started;
  assert.equal(res.text, 'fine');
  assert.equal(server.requests.length, 2);
  assert.deepEqual(sleeps, [300]);
  const gap = server.requests[1]!.at - server.requests[0]!.at;
  assert.ok(gap >= 290, `second request ${gap} ms after the first, before the 300 ms asked for`);
  assert.ok(res.latencyMs >= 290 && res.latencyMs <= elapsed + 5, `latency ${res.latencyMs} covers the wait and lies within the call`);
});

test('503 with Retry-After as an HTTP date is honoured (injected clock)', async () => {
  const timing = fakeTiming(Date.parse('2030-01-01T00:00:00Z'));
  server.enqueue(reply.unavailable('Tue, 01 Jan 2030 00:00:02 GMT'), reply.answer('ok'));
  const c = createChatClient(configFor(server, 'anthropic'), { env: ENV, timing, retry: instantRetry });
  assert.equal((await c.chat(REQ)).text, 'ok');
  assert.deepEqual(timing.sleeps, [2000]);
});

test('Retry-After beyond the cap fails at once instead of sleeping through it', async () => {
  const timing = fakeTiming();
  server.enqueue(reply.rateLimited('3600'));
  const c = createChatClient(configFor(server, 'openai'), { env: ENV, timing, retry: instantRetry });
  const err = await rejectsLlm(c.chat(REQ), 'http', /HTTP 429.*asked to retry after 3600 s, longer than the 60 s we wait \(gave up after 1 attempt\)/);
  assert.equal(err.details?.retryable, false);
  assert.deepEqual(timing.sleeps, []);
  assert.equal(server.requests.length, 1);
});

test('500s are retried with jittered backoff until maxRetries, then reported with the count', async () => {
  const timing = fakeTiming();
  server.enqueue(reply.serverError(), reply.serverError(), reply.serverError(), reply.serverError());
  const c = createChatClient(configFor(server, 'ollama', { maxRetries: 3 }), { env: ENV, timing, retry: { baseDelayMs: 100, maxDelayMs: 1000 } });
  await rejectsLlm(c.chat(REQ), 'http', /Ollama \(ollama-test-model\) answered HTTP 500 Internal Server Error to POST .*\/api\/chat: .*fake error 500.* \(gave up after 4 attempts\)/);
  assert.equal(server.requests.length, 4);
  assert.deepEqual(timing.sleeps, [50, 100, 200], 'random() = 0.5 of windows 100, 200, 400');
});

test('429 without Retry-After falls back to backoff; a later success wins', async () => {
  const timing = fakeTiming();
  server.enqueue(reply.rateLimited(), reply.answer('done'));
  const c = createChatClient(configFor(server, 'openai'), { env: ENV, timing, retry: { baseDelayMs: 100 } });
  assert.equal((await c.chat(REQ)).text, 'done');
  assert.deepEqual(timing.sleeps, [50]);
});

for (const status of [400, 401]) {
  test(`HTTP ${status} is never retried`, async () => {
    const timing = fakeTiming();
    server.enqueue(reply.status(status, '1'), reply.answer('never reached'));
    const c = createChatClient(configFor(server, 'anthropic', { maxRetries: 5 }), { env: ENV, timing, retry: instantRetry });
    await rejectsLlm(c.chat(REQ), 'http', new RegExp(`HTTP ${status}`));
    assert.equal(server.requests.length, 1);
    assert.deepEqual(timing.sleeps, []);
  });
}

test('a hanging server: each attempt times out, is retried, and the call fails clearly', async () => {
  server.enqueue(reply.hang(), reply.hang(), reply.hang());
  const c = createChatClient(configFor(server, 'openai', { timeoutMs: 150, maxRetries: 2 }), { env: ENV, retry: instantRetry });
  const started = Date.now();
  await rejectsLlm(c.chat(REQ), 'timeout', /did not answer within 150 ms .*\(gave up after 3 attempts\)/);
  const elapsed = Date.now() - started;
  assert.equal(server.requests.length, 3);
  assert.ok(elapsed >= 440, `three 150 ms timeouts took only ${elapsed} ms`);
});

test('a timeout then a good answer succeeds', async () => {
  server.enqueue(reply.hang(), reply.answer('late but fine'));
  const c = createChatClient(configFor(server, 'ollama', { timeoutMs: 150 }), { env: ENV, retry: instantRetry });
  assert.equal((await c.chat(REQ)).text, 'late but fine');
  assert.equal(server.requests.length, 2);
});

test('a slow answer counts against the timeout; maxRetries 0 means one attempt', async () => {
  server.enqueue(reply.answer('slow', { delayMs: 400 }));
  const c = createChatClient(configFor(server, 'openai', { timeoutMs: 150, maxRetries: 0 }), { env: ENV });
  await rejectsLlm(c.chat(REQ), 'timeout', /gave up after 1 attempt\)/);
});

test('a refused connection is a retried network error', async () => {
  const timing = fakeTiming();
  const cfg = configFor(server, 'ollama', { baseUrl: 'http://127.0.0.1:9', maxRetries: 1 });
  await rejectsLlm(createChatClient(cfg, { env: ENV, timing, retry: instantRetry }).chat(REQ), 'network', /cannot reach Ollama .* at http:\/\/127\.0\.0\.1:9\/api\/chat.*gave up after 2 attempts/);
  assert.equal(timing.sleeps.length, 1);
});

test("the caller's abort stops a hanging request and is reported as aborted, not as a timeout", { timeout: HANG_GUARD_MS }, async () => {
  // The request hangs and the client would wait 10 minutes: only the abort, sent once the server
  // has the request, can end the call (else the test's hang guard fails it).
  const controller = new AbortController();
  const respond = server.respond;
  server.respond = () => {
    controller.abort();
    return reply.hang();
  };
  try {
    const c = createChatClient(configFor(server, 'anthropic', { timeoutMs: 600_000 }), { env: ENV, retry: instantRetry });
    await rejectsLlm(c.chat({ ...REQ, signal: controller.signal }), 'aborted', /cancelled/);
    assert.equal(server.requests.length, 1);
  } finally {
    server.respond = respond;
  }
});

test("the caller's abort also ends a Retry-After wait", async () => {
  server.enqueue(reply.rateLimited('30'));
  // The abort comes during the 30 s wait itself (a real one), not after a guessed delay.
  const controller = new AbortController();
  const sleeps: number[] = [];
  const timing = {
    ...systemTiming,
    sleep: (ms: number, signal?: AbortSignal) => {
      sleeps.push(ms);
      const wait = systemTiming.sleep(ms, signal);
      controller.abort();
      return wait;
    },
  };
  const c = createChatClient(configFor(server, 'openai'), { env: ENV, timing, retry: instantRetry });
  await rejectsLlm(c.chat({ ...REQ, signal: controller.signal }), 'aborted', /while waiting to retry/);
  assert.deepEqual(sleeps, [30_000]);
  assert.equal(server.requests.length, 1);
});
