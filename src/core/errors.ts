// One typed error class with stable codes, so every interface (CLI exit codes, HTTP statuses,
// MCP errors) can map failures without parsing messages.

export const ERROR_CODES = {
  INVALID_INPUT: 'INVALID_INPUT',
  INVALID_NAMESPACE: 'INVALID_NAMESPACE',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  CONFIG: 'CONFIG',
  STORE_LOCKED: 'STORE_LOCKED',
  STORE_CORRUPT: 'STORE_CORRUPT',
  /** The data directory or its database cannot be written by this user (reads still work). */
  READ_ONLY: 'READ_ONLY',
  STORE: 'STORE',
  EMBEDDER: 'EMBEDDER',
  /** A chat model (the LLM judge) failed: HTTP error, timeout, unusable answer, open circuit. */
  LLM: 'LLM',
  UNHEALTHY: 'UNHEALTHY',
  INTERNAL: 'INTERNAL',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Process exit code per error code; documented in the README's CLI reference. */
export const EXIT_CODES: Record<ErrorCode | 'USAGE', number> = {
  INTERNAL: 1,
  USAGE: 2,
  INVALID_INPUT: 3,
  INVALID_NAMESPACE: 3,
  NOT_FOUND: 4,
  CONFLICT: 5,
  CONFIG: 6,
  STORE_LOCKED: 7,
  STORE_CORRUPT: 8,
  STORE: 8,
  EMBEDDER: 9,
  UNHEALTHY: 10,
  LLM: 11,
  READ_ONLY: 12,
};

export class CairnError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CairnError';
    this.code = code;
    this.details = details;
  }
}

export function isCairnError(err: unknown): err is CairnError {
  return err instanceof CairnError;
}

export function invalidInput(message: string, details?: Record<string, unknown>): CairnError {
  return new CairnError(ERROR_CODES.INVALID_INPUT, message, details);
}
