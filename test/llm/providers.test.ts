// Each chat provider against a real loopback server speaking its wire format: the request it sends
// (auth, model, messages, structured-output fields) and how it reads answers, usage and failures.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createChatClient } from '../../src/llm/factory.js';
import { jsonSchemaOf, parseJsonOutput } from '../../src/llm/json-output.js';
import type { ChatRequest } from '../../src/llm/chat.js';
import { FakeLlmServer, reply, type LlmWire } from '../helpers/fake-llm.js';
import { API_KEY, ENV, configFor, instantRetry, rejectsLlm } from './fixtures.js';

const verdict = z.object({ score: z.number().int().min(1).max(10), category: z.enum(['decision', 'noise']), reason: z.string() });
const SCHEMA = jsonSchemaOf('turn_verdict', verdict);
const ANSWER = { score: 8, category: 'decision', reason: 'a commitment with a date' };

const request = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [
    { role: 'system', content: 'You judge conversation turns.' },
    { role: 'user', content: 'Turn: "We decided to move the staging DB to port 5433."' },
  ],
  jsonSchema: SCHEMA,
  maxTokens: 200,
  temperature: 0,
  ...extra,
});

let server: FakeLlmServer;
before(async () => {
  server = await FakeLlmServer.start();
});
after(() => server.close());
beforeEach(() => server.reset());

function client(wire: LlmWire, extra: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = ENV) {
  return createChatClient(configFor(server, wire, extra), { env, retry: instantRetry });
}

test('openai: request shape with json_schema, bearer auth, and usage from the answer', async () => {
  server.enqueue(reply.answer(ANSWER, { usage: { input: 120, output: 17 }, model: 'gpt-test-2030' }));
  const res = await client('openai').chat(request());
  assert.deepEqual(parseJsonOutput(res, verdict), ANSWER);
  assert.deepEqual(res.usage, { inputTokens: 120, outputTokens: 17 });
  assert.equal(res.provider, 'openai');
  assert.equal(res.model, 'gpt-test-2030');
  assert.ok(res.latencyMs >= 0);

  const [seen] = server.requests;
  assert.equal(seen!.path, '/v1/chat/completions');
  assert.equal(seen!.headers.authorization, `Bearer ${API_KEY}`);
  assert.equal(seen!.headers['content-type'], 'application/json');
  assert.equal(seen!.body.model, 'openai-test-model');
  assert.deepEqual(seen!.body.messages, request().messages);
  assert.equal(seen!.body.max_tokens, 200, 'compatible servers get max_tokens');
  assert.equal(seen!.body.temperature, 0);
  assert.equal(seen!.body.response_format.type, 'json_schema');
  assert.equal(seen!.body.response_format.json_schema.name, 'turn_verdict');
  assert.equal(seen!.body.response_format.json_schema.strict, true);
  assert.equal(seen!.body.response_format.json_schema.schema.$schema, undefined);
  assert.deepEqual(seen!.body.response_format.json_schema.schema.required, ['score', 'category', 'reason']);
});

test('openai: jsonMode "object" sends json_object and puts the schema in the system prompt', async () => {
  server.enqueue(reply.answer(ANSWER));
  await client('openai', { jsonMode: 'object' }).chat(request());
  const body = server.requests[0]!.body;
  assert.deepEqual(body.response_format, { type: 'json_object' });
  assert.equal(body.messages.length, 2);
  assert.match(body.messages[0].content, /^You judge conversation turns\.\n\nAnswer with one JSON object/);
  assert.match(body.messages[0].content, /"score"/);
});

