// One JSON POST to a chat provider, classified: every failure becomes a CairnError(LLM) with a
// kind, marked retryable when another attempt could succeed. Providers only build bodies and read
// answers; timeouts, size caps, Retry-After and secret hygiene live here once.
import { describeNetworkError, excerpt, isAbortLike, parseRetryAfter, readTextCapped } from '../core/http.js';
import { llmError } from './errors.js';
import { DEFAULT_RETRY_TUNING, systemTiming, withRetries, type RetryTuning, type Timing } from './retry.js';

/** Largest response body read; a chat answer for a judge is a few KB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Knobs that are not user config: tests shorten waits and inject time. */
export interface TransportOptions {
  retry?: Partial<RetryTuning>;
  timing?: Timing;
  maxBodyBytes?: number;
  /** Where API key variables are looked up (default process.env). */
  env?: NodeJS.ProcessEnv;
}

export interface JsonPost {
  /** Names the provider in messages, e.g. `Anthropic (claude-haiku-4-5)`. */
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  maxRetries: number;
  signal?: AbortSignal;
  /** Values that must never appear in an error message (the API key; a server may echo it). */
  secrets?: string[];
  /** Appended to 401/403 errors, e.g. which variable holds the key. */
  authHint?: string;
}

function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

async function attemptOnce(p: JsonPost, maxBodyBytes: number, timing: Timing): Promise<unknown> {
  const where = `POST ${p.url}`;
  const timeout = AbortSignal.timeout(p.timeoutMs);
  const signal = p.signal ? AbortSignal.any([p.signal, timeout]) : timeout;
  let response: Response;
  let body: { text: string; overflow: boolean };
  try {
    response = await fetch(p.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...p.headers },
      body: JSON.stringify(p.body),
      signal,
    });
    body = await readTextCapped(response, maxBodyBytes);
  } catch (err) {
    if (p.signal?.aborted) throw llmError(`${p.provider} call cancelled (${where})`, { kind: 'aborted', provider: p.provider }, err);
    if (timeout.aborted || isAbortLike(err)) {
      throw llmError(
        `${p.provider} did not answer within ${p.timeoutMs} ms (${where}); raise timeoutMs in the LLM config if the model is slow`,
        { kind: 'timeout', provider: p.provider, retryable: true, timeoutMs: p.timeoutMs },
        err,
      );
    }
    const why = redact(describeNetworkError(err), p.secrets);
    throw llmError(`cannot reach ${p.provider} at ${p.url}: ${why}`, { kind: 'network', provider: p.provider, retryable: true }, err);
  }

  const status = response.status;
  const quoted = body.overflow ? `(body over ${maxBodyBytes} bytes)` : excerpt(redact(body.text, p.secrets));
  if (status < 200 || status > 299) {
    const retryable = isRetryableStatus(status);
    const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(response.headers.get('retry-after'), timing.now()) : undefined;
    const hint = status === 401 || status === 403 ? (p.authHint ? `; ${p.authHint}` : '') : status === 404 ? '; check baseUrl and model in the LLM config' : '';
    throw llmError(`${p.provider} answered HTTP ${status}${response.statusText ? ` ${response.statusText}` : ''} to ${where}: ${quoted}${hint}`, {
      kind: 'http',
      provider: p.provider,
      status,
      retryable,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  if (body.overflow) {
    throw llmError(`${p.provider} sent a response larger than ${maxBodyBytes} bytes (${where}); refused`, { kind: 'too-large', provider: p.provider, maxBodyBytes });
  }
  try {
    return JSON.parse(body.text);
  } catch (err) {
    throw llmError(`${p.provider} returned a body that is not JSON (${where}): ${quoted}`, { kind: 'bad-response', provider: p.provider }, err);
  }
}

/** POSTs `p.body` and returns the parsed JSON of a 2xx answer, retrying transient failures. */
export function postJsonWithRetries(p: JsonPost, opts: TransportOptions = {}): Promise<unknown> {
  const timing = opts.timing ?? systemTiming;
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return withRetries(() => attemptOnce(p, maxBodyBytes, timing), {
    maxRetries: p.maxRetries,
    tuning: { ...DEFAULT_RETRY_TUNING, ...opts.retry },
    timing,
    provider: p.provider,
    ...(p.signal ? { signal: p.signal } : {}),
  });
}
