// Zod schemas of the MCP tools: inputs (validated by the SDK before any tool runs, so a bad
// argument never reaches the facade) and outputs (advertised to clients, which validate the
// structured content against them). Output records are loose objects: a field added to a record
// later must not make clients reject it. Built once per text limit: the HTTP transport makes a
// server per request, and schemas are immutable.
import { z } from 'zod';
import { RECORD_ID_PATTERN } from '../../core/ids.js';
import { CATEGORIES, KINDS } from '../../core/types.js';
import { CONTEXT_BUDGET_RANGE, CONTEXT_DEFAULT_BUDGET } from '../../service/context.js';
import { READ_LIMITS } from '../../service/files.js';
import { HOT_STATE_LIMITS } from '../../service/hot-state.js';
import { LAYER_HELP, layerSchema } from '../../service/inputs.js';

const MAX_QUERY_CHARS = 2000;

// --- building blocks ----------------------------------------------------------------------------

const idArg = (what: string) => z.string().regex(RECORD_ID_PATTERN, 'not a Cairn id (like m_01h…)').describe(what);

const categoryArg = z.enum(CATEGORIES);

/** A path with no ".." segment or NUL; the facade confines it to the namespace again. */
const pathArg = z
  .string()
  .min(1)
  .max(READ_LIMITS.maxPathChars)
  .refine((p) => !p.includes('\0'), 'path contains a NUL character')
  .refine((p) => !p.split(/[\\/]+/).includes('..'), 'path must not contain ".." segments')
  .describe('The "path" of a memory_search result (a file, or memory:<id>), or a file of your namespace folder such as MEMORY.md or SESSION-STATE.md');

/** The fields of a memory an agent may set (memory_store, memory_supersede). */
function memoryFields(maxTextChars: number) {
  return {
    text: z
      .string()
      .min(1)
      .max(maxTextChars)
      .describe(`The memory, self-contained (who, what, when): it will be read later without this conversation. At most ${maxTextChars} characters.`),
    category: categoryArg.optional().describe('What kind of memory: decision, fact, preference, plan, issue, … (default: note)'),
    importance: z.number().int().min(1).max(10).optional().describe('1 (trivia) to 10 (critical); 5 is ordinary, 8 or more for what must not be forgotten'),
    tags: z.array(z.string().trim().min(1).max(64)).max(32).optional().describe('Short labels to group related memories'),
  };
}

const stateItems = (what: string) =>
  z
    .array(z.string().trim().min(1).max(HOT_STATE_LIMITS.itemChars))
    .max(HOT_STATE_LIMITS.items)
    .optional()
    .describe(`${what} (replaces the whole list; [] clears it)`);

const provenanceOut = z.looseObject({});

const memoryOut = z.looseObject({
  id: z.string(),
  namespace: z.string(),
  text: z.string(),
  category: z.string(),
  importance: z.number(),
  tags: z.array(z.string()),
  eventTime: z.string().nullable(),
  createdAt: z.string(),
  validFrom: z.string(),
  validTo: z.string().nullable(),
  supersededBy: z.string().nullable(),
  supersedes: z.string().nullable(),
  mentions: z.number(),
  provenance: z.array(provenanceOut),
});

/** Cairn's result fields plus OpenClaw's memory_search fields (path, startLine, endLine, score, snippet, source). */
const searchResultOut = z.looseObject({
  id: z.string(),
  kind: z.enum(KINDS),
  text: z.string(),
  snippet: z.string(),
  score: z.number(),
  confidence: z.number().describe('How likely the result holds what was asked (0–1), from absolute signals; results below search.minConfidence are left out'),
  time: z.string(),
  createdAt: z.string(),
  category: z.string().nullable(),
  importance: z.number().nullable(),
  current: z.boolean(),
  provenance: z.array(provenanceOut),
  path: z.string(),
  startLine: z.number(),
  endLine: z.number(),
  source: z.string(),
});

/** Secrets the redaction gate replaced before storing, per kind (present only when there were some). */
const redactionsOut = z.record(z.string(), z.number()).optional();

