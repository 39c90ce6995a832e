// Shared bits of the LLM tests: config builders against the fake server, a controllable clock and
// an assertion for CairnError(LLM) of a given kind.
import assert from 'node:assert/strict';
import { CairnError } from '../../src/core/errors.js';
import { llmConfigSchema, type LlmConfig } from '../../src/core/llm-config.js';
import { llmFailureKind, type LlmFailureKind } from '../../src/llm/errors.js';
import type { Timing } from '../../src/llm/retry.js';
import type { FakeLlmServer, LlmWire } from '../helpers/fake-llm.js';

export const API_KEY = 'sk-test-SECRET-0123456789abcdef';
export const ENV = { CAIRN_TEST_LLM_KEY: API_KEY };

export function configFor(server: FakeLlmServer, wire: LlmWire, extra: Record<string, unknown> = {}): LlmConfig {
  return llmConfigSchema().parse({
    provider: wire,
    model: `${wire}-test-model`,
    baseUrl: server.baseUrl(wire),
    apiKeyEnv: 'CAIRN_TEST_LLM_KEY',
    timeoutMs: 2000,
    maxRetries: 2,
    ...extra,
  });
}

/** Waits that take no real time: tests stay fast and can assert the waits asked for. */
export const instantRetry = { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 60_000 };

/** A manual clock whose sleep() advances it instead of waiting, recording each wait. */
export function fakeTiming(start = Date.parse('2030-01-01T00:00:00Z')): Timing & { sleeps: number[]; advance(ms: number): void } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    random: () => 0.5,
    advance(ms: number) {
      now += ms;
    },
    async sleep(ms: number) {
      sleeps.push(ms);
      now += ms;
    },
  };
}

/** Asserts that `promise` rejects with CairnError(LLM) of `kind` whose message matches `message`. */
export async function rejectsLlm(promise: Promise<unknown>, kind: LlmFailureKind, message?: RegExp): Promise<CairnError> {
  let caught: unknown;
  try {
    await promise;
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof CairnError, `expected a CairnError, got ${String(caught)}`);
  assert.equal(caught.code, 'LLM');
  assert.equal(llmFailureKind(caught), kind, `kind of: ${caught.message}`);
  if (message) assert.match(caught.message, message);
  assert.ok(!caught.message.includes(API_KEY), `the API key leaked into: ${caught.message}`);
  assert.ok(!JSON.stringify(caught.details).includes(API_KEY), 'the API key leaked into the details');
  return caught;
}
