// The OpenAPI 3.1 document of the REST API, generated from the route table (routes.ts) and the
// same zod schemas the routes validate with. Response shapes are written here as data.
import { z } from 'zod';
import { CATEGORIES, KINDS } from '../../core/types.js';
import { ERROR_CODES } from '../../core/errors.js';
import { HTTP_ERROR_CODES } from './errors.js';
import type { RouteSpec } from './routes.js';
import { namespaceParam } from './schemas.js';
import { KNOWLEDGE_SCHEMAS } from './openapi-knowledge.js';
import { BROWSE_SCHEMAS } from './openapi-browse.js';

type Json = Record<string, unknown>;

export const API_VERSION = '1.0.0';

function jsonSchema(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete out.$schema;
  return out;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input: bad namespace or id, malformed JSON (MALFORMED_JSON), or a field that fails validation (INVALID_INPUT, with issues)',
  401: 'No token, a malformed Authorization header, or an unknown or revoked token (UNAUTHORIZED; WWW-Authenticate: Bearer)',
  403: 'The token is not granted this namespace (FORBIDDEN)',
  404: 'No such memory, entity, file or route (NOT_FOUND, ROUTE_NOT_FOUND)',
  409: 'Conflict, e.g. superseding a memory that is already superseded, or merging an entity into itself (CONFLICT)',
  413: 'Request body larger than the limit (PAYLOAD_TOO_LARGE)',
  415: 'Body not sent as application/json (UNSUPPORTED_MEDIA_TYPE)',
  500: 'Server-side failure (INTERNAL, CONFIG, STORE, STORE_CORRUPT)',
  502: 'The configured LLM failed (LLM)',
  503: 'Store busy (STORE_LOCKED) or read-only (READ_ONLY), embedder unavailable (EMBEDDER) or unhealthy (UNHEALTHY)',
};

