// Every LLM failure is a CairnError(LLM) whose details carry a `kind`, so callers (the judge, the
// circuit breaker, `cairn status`) can branch on what went wrong without parsing messages.
import { CairnError, ERROR_CODES } from '../core/errors.js';

export type LlmFailureKind =
  /** Missing API key variable and the like: retrying cannot help. */
  | 'config'
  /** A non-2xx answer; `details.status` has the code. */
  | 'http'
  /** Connection refused, reset, DNS failure. */
  | 'network'
  | 'timeout'
  /** The caller's own signal fired: not the provider's fault. */
  | 'aborted'
  /** A 2xx answer that is not JSON, or JSON of the wrong shape, or empty content. */
  | 'bad-response'
  /** The answer hit maxTokens and was cut off. */
  | 'truncated'
  /** The model declined or a content filter stopped it. */
  | 'refused'
  | 'too-large'
  /** The circuit breaker is open: no request was sent. */
  | 'circuit-open'
  /** The model's text is not JSON matching the expected schema. */
  | 'invalid-output';

export interface LlmErrorDetails {
  kind: LlmFailureKind;
  provider?: string;
  status?: number;
  /** Set by the transport on failures worth another attempt. */
  retryable?: boolean;
  /** What the provider asked for in Retry-After, in ms. */
  retryAfterMs?: number;
  [key: string]: unknown;
}

export function llmError(message: string, details: LlmErrorDetails, cause?: unknown): CairnError {
  return new CairnError(ERROR_CODES.LLM, message, details, cause === undefined ? undefined : { cause });
}

/** The failure kind of an LLM error, or undefined for anything else. */
export function llmFailureKind(err: unknown): LlmFailureKind | undefined {
  if (!(err instanceof CairnError) || err.code !== ERROR_CODES.LLM) return undefined;
  return err.details?.kind as LlmFailureKind | undefined;
}

export function llmDetails(err: unknown): LlmErrorDetails | undefined {
  return llmFailureKind(err) === undefined ? undefined : ((err as CairnError).details as LlmErrorDetails);
}
