// The REST API (`cairn serve`): a thin hono app over the one facade. Each route validates its path
// parameters, query and JSON body with zod (400 with the issues), calls one facade method and
// returns its result as JSON. Order per request: authenticate (401) → body size (413) →
// namespace valid (400) → granted (403) → id, query (400) → body type (415) and JSON (400) →
// facade. Nothing in the store is read or written before the caller is authorised.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { Cairn } from '../../service/cairn.js';
import type { Logger } from '../../daemon/logger.js';
import { authenticate, authorize, canAccess, seesAll, type AuthEnv, type Caller } from './auth.js';
import { HttpError, errorResponse } from './errors.js';
import { buildOpenApi } from './openapi.js';
import { registerKnowledgeRoutes } from './knowledge-routes.js';
import { registerBrowseRoutes } from './browse-routes.js';
import { registerMemoryRoutes } from './memory-routes.js';
import { ok, parseParam, parseWith, queryObject, readJson, stripUndefined, truncate } from './request-parsing.js';
import type { RouteSpec } from './routes.js';
import { mountWeb } from '../web/index.js';
import { contextQuery, filesQuery, idParam, namespaceParam, purgeBody, purgeLogQuery, stateBody, storeBody } from './schemas.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const MCP_NAMESPACE_HEADER = 'x-cairn-namespace';

/** Serves one MCP Streamable HTTP request for a namespace (see src/interfaces/mcp/http.ts). */
export type McpHandler = (request: Request, namespace: string) => Promise<Response>;

export interface AppOptions {
  /**
   * Allow requests without a token while the home has never had a token. Only for a server bound
   * to a loopback address (`cairn serve` decides; see isLoopbackHost).
   */
  openOnLoopback: boolean;
  /** Keep allowing them after every token of the home was revoked (`cairn serve --no-auth`). */
  openAfterRevoke?: boolean;
  /** Largest accepted request body in bytes (default 1 MiB). */
  bodyLimitBytes?: number;
  /** Request logs (one line per request) and unexpected errors. */
  logger?: Logger;
  /** Mounted at /mcp when given. */
  mcp?: McpHandler;
}

type Env = AuthEnv & { Variables: { namespace?: string } };
type Ctx = Context<Env>;

export interface Input<Q, B> {
  c: Ctx;
  caller: Caller;
  /** The authorised namespace (routes under /v1/namespaces/:ns). */
  ns: string;
  /** The validated `:id` path parameter, when the route has one. */
  id: string;
  query: Q;
  body: B;
  /** The body exactly as sent (validated), for facade methods that validate themselves. */
  rawBody: unknown;
}

export interface Reply {
  status: 200 | 201;
  body: unknown;
}


/** Registers a route (see createApp's `define`); route modules such as knowledge-routes.ts take it. */
export type Define = <Q extends z.ZodObject = z.ZodObject<{}>, B extends z.ZodType = z.ZodNever>(
  spec: Omit<RouteSpec, 'query' | 'body'> & { query?: Q; body?: B },
  handler: (input: Input<z.output<Q>, z.output<B>>) => Promise<Reply>,
) => void;

