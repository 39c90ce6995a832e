// Namespaces are walls: every record belongs to one. Ids are validated here, once, so that no id
// can ever become a path outside the data directory or smuggle SQL/wildcards anywhere.
import { CairnError, ERROR_CODES } from './errors.js';

/** Lower-case letters, digits, dot, underscore, dash; starts with a letter or digit; ≤ 64 chars. */
export const NAMESPACE_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export type Namespace = string & { readonly __brand: 'Namespace' };

export function parseNamespace(value: unknown): Namespace {
  if (typeof value !== 'string') {
    throw new CairnError(ERROR_CODES.INVALID_NAMESPACE, 'Namespace must be a string');
  }
  // ".." passes the character class but is never a sensible id and reads like a path.
  if (!NAMESPACE_PATTERN.test(value) || value.includes('..')) {
    const shown = value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}… (${value.length} chars)` : JSON.stringify(value);
    throw new CairnError(
      ERROR_CODES.INVALID_NAMESPACE,
      `Invalid namespace ${shown}: use 1–64 characters of a-z, 0-9, ".", "_", "-", starting with a letter or digit`,
    );
  }
  return value as Namespace;
}
