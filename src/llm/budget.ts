// The daily spending cap per namespace: once a day's LLM cost reaches it, the heuristic judge takes
// over until the next local day. Totals live in a pluggable ledger (memory here, the store later).
import { localDayTime } from '../core/local-time.js';
import type { ChatUsage } from './chat.js';

export interface Prices {
  /** USD per million input tokens. */
  pricePerMillionInput: number;
  pricePerMillionOutput: number;
}

/** USD cost of one call's usage. */
export function costUsd(usage: ChatUsage, prices: Prices): number {
  return (usage.inputTokens * prices.pricePerMillionInput + usage.outputTokens * prices.pricePerMillionOutput) / 1_000_000;
}

export interface BudgetTotals {
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  calls: number;
  failures: number;
  /** Judgments made by the heuristic because the LLM was unavailable, over budget or wrong. */
  fallbacks: number;
}

export const EMPTY_TOTALS: Readonly<BudgetTotals> = Object.freeze({ tokensIn: 0, tokensOut: 0, costUsd: 0, calls: 0, failures: 0, fallbacks: 0 });

/** Where a day's totals are kept; `add` must be atomic per (namespace, day). */
export interface BudgetLedger {
  get(namespace: string, day: string): Promise<BudgetTotals>;
  add(namespace: string, day: string, delta: Partial<BudgetTotals>): Promise<void>;
}

export class InMemoryBudgetLedger implements BudgetLedger {
  private readonly rows = new Map<string, BudgetTotals>();

  async get(namespace: string, day: string): Promise<BudgetTotals> {
    return { ...(this.rows.get(`${namespace}\u0000${day}`) ?? EMPTY_TOTALS) };
  }

  async add(namespace: string, day: string, delta: Partial<BudgetTotals>): Promise<void> {
    const key = `${namespace}\u0000${day}`;
    const row = { ...(this.rows.get(key) ?? EMPTY_TOTALS) };
    for (const k of Object.keys(EMPTY_TOTALS) as (keyof BudgetTotals)[]) row[k] += delta[k] ?? 0;
    this.rows.set(key, row);
  }
}

/** The local calendar day (`YYYY-MM-DD`) a budget entry belongs to. */
export function budgetDay(at: Date | number, timeZone: string): string {
  const iso = new Date(at).toISOString();
  return localDayTime(iso, timeZone)!.day;
}

export interface BudgetOptions {
  ledger?: BudgetLedger;
  /** USD per namespace per local day (default 0.50); 0 allows no calls at all. */
  dailyCapUsd?: number;
}

export const DEFAULT_DAILY_CAP_USD = 0.5;

export class Budget {
  readonly ledger: BudgetLedger;
  readonly dailyCapUsd: number;

  constructor(options: BudgetOptions = {}) {
    this.ledger = options.ledger ?? new InMemoryBudgetLedger();
    this.dailyCapUsd = options.dailyCapUsd ?? DEFAULT_DAILY_CAP_USD;
  }

  /**
   * Whether a call may be made: the day's cost is below the cap and, when the caller can estimate
   * it, the call would not take it over. A call in flight can still overshoot by its own cost.
   */
  async canSpend(namespace: string, day: string, estimatedCostUsd = 0): Promise<boolean> {
    const spent = (await this.ledger.get(namespace, day)).costUsd;
    return spent < this.dailyCapUsd && spent + estimatedCostUsd <= this.dailyCapUsd;
  }

  async remainingUsd(namespace: string, day: string): Promise<number> {
    return Math.max(0, this.dailyCapUsd - (await this.ledger.get(namespace, day)).costUsd);
  }

  /** Records one successful call. */
  async record(namespace: string, day: string, usage: ChatUsage, cost: number): Promise<void> {
    await this.ledger.add(namespace, day, { tokensIn: usage.inputTokens, tokensOut: usage.outputTokens, costUsd: cost, calls: 1 });
  }

  /** Records a failed call; `usage` when the provider billed it anyway (an answer we could not use). */
  async recordFailure(namespace: string, day: string, usage?: ChatUsage, cost = 0): Promise<void> {
    await this.ledger.add(namespace, day, {
      calls: 1,
      failures: 1,
      costUsd: cost,
      ...(usage ? { tokensIn: usage.inputTokens, tokensOut: usage.outputTokens } : {}),
    });
  }

  async recordFallback(namespace: string, day: string, count = 1): Promise<void> {
    await this.ledger.add(namespace, day, { fallbacks: count });
  }

  totals(namespace: string, day: string): Promise<BudgetTotals> {
    return this.ledger.get(namespace, day);
  }
}
