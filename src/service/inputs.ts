// Validation of everything that enters through the facade, shared by every interface (CLI, MCP,
// HTTP, library), so a bad value gets the same clear error wherever it comes from.
import { z } from 'zod';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { CATEGORIES, KINDS, LAYER_HELP } from '../core/types.js';
import { RECORD_ID_PATTERN, foldLongId } from '../core/ids.js';
import { cleanLabel, hasUnsafeIdChars, stripControl } from '../core/text.js';
import { parseTime } from '../core/time.js';
import { SEARCH_STRATEGIES } from '../search/layer-first.js';

const MAX_TAGS = 32;
const MAX_QUERY_CHARS = 2000;
/** A provenance id longer than this is not an id; shorter long ones are folded (foldLongId). */
const MAX_PROVENANCE_ID_CHARS = 4096;

export const categorySchema = z.enum(CATEGORIES);
export const kindSchema = z.enum(KINDS);

// Here for the interfaces that import it with the schemas; defined in core so that the CLI's
// search command, which a running daemon answers, does not load zod to print its help.
export { LAYER_HELP };
export const layerSchema = z.literal([1, 2, 3, 4], { error: `a layer is ${LAYER_HELP}` });
/** Layers asked for, each once, in order (a repeated layer is no error). */
export const layersSchema = z
  .array(layerSchema)
  .max(16)
  .transform((list) => [...new Set(list)].sort());