test('openai: no jsonSchema means no response_format; missing usage is estimated, never zero', async () => {
  server.enqueue({ type: 'json', body: { model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there' }, finish_reason: 'stop' }] } });
  const res = await client('openai').chat(request({ jsonSchema: undefined }));
  assert.equal(server.requests[0]!.body.response_format, undefined);
  assert.equal(res.text, 'Hello there');
  assert.ok(res.usage.inputTokens > 0 && res.usage.outputTokens > 0);
});

test('openai: a loopback server without apiKeyEnv gets no Authorization header', async () => {
  server.enqueue(reply.answer(ANSWER));
  const cfg = { apiKeyEnv: undefined };
  await client('openai', cfg, {}).chat(request());
  assert.equal(server.requests[0]!.headers.authorization, undefined);
});

test('anthropic: x-api-key, version header, top-level system, prefill, and usage', async () => {
  server.enqueue(reply.answer(ANSWER, { usage: { input: 300, output: 25 } }));
  const res = await client('anthropic').chat(request());
  assert.deepEqual(JSON.parse(res.text), ANSWER, 'the prefilled "{" is put back in front of the continuation');
  assert.deepEqual(res.usage, { inputTokens: 300, outputTokens: 25 });
  assert.equal(res.provider, 'anthropic');

  const [seen] = server.requests;
  assert.equal(seen!.path, '/v1/messages');
  assert.equal(seen!.headers['x-api-key'], API_KEY);
  assert.equal(seen!.headers['anthropic-version'], '2023-06-01');
  assert.equal(seen!.headers.authorization, undefined);
  assert.equal(seen!.body.model, 'anthropic-test-model');
  assert.equal(seen!.body.max_tokens, 200);
  assert.equal(seen!.body.temperature, 0);
  assert.match(seen!.body.system, /^You judge conversation turns\.\n\nAnswer with one JSON object/);
  assert.deepEqual(seen!.body.messages, [
    { role: 'user', content: request().messages[1]!.content },
    { role: 'assistant', content: '{' },
  ]);
});

test('anthropic: max_tokens is always sent; no schema means no prefill and no system instruction', async () => {
  server.enqueue(reply.answer('plain words'));
  const res = await client('anthropic').chat({ messages: [{ role: 'user', content: 'hi' }] });
  const body = server.requests[0]!.body;
  assert.equal(body.max_tokens, 1024);
  assert.equal(body.system, undefined);
  assert.deepEqual(body.messages, [{ role: 'user', content: 'hi' }]);
  assert.equal(res.text, 'plain words');
});

test('ollama: /api/chat with stream:false, format = the schema, options, and eval counts as usage', async () => {
  server.enqueue(reply.answer(ANSWER, { usage: { input: 90, output: 30 } }));
  const res = await client('ollama', { apiKeyEnv: undefined }, {}).chat(request());
  assert.deepEqual(parseJsonOutput(res, verdict), ANSWER);
  assert.deepEqual(res.usage, { inputTokens: 90, outputTokens: 30 });
  assert.equal(res.provider, 'ollama');

  const [seen] = server.requests;
  assert.equal(seen!.path, '/api/chat');
  assert.equal(seen!.headers.authorization, undefined);
  assert.equal(seen!.body.stream, false);
  assert.equal(seen!.body.model, 'ollama-test-model');
  assert.equal(seen!.body.format.type, 'object');
  assert.deepEqual(seen!.body.format.required, ['score', 'category', 'reason']);
  assert.deepEqual(seen!.body.options, { temperature: 0, num_predict: 200 });
  assert.match(seen!.body.messages[0].content, /Answer with one JSON object/);
});

for (const wire of ['openai', 'anthropic', 'ollama'] as const) {
  test(`${wire}: a 200 body that is not JSON is a clear bad-response error, not retried`, async () => {
    server.enqueue(reply.malformedBody());
    await rejectsLlm(client(wire).chat(request()), 'bad-response', /returned a body that is not JSON .*"choices"/);
    assert.equal(server.requests.length, 1);
  });

  test(`${wire}: a 200 with an odd shape names what is missing`, async () => {
    server.enqueue(reply.oddShape({ result: 'ok' }));
    await rejectsLlm(client(wire).chat(request()), 'bad-response', /unexpected response shape: .*(choices|content|message)/);
    assert.equal(server.requests.length, 1);
  });

  test(`${wire}: an answer cut off at maxTokens is a truncated error`, async () => {
    server.enqueue(reply.truncated());
    await rejectsLlm(client(wire).chat(request()), 'truncated', /stopped at maxTokens \(200\)/);
  });

  test(`${wire}: an empty answer is refused`, async () => {
    server.enqueue(reply.answer('   '));
    await rejectsLlm(client(wire).chat(request()), 'bad-response', /empty answer/);
  });

  test(`${wire}: prose instead of JSON passes the transport and fails parseJsonOutput`, async () => {
    server.enqueue(reply.invalidContent());
    const res = await client(wire).chat(request({ jsonSchema: undefined }));
    assert.throws(() => parseJsonOutput(res, verdict), (err: Error) => /not JSON: Sure!/.test(err.message));
  });

  for (const status of [400, 401, 403, 404]) {
    test(`${wire}: HTTP ${status} fails at once with provider, status and body excerpt`, async () => {
      server.enqueue(reply.status(status));
      const err = await rejectsLlm(client(wire).chat(request()), 'http', new RegExp(`HTTP ${status}.*fake error ${status}`));
      assert.equal(err.details?.status, status);
      assert.match(err.message, wire === 'openai' ? /OpenAI-compatible endpoint \(openai-test-model\)/ : wire === 'anthropic' ? /Anthropic/ : /Ollama/);
      assert.equal(server.requests.length, 1, 'never retried');
    });
  }

  test(`${wire}: the API key never appears in errors, even when the server echoes it`, async () => {
    server.enqueue(reply.status(401, undefined, JSON.stringify({ error: { message: `Incorrect API key provided: ${API_KEY}` } })));
    const err = await rejectsLlm(client(wire).chat(request()), 'http', /Incorrect API key provided: \[redacted\]/);
    assert.match(err.message, /check the key in CAIRN_TEST_LLM_KEY/);
  });

  test(`${wire}: an oversized body is refused (streamed and declared)`, async () => {
    server.enqueue(reply.oversized(5 * 1024 * 1024), reply.oversized(5 * 1024 * 1024, true));
    await rejectsLlm(client(wire).chat(request()), 'too-large', /larger than 4194304 bytes/);
    await rejectsLlm(client(wire).chat(request()), 'too-large');
    assert.equal(server.requests.length, 2);
  });
}

test('a missing API key variable is a config error and no request is sent', async () => {
  await rejectsLlm(client('anthropic', {}, {}).chat(request()), 'config', /CAIRN_TEST_LLM_KEY is not set/);
  assert.equal(server.requests.length, 0);
});

test('openai: a refusal is reported as such', async () => {
  server.enqueue({ type: 'json', body: { choices: [{ message: { content: null, refusal: 'I cannot help with that.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1 } } });
  await rejectsLlm(client('openai').chat(request()), 'refused', /refused to answer: I cannot help/);
});

test('openai on api.openai.com uses max_completion_tokens', async () => {
  const c = createChatClient(configFor(server, 'openai', { baseUrl: 'https://api.openai.com/v1', pricePerMillionInput: 0.15, pricePerMillionOutput: 0.6 }), { env: ENV });
  // Only the body is inspected: build it without a network call.
  const body = (c as unknown as { body(r: ChatRequest): Record<string, unknown> }).body(request());
  assert.equal(body.max_completion_tokens, 200);
  assert.equal(body.max_tokens, undefined);
});