const memory: Json = {
  type: 'object',
  required: ['id', 'namespace', 'text', 'category', 'importance', 'createdAt', 'validFrom'],
  properties: {
    id: { type: 'string', pattern: '^m_' },
    namespace: { type: 'string' },
    text: { type: 'string' },
    category: { type: 'string', enum: [...CATEGORIES] },
    importance: { type: 'integer', minimum: 1, maximum: 10 },
    tags: { type: 'array', items: { type: 'string' } },
    entities: { type: 'array', items: { type: 'string' } },
    eventTime: { type: ['string', 'null'], format: 'date-time' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    validFrom: { type: 'string', format: 'date-time' },
    validTo: { type: ['string', 'null'], format: 'date-time' },
    supersededBy: { type: ['string', 'null'] },
    supersedes: { type: ['string', 'null'] },
    mentions: { type: 'integer', minimum: 1 },
    provenance: { type: 'array', items: { type: 'object' } },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const redactions: Json = {
  type: 'object',
  additionalProperties: { type: 'integer', minimum: 1 },
  description: 'Secrets replaced by [REDACTED:<kind>] before anything was stored, per kind (present only when there were some)',
};

const SCHEMAS: Record<string, Json> = {
  Error: {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', enum: [...Object.values(ERROR_CODES), ...Object.values(HTTP_ERROR_CODES)] },
          message: { type: 'string' },
          issues: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
        },
      },
    },
  },
  Health: { type: 'object', required: ['ok'], properties: { ok: { const: true } } },
  Status: {
    type: 'object',
    description: 'A token granted "*" gets the full report (as `cairn status --json`); others only their namespaces',
    properties: { ok: { type: 'boolean' }, embedder: { type: 'object' }, index: { type: 'object' }, namespaces: { type: 'array', items: { type: 'object' } }, totals: { type: 'object' } },
  },
  NamespaceList: { type: 'object', required: ['namespaces'], properties: { namespaces: { type: 'array', items: { type: 'string' } } } },
  Memory: memory,
  StoreResult: {
    type: 'object',
    required: ['memory', 'duplicate', 'embedded'],
    properties: { memory: ref('Memory'), duplicate: { type: 'boolean' }, embedded: { type: 'boolean' }, warning: { type: 'string' }, redactions },
  },
  MemoryList: { type: 'object', properties: { namespace: { type: 'string' }, memories: { type: 'array', items: ref('Memory') } } },
  MemoryHistory: { type: 'object', properties: { namespace: { type: 'string' }, id: { type: 'string' }, history: { type: 'array', items: ref('Memory') } } },
  SupersedeResult: { type: 'object', required: ['previous', 'current'], properties: { previous: ref('Memory'), current: ref('Memory'), warning: { type: 'string' }, redactions } },
  FeedbackResult: {
    type: 'object',
    properties: { feedback: { type: 'object' }, turnId: { type: ['string', 'null'] }, importance: { type: ['integer', 'null'] }, memoryId: { type: ['string', 'null'] } },
  },
  SearchResult: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      kind: { type: 'string', enum: [...KINDS] },
      namespace: { type: 'string' },
      text: { type: 'string' },
      snippet: { type: 'string' },
      score: { type: 'number' },
      confidence: { type: 'number', description: 'how likely the result holds what was asked (0–1), from absolute signals (not the score); results below search.minConfidence are left out' },
      signals: { type: 'object', description: 'what the confidence was made of: cosine (null without vectors), cover and sessionCover (shares of the query\'s words), speaker (0 or 1)' },
      time: { type: 'string' },
      createdAt: { type: 'string' },
      validTo: { type: ['string', 'null'] },
      current: { type: 'boolean' },
      category: { type: ['string', 'null'] },
      importance: { type: ['integer', 'null'] },
      provenance: { type: 'array', items: { type: 'object' } },
      context: {
        type: 'array',
        description: 'More turns shown with the hit, in time order: other hits of its session (match: true) and neighbours shown for context (match: false, in provenance with context: true)',
        items: {
          type: 'object',
          properties: { offset: { type: 'integer' }, match: { type: 'boolean' }, speaker: { type: ['string', 'null'] }, role: { type: 'string' }, text: { type: 'string' }, time: { type: 'string' }, messageId: { type: 'string' } },
        },
      },
    },
  },
  OpenClawResult: {
    type: 'object',
    properties: { path: { type: 'string' }, startLine: { type: 'integer' }, endLine: { type: 'integer' }, score: { type: 'number' }, snippet: { type: 'string' }, source: { type: 'string' } },
  },
  SearchResponse: {
    oneOf: [
      {
        type: 'object',
        description: 'format "cairn" (default)',
        properties: { namespace: { type: 'string' }, query: { type: 'string' }, mode: { type: 'string', enum: ['hybrid', 'bm25', 'vector'] }, results: { type: 'array', items: ref('SearchResult') }, degraded: { type: 'string' },
          noGoodMatch: { type: 'boolean', description: 'results were found but none is a good match: every confidence is below search.minConfidence, so none is returned (never with search.minConfidence 0)' },
          belowConfidence: { type: 'integer', description: 'results left out for a confidence below search.minConfidence' },
          rewrite: {
            type: 'object',
            description: 'Only when rewriting was asked for: status "used" with the queries and keywords the chat model added (cached, latencyMs), or "skipped" with a reason',
            properties: { status: { type: 'string', enum: ['used', 'skipped'] }, queries: { type: 'array', items: { type: 'string' } }, keywords: { type: 'array', items: { type: 'string' } }, cached: { type: 'boolean' }, latencyMs: { type: 'number' }, reason: { type: 'string' } },
            required: ['status'],
          },
          asOf: { type: 'string', format: 'date-time', description: 'the moment the search was asked as of, when asOf was given' },
        },
      },
      {
        type: 'object',
        description: 'format "openclaw": the shape of OpenClaw memory_search',
        properties: { results: { type: 'array', items: ref('OpenClawResult') }, provider: { type: 'string' }, model: { type: ['string', 'null'] }, noGoodMatch: { type: 'boolean' } },
      },
    ],
  },
  HotState: {
    type: 'object',
    properties: {
      objective: { type: ['string', 'null'] },
      blockers: { type: 'array', items: { type: 'string' } },
      nextActions: { type: 'array', items: { type: 'string' } },
      notes: { type: ['string', 'null'] },
      updatedAt: { type: ['string', 'null'] },
      redactions,
    },
  },
  Context: {
    type: 'object',
    required: ['text', 'usedTokens'],
    properties: { text: { type: 'string' }, usedTokens: { type: 'integer' }, budgetTokens: { type: 'integer' }, sections: { type: 'array', items: { type: 'object' } } },
  },
  PurgeReport: {
    type: 'object',
    required: ['dryRun', 'auditId', 'rule', 'removed', 'rewritten'],
    description: 'What a purge removed or rewrote (a dry run: would). Never holds the removed text.',
    properties: {
      dryRun: { type: 'boolean' },
      auditId: { type: ['integer', 'null'], description: 'the audit entry (GET …/purge); null for a dry run' },
      namespace: { type: ['string', 'null'] },
      rule: { type: 'object', description: '{"kind":"ids","ids":[…]}, {"kind":"text","chars":N} or {"kind":"secrets"}' },
      removed: { type: 'array', items: { type: 'object', properties: { kind: { type: 'string', enum: ['memory', 'turn', 'document'] }, id: { type: 'string' }, namespace: { type: 'string' } } } },
      rewritten: { type: 'object', additionalProperties: { type: 'integer' }, description: 'rows whose text changed, per table' },
      redactions: { type: 'object', additionalProperties: { type: 'integer' }, description: 'secrets: what was redacted, per kind' },
      entries: { type: 'object', properties: { removed: { type: 'integer' }, rewritten: { type: 'integer' } } },
      vectors: { type: 'integer' },
      cachedVectors: { type: 'integer' },
      reembedded: { type: 'integer' },
      digests: { type: 'array', items: { type: 'object', properties: { namespace: { type: 'string' }, kind: { type: 'string' }, path: { type: 'string' } } }, description: 'digests removed because they cite a removed record (written again by the next consolidation)' },
      files: { type: 'array', items: { type: 'string' }, description: 'files Cairn wrote that were rewritten, relative to the data directory' },
      deletedFiles: { type: 'array', items: { type: 'string' }, description: 'files of removed digests that were deleted, relative to the data directory' },
      indexFiles: { type: 'array', items: { type: 'string' } },
      backups: { type: 'object', properties: { purged: { type: 'array', items: { type: 'string' } }, skipped: { type: 'array', items: { type: 'object' } } } },
      userFiles: { type: 'array', items: { type: 'string' }, description: 'your own files (transcripts, indexed notes) that still hold it: Cairn never edits them' },
      scrubbed: { type: 'boolean' },
      warnings: { type: 'array', items: { type: 'string' } },
    },
  },
  PurgeLog: {
    type: 'object',
    properties: {
      namespace: { type: 'string' },
      purges: {
        type: 'array',
        items: {
          type: 'object',
          properties: { id: { type: 'integer' }, startedAt: { type: 'string' }, finishedAt: { type: ['string', 'null'], description: 'null: running, or cut short (run it again)' }, namespace: { type: ['string', 'null'] }, via: { type: 'string' }, rule: { type: 'object' }, result: { type: ['object', 'null'] } },
        },
      },
    },
  },
  FileText: {
    type: 'object',
    properties: { path: { type: 'string' }, text: { type: 'string' }, from: { type: 'integer' }, lines: { type: 'integer' }, totalLines: { type: 'integer' } },
  },
  ...KNOWLEDGE_SCHEMAS,
  ...BROWSE_SCHEMAS,
};

