// A circuit breaker in front of the chat client: after repeated failures, stop calling a provider
// that is down (the heuristic judge takes over) and probe it once per cool-down until it is back.
import type { ChatClient, ChatRequest, ChatResponse } from './chat.js';
import { llmError, llmFailureKind } from './errors.js';
import { systemTiming, type Clock } from './retry.js';

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  /** Consecutive failed calls (each after its own retries) that open the circuit (default 3). */
  failureThreshold?: number;
  /** How long the circuit stays open before one probe is let through (default 60 000). */
  coolDownMs?: number;
  clock?: Clock;
  /** Which errors count against the provider; by default all but the caller's own abort. */
  countsAsFailure?: (err: unknown) => boolean;
  /** Names the guarded provider in the open-circuit error. */
  name?: string;
}

export interface BreakerStats {
  state: BreakerState;
  /** Calls let through (probes included). */
  calls: number;
  successes: number;
  failures: number;
  consecutiveFailures: number;
  /** Calls refused without a request because the circuit was open. */
  rejected: number;
  /** Times the circuit went from closed or half-open to open. */
  openedCount: number;
  /** When the current open period ends (epoch ms), while not closed. */
  probeAt: number | null;
}

export class CircuitBreaker {
  private readonly threshold: number;
  private readonly coolDownMs: number;
  private readonly clock: Clock;
  private readonly countsAsFailure: (err: unknown) => boolean;
  private readonly name: string;
  private openedAt: number | null = null;
  private probing = false;
  private counters = { calls: 0, successes: 0, failures: 0, consecutiveFailures: 0, rejected: 0, openedCount: 0 };

  constructor(options: CircuitBreakerOptions = {}) {
    this.threshold = options.failureThreshold ?? 3;
    this.coolDownMs = options.coolDownMs ?? 60_000;
    this.clock = options.clock ?? systemTiming;
    this.countsAsFailure = options.countsAsFailure ?? ((err) => llmFailureKind(err) !== 'aborted');
    this.name = options.name ?? 'the LLM';
  }

  get state(): BreakerState {
    if (this.openedAt === null) return 'closed';
    return this.clock.now() - this.openedAt >= this.coolDownMs ? 'half-open' : 'open';
  }

  /** True when a call now would be let through (a half-open probe may already be running). */
  canRequest(): boolean {
    const state = this.state;
    return state === 'closed' || (state === 'half-open' && !this.probing);
  }

  stats(): BreakerStats {
    return {
      state: this.state,
      ...this.counters,
      probeAt: this.openedAt === null ? null : this.openedAt + this.coolDownMs,
    };
  }

  /** Runs `fn` unless the circuit is open; throws CairnError(LLM, kind 'circuit-open') without calling it otherwise. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const state = this.state;
    if (state === 'open' || (state === 'half-open' && this.probing)) {
      this.counters.rejected++;
      const waitS = Math.max(0, Math.ceil((this.openedAt! + this.coolDownMs - this.clock.now()) / 1000));
      throw llmError(
        `Circuit open for ${this.name} after ${this.counters.consecutiveFailures} consecutive failures; ${state === 'open' ? `next probe in ${waitS} s` : 'a probe is in flight'}`,
        { kind: 'circuit-open', state, probeAt: this.openedAt! + this.coolDownMs },
      );
    }
    const probe = state === 'half-open';
    if (probe) this.probing = true;
    this.counters.calls++;
    try {
      const result = await fn();
      this.recordSuccess();
      return result;
    } catch (err) {
      if (this.countsAsFailure(err)) this.recordFailure(probe);
      throw err;
    } finally {
      if (probe) this.probing = false;
    }
  }

  recordSuccess(): void {
    this.counters.successes++;
    this.counters.consecutiveFailures = 0;
    this.openedAt = null;
  }

  /** Counts a failed call; `probe` marks the half-open trial, whose failure reopens at once. */
  recordFailure(probe = this.state === 'half-open'): void {
    this.counters.failures++;
    this.counters.consecutiveFailures++;
    const reopen = probe || (this.openedAt === null && this.counters.consecutiveFailures >= this.threshold);
    if (reopen) {
      this.openedAt = this.clock.now();
      this.counters.openedCount++;
    }
  }
}

/** A ChatClient whose calls go through `breaker`. */
export function withBreaker(client: ChatClient, breaker: CircuitBreaker): ChatClient {
  return {
    provider: client.provider,
    model: client.model,
    chat: (req: ChatRequest): Promise<ChatResponse> => breaker.run(() => client.chat(req)),
  };
}
