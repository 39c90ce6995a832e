// Zod schemas of everything the REST API accepts: path parameters, query strings and JSON bodies.
// The routes validate with them (400 with the issues) and the OpenAPI document is generated from
// the same objects, so the two cannot drift. The facade validates again (its own schemas are the
// source of truth for memory and search fields; the bodies below reuse them).
import { z } from 'zod';
import { NAMESPACE_PATTERN, RESERVED_NAMESPACES } from '../../core/namespace.js';
import { RECORD_ID_PATTERN } from '../../core/ids.js';
import { CATEGORIES, KINDS } from '../../core/types.js';
import { categorySchema, kindSchema, LAYER_HELP, layerSchema, searchInputSchema, setTagsInputSchema, storeInputSchema } from '../../service/inputs.js';
import { hotStatePatchSchema } from '../../service/hot-state.js';
import { READ_LIMITS } from '../../service/files.js';
import { CONTEXT_BUDGET_RANGE, CONTEXT_DEFAULT_BUDGET } from '../../service/context.js';
import { purgeInputSchema } from '../../service/purge.js';

/** An integer in a query string: digits only (no "1e3", no "10abc"), then range-checked. */
function intParam(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,9}$/, 'must be a non-negative integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

const boolParam = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** A comma-separated list in a query string (also repeatable: `?category=a&category=b`). */
function listParam<T extends z.ZodType>(item: T, max: number) {
  const list = z.array(item).max(max);
  return z
    .string()
    .max(1000)
    .transform((v, ctx): z.output<T>[] => {
      const res = list.safeParse(v.split(',').map((s) => s.trim()).filter(Boolean));
      if (res.success) return res.data;
      for (const issue of res.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      return z.NEVER;
    });
}

// ---- path parameters ------------------------------------------------------------------------

export const namespaceParam = z
  .string()
  .regex(NAMESPACE_PATTERN, 'a namespace is 1–64 characters of a-z, 0-9, ".", "_", "-", starting with a letter or digit')
  .refine((v) => !v.includes('..'), 'a namespace must not contain ".."')
  .refine((v) => !RESERVED_NAMESPACES.has(v), 'this name is reserved by the data directory')
  .describe('Namespace (agent id)');

export const idParam = z.string().regex(RECORD_ID_PATTERN, 'not a Cairn id (like m_01h…)').describe('Memory id (m_…)');

// ---- bodies ----------------------------------------------------------------------------------

/** POST memories and POST memories/:id/supersede. The limit is the config's maxTextChars. */
export function storeBody(maxTextChars: number) {
  return storeInputSchema(maxTextChars);
}

/** PUT memories/:id/tags: the whole tag list. */
export const tagsBody = setTagsInputSchema;

export const feedbackBody = z.strictObject({
  important: z.boolean().describe('true: this matters (importance ≥ 8); false: it does not (≤ 3)'),
});

export const searchFormat = z.enum(['cairn', 'openclaw']).describe('"openclaw": OpenClaw memory_search result shape (path, startLine, endLine, score, snippet, source)');

/** POST search: the facade's search fields, plus OpenClaw's argument names and result shape. */
export const searchBody = searchInputSchema.extend({
  maxResults: z.number().int().min(1).max(200).optional().describe('OpenClaw alias of limit'),
  minScore: z.number().min(0).max(100).optional().describe('drop results scoring below this'),
  format: searchFormat.optional(),
});

/** POST purge: exactly one rule (ids, text or secrets: true), optionally a dry run. */
export const purgeBody = purgeInputSchema;

/** PUT state: fields given replace the stored ones; fields left out stay (PATCH semantics). */
export const stateBody = hotStatePatchSchema;

// ---- query strings ---------------------------------------------------------------------------

export const listQuery = z.strictObject({
  limit: intParam(1, 1000).optional().describe('how many (default 50)'),
  includeSuperseded: boolParam.optional(),
});

export const searchQuery = z.strictObject({
  q: z.string().min(1).max(2000).describe('the query'),
  limit: intParam(1, 200).optional(),
  maxResults: intParam(1, 200).optional().describe('OpenClaw alias of limit'),
  minScore: z.string().regex(/^\d+(\.\d+)?$/, 'must be a number').transform(Number).optional(),
  since: z.string().max(64).optional().describe('ISO time or an age like 7d'),
  until: z.string().max(64).optional(),
  asOf: z.string().max(64).optional().describe('search as of this moment: ISO time or an age like 30d'),
  category: listParam(categorySchema, CATEGORIES.length).optional().describe(`comma-separated: ${CATEGORIES.join(', ')}`),
  kind: listParam(kindSchema, KINDS.length).optional().describe(`comma-separated: ${KINDS.join(', ')}`),
  layer: listParam(z.string().transform(Number).pipe(layerSchema), 16).optional().describe(`comma-separated layers: ${LAYER_HELP}`),
  minImportance: intParam(1, 10).optional(),
  includeSuperseded: boolParam.optional(),
  mode: z.enum(['hybrid', 'bm25', 'vector']).optional(),
  format: searchFormat.optional(),
  entity: z.string().max(200).optional().describe('only memories about this entity (id, slug or a name it is known by)'),
});

export const contextQuery = z.strictObject({
  query: z.string().min(1).max(2000).optional().describe('what the session is about: adds relevant memories'),
  budgetTokens: intParam(CONTEXT_BUDGET_RANGE.min, CONTEXT_BUDGET_RANGE.max).optional().describe(`token budget of the brief (default ${CONTEXT_DEFAULT_BUDGET})`),
});

export const filesQuery = z.strictObject({
  path: z.string().min(1).max(4096).describe('file path, as returned in search results (path)'),
  from: intParam(1, 10_000_000).optional().describe('first line (1-based)'),
  lines: intParam(1, READ_LIMITS.maxLines).optional().describe(`how many lines (at most ${READ_LIMITS.maxLines})`),
});

export const purgeLogQuery = z.strictObject({
  limit: intParam(1, 1000).optional().describe('how many entries, newest first (default 50)'),
});
