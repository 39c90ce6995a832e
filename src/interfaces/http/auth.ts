// Bearer-token authentication and namespace authorisation for the REST API and /mcp.
//
// - A request with an `Authorization` header is always verified: malformed or unknown → 401.
//   Without one, the web UI's session cookie may carry the token instead, verified the same way
//   (its state-changing requests also need the CSRF proof: src/interfaces/web/session.ts).
// - A request without one is allowed only in "open loopback" mode: the server is bound to a
//   loopback address AND the home has no active token AND either it never had one (local
//   single-user use) or the user chose token-less access (`cairn serve --no-auth`): revoking the
//   last token must not silently reopen the API. Even then the Host
//   (and Origin, when sent) must name a loopback host, so a web page cannot reach the API through
//   DNS rebinding. Otherwise → 401.
// - A token reaches only the namespaces it was granted ('*' = all) → 403 for any other.
// Nothing in the store is read or written (beyond the token check itself) before this passes.
import type { MiddlewareHandler } from 'hono';
import { isIP } from 'node:net';
import { HttpError } from './errors.js';

export interface TokenInfo {
  id: string;
  label: string | null;
  /** Granted namespaces; '*' grants all. */
  namespaces: string[];
}

/** What auth needs from the facade. */
export interface AuthFacade {
  verifyToken(token: string): Promise<TokenInfo | null>;
  /** Whether a token is active; with `includeRevoked`, whether the home ever had one. */
  hasTokens(options?: { includeRevoked?: boolean }): Promise<boolean>;
}

export interface Caller {
  /** The token's id, or null in open loopback mode. */
  tokenId: string | null;
  /** The web UI's session cookie carried the token (state-changing requests then need CSRF proof). */
  viaCookie?: boolean;
  label: string | null;
  namespaces: readonly string[];
}

export type AuthEnv = { Variables: { caller: Caller } };

const ALL = '*';
/** The web UI's HttpOnly cookie holding the bearer token typed into its login form. */
export const SESSION_COOKIE = 'cairn_session';
/** RFC 6750 token68, bounded. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]{1,1024}=*)$/i;

export function canAccess(caller: Caller, namespace: string): boolean {
  return caller.namespaces.includes(ALL) || caller.namespaces.includes(namespace);
}

export function seesAll(caller: Caller): boolean {
  return caller.namespaces.includes(ALL);
}

/** True for 127.0.0.0/8, ::1 (also IPv4-mapped) and "localhost". */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(h);
  return false;
}

/** The host name of a Host header value (`name:port`, `[v6]:port`). */
function hostOfHeader(value: string): string {
  const v = value.trim();
  if (v.startsWith('[')) return v.slice(0, v.indexOf(']') + 1);
  const colon = v.lastIndexOf(':');
  return colon > 0 && v.indexOf(':') === colon ? v.slice(0, colon) : v;
}

function unauthorized(message: string, error?: 'invalid_request' | 'invalid_token'): HttpError {
  const challenge = error ? `Bearer realm="cairn", error="${error}"` : 'Bearer realm="cairn"';
  return new HttpError(401, 'UNAUTHORIZED', message, undefined, { 'WWW-Authenticate': challenge });
}

export interface AuthOptions {
  /** Allow token-less requests while the home has no token (only when bound to loopback). */
  openOnLoopback: boolean;
  /** Also when the home had tokens that are all revoked now: only on the user's explicit choice. */
  openAfterRevoke?: boolean;
}

const MISSING_TOKEN = 'Missing bearer token: send "Authorization: Bearer <token>" (create one with "cairn tokens create")';

/** Verifies the caller and sets `c.var.caller`; throws HttpError 401/403 otherwise. */
export function authenticate(facade: AuthFacade, options: AuthOptions): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const cookie = header === undefined ? sessionToken(c.req.header('cookie')) : undefined;
    if (cookie !== undefined) {
      // The same verification as the header: the cookie is only another way to carry the token.
      const info = BEARER.test(`Bearer ${cookie}`) ? await facade.verifyToken(cookie) : null;
      if (!info) throw unauthorized('Invalid or revoked token: log in again', 'invalid_token');
      c.set('caller', { tokenId: info.id, label: info.label, namespaces: info.namespaces, viaCookie: true });
      return next();
    }
    if (header !== undefined) {
      const m = BEARER.exec(header.trim());
      if (!m) throw unauthorized('Malformed Authorization header: expected "Bearer <token>"', 'invalid_request');
      const info = await facade.verifyToken(m[1]!);
      if (!info) throw unauthorized('Invalid or revoked token', 'invalid_token');
      c.set('caller', { tokenId: info.id, label: info.label, namespaces: info.namespaces });
      return next();
    }
    if (!options.openOnLoopback || (await facade.hasTokens())) throw unauthorized(MISSING_TOKEN);
    if (!options.openAfterRevoke && (await facade.hasTokens({ includeRevoked: true }))) {
      throw unauthorized(`${MISSING_TOKEN}. Every token of this home is revoked, and that does not reopen token-less access: restart with "cairn serve --no-auth" to accept requests from this machine without a token`);
    }
    // Open loopback mode: only requests that really address this machine.
    const host = c.req.header('host');
    const origin = c.req.header('origin');
    if (host === undefined || !isLoopbackHost(hostOfHeader(host)) || (origin !== undefined && !loopbackOrigin(origin))) {
      throw new HttpError(403, 'FORBIDDEN', 'Token-less access is only for requests from this machine to a loopback host name (no token is configured)');
    }
    c.set('caller', { tokenId: null, label: null, namespaces: [ALL] });
    return next();
  };
}

/** The session cookie's value in a Cookie header, if any. */
export function sessionToken(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}

function loopbackOrigin(origin: string): boolean {
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** Throws 403 unless the caller may use the namespace (already validated). */
export function authorize(caller: Caller, namespace: string): void {
  if (!canAccess(caller, namespace)) {
    throw new HttpError(403, 'FORBIDDEN', `This token is not granted namespace "${namespace}"`);
  }
}