function errorResponses(statuses: number[]): Json {
  const out: Json = {};
  for (const s of [...new Set(statuses)].sort()) out[String(s)] = { $ref: `#/components/responses/E${s}` };
  return out;
}

function operation(spec: RouteSpec): Json {
  const parameters: Json[] = [];
  if (spec.path.includes(':ns')) parameters.push({ name: 'ns', in: 'path', required: true, schema: jsonSchema(namespaceParam) });
  for (const [name, schema] of Object.entries(spec.params ?? {})) parameters.push({ name, in: 'path', required: true, schema: jsonSchema(schema) });
  for (const [name, schema] of Object.entries(spec.query?.shape ?? {})) {
    const s = jsonSchema(schema as z.ZodType);
    parameters.push({ name, in: 'query', required: !(schema as z.ZodType).safeParse(undefined).success, schema: s, ...(s.description ? { description: s.description } : {}) });
  }
  const auth = spec.auth === 'none' ? [] : [401, 403];
  const generic = spec.auth === 'none' ? [] : [500];
  const responses: Json = {
    [String(spec.success.status)]: { description: spec.success.description, content: { 'application/json': { schema: ref(spec.success.schema) } } },
    ...(spec.alsoSuccess
      ? { [String(spec.alsoSuccess.status)]: { description: spec.alsoSuccess.description, content: { 'application/json': { schema: ref(spec.alsoSuccess.schema) } } } }
      : {}),
    ...errorResponses([...auth, ...spec.errors, ...generic]),
  };
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    ...(spec.auth === 'none' ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(spec.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(spec.body) } } } } : {}),
    responses,
  };
}