export const stateOut = z.looseObject({
  namespace: z.string(),
  objective: z.string().nullable(),
  blockers: z.array(z.string()),
  nextActions: z.array(z.string()),
  notes: z.string().nullable(),
  updatedAt: z.string().nullable(),
  warning: z.string().optional(),
  redactions: redactionsOut,
});

export type StateOut = z.infer<typeof stateOut>;

const contextItemOut = z.looseObject({ kind: z.string(), text: z.string(), id: z.string().optional(), source: z.string().optional(), score: z.number().optional() });

/** An entity by name, slug or id: one line of text; the facade resolves it in the namespace. */
const entityArg = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((v) => !/[\u0000-\u001f\u007f-\u009f]/.test(v), 'contains a control character');

const entityOut = z.looseObject({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  type: z.string(),
  aliases: z.array(z.string()),
  relation: z.string().nullable(),
  para: z.string(),
  promoted: z.boolean(),
  stats: z.looseObject({ mentions: z.number(), memories: z.number(), firstSeen: z.string(), lastSeen: z.string(), maxImportance: z.number() }),
});

const factOut = z.looseObject({
  id: z.string(),
  subject: z.string(),
  attribute: z.string(),
  value: z.string(),
  memoryId: z.string(),
  validFrom: z.string(),
  validTo: z.string().nullable(),
  recordedAt: z.string(),
  supersededBy: z.string().nullable(),
});

// --- the tools ----------------------------------------------------------------------------------

