// Response shapes of the knowledge routes (knowledge-routes.ts) for the OpenAPI document.
import { ENTITY_TYPES, PARA_KINDS } from '../../core/types.js';

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const time = { type: 'string', format: 'date-time' };
const nullableTime = { type: ['string', 'null'], format: 'date-time' };

const entity: Json = {
  type: 'object',
  required: ['id', 'name', 'slug', 'type', 'aliases', 'stats', 'para', 'promoted'],
  properties: {
    id: { type: 'string', pattern: '^e_' },
    namespace: { type: 'string' },
    name: { type: 'string' },
    slug: { type: 'string', description: 'file-safe, unique in the namespace (life/<para>/<slug>/)' },
    type: { type: 'string', enum: [...ENTITY_TYPES] },
    aliases: { type: 'array', items: { type: 'string' } },
    relation: { type: ['string', 'null'], description: 'direct relationship with the person ("manager", "sister"), when one was stated' },
    locked: { type: 'boolean', description: 'a person named it: extraction never renames it' },
    createdAt: time,
    updatedAt: time,
    stats: {
      type: 'object',
      properties: { mentions: { type: 'integer' }, memories: { type: 'integer' }, firstSeen: time, lastSeen: time, maxImportance: { type: 'integer' } },
    },
    para: { type: 'string', enum: [...PARA_KINDS] },
    promoted: { type: 'boolean', description: 'in the knowledge graph and life/ (mentioned often enough, a direct relation, or a significant project); else a candidate' },
  },
};

const fact: Json = {
  type: 'object',
  required: ['id', 'subject', 'attribute', 'value', 'memoryId', 'validFrom', 'validTo', 'recordedAt'],
  properties: {
    id: { type: 'string', pattern: '^f_' },
    namespace: { type: 'string' },
    subject: { type: 'string', description: 'normalised subject key' },
    subjectName: { type: 'string' },
    entityId: { type: ['string', 'null'] },
    attribute: { type: 'string' },
    value: { type: 'string' },
    memoryId: { type: 'string', description: 'the memory that stated it' },
    validFrom: { ...time, description: 'valid time: when it became true' },
    validTo: { ...nullableTime, description: 'valid time: when it stopped being true (null: holds now)' },
    recordedAt: { ...time, description: 'record time: when Cairn learned it' },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
    supersededBy: { type: ['string', 'null'] },
    mentions: { type: 'integer', minimum: 1 },
    extractor: { type: 'string' },
    provenance: { type: 'array', items: { type: 'object' } },
  },
};

const entityWithStats: Json = { type: 'object', properties: { entity: { type: 'object', description: 'the entity as stored (no para/promoted)' }, stats: { type: 'object' } } };

export const KNOWLEDGE_SCHEMAS: Record<string, Json> = {
  Entity: entity,
  Fact: fact,
  EntityList: { type: 'object', properties: { namespace: { type: 'string' }, entities: { type: 'array', items: ref('Entity') } } },
  EntityDetail: {
    type: 'object',
    required: ['entity', 'facts', 'history', 'memories'],
    properties: {
      entity: ref('Entity'),
      facts: { type: 'array', items: ref('Fact'), description: 'facts that hold now' },
      history: { type: 'array', items: ref('Fact'), description: 'superseded facts' },
      memories: { type: 'array', items: ref('Memory'), description: 'recent memories that name it, newest first' },
    },
  },
  EntityMergeResult: {
    type: 'object',
    properties: { entity: entityWithStats, removed: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, slug: { type: 'string' } } }, memories: { type: 'integer' } },
  },
  EntityRenameResult: { type: 'object', properties: { entity: entityWithStats, previousName: { type: 'string' }, memories: { type: 'integer' } } },
  EntitySplitResult: {
    type: 'object',
    properties: {
      entity: entityWithStats,
      source: entityWithStats,
      moved: { type: 'array', items: { type: 'string' }, description: 'memories now about the new entity' },
      kept: { type: 'array', items: { type: 'string' }, description: 'memories naming both, left with the source' },
    },
  },
  FactList: { type: 'object', properties: { namespace: { type: 'string' }, facts: { type: 'array', items: ref('Fact') } } },
};
