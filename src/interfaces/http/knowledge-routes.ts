// The REST routes of knowledge: entities (list, one, merge, rename, split) and facts. Registered by
// the app (app.ts) through its `define`, so each is validated, authorised and documented like the
// others. Bodies and queries are checked here, then again by the facade (its schemas are the truth).
import { z } from 'zod';
import type { Cairn } from '../../service/cairn.js';
import { entityRefSchema, MAX_ENTITY_NAME_CHARS } from '../../service/knowledge.js';
import { ENTITY_TYPES, PARA_KINDS } from '../../core/types.js';
import type { Define } from './app.js';
import { ok, stripUndefined } from './request-parsing.js';

const boolParam = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const intParam = (min: number, max: number) => z.string().regex(/^\d{1,9}$/, 'must be a non-negative integer').transform(Number).pipe(z.number().int().min(min).max(max));
const text = z.string().max(MAX_ENTITY_NAME_CHARS);

export const entityParam = entityRefSchema.describe('Entity id (e_…), slug, or any name it is known by (URL-encoded)');

export const entityListQuery = z.strictObject({
  type: z.enum(ENTITY_TYPES).optional(),
  para: z.enum(PARA_KINDS).optional(),
  promoted: boolParam.optional().describe('true: only promoted entities; false: only candidates'),
  q: text.optional().describe('only entities with a name starting with this'),
  limit: intParam(1, 1000).optional().describe('how many (default 50)'),
});

export const factsQuery = z.strictObject({
  subject: text.optional(),
  attribute: text.optional(),
  entity: text.optional().describe('only facts about this entity (id, slug or name)'),
  includeSuperseded: boolParam.optional().describe('superseded facts too (history)'),
  limit: intParam(1, 10_000).optional().describe('how many (default 200)'),
});

export const mergeBody = z.strictObject({ into: text.describe('the entity that stays (id, slug or name)') });
export const renameBody = z.strictObject({ name: text.describe('the new name (locked: extraction never changes it again)') });
export const splitBody = z.strictObject({
  aliases: z.array(text).min(1).max(100).describe('names of the entity that belong to another one'),
  name: text.optional().describe("the new entity's name (default: the first alias)"),
  type: z.enum(ENTITY_TYPES).optional(),
});


export function registerKnowledgeRoutes(define: Define, cairn: Cairn, NS: string): void {
  const ref = { id: entityParam };

  define(
    {
      operationId: 'listEntities', method: 'get', path: `${NS}/entities`, tag: 'knowledge', auth: 'namespace', query: entityListQuery,
      summary: 'Entities (people, projects, places, tools, …), most mentioned first, with PARA kind and promotion',
      success: { status: 200, description: 'entities', schema: 'EntityList' }, errors: [400],
    },
    async ({ ns, query }) => {
      const { q, ...rest } = query;
      return ok({ namespace: ns, entities: await cairn.entities({ ...stripUndefined(rest), ...(q !== undefined ? { query: q } : {}), namespace: ns }) });
    },
  );

  define(
    {
      operationId: 'getEntity', method: 'get', path: `${NS}/entities/:id`, tag: 'knowledge', auth: 'namespace', params: ref,
      summary: 'One entity: names, counts, PARA kind, current facts, history and recent memories',
      success: { status: 200, description: 'the entity', schema: 'EntityDetail' }, errors: [400, 404],
    },
    async ({ ns, id }) => ok(await cairn.entity(id, { namespace: ns })),
  );

  define(
    {
      operationId: 'mergeEntity', method: 'post', path: `${NS}/entities/:id/merge`, tag: 'knowledge', auth: 'namespace', params: ref, body: mergeBody,
      summary: 'Merge this entity into another: its names, mentions and facts move, it is removed; the fix survives re-extraction',
      success: { status: 200, description: 'the entity that stays', schema: 'EntityMergeResult' }, errors: [400, 404, 409, 413, 415],
    },
    async ({ ns, id, body }) => ok(await cairn.mergeEntity(id, body.into, { namespace: ns })),
  );

  define(
    {
      operationId: 'renameEntity', method: 'post', path: `${NS}/entities/:id/rename`, tag: 'knowledge', auth: 'namespace', params: ref, body: renameBody,
      summary: 'Rename an entity; the name is locked and pinned as an alias',
      success: { status: 200, description: 'the renamed entity', schema: 'EntityRenameResult' }, errors: [400, 404, 409, 413, 415],
    },
    async ({ ns, id, body }) => ok(await cairn.renameEntity(id, body.name, { namespace: ns })),
  );

  define(
    {
      operationId: 'splitEntity', method: 'post', path: `${NS}/entities/:id/split`, tag: 'knowledge', auth: 'namespace', params: ref, body: splitBody,
      summary: 'Split names off into a new entity, with the memories that name only them',
      success: { status: 200, description: 'the new entity and what moved', schema: 'EntitySplitResult' }, errors: [400, 404, 409, 413, 415],
    },
    async ({ ns, id, body }) => ok(await cairn.splitEntity(id, stripUndefined(body), { namespace: ns })),
  );

  define(
    {
      operationId: 'listFacts', method: 'get', path: `${NS}/facts`, tag: 'knowledge', auth: 'namespace', query: factsQuery,
      summary: 'Facts (subject – attribute – value) with valid time and provenance; current ones unless includeSuperseded',
      success: { status: 200, description: 'facts, oldest valid time first', schema: 'FactList' }, errors: [400, 404],
    },
    async ({ ns, query }) => ok({ namespace: ns, facts: await cairn.facts({ ...stripUndefined(query), namespace: ns }) }),
  );
}
