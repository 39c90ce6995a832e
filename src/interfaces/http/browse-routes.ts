// The REST routes the web UI's browsing views read (and anyone else may): the timeline of days and
// nights, one captured turn, the layers of the pyramid and one rendered as safe HTML, the health of
// capture and judging, and the entity graph. Registered by the app through its `define`, so each is
// validated, authorised (the namespace grant, else 403) and documented like the others.
import { z } from 'zod';
import type { Cairn } from '../../service/cairn.js';
import { TIMELINE_MAX_LIMIT } from '../../service/browse/timeline.js';
import { LAYER_KINDS, LAYER_PATH_RE, LAYERS_MAX_LIMIT } from '../../service/browse/layers.js';
import { HEALTH_MAX_DAYS } from '../../service/browse/health-view.js';
import { GRAPH_MAX_ENTITIES } from '../../service/browse/entity-graph.js';
import type { Define } from './app.js';
import { ok, stripUndefined } from './request-parsing.js';
import { idParam } from './schemas.js';
import { entityParam } from './knowledge-routes.js';

const intParam = (min: number, max: number) => z.string().regex(/^\d{1,9}$/, 'must be a non-negative integer').transform(Number).pipe(z.number().int().min(min).max(max));
const boolParam = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const dayParam = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day YYYY-MM-DD');

export const timelineQuery = z.strictObject({
  from: dayParam.optional().describe('first logical day (default: six days before `to`)'),
  to: dayParam.optional().describe('last logical day, inclusive (default: today, or six days after `from`)'),
  limit: intParam(1, TIMELINE_MAX_LIMIT).optional().describe('most records (default 2000); past it the newest are kept'),
});

export const layersQuery = z.strictObject({
  kind: z.enum(LAYER_KINDS).optional(),
  limit: intParam(1, LAYERS_MAX_LIMIT).optional().describe('most files of each kind, newest first (default 60)'),
});

export const layerFileQuery = z.strictObject({
  path: z.string().max(200).regex(LAYER_PATH_RE, 'not a layer file (MEMORY.md, daily/…, reviews/…, weekly/…, topics/…, life/…)').describe('the file, relative to the namespace folder'),
});

export const healthQuery = z.strictObject({
  days: intParam(1, HEALTH_MAX_DAYS).optional().describe('days of activity (default 14)'),
  to: dayParam.optional().describe('the last day shown (default: today)'),
});

export const graphQuery = z.strictObject({
  limit: intParam(1, GRAPH_MAX_ENTITIES).optional().describe('most entities, most mentioned first (default 60)'),
  promoted: boolParam.optional().describe('true: only promoted entities; false: only candidates'),
});


export function registerBrowseRoutes(define: Define, cairn: Cairn, NS: string): void {

  define(
    {
      operationId: 'timeline', method: 'get', path: `${NS}/timeline`, tag: 'memories', auth: 'namespace', query: timelineQuery,
      summary: 'Turns and memories of a range of days (at most 31), each day with its night window (22:00–07:00 by the home\'s config) attached to the day it started',
      success: { status: 200, description: 'the days, oldest first', schema: 'Timeline' }, errors: [400],
    },
    async ({ ns, query }) => ok(await cairn.timeline({ ...stripUndefined(query), namespace: ns })),
  );

  define(
    {
      operationId: 'getTurn', method: 'get', path: `${NS}/turns/:id`, tag: 'memories', auth: 'namespace', params: { id: idParam.describe('Turn id (t_…)') },
      summary: 'One captured turn with its provenance, the day and window it belongs to, and the memories made from it',
      success: { status: 200, description: 'the turn', schema: 'TurnView' }, errors: [400, 404],
    },
    async ({ ns, id }) => ok(await cairn.turn(id, ns)),
  );

  define(
    {
      operationId: 'listLayers', method: 'get', path: `${NS}/layers`, tag: 'files', auth: 'namespace', query: layersQuery,
      summary: 'The pyramid: MEMORY.md, weekly distills, daily reviews, daily and last-night notes, topics, life/ pages (PARA); newest first per kind',
      success: { status: 200, description: 'the layer files', schema: 'LayerList' }, errors: [400],
    },
    async ({ ns, query }) => ok({ namespace: ns, layers: await cairn.layers({ ...stripUndefined(query), namespace: ns }) }),
  );

  define(
    {
      operationId: 'renderLayer', method: 'get', path: `${NS}/layers/file`, tag: 'files', auth: 'namespace', query: layerFileQuery,
      summary: 'One layer file as Markdown and as safe HTML (no raw HTML; cited memories and turns become links into the web UI)',
      success: { status: 200, description: 'the file', schema: 'RenderedLayer' }, errors: [400, 404],
    },
    async ({ ns, query }) => ok(await cairn.layer(query.path, ns)),
  );

  define(
    {
      operationId: 'entitySummary', method: 'get', path: `${NS}/entities/:id/summary`, tag: 'knowledge', auth: 'namespace', params: { id: entityParam },
      summary: "An entity's life/ page (summary, current facts, history, the memories that name it) as Markdown and safe HTML",
      success: { status: 200, description: 'the page', schema: 'RenderedLayer' }, errors: [400, 404],
    },
    async ({ ns, id }) => ok(await cairn.entitySummary(id, ns)),
  );

  define(
    {
      operationId: 'namespaceHealth', method: 'get', path: `${NS}/health`, tag: 'service', auth: 'namespace', query: healthQuery,
      summary: "Capture sources with their figures, daemon, judge (LLM or fallback, breaker, today's spend), activity per day, importance, and what the daily reviews recorded",
      success: { status: 200, description: 'the health of the namespace', schema: 'NamespaceHealth' }, errors: [400, 503],
    },
    async ({ ns, query }) => ok(await cairn.healthView({ ...stripUndefined(query), namespace: ns })),
  );

  define(
    {
      operationId: 'entityGraph', method: 'get', path: `${NS}/graph`, tag: 'knowledge', auth: 'namespace', query: graphQuery,
      summary: 'The entity graph: the most mentioned entities and an edge for each pair named by the same memories',
      success: { status: 200, description: 'nodes and edges', schema: 'EntityGraph' }, errors: [400],
    },
    async ({ ns, query }) => ok(await cairn.entityGraph({ ...stripUndefined(query), namespace: ns })),
  );
}
