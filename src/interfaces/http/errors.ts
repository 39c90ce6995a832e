// Every error the REST API returns is JSON `{ error: { code, message, issues? } }` with a stable
// code: the facade's CairnError codes plus a few of HTTP's own. Never a stack trace.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { isCairnError, type ErrorCode } from '../../core/errors.js';

/** Codes that only the HTTP layer produces. */
export const HTTP_ERROR_CODES = {
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  MALFORMED_JSON: 'MALFORMED_JSON',
  ROUTE_NOT_FOUND: 'ROUTE_NOT_FOUND',
} as const;

export type HttpErrorCode = ErrorCode | (typeof HTTP_ERROR_CODES)[keyof typeof HTTP_ERROR_CODES];

/** HTTP status of each facade error code. */
export const STATUS_OF: Record<ErrorCode, ContentfulStatusCode> = {
  INVALID_INPUT: 400,
  INVALID_NAMESPACE: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  CONFIG: 500,
  STORE_LOCKED: 503,
  STORE_CORRUPT: 500,
  READ_ONLY: 503,
  STORE: 500,
  EMBEDDER: 503,
  LLM: 502,
  UNHEALTHY: 503,
  INTERNAL: 500,
};

export interface Issue {
  path: string;
  message: string;
}

/** An error the HTTP layer raises itself (auth, body, routing); caught by the app's onError. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: HttpErrorCode,
    message: string,
    readonly issues?: Issue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function zodIssues(error: z.ZodError): Issue[] {
  return error.issues.map((i) => {
    const path = i.path.map(String).join('.');
    if (i.code === 'unrecognized_keys') return { path, message: `unknown field ${i.keys.map((k) => `"${k}"`).join(', ')}` };
    return { path, message: i.message };
  });
}

export function validationError(what: string, error: z.ZodError): HttpError {
  const issues = zodIssues(error);
  const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  return new HttpError(400, 'INVALID_INPUT', `Invalid ${what}: ${summary}`.slice(0, 2000), issues);
}

export interface ErrorBody {
  error: { code: HttpErrorCode; message: string; issues?: Issue[] };
}

/** The JSON response for any thrown value; `internal` is called for errors nobody expected. */
export function errorResponse(c: Context, err: unknown, internal?: (err: unknown) => void): Response {
  if (err instanceof HttpError) {
    const body: ErrorBody = { error: { code: err.code, message: err.message, ...(err.issues ? { issues: err.issues } : {}) } };
    return c.json(body, err.status, err.headers);
  }
  if (isCairnError(err)) {
    const problems = err.details?.problems;
    const issues = Array.isArray(problems) ? problems.map((p) => ({ path: '', message: String(p) })) : undefined;
    const status = STATUS_OF[err.code] ?? 500;
    if (status >= 500) internal?.(err);
    const body: ErrorBody = { error: { code: err.code, message: err.message, ...(issues ? { issues } : {}) } };
    return c.json(body, status);
  }
  internal?.(err);
  const body: ErrorBody = { error: { code: 'INTERNAL', message: 'Internal server error (see the server log)' } };
  return c.json(body, 500);
}
