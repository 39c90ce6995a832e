// The daily budget: cost from usage and prices, a cap per namespace and local day, and totals
// for `cairn status`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Budget, InMemoryBudgetLedger, budgetDay, costUsd } from '../../src/llm/budget.js';
import { createChatClient } from '../../src/llm/factory.js';
import { FakeLlmServer, reply } from '../helpers/fake-llm.js';
import { ENV, configFor } from './fixtures.js';

test('cost is usage times the per-million prices', () => {
  const prices = { pricePerMillionInput: 0.15, pricePerMillionOutput: 0.6 };
  assert.ok(Math.abs(costUsd({ inputTokens: 1_000_000, outputTokens: 500_000 }, prices) - 0.45) < 1e-12);
  assert.equal(costUsd({ inputTokens: 1000, outputTokens: 1000 }, { pricePerMillionInput: 0, pricePerMillionOutput: 0 }), 0);
});

test('the cap stops spending for that namespace and day only, until the next day', async () => {
  const budget = new Budget({ dailyCapUsd: 0.5 });
  const usage = { inputTokens: 1000, outputTokens: 100 };
  assert.equal(budget.dailyCapUsd, 0.5);
  assert.equal(await budget.canSpend('work', '2030-01-01'), true);
  await budget.record('work', '2030-01-01', usage, 0.45);
  assert.equal(await budget.canSpend('work', '2030-01-01'), true);
  assert.equal(await budget.canSpend('work', '2030-01-01', 0.1), false, 'an estimate that would cross the cap');
  await budget.record('work', '2030-01-01', usage, 0.06);
  assert.equal(await budget.canSpend('work', '2030-01-01'), false);
  assert.equal(await budget.remainingUsd('work', '2030-01-01'), 0);
  assert.equal(await budget.canSpend('home', '2030-01-01'), true, 'another namespace has its own cap');
  assert.equal(await budget.canSpend('work', '2030-01-02'), true, 'the next day starts afresh');
});

test('the default cap is $0.50 and a cap of 0 allows nothing', async () => {
  assert.equal(new Budget().dailyCapUsd, 0.5);
  assert.equal(await new Budget({ dailyCapUsd: 0 }).canSpend('n', '2030-01-01'), false);
});

test('totals count tokens, cost, calls, failures and fallbacks', async () => {
  const ledger = new InMemoryBudgetLedger();
  const budget = new Budget({ ledger });
  await budget.record('n', 'd', { inputTokens: 100, outputTokens: 10 }, 0.01);
  await budget.recordFailure('n', 'd');
  await budget.recordFailure('n', 'd', { inputTokens: 50, outputTokens: 5 }, 0.002);
  await budget.recordFallback('n', 'd', 4);
  const t = await budget.totals('n', 'd');
  assert.deepEqual({ ...t, costUsd: Math.round(t.costUsd * 1e6) / 1e6 }, { tokensIn: 150, tokensOut: 15, costUsd: 0.012, calls: 3, failures: 2, fallbacks: 4 });
  assert.deepEqual(await ledger.get('n', 'other-day'), { tokensIn: 0, tokensOut: 0, costUsd: 0, calls: 0, failures: 0, fallbacks: 0 });
});

test('the budget day is the local calendar day in the configured time zone', () => {
  const at = Date.parse('2030-01-01T23:30:00Z');
  assert.equal(budgetDay(at, 'Europe/Berlin'), '2030-01-02');
  assert.equal(budgetDay(at, 'America/New_York'), '2030-01-01');
  assert.equal(budgetDay(new Date(at), 'UTC'), '2030-01-01');
});

let server: FakeLlmServer;
before(async () => {
  server = await FakeLlmServer.start();
});
after(() => server.close());

test('end to end: real usage from the provider drives the cap', async () => {
  const config = configFor(server, 'anthropic', { pricePerMillionInput: 1, pricePerMillionOutput: 5 });
  const client = createChatClient(config, { env: ENV });
  const budget = new Budget({ dailyCapUsd: 0.5 });
  server.respond = () => reply.answer('{"score":5}', { usage: { input: 100_000, output: 20_000 } }); // $0.20 a call
  let calls = 0;
  while (await budget.canSpend('ns', '2030-01-01')) {
    const res = await client.chat({ messages: [{ role: 'user', content: 'judge' }] });
    await budget.record('ns', '2030-01-01', res.usage, costUsd(res.usage, config));
    calls++;
  }
  assert.equal(calls, 3, '0.20 + 0.20 < 0.50, the third takes it to 0.60');
  assert.equal(server.requests.length, 3);
  assert.equal(await budget.canSpend('ns', '2030-01-02'), true);
});
