// Builds the LLM judge's long-lived parts from the config: one client, one circuit breaker (so
// failures are counted across batches for as long as the process lives), and a budget whose
// ledger is the store, so every process sees the same day's spending.
import type { CairnConfig } from '../core/config.js';
import type { Store } from '../store/store.js';
import { LlmJudge } from '../judge/llm-judge.js';
import { Budget, budgetDay, costUsd, type BudgetLedger, type BudgetTotals, type Prices } from '../llm/budget.js';
import type { LlmConfig } from '../core/llm-config.js';
import { CircuitBreaker } from '../llm/circuit-breaker.js';
import { createChatClient } from '../llm/factory.js';
import type { TransportOptions } from '../llm/transport.js';
import type { Clock } from '../llm/retry.js';
import type { LlmRuntime } from './judging.js';
import { QueryRewriter } from '../search/query-rewrite.js';

function storeLedger(store: Store): BudgetLedger {
  return {
    get: (namespace, day): Promise<BudgetTotals> => store.usageGet(namespace, day),
    add: (namespace, day, delta) => store.usageAdd(namespace, day, delta),
  };
}

/** The daily budget every LLM call of a home spends from (the ledger is the store, shared by processes). */
function budgetOf(store: Store, config: CairnConfig): Budget {
  return new Budget({ ledger: storeLedger(store), dailyCapUsd: config.judge.dailyBudgetUsd });
}

function pricesOf(llm: LlmConfig): Prices {
  return { pricePerMillionInput: llm.pricePerMillionInput, pricePerMillionOutput: llm.pricePerMillionOutput };
}

/** A breaker keeps the time of the calls it guards (an injected clock in tests). */
function clockOf(transport: TransportOptions): { clock?: Clock } {
  return transport.timing ? { clock: transport.timing } : {};
}

/** Null when no LLM judge is configured. */
export function createLlmRuntime(store: Store, config: CairnConfig, transport: TransportOptions = {}): LlmRuntime | null {
  const llm = config.judge.llm;
  if (!llm) return null;
  const client = createChatClient(llm, transport);
  const breaker = new CircuitBreaker({ failureThreshold: 3, coolDownMs: config.judge.coolDownSeconds * 1000, name: `${llm.provider} (${llm.model})`, ...clockOf(transport) });
  return {
    judge: new LlmJudge(client, breaker, { rewrite: config.judge.rewrite }),
    budget: budgetOf(store, config),
    prices: pricesOf(llm),
    breaker,
  };
}

/**
 * The query rewriter on the same chat model, or null without one. Its own breaker: a slow search
 * call must not send the judge to its fallback. Its spending goes into the judge's daily budget.
 */
export function createQueryRewriter(store: Store, config: CairnConfig, transport: TransportOptions = {}): QueryRewriter | null {
  const llm = config.judge.llm;
  if (!llm) return null;
  const breaker = new CircuitBreaker({
    failureThreshold: 3,
    coolDownMs: config.judge.coolDownSeconds * 1000,
    name: `${llm.provider} (${llm.model}) query rewrite`,
    // The rewriter's own deadline aborts the call: for a search, a model that slow has failed.
    countsAsFailure: () => true,
    ...clockOf(transport),
  });
  const budget = budgetOf(store, config);
  const prices = pricesOf(llm);
  const day = () => budgetDay(Date.now(), config.timezone);
  return new QueryRewriter(createChatClient(llm, transport), breaker, {
    timeoutMs: config.search.queryRewriteTimeoutMs,
    spend: {
      canSpend: (namespace) => budget.canSpend(namespace, day()),
      record: (namespace, usage, ok) => {
        const cost = usage ? costUsd(usage, prices) : 0;
        return ok && usage ? budget.record(namespace, day(), usage, cost) : budget.recordFailure(namespace, day(), usage, cost);
      },
    },
  });
}