/** OpenAPI path syntax: `/a/:b` → `/a/{b}`. */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z_]+)/g, '{$1}');
}

export function buildOpenApi(specs: RouteSpec[]): Json {
  const paths: Record<string, Json> = {};
  for (const spec of specs) {
    const p = openApiPath(spec.path);
    paths[p] = { ...(paths[p] ?? {}), [spec.method]: operation(spec) };
  }
  paths['/openapi.json'] = {
    get: { operationId: 'openapi', summary: 'This document (no auth)', tags: ['service'], security: [], responses: { 200: { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } } } },
  };
  const mcpParams = [
    { name: 'X-Cairn-Namespace', in: 'header', required: false, schema: jsonSchema(namespaceParam), description: 'namespace of this MCP session (or ?namespace=); default: the token\'s only namespace, else the configured default' },
    { name: 'namespace', in: 'query', required: false, schema: jsonSchema(namespaceParam) },
  ];
  const mcpOp = (method: string, summary: string): Json => ({
    operationId: `mcp${method}`,
    summary,
    tags: ['mcp'],
    parameters: mcpParams,
    ...(method === 'Post' ? { requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'JSON-RPC 2.0 message(s)' } } } } } : {}),
    responses:
      method === 'Post'
        ? { 200: { description: 'JSON-RPC response (application/json)' }, ...errorResponses([400, 401, 403, 404, 413, 500]) }
        : { 405: { description: 'The endpoint is stateless: no server-to-client stream and no session to end (JSON-RPC error, Allow: POST)' }, ...errorResponses([401, 403]) },
  });
  paths['/mcp'] = {
    post: mcpOp('Post', 'Model Context Protocol over Streamable HTTP (stateless, JSON responses): the memory_*, state_* and context tools of one namespace'),
    get: mcpOp('Get', 'Server-to-client stream: not offered (405)'),
    delete: mcpOp('Delete', 'End a session: there are none (405)'),
  };
  const responses: Json = {};
  for (const [status, description] of Object.entries(ERROR_DESCRIPTIONS)) {
    responses[`E${status}`] = { description, content: { 'application/json': { schema: ref('Error') } } };
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Cairn REST API',
      version: API_VERSION,
      description:
        'Long-term memory for AI agents. Authenticate with "Authorization: Bearer <token>" (cairn tokens create); each token is granted ' +
        'one or more namespaces ("*" = all). A server bound to a loopback address accepts requests without a token while the data ' +
        'directory never had a token (or, started with --no-auth, has none active). Every error is JSON {"error":{"code","message"}}.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    tags: [
      { name: 'memories' }, { name: 'knowledge', description: 'Entities (PARA) and facts with valid time' }, { name: 'search' }, { name: 'state' }, { name: 'context' }, { name: 'files' },
      { name: 'purge', description: 'Audited removal for secrets and legal reasons; needs a token granted the namespace, even on loopback' }, { name: 'service' }, { name: 'mcp' },
    ],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A Cairn API token (cairn tokens create --grant NS)' } },
      schemas: SCHEMAS,
      responses,
    },
  };
}