export function createApp(cairn: Cairn, options: AppOptions): Hono<Env> {
  const app = new Hono<Env>();
  const log = options.logger;
  const maxTextChars = cairn.config.limits.maxTextChars;
  const storeSchema = storeBody(maxTextChars);
  const internal = (err: unknown) => log?.error({ err: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err) }, 'request failed');

  app.onError((err, c) => errorResponse(c, err, internal));
  app.notFound((c) => c.json({ error: { code: 'ROUTE_NOT_FOUND', message: `No route ${c.req.method} ${truncate(c.req.path, 200)}` } }, 404));

  // One structured log line per request: no query strings or bodies (they hold memory text).
  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    // A request refused before its body was read (401, 413, 415, …) leaves bytes on the socket:
    // close the connection so a keep-alive client does not send its next request into them.
    const raw = c.req.raw;
    if (raw.body !== null && !raw.bodyUsed) {
      try {
        c.res.headers.set('connection', 'close');
      } catch {
        /* immutable headers: the server closes the socket anyway */
      }
    }
    log?.info(
      {
        method: c.req.method,
        path: truncate(c.req.path, 200),
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        namespace: c.get('namespace'),
        token: c.get('caller')?.tokenId ?? undefined,
      },
      'request',
    );
  });

  // Dot segments ("/a/../b", "%2e%2e") are refused as sent, before URL normalisation could turn
  // them into another route or namespace.
  app.use('*', async (c, next) => {
    const sent = (c.env as { incoming?: { url?: string } } | undefined)?.incoming?.url ?? new URL(c.req.url).pathname;
    const path = sent.split('?')[0]!;
    if (/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path)) {
      throw new HttpError(400, 'INVALID_INPUT', 'The request path contains "." or ".." segments');
    }
    return next();
  });

  // Auth before anything else under /v1 (except health) and /mcp; then the body limit.
  const auth = authenticate(cairn, { openOnLoopback: options.openOnLoopback, openAfterRevoke: options.openAfterRevoke });
  const limit = bodyLimit({
    maxSize: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT,
    onError: () => {
      throw new HttpError(413, 'PAYLOAD_TOO_LARGE', `Request body is larger than ${options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT} bytes`);
    },
  });
  for (const pattern of ['/v1/*', '/mcp', '/mcp/*']) {
    app.use(pattern, async (c, next) => (c.req.path === '/v1/health' ? next() : auth(c, next)));
    app.use(pattern, async (c, next) => (c.req.path === '/v1/health' ? next() : limit(c, next)));
  }

  // The web UI (shell, login, assets; CSRF proof for cookie sessions) after auth, before the routes.
  mountWeb(app, { cairn, openOnLoopback: options.openOnLoopback, openAfterRevoke: options.openAfterRevoke === true });

  const specs: RouteSpec[] = [];

  /** Registers a route: its spec (for OpenAPI) and a handler wrapped in validation. */
  function define<Q extends z.ZodObject = z.ZodObject<{}>, B extends z.ZodType = z.ZodNever>(
    spec: Omit<RouteSpec, 'query' | 'body'> & { query?: Q; body?: B },
    handler: (input: Input<z.output<Q>, z.output<B>>) => Promise<Reply>,
  ): void {
    const run = async (c: Ctx): Promise<Response> => {
      const caller = c.get('caller');
      let ns = '';
      if (spec.auth === 'namespace-token' && caller.tokenId === null) {
        throw new HttpError(401, 'UNAUTHORIZED', 'This route needs a bearer token granted the namespace, even on loopback (create one with "cairn tokens create --grant NS")', undefined, { 'WWW-Authenticate': 'Bearer realm="cairn"' });
      }
      if (spec.auth === 'namespace' || spec.auth === 'namespace-token') {
        ns = parseParam(namespaceParam, c.req.param('ns'), 'namespace', 'INVALID_NAMESPACE');
        authorize(caller, ns);
        c.set('namespace', ns);
      }
      let id = '';
      if (spec.params?.id) id = parseParam(spec.params.id, c.req.param('id'), 'id', 'INVALID_INPUT') as string;
      const query = spec.query ? parseWith(spec.query, queryObject(c, spec.query), 'query string') : undefined;
      let rawBody: unknown;
      let body: unknown;
      if (spec.body) {
        rawBody = await readJson(c);
        body = parseWith(spec.body, rawBody, 'request body');
      }
      const reply = await handler({ c, caller, ns, id, query: query as z.output<Q>, body: body as z.output<B>, rawBody });
      return c.json(reply.body as object, reply.status);
    };
    app.on(spec.method.toUpperCase(), spec.path, run);
    specs.push(spec as RouteSpec);
  }

  const idOnly = { id: idParam };
  const NS = '/v1/namespaces/:ns';

  // ---- service ------------------------------------------------------------------------------

  define(
    { operationId: 'health', method: 'get', path: '/v1/health', tag: 'service', auth: 'none', summary: 'Liveness: answers {"ok":true} while the server runs (no auth, no details)', success: { status: 200, description: 'alive', schema: 'Health' }, errors: [] },
    async () => ok({ ok: true }),
  );

  define(
    {
      operationId: 'status', method: 'get', path: '/v1/status', tag: 'service', auth: 'token',
      summary: 'Health, counts and index freshness, for the namespaces the token is granted',
      success: { status: 200, description: 'status report', schema: 'Status' }, errors: [503],
    },
    async ({ caller }) => ok(filterStatus(await cairn.status(), caller)),
  );

  define(
    {
      operationId: 'listNamespaces', method: 'get', path: '/v1/namespaces', tag: 'service', auth: 'token',
      summary: 'The namespaces of the home that the token is granted', success: { status: 200, description: 'namespace ids, sorted', schema: 'NamespaceList' }, errors: [],
    },
    async ({ caller }) => ok({ namespaces: (await cairn.namespaceIds()).filter((ns) => canAccess(caller, ns)) }),
  );

  registerMemoryRoutes(define, cairn, NS, storeSchema);

  // ---- hot state, context, files -------------------------------------------------------------

  define(
    {
      operationId: 'getState', method: 'get', path: `${NS}/state`, tag: 'state', auth: 'namespace',
      summary: 'The hot state (objective, blockers, next actions, notes)', success: { status: 200, description: 'the state', schema: 'HotState' }, errors: [],
    },
    async ({ ns }) => ok(await cairn.getState(ns)),
  );

  define(
    {
      operationId: 'setState', method: 'put', path: `${NS}/state`, tag: 'state', auth: 'namespace', body: stateBody,
      summary: 'Update the hot state: fields given replace the stored ones, fields left out stay (written durably before the reply)',
      success: { status: 200, description: 'the new state', schema: 'HotState' }, errors: [400, 413, 415],
    },
    async ({ ns, rawBody }) => ok(await cairn.setState(rawBody as Parameters<Cairn['setState']>[0], ns)),
  );

  define(
    {
      operationId: 'context', method: 'get', path: `${NS}/context`, tag: 'context', auth: 'namespace', query: contextQuery,
      summary: 'Session-start brief within a token budget: hot state, MEMORY.md, important recent memories, memories relevant to the query',
      success: { status: 200, description: 'the brief', schema: 'Context' }, errors: [400],
    },
    async ({ ns, query }) => ok(await cairn.context({ ...stripUndefined(query), namespace: ns })),
  );

  define(
    {
      operationId: 'readFile', method: 'get', path: `${NS}/files`, tag: 'files', auth: 'namespace', query: filesQuery,
      summary: 'Lines of a file the namespace indexes (OpenClaw memory_get {path, from, lines})',
      success: { status: 200, description: 'the text', schema: 'FileText' }, errors: [400, 404],
    },
    async ({ ns, query }) => ok(await cairn.readFile(stripUndefined(query) as Parameters<Cairn['readFile']>[0], ns)),
  );

  // ---- purge (never an MCP tool) --------------------------------------------------------------

  define(
    {
      operationId: 'purge', method: 'post', path: `${NS}/purge`, tag: 'purge', auth: 'namespace-token', body: purgeBody,
      summary: 'Purge for secrets or legal removal: records by id, every occurrence of a literal, or stored history redacted again; audited',
      description:
        'The one deletion. {"ids":[…]} removes memories, turns (kept as tombstones) and document chunks with what was derived from them; ' +
        '{"text":"…"} replaces every occurrence of a literal by [REDACTED:purged]; {"secrets":true} redacts all stored history with the current rules. ' +
        'Reaches the tables, indexes, vectors, embedding cache, the Markdown Cairn wrote, logs and backups of the namespace, then scrubs the database ' +
        'files. "dryRun": true reports without changing anything. Needs a token granted the namespace, even on loopback.',
      success: { status: 200, description: 'what was removed (never the removed text)', schema: 'PurgeReport' }, errors: [400, 404, 413, 415],
    },
    async ({ ns, rawBody }) => ok(await cairn.purge({ ...(rawBody as object), namespace: ns, via: 'http' })),
  );

  define(
    {
      operationId: 'purgeLog', method: 'get', path: `${NS}/purge`, tag: 'purge', auth: 'namespace-token', query: purgeLogQuery,
      summary: 'The purge audit of the namespace, newest first: what each purge removed and when, never the removed text',
      success: { status: 200, description: 'audit entries', schema: 'PurgeLog' }, errors: [400],
    },
    async ({ ns, query }) => ok({ namespace: ns, purges: await cairn.purgeLog({ namespace: ns, limit: query.limit ?? 50 }) }),
  );

  registerKnowledgeRoutes(define, cairn, NS);
  registerBrowseRoutes(define, cairn, NS);

  // ---- MCP over Streamable HTTP ---------------------------------------------------------------

  const mcp = async (c: Ctx): Promise<Response> => {
    if (!options.mcp) throw new HttpError(404, 'ROUTE_NOT_FOUND', 'MCP over HTTP is not enabled on this server');
    const caller = c.get('caller');
    const fromHeader = c.req.header(MCP_NAMESPACE_HEADER);
    const fromQuery = c.req.query('namespace');
    if (fromHeader !== undefined && fromQuery !== undefined && fromHeader !== fromQuery) {
      throw new HttpError(400, 'INVALID_NAMESPACE', 'X-Cairn-Namespace and ?namespace= name different namespaces');
    }
    const given = fromHeader ?? fromQuery;
    const granted = caller.namespaces.filter((n) => n !== '*');
    const chosen = given ?? (granted.length === 1 && !seesAll(caller) ? granted[0]! : cairn.defaultNamespace);
    const ns = parseParam(namespaceParam, chosen, 'namespace', 'INVALID_NAMESPACE');
    authorize(caller, ns);
    c.set('namespace', ns);
    return options.mcp(c.req.raw, ns);
  };
  app.on(['GET', 'POST', 'DELETE'], '/mcp', mcp);

  // ---- OpenAPI ------------------------------------------------------------------------------

  const openapi = buildOpenApi(specs);
  app.get('/openapi.json', (c) => c.json(openapi));

  return app;
}

// ---- helpers ------------------------------------------------------------------------------------

/** A token sees only its namespaces; '*' (and open loopback mode) sees the whole report. */
function filterStatus(report: Awaited<ReturnType<Cairn['status']>>, caller: Caller): unknown {
  if (seesAll(caller)) return report;
  const mine = (ns: string) => caller.namespaces.includes(ns);
  const namespaces = report.namespaces.filter((n) => mine(n.namespace));
  const sum = (key: 'memories' | 'turns' | 'documents' | 'vectors') => namespaces.reduce((n, s) => n + s[key], 0);
  const pending = namespaces.reduce((n, s) => n + s.missingVectors, 0);
  return {
    ok: report.ok,
    embedder: report.embedder,
    index: { fresh: pending === 0 && report.index.otherModels.length === 0, pending },
    namespaces,
    judge: {
      threshold: report.judge.threshold,
      namespaces: report.judge.namespaces.filter((n) => mine(n.namespace)),
    },
    totals: { memories: sum('memories'), turns: sum('turns'), documents: sum('documents'), vectors: sum('vectors') },
  };
}
