// The web UI's session: the bearer token typed into the login form travels in an HttpOnly,
// SameSite=Strict cookie (auth.ts verifies it exactly like the Authorization header). A cookie is
// sent by the browser on its own, so every state-changing request it authenticates must also prove
// it comes from our page: a per-session CSRF token (an HMAC of the cookie under a per-process key,
// handed to the page in a <meta> tag, sent back as a header) and an Origin naming this server.
import { createHmac, randomBytes, timingSafeEqual } from '../../core/lazy-crypto.js';
import type { Context, MiddlewareHandler } from 'hono';
import { HttpError } from '../http/errors.js';
import { SESSION_COOKIE, sessionToken, type AuthEnv } from '../http/auth.js';

export const CSRF_HEADER = 'x-cairn-csrf';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export class CsrfKey {
  private readonly key = randomBytes(32);

  /** The CSRF token of a session cookie value ('' without a session: open loopback mode). */
  tokenFor(session: string | undefined): string {
    return session === undefined ? '' : createHmac('sha256', this.key).update(session).digest('base64url');
  }

  matches(session: string, sent: string | undefined): boolean {
    if (sent === undefined) return false;
    const want = Buffer.from(this.tokenFor(session));
    const got = Buffer.from(sent);
    return want.length === got.length && timingSafeEqual(want, got);
  }
}

/** The origin the browser addressed (scheme and Host header), for Origin comparisons. */
export function requestOrigin(c: Context): string | null {
  const host = c.req.header('host');
  if (!host) return null;
  return `${new URL(c.req.url).protocol}//${host.trim().toLowerCase()}`;
}

/**
 * Refuses a state-changing request authenticated by the session cookie unless it carries the
 * session's CSRF token and an Origin equal to this server's. Runs after authentication.
 */
export function csrfGuard(key: CsrfKey): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const caller = c.get('caller') as AuthEnv['Variables']['caller'] | undefined;
    if (!caller?.viaCookie || SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    if (origin === undefined || origin.toLowerCase() !== requestOrigin(c)) {
      throw new HttpError(403, 'FORBIDDEN', 'Cross-site request refused: the Origin header must name this server');
    }
    const session = sessionToken(c.req.header('cookie'));
    if (session === undefined || !key.matches(session, c.req.header(CSRF_HEADER))) {
      throw new HttpError(403, 'FORBIDDEN', `Missing or wrong CSRF token: send the page's token in the ${CSRF_HEADER} header (reload the page after a server restart)`);
    }
    return next();
  };
}

/** The Set-Cookie value of a session (Secure when the page was requested over https). */
export function sessionCookie(token: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export function clearedCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;
}

/**
 * Failed logins per client address in a sliding window: a token is 256 bits, so this is about not
 * letting anyone hammer the token check (and the log), not about guessing odds.
 */
export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures = 10,
    private readonly windowMs = 60_000,
    private readonly maxClients = 10_000,
  ) {}

  /** Seconds until the client may try again, or 0 when it may now. */
  retryAfter(client: string, now = Date.now()): number {
    const recent = this.recent(client, now);
    if (recent.length < this.maxFailures) return 0;
    return Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
  }

  fail(client: string, now = Date.now()): void {
    const recent = this.recent(client, now);
    recent.push(now);
    if (!this.failures.has(client) && this.failures.size >= this.maxClients) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
    this.failures.set(client, recent);
  }

  succeed(client: string): void {
    this.failures.delete(client);
  }

  private recent(client: string, now: number): number[] {
    return (this.failures.get(client) ?? []).filter((t) => now - t < this.windowMs);
  }
}
