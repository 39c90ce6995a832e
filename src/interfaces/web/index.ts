// The web UI on the REST API's hono app (`cairn serve`): the HTML shell for each view's path, the
// login form and logout, the bundled client under /assets (content-hashed names, cached for a
// year), a strict Content-Security-Policy on every page, and the CSRF guard for cookie sessions.
// The client (./client) talks only to the same /v1 REST API an agent uses.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import { secureHeaders } from 'hono/secure-headers';
import type { Cairn } from '../../service/cairn.js';
import { authenticate, sessionToken, type AuthEnv } from '../http/auth.js';
import { HttpError } from '../http/errors.js';
import { errorPage, loginPage, shellPage, type Assets } from './pages.js';
import { clearedCookie, CsrfKey, csrfGuard, LoginLimiter, sessionCookie } from './session.js';

/** Paths answered with the HTML shell; the client's router picks the view (client/views/index.ts). */
export const WEB_PATHS = ['/', '/memory/:id', '/timeline', '/layers', '/entities', '/health'] as const;

/** Every path the web UI serves besides the REST API (pages and assets; not in the OpenAPI document). */
export const WEB_ROUTES: readonly string[] = [...WEB_PATHS, '/login', '/logout', '/assets/:name'];

export interface WebDeps {
  cairn: Cairn;
  openOnLoopback: boolean;
  openAfterRevoke: boolean;
  /** Where the built client lives (default: next to this module, or the repo's dist when run from src). */
  assetsDir?: string;
}

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

interface Asset {
  body: Uint8Array;
  type: string;
}

interface Bundle {
  manifest: Assets | null;
  files: Map<string, Asset>;
}

function defaultAssetsDir(): string {
  const here = fileURLToPath(new URL('./assets/', import.meta.url));
  if (existsSync(here)) return here;
  // Run from src (tsx): the build's output.
  return fileURLToPath(new URL('../../../dist/interfaces/web/assets/', import.meta.url));
}

/** The built client, read once: a few small files kept in memory. */
function loadBundle(dir: string): Bundle {
  const files = new Map<string, Asset>();
  if (!existsSync(dir)) return { manifest: null, files };
  for (const name of readdirSync(dir)) {
    const ext = name.slice(name.lastIndexOf('.') + 1);
    const type = CONTENT_TYPES[ext];
    if (type && name !== 'manifest.json') files.set(name, { body: readFileSync(dir + name), type });
  }
  const manifestPath = dir + 'manifest.json';
  const manifest = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Assets) : null;
  return { manifest: manifest && files.has(manifest.js) && files.has(manifest.css) ? manifest : null, files };
}

const CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
};

/** Only a local path of the UI is a place to return to after logging in. */
function safeNext(value: unknown): string {
  return typeof value === 'string' && /^\/(?![/\\])[^\s\\]{0,2000}$/.test(value) ? value : '/';
}

function clientAddress(c: Context): string {
  return (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ?? 'unknown';
}

const isHttps = (c: Context) => new URL(c.req.url).protocol === 'https:';

/** Mounts the web UI; call after the API's authentication middleware and before its routes. */
export function mountWeb<E extends AuthEnv>(app: Hono<E>, deps: WebDeps): void {
  const key = new CsrfKey();
  const limiter = new LoginLimiter();
  const auth = authenticate(deps.cairn, { openOnLoopback: deps.openOnLoopback, openAfterRevoke: deps.openAfterRevoke });
  let bundle: Bundle | null = null;
  const assets = () => (bundle ??= loadBundle(deps.assetsDir ?? defaultAssetsDir()));
  const html = (c: Context, page: unknown, status: 200 | 401 | 403 | 429 = 200) => {
    c.header('cache-control', 'no-store');
    return c.html(page as string, status);
  };

  app.use('*', csrfGuard(key) as never);

  const pages = secureHeaders({ contentSecurityPolicy: CSP, referrerPolicy: 'no-referrer', crossOriginEmbedderPolicy: false });
  for (const path of [...WEB_PATHS, '/login', '/logout', '/assets/*']) app.use(path, pages as never);

  // The shell, for a caller the API would accept (cookie or open loopback mode); else the login form.
  for (const path of WEB_PATHS) {
    app.get(path, async (c) => {
      try {
        await auth(c as never, async () => {});
      } catch (err) {
        if (err instanceof HttpError && err.status === 401) {
          // A stale or revoked session cookie goes, so an open loopback server is reachable again.
          if (sessionToken(c.req.header('cookie')) !== undefined) c.header('set-cookie', clearedCookie(isHttps(c)));
          return c.redirect(`/login?next=${encodeURIComponent(safeNext(c.req.path + new URL(c.req.url).search))}`, 302);
        }
        if (err instanceof HttpError) return html(c, errorPage(assets().manifest, err.status, err.message), 403);
        throw err;
      }
      const session = sessionToken(c.req.header('cookie'));
      const viaCookie = (c.get('caller' as never) as { viaCookie?: boolean } | undefined)?.viaCookie === true;
      return html(c, shellPage(assets().manifest, viaCookie ? key.tokenFor(session) : '', viaCookie ? 'cookie' : 'open'));
    });
  }

  app.get('/login', async (c) => html(c, loginPage(assets().manifest, { next: safeNext(c.req.query('next')) })));

  // Form posts: hono's csrf middleware refuses a form sent from another origin (as an HTML page).
  const honoCsrf = csrf();
  const formGuard: MiddlewareHandler = async (c, next) => {
    try {
      await honoCsrf(c, next);
    } catch (err) {
      if (err instanceof HTTPException && err.status === 403) return html(c, errorPage(assets().manifest, 403, 'Cross-site form refused: log in from this server\'s own page.'), 403);
      throw err;
    }
  };
  const small = bodyLimit({ maxSize: 8 * 1024, onError: () => { throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'Login form too large'); } });
  app.post('/login', formGuard as never, small as never, async (c) => {
    const client = clientAddress(c);
    const wait = limiter.retryAfter(client);
    if (wait > 0) {
      c.header('retry-after', String(wait));
      return html(c, loginPage(assets().manifest, { next: '/', error: `Too many failed attempts: try again in ${wait} s.` }), 429);
    }
    const form = await c.req.parseBody();
    const next = safeNext(form.next);
    const token = typeof form.token === 'string' ? form.token.trim() : '';
    const info = /^[A-Za-z0-9\-._~+/]{1,1024}=*$/.test(token) ? await deps.cairn.verifyToken(token) : null;
    if (!info) {
      limiter.fail(client);
      return html(c, loginPage(assets().manifest, { next, error: 'That token is not valid (or it was revoked).' }), 401);
    }
    limiter.succeed(client);
    c.header('set-cookie', sessionCookie(token, isHttps(c)));
    c.header('cache-control', 'no-store');
    return c.redirect(next, 303);
  });

  app.post('/logout', formGuard as never, (c) => {
    c.header('set-cookie', clearedCookie(isHttps(c)));
    return c.redirect('/login', 303);
  });

  app.get('/assets/:name', (c) => {
    const name = c.req.param('name');
    const file = assets().files.get(name);
    if (!file) throw new HttpError(404, 'ROUTE_NOT_FOUND', 'No such asset');
    const etag = `"${name}"`;
    c.header('cache-control', 'public, max-age=31536000, immutable');
    c.header('etag', etag);
    if (c.req.header('if-none-match') === etag) return c.body(null, 304);
    c.header('content-type', file.type);
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200);
  });
}