/** The reason a time (ISO or an age like 7d) cannot be read, or null when it can. */
function timeProblem(value: string, label: string): string | null {
  try {
    parseTime(value, label);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * A time as written (ISO or an age like 7d), checked here but resolved by the caller against the
 * moment it counts from: a search's ages count back from its asOf, not from when it was parsed.
 */
const timeText = (label: string) =>
  z
    .string()
    .max(64, `${label} is longer than 64 characters`)
    .superRefine((v, ctx) => {
      const problem = timeProblem(v, label);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

/** A time resolved to ISO against now. */
const isoOrRelative = (label: string) =>
  z.string().transform((v, ctx) => {
    const problem = timeProblem(v, label);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return parseTime(v, label);
  });

/** A memory's tags: one-line labels (control characters go), 1–64 characters each, at most MAX_TAGS. */
export const tagsSchema = z.array(z.string().transform(cleanLabel).pipe(z.string().min(1).max(64))).max(MAX_TAGS);

/** A memory's new tags (PUT …/tags): the whole list, replacing the stored one. */
export const setTagsInputSchema = z.strictObject({ tags: tagsSchema.describe(`the memory's tags, replacing the stored ones (at most ${MAX_TAGS})`) });

/** A one-line label: control characters go, unpaired surrogates become U+FFFD (text.ts cleanLabel). */
const label = (max: number) => z.string().max(max).transform(cleanLabel);

/**
 * An id given by the caller is refused, not rewritten, when it holds a control character or an
 * unpaired surrogate: rewriting could make it equal another id, and the caller can send a valid one.
 */
const outsideId = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !hasUnsafeIdChars(v), 'contains a control character or an unpaired surrogate (not valid Unicode text)');

/** Built with the store schema, on first use: ~40 zod schemas that a search never needs (zod builds each in ~0.1 ms). */
const provenanceSchema = () =>
  z.strictObject({
    source: label(200).optional(),
    // Folded as capture folds them, so provenance names a long id the way its turn stores it.
    sessionId: outsideId(MAX_PROVENANCE_ID_CHARS).transform(foldLongId).optional(),
    messageId: outsideId(MAX_PROVENANCE_ID_CHARS).transform(foldLongId).optional(),
    line: z.number().int().nonnegative().optional(),
    path: z.string().max(4096).transform(stripControl).optional(),
    role: label(50).optional(),
    speaker: label(200).optional(),
    timestamp: label(64).optional(),
    turnIds: z.array(outsideId(100)).max(100).optional(),
  });

/** The store schema of each text limit, built once: every `store` call parses with it. */
const storeSchemas = new Map<number, ReturnType<typeof buildStoreInputSchema>>();

export function storeInputSchema(maxTextChars: number): ReturnType<typeof buildStoreInputSchema> {
  let schema = storeSchemas.get(maxTextChars);
  if (!schema) storeSchemas.set(maxTextChars, (schema = buildStoreInputSchema(maxTextChars)));
  return schema;
}

function buildStoreInputSchema(maxTextChars: number) {
  return z.strictObject({
    text: z
      .string()
      .transform((t) => stripControl(t).trim())
      .refine((t) => t.length > 0, 'text is empty')
      .refine((t) => t.length <= maxTextChars, `text is longer than the limit of ${maxTextChars} characters (limits.maxTextChars)`),
    category: categorySchema.optional(),
    importance: z.number().int().min(1).max(10).optional(),
    tags: tagsSchema.optional(),
    entities: z.array(z.string().transform(cleanLabel).pipe(z.string().min(1).max(200))).max(MAX_TAGS).optional(),
    eventTime: isoOrRelative('event time').optional(),
    provenance: z.array(provenanceSchema()).max(20).optional(),
  });
}

export type StoreInput = z.input<ReturnType<typeof storeInputSchema>>;

export const searchInputSchema = z.strictObject({
  query: z
    .string()
    .transform((q) => stripControl(q).trim())
    .refine((q) => q.length > 0, 'query is empty')
    .refine((q) => q.length <= MAX_QUERY_CHARS, `query is longer than ${MAX_QUERY_CHARS} characters`),
  limit: z.number().int().min(1).max(200).default(10),
  since: timeText('since').optional(),
  until: timeText('until').optional(),
  /**
   * The moment the question is asked (ISO, or an age like 30d for "as of a month ago"; default:
   * now). Times in the query ("last week"), ages in since/until and recency count from it, and
   * entries from after it are left out: a replayed conversation is searched as it stood then.
   * What was true then is found: a memory superseded only after that moment counts as current.
   */
  asOf: isoOrRelative('asOf').optional(),
  categories: z.array(categorySchema).max(CATEGORIES.length).optional(),
  kinds: z.array(kindSchema).max(KINDS.length).optional(),
  /** Only entries of these layers of the pyramid (LAYER_HELP). */
  layers: layersSchema.optional(),
  minImportance: z.number().int().min(1).max(10).optional(),
  includeSuperseded: z.boolean().default(false),
  mode: z.enum(['hybrid', 'bm25', 'vector']).default('hybrid'),
  /** flat: one ranking of every layer; layers: digest sections of layers 1–2 first, then the records they cite (search/layer-first.ts). */
  strategy: z.enum(SEARCH_STRATEGIES, { error: `a strategy is ${SEARCH_STRATEGIES.join(' or ')}` }).default('flat'),
  /** Rewrite the query with the configured chat model first (default: config search.queryRewrite). */
  rewrite: z.boolean().optional(),
  /** Only memories about this entity (id, slug or any of its names: cairn entity list). */
  entity: z
    .string()
    .transform((v) => stripControl(v).trim())
    .refine((v) => v.length > 0, 'entity is empty')
    .refine((v) => v.length <= 200, 'entity is longer than 200 characters')
    .optional(),
});

export type SearchInput = z.input<typeof searchInputSchema>;

export const idSchema = z.string().regex(RECORD_ID_PATTERN, 'not a Cairn id (like m_01h…)');

/** Parses with a schema; failures become one INVALID_INPUT error naming each field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => {
    if (i.code === 'unrecognized_keys') return `unknown field ${i.keys.map((k) => `"${k}"`).join(', ')}`;
    return i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message;
  });
  throw new CairnError(ERROR_CODES.INVALID_INPUT, `Invalid ${what}: ${problems.join('; ')}`, { problems });
}

export function parseId(value: unknown): string {
  return parseInput(idSchema, value, 'id');
}
