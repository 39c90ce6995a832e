// The REST routes of memories (store, list, get, history, supersede, feedback, tags) and search.
// Registered by the app (app.ts) through its `define`, so each is validated, authorised and
// documented like the others; each calls one facade method.
import type { z } from 'zod';
import type { Cairn } from '../../service/cairn.js';
import { toOpenClawResults } from '../../service/openclaw-compat.js';
import type { Define, Reply } from './app.js';
import { ok, parseWith, stripUndefined } from './request-parsing.js';
import { feedbackBody, idParam, listQuery, searchBody, searchQuery, tagsBody, type storeBody } from './schemas.js';

export function registerMemoryRoutes(define: Define, cairn: Cairn, NS: string, storeSchema: ReturnType<typeof storeBody>): void {
  const idOnly = { id: idParam };

  // ---- memories -----------------------------------------------------------------------------

  define(
    {
      operationId: 'storeMemory', method: 'post', path: `${NS}/memories`, tag: 'memories', auth: 'namespace', body: storeSchema,
      summary: 'Store a memory (an equal current memory is not duplicated: its mention count rises)',
      success: { status: 201, description: 'stored', schema: 'StoreResult' },
      alsoSuccess: { status: 200, description: 'an equal memory already existed (duplicate: true)', schema: 'StoreResult' },
      errors: [400, 413, 415],
    },
    async ({ ns, rawBody }) => {
      const res = await cairn.remember({ ...withProvenance(rawBody), namespace: ns });
      return { status: res.duplicate ? 200 : 201, body: res };
    },
  );

  define(
    {
      operationId: 'listMemories', method: 'get', path: `${NS}/memories`, tag: 'memories', auth: 'namespace', query: listQuery,
      summary: 'List recent memories, newest first', success: { status: 200, description: 'memories', schema: 'MemoryList' }, errors: [400],
    },
    async ({ ns, query }) => ok({ namespace: ns, memories: await cairn.list({ namespace: ns, limit: query.limit ?? 50, includeSuperseded: query.includeSuperseded ?? false }) }),
  );

  define(
    {
      operationId: 'getMemory', method: 'get', path: `${NS}/memories/:id`, tag: 'memories', auth: 'namespace', params: idOnly,
      summary: 'One memory by id', success: { status: 200, description: 'the memory', schema: 'Memory' }, errors: [400, 404],
    },
    async ({ ns, id }) => ok(await cairn.get(id, ns)),
  );

  define(
    {
      operationId: 'memoryHistory', method: 'get', path: `${NS}/memories/:id/history`, tag: 'memories', auth: 'namespace', params: idOnly,
      summary: 'The supersede chain of a memory, oldest first', success: { status: 200, description: 'the chain', schema: 'MemoryHistory' }, errors: [400, 404],
    },
    async ({ ns, id }) => ok({ namespace: ns, id, history: await cairn.history(id, ns) }),
  );

  define(
    {
      operationId: 'supersedeMemory', method: 'post', path: `${NS}/memories/:id/supersede`, tag: 'memories', auth: 'namespace', params: idOnly, body: storeSchema,
      summary: 'Replace a memory with a newer statement; the old one stays as history',
      success: { status: 201, description: 'previous and current versions', schema: 'SupersedeResult' }, errors: [400, 404, 409, 413, 415],
    },
    async ({ ns, id, rawBody }) => ({ status: 201, body: await cairn.supersede(id, { ...withProvenance(rawBody), namespace: ns }) }),
  );

  define(
    {
      operationId: 'memoryFeedback', method: 'post', path: `${NS}/memories/:id/feedback`, tag: 'memories', auth: 'namespace',
      params: { id: idParam.describe('Memory (m_…) or turn (t_…) id') }, body: feedbackBody,
      summary: 'Label a memory (or captured turn) important or not: shapes later judgments and sets its importance now',
      success: { status: 200, description: 'the feedback and what changed', schema: 'FeedbackResult' }, errors: [400, 404, 413, 415],
    },
    async ({ ns, id, body }) => ok(await cairn.feedback(id, body.important, ns)),
  );

  define(
    {
      operationId: 'setMemoryTags', method: 'put', path: `${NS}/memories/:id/tags`, tag: 'memories', auth: 'namespace', params: idOnly, body: tagsBody,
      summary: "Replace a current memory's tags (the whole list; duplicates dropped)", success: { status: 200, description: 'the memory with its new tags', schema: 'Memory' }, errors: [400, 404, 409, 413, 415],
    },
    async ({ ns, id, body }) => ok(await cairn.setTags(id, body.tags, ns)),
  );

  // ---- search -------------------------------------------------------------------------------

  const search = async (ns: string, input: z.output<typeof searchBody>): Promise<Reply> => {
    const { query, maxResults, minScore, format, limit, ...rest } = input;
    const res = await cairn.search(query, { ...rest, limit: maxResults ?? limit, namespace: ns });
    const results = minScore === undefined ? res.results : res.results.filter((r) => r.score >= minScore);
    if (format === 'openclaw') return ok({ results: toOpenClawResults(results), provider: 'cairn', model: cairn.modelId, mode: res.mode, noGoodMatch: res.noGoodMatch });
    return ok({ ...res, results });
  };

  define(
    {
      operationId: 'search', method: 'post', path: `${NS}/search`, tag: 'search', auth: 'namespace', body: searchBody,
      summary: 'Hybrid (BM25 + vector) search in the namespace', success: { status: 200, description: 'results', schema: 'SearchResponse' }, errors: [400, 413, 415],
    },
    async ({ ns, body }) => search(ns, body),
  );

  define(
    {
      operationId: 'searchGet', method: 'get', path: `${NS}/search`, tag: 'search', auth: 'namespace', query: searchQuery,
      summary: 'Search with a query string (?q=…)', success: { status: 200, description: 'results', schema: 'SearchResponse' }, errors: [400],
    },
    async ({ ns, query }) => {
      const { q, category, kind, layer, ...rest } = query;
      const lists = { ...(category ? { categories: category } : {}), ...(kind ? { kinds: kind } : {}), ...(layer ? { layers: layer } : {}) };
      const input = parseWith(searchBody, { ...stripUndefined(rest), query: q, ...lists }, 'query string');
      return search(ns, input);
    },
  );
}

/** Memories stored over HTTP say so, unless the caller gave its own provenance. */
function withProvenance(body: unknown): Parameters<Cairn['remember']>[0] {
  const input = body as Parameters<Cairn['remember']>[0];
  return input.provenance === undefined ? { ...input, provenance: [{ source: 'http' }] } : input;
}