function buildToolSchemas(maxTextChars: number) {
  return {
    memory_store: {
      input: z.strictObject(memoryFields(maxTextChars)),
      output: z.looseObject({ memory: memoryOut, duplicate: z.boolean(), embedded: z.boolean(), warning: z.string().optional(), redactions: redactionsOut }),
    },
    memory_search: {
      // Not strict: OpenClaw-only arguments are ignored, so its agents' calls work unchanged.
      input: z.object({
        query: z.string().min(1).max(MAX_QUERY_CHARS).describe('What to look for, in natural language or keywords'),
        maxResults: z.number().int().min(1).max(200).optional().describe('Most results to return (default 10)'),
        minScore: z.number().min(0).optional().describe('Drop results scoring below this (scores are roughly 0 to 1.2)'),
        since: z.string().max(64).optional().describe('Only entries at or after this time: ISO date/time or an age like 7d or 12h'),
        until: z.string().max(64).optional().describe('Only entries at or before this time: ISO date/time or an age like 1d'),
        asOf: z
          .string()
          .max(64)
          .optional()
          .describe('Search as of this moment (ISO date/time, or an age like 30d): "last week" in the query and ages in since/until count from it, and later entries are left out'),
        category: z
          .union([categoryArg, z.array(categoryArg).min(1).max(CATEGORIES.length)])
          .optional()
          .describe('Only memories of this category (or of any of these categories)'),
        rewrite: z
          .boolean()
          .optional()
          .describe("Let the configured chat model suggest other wordings first (slower; default: the server's search.queryRewrite)"),
        layer: z
          .union([layerSchema, z.array(layerSchema).min(1).max(16)])
          .optional()
          .describe(`Only entries of this layer of the memory pyramid (or of any of these layers): ${LAYER_HELP}`),
        entity: entityArg.optional().describe('Only memories about this person, project, place or tool: its name (any alias), slug or id, as entity_get shows it'),
      }),
      output: z.looseObject({
        results: z.array(searchResultOut),
        provider: z.literal('cairn'),
        model: z.string(),
        mode: z.enum(['hybrid', 'bm25', 'vector']),
        noGoodMatch: z.boolean().describe('True when no result is a good match: nothing related is in memory'),
        belowConfidence: z.number().describe('Results left out for a confidence below search.minConfidence'),
        degraded: z.string().optional(),
        rewrite: z.looseObject({ status: z.enum(['used', 'skipped']) }).optional(),
      }),
    },
    memory_get: {
      input: z
        .object({
          id: idArg('A memory id from memory_search or memory_store (m_…)').optional(),
          path: pathArg.optional(),
          from: z.number().int().min(1).optional().describe('First line to read, 1-based (with path)'),
          lines: z.number().int().min(1).max(READ_LIMITS.maxLines).optional().describe(`How many lines to read (with path; default and maximum ${READ_LIMITS.maxLines})`),
        })
        .superRefine((v, ctx) => {
          if ((v.id === undefined) === (v.path === undefined)) ctx.addIssue({ code: 'custom', message: 'give exactly one of "id" and "path"' });
          if (v.id !== undefined && (v.from !== undefined || v.lines !== undefined)) ctx.addIssue({ code: 'custom', message: '"from" and "lines" go with "path", not "id"' });
        }),
      output: z.looseObject({
        text: z.string(),
        memory: memoryOut.optional(),
        path: z.string().optional(),
        from: z.number().optional(),
        lines: z.number().optional(),
        totalLines: z.number().optional(),
      }),
    },
    memory_history: {
      input: z.strictObject({ id: idArg('Any version of the memory (m_…)') }),
      output: z.looseObject({ versions: z.array(memoryOut) }),
    },
    memory_supersede: {
      input: z.strictObject({ id: idArg('The memory to replace (m_…)'), ...memoryFields(maxTextChars) }),
      output: z.looseObject({ previous: memoryOut, current: memoryOut, warning: z.string().optional(), redactions: redactionsOut }),
    },
    memory_feedback: {
      input: z.strictObject({
        id: z.string().regex(/^[mt]_[A-Za-z0-9_-]{1,64}$/, 'expected a memory id (m_…) or a turn id (t_…)').describe('A memory id (m_…) or turn id (t_…) from memory_search'),
        important: z.boolean().describe('true: worth remembering; false: noise'),
      }),
      output: z.looseObject({
        feedback: z.looseObject({ id: z.string(), refId: z.string(), important: z.boolean(), createdAt: z.string() }),
        turnId: z.string().nullable(),
        importance: z.number().nullable(),
        memoryId: z.string().nullable(),
      }),
    },
    entity_get: {
      input: z.strictObject({ entity: entityArg.describe('A person, project, place or tool: any name it is known by ("Ana", "@ana"), its slug or its id (e_…)') }),
      output: z.looseObject({ entity: entityOut, facts: z.array(factOut), history: z.array(factOut), memories: z.array(memoryOut) }),
    },
    state_get: { input: z.strictObject({}), output: stateOut },
    state_set: {
      input: z
        .strictObject({
          objective: z.string().max(HOT_STATE_LIMITS.objectiveChars).nullable().optional().describe('What you are trying to achieve now, in one line (null clears it)'),
          blockers: stateItems('What stops progress'),
          nextActions: stateItems('The next concrete steps, in order'),
          notes: z.string().max(HOT_STATE_LIMITS.notesChars).nullable().optional().describe('Anything else to keep at hand (replaces the notes; null clears them)'),
        })
        .refine((p) => Object.values(p).some((v) => v !== undefined), 'give at least one of objective, blockers, nextActions, notes'),
      output: stateOut,
    },
    context: {
      input: z.strictObject({
        query: z.string().max(MAX_QUERY_CHARS).optional().describe('What this session is about (adds relevant memories)'),
        budgetTokens: z
          .number()
          .int()
          .min(CONTEXT_BUDGET_RANGE.min)
          .max(CONTEXT_BUDGET_RANGE.max)
          .optional()
          .describe(`Most tokens the brief may use (default ${CONTEXT_DEFAULT_BUDGET})`),
      }),
      output: z.looseObject({
        namespace: z.string(),
        query: z.string().nullable(),
        budgetTokens: z.number(),
        usedTokens: z.number(),
        tokenizer: z.string(),
        sections: z.array(z.looseObject({ title: z.string(), items: z.array(contextItemOut) })),
        text: z.string(),
        truncated: z.boolean(),
      }),
    },
  };
}

export type ToolSchemas = ReturnType<typeof buildToolSchemas>;

const built = new Map<number, ToolSchemas>();

/** Every tool's input and output schema for a text limit (built once, then shared). */
export function toolSchemas(maxTextChars: number): ToolSchemas {
  let schemas = built.get(maxTextChars);
  if (!schemas) built.set(maxTextChars, (schemas = buildToolSchemas(maxTextChars)));
  return schemas;
}
