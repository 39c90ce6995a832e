// Builds the LLM judge's long-lived parts from the config: one client, one circuit breaker (so
// failures are counted across batches for as long as the process lives), and a budget whose
// ledger is the store, so every process sees the same day's spending.
import type { CairnConfig } from '../core/config.js';
import type { Store } from '../store/store.js';
import { LlmJudge } from '../judge/llm-judge.js';
import { Budget, type BudgetLedger, type BudgetTotals } from '../llm/budget.js';
import { CircuitBreaker } from '../llm/circuit-breaker.js';
import { createChatClient } from '../llm/factory.js';
import type { TransportOptions } from '../llm/transport.js';
import type { LlmRuntime } from './judging.js';

function storeLedger(store: Store): BudgetLedger {
  return {
    get: (namespace, day): Promise<BudgetTotals> => store.usageGet(namespace, day),
    add: (namespace, day, delta) => store.usageAdd(namespace, day, delta),
  };
}

/** Null when no LLM judge is configured. */
export function createLlmRuntime(store: Store, config: CairnConfig, transport: TransportOptions = {}): LlmRuntime | null {
  const llm = config.judge.llm;
  if (!llm) return null;
  const client = createChatClient(llm, transport);
  const breaker = new CircuitBreaker({ failureThreshold: 3, coolDownMs: config.judge.coolDownSeconds * 1000, name: `${llm.provider} (${llm.model})` });
  return {
    judge: new LlmJudge(client, breaker, { rewrite: config.judge.rewrite }),
    budget: new Budget({ ledger: storeLedger(store), dailyCapUsd: config.judge.dailyBudgetUsd }),
    prices: { pricePerMillionInput: llm.pricePerMillionInput, pricePerMillionOutput: llm.pricePerMillionOutput },
    breaker,
  };
}
