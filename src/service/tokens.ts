// API tokens for the HTTP API. A token is shown once when created; only its sha256 hash is kept.
// Verification hashes the presented token and compares it with every active hash in constant time.
import { createHash, randomBytes, timingSafeEqual } from '../core/lazy-crypto.js';
import { z } from 'zod';
import { parseNamespace } from '../core/namespace.js';
import { newId } from '../core/ids.js';
import type { ApiTokenRecord, Store } from '../store/store.js';
import { parseInput } from './inputs.js';

export const TOKEN_PREFIX = 'cairn_';
/** A token's namespace that grants every namespace. */
export const ALL_NAMESPACES = '*';
/** last_used_at is written at most this often per token (a busy API would otherwise write per request). */
const TOUCH_INTERVAL_MS = 60_000;
const MAX_TOKEN_CHARS = 200;

export type ApiToken = {
  id: string;
  label: string | null;
  namespaces: string[];
  createdAt: string;
  lastUsedAt: string | null;
};

export type CreatedToken = {
  /** The secret: shown once, never stored. */
  token: string;
  info: ApiToken;
};

const createTokenSchema = z.strictObject({
  namespaces: z
    .array(z.string().trim())
    .min(1, 'grant at least one namespace (or "*" for all)')
    .max(100)
    .transform((list, ctx) => {
      const out: string[] = [];
      for (const ns of list) {
        if (ns === ALL_NAMESPACES) {
          if (!out.includes(ns)) out.push(ns);
          continue;
        }
        try {
          const parsed = parseNamespace(ns);
          if (!out.includes(parsed)) out.push(parsed);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
          return z.NEVER;
        }
      }
      return out.includes(ALL_NAMESPACES) ? [ALL_NAMESPACES] : out;
    }),
  label: z
    .string()
    .trim()
    .max(200, 'label is longer than 200 characters')
    .transform((v) => (v === '' ? null : v))
    .optional(),
});

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function publicInfo(r: ApiTokenRecord): ApiToken {
  return { id: r.id, label: r.label, namespaces: [...r.namespaces], createdAt: r.createdAt, lastUsedAt: r.lastUsedAt };
}

/** Whether a token's grant covers a namespace. */
export function tokenAllows(token: Pick<ApiToken, 'namespaces'>, namespace: string): boolean {
  return token.namespaces.includes(ALL_NAMESPACES) || token.namespaces.includes(namespace);
}

export async function createToken(store: Store, input: unknown): Promise<CreatedToken> {
  const data = parseInput(createTokenSchema, input, 'token');
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const record = await store.addApiToken({
    id: 'tok_' + newId('x').slice(2),
    hash: hashToken(token),
    label: data.label ?? null,
    namespaces: data.namespaces,
    createdAt: new Date().toISOString(),
  });
  return { token, info: publicInfo(record) };
}

export async function listTokens(store: Store): Promise<ApiToken[]> {
  return (await store.listApiTokens()).map(publicInfo);
}

export async function revokeToken(store: Store, id: string): Promise<boolean> {
  if (typeof id !== 'string' || id.length === 0 || id.length > 100) return false;
  return store.revokeApiToken(id);
}

export async function verifyToken(store: Store, token: string): Promise<ApiToken | null> {
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_CHARS) return null;
  const presented = Buffer.from(hashToken(token), 'hex');
  let match: ApiTokenRecord | null = null;
  // Every active hash is compared, without stopping early, so timing says nothing about which matched.
  for (const record of await store.listApiTokens()) {
    const stored = Buffer.from(record.hash, 'hex');
    if (stored.length === presented.length && timingSafeEqual(stored, presented) && match === null) match = record;
  }
  if (!match) return null;
  const now = Date.now();
  const last = match.lastUsedAt ? Date.parse(match.lastUsedAt) : NaN;
  if (!(now - last < TOUCH_INTERVAL_MS)) {
    const nowIso = new Date(now).toISOString();
    try {
      if (await store.touchApiToken(match.id, nowIso, new Date(now - TOUCH_INTERVAL_MS).toISOString())) match = { ...match, lastUsedAt: nowIso };
    } catch {
      // Bookkeeping only: a locked database must not turn a valid token away.
    }
  }
  return publicInfo(match);
}

/** Whether a token is active; with `includeRevoked`, whether the home ever had one. */
export async function hasTokens(store: Store, options: { includeRevoked?: boolean } = {}): Promise<boolean> {
  return store.hasApiTokens(options);
}
