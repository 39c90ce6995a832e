// The circuit breaker in front of a real (fake-server) client with an injected clock: it opens
// after exactly 3 failed calls, sends nothing while open, lets one probe through after the
// cool-down, closes on success and reopens on failure.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { CircuitBreaker, withBreaker } from '../../src/llm/circuit-breaker.js';
import { createChatClient } from '../../src/llm/factory.js';
import type { ChatRequest } from '../../src/llm/chat.js';
import { FakeLlmServer, reply } from '../helpers/fake-llm.js';
import { ENV, configFor, fakeTiming, instantRetry, rejectsLlm } from './fixtures.js';

const REQ: ChatRequest = { messages: [{ role: 'user', content: 'Rate this turn.' }] };
const COOL_DOWN = 60_000;

let server: FakeLlmServer;
before(async () => {
  server = await FakeLlmServer.start();
});
after(() => server.close());
beforeEach(() => server.reset());

function setup(maxRetries = 0) {
  const clock = fakeTiming();
  const breaker = new CircuitBreaker({ clock, coolDownMs: COOL_DOWN, name: 'the judge LLM' });
  const client = withBreaker(createChatClient(configFor(server, 'openai', { maxRetries }), { env: ENV, timing: clock, retry: instantRetry }), breaker);
  return { clock, breaker, client };
}

async function failOnce(client: ReturnType<typeof setup>['client']) {
  server.enqueue(reply.serverError());
  await rejectsLlm(client.chat(REQ), 'http');
}

test('opens after exactly 3 consecutive failures and sends nothing while open', async () => {
  const { clock, breaker, client } = setup();
  await failOnce(client);
  await failOnce(client);
  assert.equal(breaker.state, 'closed');
  assert.equal(breaker.stats().consecutiveFailures, 2);
  await failOnce(client);
  assert.equal(breaker.state, 'open');
  assert.equal(breaker.stats().openedCount, 1);
  assert.equal(server.requests.length, 3);

  await rejectsLlm(client.chat(REQ), 'circuit-open', /Circuit open for the judge LLM after 3 consecutive failures; next probe in 60 s/);
  clock.advance(COOL_DOWN - 1);
  assert.equal(breaker.state, 'open');
  assert.equal(breaker.canRequest(), false);
  await rejectsLlm(client.chat(REQ), 'circuit-open', /next probe in 1 s/);
  assert.equal(server.requests.length, 3, 'no request while open');
  assert.equal(breaker.stats().rejected, 2);
});

test('half-open after the cool-down: a successful probe closes the circuit', async () => {
  const { clock, breaker, client } = setup();
  for (let i = 0; i < 3; i++) await failOnce(client);
  clock.advance(COOL_DOWN);
  assert.equal(breaker.state, 'half-open');
  assert.equal(breaker.canRequest(), true);
  server.enqueue(reply.answer('back'));
  assert.equal((await client.chat(REQ)).text, 'back');
  assert.equal(breaker.state, 'closed');
  assert.deepEqual(
    { ...breaker.stats() },
    { state: 'closed', calls: 4, successes: 1, failures: 3, consecutiveFailures: 0, rejected: 0, openedCount: 1, probeAt: null },
  );
  assert.equal(server.requests.length, 4);
});

test('a failed probe reopens at once for another full cool-down, then a later probe recovers', async () => {
  const { clock, breaker, client } = setup();
  for (let i = 0; i < 3; i++) await failOnce(client);
  clock.advance(COOL_DOWN);
  await failOnce(client); // the probe
  assert.equal(breaker.state, 'open');
  assert.equal(breaker.stats().openedCount, 2);
  assert.equal(breaker.stats().probeAt, clock.now() + COOL_DOWN);
  await rejectsLlm(client.chat(REQ), 'circuit-open');
  assert.equal(server.requests.length, 4);

  clock.advance(COOL_DOWN);
  server.enqueue(reply.answer('ok'));
  await client.chat(REQ);
  assert.equal(breaker.state, 'closed');
});

test('a success in between resets the count: 2 failures, success, 2 failures stays closed', async () => {
  const { breaker, client } = setup();
  await failOnce(client);
  await failOnce(client);
  server.enqueue(reply.answer('ok'));
  await client.chat(REQ);
  await failOnce(client);
  await failOnce(client);
  assert.equal(breaker.state, 'closed');
  assert.equal(breaker.stats().consecutiveFailures, 2);
});

test('a call is one failure however many retries it took', async () => {
  const { breaker, client } = setup(2);
  server.enqueue(reply.serverError(), reply.serverError(), reply.serverError());
  await rejectsLlm(client.chat(REQ), 'http', /gave up after 3 attempts/);
  assert.equal(server.requests.length, 3);
  assert.equal(breaker.stats().failures, 1);
  assert.equal(breaker.stats().consecutiveFailures, 1);
});

test('half-open lets exactly one probe through; a concurrent call is refused', async () => {
  const { clock, breaker, client } = setup();
  for (let i = 0; i < 3; i++) await failOnce(client);
  clock.advance(COOL_DOWN);
  server.enqueue(reply.answer('probe ok', { delayMs: 100 }));
  const probe = client.chat(REQ);
  await rejectsLlm(client.chat(REQ), 'circuit-open', /a probe is in flight/);
  assert.equal((await probe).text, 'probe ok');
  assert.equal(server.requests.length, 4);
  assert.equal(breaker.state, 'closed');
});

test("the caller's own abort does not count against the provider", async () => {
  const { breaker, client } = setup();
  server.enqueue(reply.hang());
  const controller = new AbortController();
  const call = client.chat({ ...REQ, signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  await rejectsLlm(call, 'aborted');
  assert.equal(breaker.stats().failures, 0);
  assert.equal(breaker.stats().calls, 1);
});

test('recordFailure/recordSuccess work for failures found after the call (e.g. invalid output)', () => {
  const clock = fakeTiming();
  const breaker = new CircuitBreaker({ clock, failureThreshold: 3, coolDownMs: 1000 });
  breaker.recordFailure();
  breaker.recordFailure();
  breaker.recordFailure();
  assert.equal(breaker.state, 'open');
  clock.advance(1000);
  assert.equal(breaker.state, 'half-open');
  breaker.recordSuccess();
  assert.equal(breaker.state, 'closed');
});
