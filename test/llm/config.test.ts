// The LLM config schema: per-provider defaults, strictness, and the rules for keys and prices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { llmConfigSchema } from '../../src/core/llm-config.js';

function problems(raw: unknown): string[] {
  const r = llmConfigSchema().safeParse(raw);
  assert.equal(r.success, false, 'expected the config to be rejected');
  return r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

test('defaults per provider', () => {
  const ollama = llmConfigSchema().parse({ provider: 'ollama', model: 'qwen2.5:3b' });
  assert.deepEqual(ollama, {
    provider: 'ollama',
    model: 'qwen2.5:3b',
    baseUrl: 'http://127.0.0.1:11434',
    timeoutMs: 30_000,
    maxRetries: 3,
    pricePerMillionInput: 0,
    pricePerMillionOutput: 0,
  });
  const openai = llmConfigSchema().parse({ provider: 'openai', model: 'gpt-4o-mini', apiKeyEnv: 'OPENAI_API_KEY', pricePerMillionInput: 0.15, pricePerMillionOutput: 0.6 });
  assert.equal(openai.baseUrl, 'https://api.openai.com/v1');
  assert.equal(openai.provider === 'openai' && openai.jsonMode, 'schema');
  const anthropic = llmConfigSchema().parse({ provider: 'anthropic', model: 'claude-haiku-4-5', apiKeyEnv: 'ANTHROPIC_API_KEY', pricePerMillionInput: 1, pricePerMillionOutput: 5 });
  assert.equal(anthropic.baseUrl, 'https://api.anthropic.com');
});

test('a hosted API needs apiKeyEnv and prices; a loopback server needs neither', () => {
  const p = problems({ provider: 'anthropic', model: 'claude-haiku-4-5' });
  assert.ok(p.some((m) => /^apiKeyEnv: required for provider "anthropic"/.test(m)), p.join('\n'));
  assert.ok(p.some((m) => /^pricePerMillionInput: required/.test(m)));
  assert.ok(p.some((m) => /^pricePerMillionOutput: required/.test(m)));
  for (const baseUrl of ['http://127.0.0.1:1234/v1', 'http://localhost:8000/v1', 'http://[::1]:8080/v1']) {
    const local = llmConfigSchema().parse({ provider: 'openai', model: 'local', baseUrl });
    assert.equal(local.apiKeyEnv, undefined);
    assert.equal(local.pricePerMillionInput, 0);
  }
  assert.ok(problems({ provider: 'openai', model: 'x', baseUrl: 'http://10.0.0.5:8000/v1' }).some((m) => m.startsWith('apiKeyEnv')));
});

test('strict: unknown keys, jsonMode outside openai, bad values are rejected', () => {
  const base = { provider: 'ollama', model: 'm' };
  assert.ok(problems({ ...base, temperature: 0 }).some((m) => /temperature/.test(m)));
  assert.ok(problems({ ...base, jsonMode: 'object' }).some((m) => /jsonMode/.test(m)));
  assert.ok(problems({ ...base, apiKeyEnv: 'not a name' }).some((m) => /^apiKeyEnv: must be an environment variable name/.test(m)));
  assert.ok(problems({ ...base, baseUrl: 'ftp://x' }).some((m) => /^baseUrl/.test(m)));
  assert.ok(problems({ ...base, timeoutMs: 0 }).some((m) => /^timeoutMs/.test(m)));
  assert.ok(problems({ ...base, pricePerMillionInput: -1 }).some((m) => /^pricePerMillionInput/.test(m)));
  assert.ok(problems({ provider: 'gemini', model: 'm' }).length > 0);
  assert.ok(problems({ provider: 'ollama' }).some((m) => /^model/.test(m)));
});
