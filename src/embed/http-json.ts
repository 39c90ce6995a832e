// The one small HTTP client behind the network embedders (Ollama, OpenAI-compatible): a JSON POST
// with a timeout, a bounded retry on transient failures, and strict checks of what comes back, so
// a flaky or wrong endpoint surfaces as one clear CairnError(EMBEDDER) instead of bad vectors.
import type { z } from 'zod';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { describeNetworkError, excerpt, isAbortLike, parseRetryAfter } from '../core/http.js';
import { normalize } from './embedder.js';

// Re-exported: the embedders and their tests import these from here.
export { joinUrl, parseRetryAfter } from '../core/http.js';

/** How often and how long to retry 408/429/5xx answers and network errors. */
export interface RetryPolicy {
  /** Total attempts, including the first (default 3). */
  attempts: number;
  /** First backoff in ms; doubles per attempt, with ±25 % jitter (default 500). */
  baseDelayMs: number;
  /** Upper bound of any single wait, including one asked for by Retry-After (default 20 000). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 500, maxDelayMs: 20_000 };

export interface PostJsonRequest<T> {
  /** Names the service in error messages, e.g. `Ollama`. */
  service: string;
  url: string;
  body: unknown;
  headers?: Record<string, string>;
  /** Per attempt, covering connect, headers and body. Timeouts are not retried. */
  timeoutMs: number;
  /** Shape the parsed JSON must have. */
  schema: z.ZodType<T>;
  retry?: Partial<RetryPolicy>;
  /** Waits between attempts (tests inject one that records the waits instead of taking them). */
  sleep?: (ms: number) => Promise<void>;
}

function embedderError(message: string, details?: Record<string, unknown>, cause?: unknown): CairnError {
  return new CairnError(ERROR_CODES.EMBEDDER, message, details, cause === undefined ? undefined : { cause });
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Exponential backoff with jitter for the given 1-based attempt that just failed. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const base = policy.baseDelayMs * 2 ** (attempt - 1);
  return Math.min(policy.maxDelayMs, Math.round(base * (0.75 + random() * 0.5)));
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * POSTs `body` as JSON and returns the response parsed and validated by `schema`.
 * Retries 408/429/5xx and network errors up to `retry.attempts` times (Retry-After honoured,
 * capped at `retry.maxDelayMs`); everything else fails at once. Always throws CairnError(EMBEDDER).
 */
export async function postJson<T>(req: PostJsonRequest<T>): Promise<T> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...req.retry };
  const attempts = Math.max(1, Math.floor(policy.attempts));
  const where = `POST ${req.url}`;
  const sleep = req.sleep ?? realSleep;
  let lastProblem = '';

  for (let attempt = 1; attempt <= attempts; attempt++) {
    let response: Response;
    let text: string;
    try {
      response = await fetch(req.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...req.headers },
        body: JSON.stringify(req.body),
        signal: AbortSignal.timeout(req.timeoutMs),
      });
      text = await response.text();
    } catch (err) {
      if (isAbortLike(err)) {
        throw embedderError(
          `${req.service} did not answer within ${req.timeoutMs} ms (${where}); raise timeoutMs in the embedder config if the model is slow to load`,
          { url: req.url, timeoutMs: req.timeoutMs },
          err,
        );
      }
      lastProblem = `cannot reach ${req.service} at ${req.url}: ${describeNetworkError(err)}`;
      if (attempt < attempts) {
        await sleep(backoffMs(attempt, policy));
        continue;
      }
      throw embedderError(`${lastProblem} (gave up after ${attempts} attempt${attempts > 1 ? 's' : ''})`, { url: req.url }, err);
    }

    if (!response.ok) {
      lastProblem = `${req.service} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''} to ${where}: ${excerpt(text)}`;
      if (isRetryableStatus(response.status) && attempt < attempts) {
        const asked = parseRetryAfter(response.headers.get('retry-after'));
        await sleep(asked === undefined ? backoffMs(attempt, policy) : Math.min(asked, policy.maxDelayMs));
        continue;
      }
      const tail = isRetryableStatus(response.status) ? ` (gave up after ${attempts} attempt${attempts > 1 ? 's' : ''})` : '';
      throw embedderError(`${lastProblem}${tail}`, { url: req.url, status: response.status });
    }

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw embedderError(`${req.service} returned invalid JSON from ${where}: ${excerpt(text)}`, { url: req.url }, err);
    }
    const parsed = req.schema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
        .join('; ');
      throw embedderError(`${req.service} returned an unexpected response shape from ${where}: ${issues}; body: ${excerpt(text)}`, {
        url: req.url,
      });
    }
    return parsed.data;
  }
  // Unreachable: every path in the loop returns, continues or throws.
  throw embedderError(lastProblem || `${req.service} request failed (${where})`);
}

/**
 * Turns raw embedding rows into unit-length Float32Arrays, checking the count, that every row has
 * the same (and, when given, the expected) length, and that every number is finite and not all zero.
 */
export function toUnitVectors(
  service: string,
  rows: readonly (readonly number[])[],
  expectedCount: number,
  expectedDims?: number,
): Float32Array[] {
  if (rows.length !== expectedCount) {
    throw embedderError(`${service} returned ${rows.length} embeddings for ${expectedCount} inputs`);
  }
  const dims = expectedDims ?? rows[0]?.length ?? 0;
  return rows.map((row, i) => {
    if (row.length === 0) throw embedderError(`${service} returned an empty embedding for input ${i}`);
    if (row.length !== dims) {
      throw embedderError(`${service} returned inconsistent dimensions: embedding ${i} has ${row.length}, expected ${dims}`);
    }
    if (!row.every(Number.isFinite)) throw embedderError(`${service} returned a non-finite number in embedding ${i}`);
    if (row.every((x) => x === 0)) throw embedderError(`${service} returned an all-zero embedding for input ${i}`);
    return normalize(Float32Array.from(row));
  });
}

/** Knobs of the HTTP embedders that are not user config: tests shorten the retry waits. */
export interface HttpEmbedderOptions {
  retry?: Partial<RetryPolicy>;
  /** Waits between attempts (tests). */
  sleep?: (ms: number) => Promise<void>;
  /** Texts per request (default 64). */
  batchSize?: number;
}
