// Retries for chat calls: exponential backoff with full jitter (so many clients that failed
// together do not retry together), and the provider's Retry-After when it names a wait.
import { CairnError } from '../core/errors.js';
import { llmDetails, llmError } from './errors.js';

export interface RetryTuning {
  /** Cap of the first backoff window; the window doubles per retry (default 1000). */
  baseDelayMs: number;
  /** Largest backoff window (default 30 000). */
  maxDelayMs: number;
  /**
   * Longest Retry-After we wait (default 60 000). A provider asking for more (a quota reset in an
   * hour) will not recover within this call, so we fail at once and let the fallback take over.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_TUNING: RetryTuning = { baseDelayMs: 1000, maxDelayMs: 30_000, maxRetryAfterMs: 60_000 };

/** Time as the resilience code sees it; tests inject a fake one. */
export interface Clock {
  now(): number;
}

export interface Timing extends Clock {
  /** Resolves after `ms`; rejects (AbortError) when `signal` fires first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Uniform in [0, 1). */
  random(): number;
}

export const systemTiming: Timing = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** Full-jitter backoff before the given 1-based retry: uniform in [0, min(max, base·2^(n−1))]. */
export function fullJitterMs(retry: number, tuning: RetryTuning, random: () => number): number {
  const window = Math.min(tuning.maxDelayMs, tuning.baseDelayMs * 2 ** (retry - 1));
  return Math.round(random() * window);
}

export interface RetryOptions {
  /** Attempts after the first. */
  maxRetries: number;
  tuning: RetryTuning;
  timing: Timing;
  signal?: AbortSignal;
  provider: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Re-throws `err` with the attempt count in its message, keeping its details and kind. */
function gaveUp(err: CairnError, attempts: number, why = ''): CairnError {
  const details = { ...llmDetails(err)!, retryable: false, attempts };
  return llmError(`${err.message}${why} (gave up after ${plural(attempts, 'attempt')})`, details, err);
}

/**
 * Runs `attempt` until it succeeds, fails with an error the transport did not mark retryable, or
 * `maxRetries` retries are spent. Only CairnError(LLM) with `retryable: true` is retried.
 */
export async function withRetries<T>(attempt: (n: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      const details = llmDetails(err);
      if (!details?.retryable) throw err;
      const e = err as CairnError;
      if (n > opts.maxRetries) throw gaveUp(e, n);
      let waitMs = fullJitterMs(n, opts.tuning, opts.timing.random);
      if (details.retryAfterMs !== undefined) {
        if (details.retryAfterMs > opts.tuning.maxRetryAfterMs) {
          const why = `; it asked to retry after ${Math.ceil(details.retryAfterMs / 1000)} s, longer than the ${Math.round(opts.tuning.maxRetryAfterMs / 1000)} s we wait`;
          throw gaveUp(e, n, why);
        }
        waitMs = details.retryAfterMs;
      }
      try {
        await opts.timing.sleep(waitMs, opts.signal);
      } catch (abort) {
        throw llmError(`${opts.provider} call cancelled while waiting to retry`, { kind: 'aborted', provider: opts.provider }, abort);
      }
    }
  }
}
