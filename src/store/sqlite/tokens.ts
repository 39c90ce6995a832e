// API tokens for SQLite. Only hashes are stored; the token itself is never written anywhere.
import type { Database } from 'better-sqlite3';
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import type { ApiTokenRecord, NewApiToken } from '../store.js';
import { tokenFromRow, type TokenRow } from '../token-rows.js';
import { stmt } from './statements.js';

export function addApiToken(db: Database, token: NewApiToken): ApiTokenRecord {
  try {
    stmt(db, 'INSERT INTO api_tokens (id, hash, label, namespaces, created_at) VALUES (?, ?, ?, ?, ?)').run(
      token.id,
      token.hash,
      token.label,
      JSON.stringify(token.namespaces),
      token.createdAt,
    );
  } catch (err) {
    if (String((err as { code?: string }).code).startsWith('SQLITE_CONSTRAINT')) {
      throw new CairnError(ERROR_CODES.CONFLICT, 'A token with this id or hash exists already', undefined, { cause: err });
    }
    throw err;
  }
  return { ...token, namespaces: [...token.namespaces], lastUsedAt: null, revokedAt: null };
}

export function listApiTokens(db: Database, includeRevoked: boolean): ApiTokenRecord[] {
  const sql = includeRevoked ? 'SELECT * FROM api_tokens ORDER BY created_at, id' : 'SELECT * FROM api_tokens WHERE revoked_at IS NULL ORDER BY created_at, id';
  return (stmt(db, sql).all() as TokenRow[]).map(tokenFromRow);
}

export function revokeApiToken(db: Database, id: string, now: string): boolean {
  return stmt(db, 'UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id).changes > 0;
}

export function touchApiToken(db: Database, id: string, now: string, ifUsedBefore: string): boolean {
  return (
    stmt(db, 'UPDATE api_tokens SET last_used_at = ? WHERE id = ? AND revoked_at IS NULL AND (last_used_at IS NULL OR last_used_at < ?)').run(now, id, ifUsedBefore)
      .changes > 0
  );
}

/** Revoked rows are kept (never deleted), so `includeRevoked` tells whether the home ever had a token. */
export function hasApiTokens(db: Database, includeRevoked: boolean): boolean {
  const sql = includeRevoked ? 'SELECT 1 FROM api_tokens LIMIT 1' : 'SELECT 1 FROM api_tokens WHERE revoked_at IS NULL LIMIT 1';
  return stmt(db, sql).get() !== undefined;
}
