// API token rows ↔ records, shared by the SQLite and PostgreSQL backends (same columns).
import type { ApiTokenRecord } from './store.js';

export interface TokenRow {
  id: string;
  hash: string;
  label: string | null;
  namespaces: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export function tokenFromRow(r: TokenRow): ApiTokenRecord {
  let namespaces: string[] = [];
  try {
    const parsed: unknown = JSON.parse(r.namespaces);
    if (Array.isArray(parsed)) namespaces = parsed.filter((n): n is string => typeof n === 'string');
  } catch {
    // A damaged grant list grants nothing.
  }
  return { id: r.id, hash: r.hash, label: r.label, namespaces, createdAt: r.created_at, lastUsedAt: r.last_used_at, revokedAt: r.revoked_at };
}
