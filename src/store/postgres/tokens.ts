// API tokens for PostgreSQL. Only hashes are stored; the token itself is never written anywhere.
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import type { ApiTokenRecord, NewApiToken } from '../store.js';
import { tokenFromRow, type TokenRow } from '../token-rows.js';
import { pgCode, type Db } from './connect.js';

export async function addApiToken(db: Db, token: NewApiToken): Promise<ApiTokenRecord> {
  try {
    await db.query('INSERT INTO api_tokens (id, hash, label, namespaces, created_at) VALUES ($1, $2, $3, $4, $5)', [
      token.id,
      token.hash,
      token.label,
      JSON.stringify(token.namespaces),
      token.createdAt,
    ]);
  } catch (err) {
    // Any integrity violation (class 23: unique id or hash, a missing value), as SQLite's SQLITE_CONSTRAINT.
    if (pgCode(err)?.startsWith('23')) {
      throw new CairnError(ERROR_CODES.CONFLICT, 'A token with this id or hash exists already', undefined, { cause: err });
    }
    throw err;
  }
  return { ...token, namespaces: [...token.namespaces], lastUsedAt: null, revokedAt: null };
}

// COLLATE "C": byte order, as SQLite sorts, whatever the database's locale.
export async function listApiTokens(db: Db, includeRevoked: boolean): Promise<ApiTokenRecord[]> {
  const sql = `SELECT * FROM api_tokens${includeRevoked ? '' : ' WHERE revoked_at IS NULL'} ORDER BY created_at COLLATE "C", id COLLATE "C"`;
  return (await db.query<TokenRow>(sql)).rows.map(tokenFromRow);
}

export async function revokeApiToken(db: Db, id: string, now: string): Promise<boolean> {
  return ((await db.query('UPDATE api_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, id])).rowCount ?? 0) > 0;
}

export async function touchApiToken(db: Db, id: string, now: string, ifUsedBefore: string): Promise<boolean> {
  const sql = 'UPDATE api_tokens SET last_used_at = $1 WHERE id = $2 AND revoked_at IS NULL AND (last_used_at IS NULL OR last_used_at < $3 COLLATE "C")';
  return ((await db.query(sql, [now, id, ifUsedBefore])).rowCount ?? 0) > 0;
}

/** Revoked rows are kept (never deleted), so `includeRevoked` tells whether the home ever had a token. */
export async function hasApiTokens(db: Db, includeRevoked: boolean): Promise<boolean> {
  const sql = includeRevoked ? 'SELECT 1 FROM api_tokens LIMIT 1' : 'SELECT 1 FROM api_tokens WHERE revoked_at IS NULL LIMIT 1';
  return ((await db.query(sql)).rowCount ?? 0) > 0;
}
