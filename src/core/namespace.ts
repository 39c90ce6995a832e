// Namespaces are walls: every record belongs to one. Ids are validated here, once, so that no id
// can ever become a path outside the data directory or smuggle SQL/wildcards anywhere.
import { CairnError, ERROR_CODES } from './errors.js';

/** Lower-case letters, digits, dot, underscore, dash; starts with a letter or digit; ≤ 64 chars. */
export const NAMESPACE_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * Names of the data directory's own files and folders (core/home.ts, SQLite's files beside the
 * database, the local socket of interfaces/local, and a backups folder kept free for them): a
 * namespace's folder `<home>/<ns>/` must not take one of these names.
 */
export const RESERVED_NAMESPACES: ReadonlySet<string> = new Set([
  'index',
  'logs',
  'run',
  'cache',
  'backups',
  'cairn.db',
  'cairn.db-wal',
  'cairn.db-shm',
  'cairn.db-journal',
  'cairn.sock',
  'cairn.lock',
  'config.json',
]);

/** Whether `name` is a file or folder name the data directory keeps for itself. */
export function isReservedName(name: string): boolean {
  return RESERVED_NAMESPACES.has(name);
}

/** The name an outside or older name that is reserved becomes: "cache" → "cache-ns". */
export function unreservedName(name: string): string {
  return isReservedName(name) ? `${name}-ns` : name;
}

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
  if (isReservedName(value)) {
    throw new CairnError(ERROR_CODES.INVALID_NAMESPACE, `Namespace "${value}" is reserved (the data directory uses that name); choose another, such as "${unreservedName(value)}"`);
  }
  return value as Namespace;
}

/**
 * A valid namespace made from an outside name (an OpenClaw agent id, a Claude Code project):
 * lower-cased, other characters folded to "-", trimmed to 64. Null when nothing usable remains.
 */
export function namespaceFromName(name: string): Namespace | null {
  let ns = name
    .normalize('NFKD')
    // Accents split off by NFKD go, so "Crème" is "creme", not "cre-me".
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/-{2,}/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64)
    .replace(/[._-]+$/, '');
  ns = unreservedName(ns);
  return NAMESPACE_PATTERN.test(ns) && !ns.includes('..') ? (ns as Namespace) : null;
}
