// The one service facade. CLI, MCP, HTTP, the daemon and library users all call this class; it
// validates input, talks to the store, the embedder and search, and nothing else reaches past it.
import { writeFileSync, existsSync, renameSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { loadConfigFile, parseConfig, type CairnConfig, type CairnConfigInput } from '../core/config.js';
import { ensureHomeDir, resolveHome, type HomePaths } from '../core/home.js';
import { PRIVATE_FILE_MODE } from '../core/private-files.js';
import { openHome } from './open-home.js';
import { parseNamespace } from '../core/namespace.js';
import { sha256 } from '../core/text.js';
import { parseTime } from '../core/time.js';
import type { Memory, Source } from '../core/types.js';
import type { Embedder } from '../embed/embedder.js';
import { createThreadedEmbedder } from '../embed/factory.js';
import { passageModelId } from '../embed/passages.js';
import { NO_ENTRY_KEYS, placeEntryKeys } from '../memory/places/place-keys.js';
import type { EntryFilter, JudgeStats, SpeakerCount, Store } from '../store/store.js';
import { hybridSearch, type SearchResult, type VectorSide } from '../search/hybrid.js';
import { layerFirstSearch, type RankedSearch } from '../search/layer-first.js';
import { VectorIndex } from '../search/vector-index.js';
import { embedEntries, embedPending, noVectorsNote, type IndexProgress } from './indexer.js';
import type { CaptureDeps } from './capture.js';
import { ingestPaths, type IngestOptions, type IngestResponse } from './ingest.js';
import { addSources, findSource, sourceStatuses, type AddSourceInput, type SourceStatus } from './sources.js';
import { exportJsonl, importMemories, type ImportReport } from './jsonl.js';
import { parseImportFormat, type ImportFormat } from './import/read.js';
import { parseId, parseInput, searchInputSchema, storeInputSchema, type SearchInput, type StoreInput } from './inputs.js';
import { buildStatus, type StatusReport } from './status.js';
import { Judging, type JudgeReport, type LlmRuntime } from './judging.js';
import { createLlmRuntime, createQueryRewriter } from './llm-runtime.js';
import { createProseWriter } from '../consolidate/prose.js';
import type { Timing } from '../llm/retry.js';
import type { TransportOptions } from '../llm/transport.js';
import type { QueryRewriter, RewriteOutcome } from '../search/query-rewrite.js';
import { blendVectors, queryFocus } from '../search/query-focus.js';
import { loadTimeParser, queryTimeWindow } from '../search/query-time.js';
import { localDayTime } from '../core/local-time.js';
import { giveFeedback, type FeedbackResult } from './feedback.js';
import { getState, memoryFilePath, setState, stateFilePath, type HotState, type HotStatePatch, type SetStateResult } from './hot-state.js';
import { buildContext, CONTEXT_DEFAULT_BUDGET, loadTokenizer, type ContextBrief, type ContextOptions } from './context.js';
import { prepareBrief, preparedBrief } from './context-prep.js';
import { readNamespaceFile, type ReadFileInput, type ReadFileResult } from './files.js';
import { createToken, hasTokens, listTokens, revokeToken, verifyToken, type ApiToken, type CreatedToken } from './tokens.js';
import { gatedStore, gateText, totalRedactions, type RedactionCounts } from './redaction-gate.js';
import { purgeLog, runPurge, type PurgeInput, type PurgeReport } from './purge.js';
import { runSleep, type SleepReport, type SleepRequest } from './sleep.js';
import { runConsolidation, type ConsolidateOptions, type ConsolidateResult } from './consolidation.js';
import type { PurgeRecord } from '../store/store.js';
import { createBackup, listBackups, type BackupInfo, type BackupKind } from '../consolidate/backup.js';
import { rotateBackups, type RotationReport } from '../consolidate/backup-rotation.js';
import { restoreBackup, type RestoreReport } from '../consolidate/backup-restore.js';

export interface OpenOptions {
  /** Data directory; defaults to CAIRN_HOME, then ~/.cairn. */
  home?: string;
  /** Overrides the config file entirely (validated the same way). */
  config?: CairnConfigInput;
  /** Namespace used when a call names none; defaults to the config's defaultNamespace. */
  namespace?: string;
  /** Injects an embedder (tests, custom models); null disables vectors. */
  embedder?: Embedder | null;
  /**
   * Run a local model in this many worker threads (0: in-process, the default). The threads start
   * loading the model at once; the CLI uses one per core for bulk embedding (reembed, import).
   */
  embedThreads?: number;
  busyTimeoutMs?: number;
  /** The LLM calls' clock, sleep and randomness: retries and circuit breakers (tests inject fake time). */
  llmTiming?: Timing;
  /**
   * Told once what opening changed in the home (modes made private, a reserved namespace renamed);
   * default: a "cairn: note:" line on stderr.
   */
  onNotice?: (message: string) => void;
}

export interface StoreResult {
  memory: Memory;
  duplicate: boolean;
  /** False when the memory is stored but its vector could not be made now (see status). */
  embedded: boolean;
  warning?: string;
  /** Secrets replaced by `[REDACTED:<kind>]` before anything was stored, per kind (absent when none). */
  redactions?: RedactionCounts;
}

export interface SearchOptions extends Omit<SearchInput, 'query'> {
  namespace?: string;
}

export interface SearchResponse {
  namespace: string;
  query: string;
  mode: 'hybrid' | 'bm25' | 'vector';
  results: SearchResult[];
  /** Why the vector side was not used, when it was not. */
  degraded?: string;
  /** What query rewriting added, or why it was skipped (only when rewriting was asked for). */
  rewrite?: RewriteOutcome;
  /** The moment the search was asked as of (ISO), when it was given. */
  asOf?: string;
}

/**
 * since/until as times: ages count back from the search's moment (asOf, else now), and a search
 * as of a moment never reaches past it, whatever until says.
 */
function searchPeriod(input: { since?: string; until?: string; asOf?: string }, now: number): { since?: string; until?: string } {
  const since = input.since === undefined ? undefined : parseTime(input.since, 'since', now);
  let until = input.until === undefined ? undefined : parseTime(input.until, 'until', now);
  if (input.asOf !== undefined && (until === undefined || until > input.asOf)) until = input.asOf;
  return { ...(since !== undefined ? { since } : {}), ...(until !== undefined ? { until } : {}) };
}

/** CAIRN_BUSY_TIMEOUT_MS: how long to wait for another process's write lock (default 5000 ms). */
function busyTimeoutFromEnv(): number | undefined {
  const raw = process.env.CAIRN_BUSY_TIMEOUT_MS;
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new CairnError(ERROR_CODES.CONFIG, `CAIRN_BUSY_TIMEOUT_MS must be a positive integer (milliseconds), got "${raw.slice(0, 40)}"`);
  }
  return Number(raw);
}

/** A nightly backup younger than this makes another (a catch-up after a restart) unnecessary. */
const RECENT_BACKUP_MS = 20 * 3600_000;

export class Cairn {
  readonly paths: HomePaths;
  readonly config: CairnConfig;
  readonly defaultNamespace: string;
  /** The store behind the redaction gate: every write through it has its text redacted first. */
  readonly store: Store;
  /** Why this process cannot write the home (reads work; writes fail with READ_ONLY), or null. */
  readOnly: string | null = null;
  /** The store itself, for capture (which redacts each turn and chunk and counts per source) and purge. */
  private readonly rawStore: Store;
  private readonly embedder: Embedder | null;
  private vectorIndex: VectorIndex | null = null;
  private judgingStage: Judging | null = null;
  /** The chat model's client, budget and breaker: one per process, shared by the judge and the prose writer. */
  private llmRuntime: LlmRuntime | null | undefined;
  private readonly busyTimeoutMs: number | undefined;
  /** Built on first use; null without a chat model. */
  private rewriter: QueryRewriter | null | undefined;
  private llmTransport: TransportOptions = {};

  private constructor(paths: HomePaths, config: CairnConfig, store: Store, embedder: Embedder | null, namespace: string, busyTimeoutMs?: number) {
    this.busyTimeoutMs = busyTimeoutMs;
    this.paths = paths;
    this.config = config;
    this.rawStore = store;
    this.store = gatedStore(store);
    this.embedder = embedder;
    this.defaultNamespace = namespace;
  }

  /** Opens (creating if needed) the home's database; loads no model until one is needed. */
  static async open(options: OpenOptions = {}): Promise<Cairn> {
    const paths = resolveHome(options.home);
    const config = options.config !== undefined ? parseConfig(options.config) : loadConfigFile(paths.config);
    const namespace = parseNamespace(options.namespace ?? config.defaultNamespace);
    const busyTimeoutMs = options.busyTimeoutMs ?? busyTimeoutFromEnv();
    // The embedder first: worker threads begin loading the model while the store opens.
    const embedder = options.embedder !== undefined ? options.embedder : createThreadedEmbedder(config.embedder, options.embedThreads ?? 0, { cacheDir: paths.cacheDir });
    try {
      const entryKeys = config.index.places ? placeEntryKeys() : NO_ENTRY_KEYS;
      const { store, readOnly, notices } = await openHome(paths, { busyTimeoutMs, entryKeys });
      const notice = options.onNotice ?? ((m: string) => process.stderr.write(`cairn: note: ${m}\n`));
      notices.forEach(notice);
      const cairn = new Cairn(paths, config, store, embedder, namespace, busyTimeoutMs);
      cairn.readOnly = readOnly;
      if (options.llmTiming) cairn.llmTransport = { timing: options.llmTiming };
      return cairn;
    } catch (err) {
      if (options.embedder === undefined) await embedder?.close();
      throw err;
    }
  }

  /** Writes a default config file if none exists; returns whether it wrote one. */
  static init(home?: string): { paths: HomePaths; created: boolean } {
    const paths = resolveHome(home);
    ensureHomeDir(paths);
    if (existsSync(paths.config)) {
      loadConfigFile(paths.config); // an existing file must still be valid
      return { paths, created: false };
    }
    const tmp = `${paths.config}.tmp-${process.pid}`;
    try {
      writeFileSync(tmp, JSON.stringify({ defaultNamespace: 'default', embedder: { provider: 'use-lite' } }, null, 2) + '\n', { mode: PRIVATE_FILE_MODE });
      renameSync(tmp, paths.config);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (['EACCES', 'EPERM', 'EROFS'].includes(code)) throw new CairnError(ERROR_CODES.READ_ONLY, `Cannot write ${paths.config}: the data directory is read-only (${code})`);
      throw err;
    }
    return { paths, created: true };
  }

  get modelId(): string | null {
    return this.embedder?.modelId ?? null;
  }

  namespace(ns?: string): string {
    return ns === undefined ? this.defaultNamespace : parseNamespace(ns);
  }

  private index(): VectorIndex {
    this.vectorIndex ??= new VectorIndex(this.store, this.embedder!.modelId, this.paths.indexDir);
    return this.vectorIndex;
  }

  /** Stores a memory (or counts a re-mention of an equal one) and embeds it when possible. */
  async remember(input: StoreInput & { namespace?: string }): Promise<StoreResult> {
    if (typeof input !== 'object' || input === null) throw new CairnError(ERROR_CODES.INVALID_INPUT, 'Invalid memory: expected an object with a text field');
    const { namespace, ...rest } = input;
    const ns = this.namespace(namespace);
    const data = parseInput(storeInputSchema(this.config.limits.maxTextChars), rest, 'memory');
    const redactions: RedactionCounts = {};
    const { memory, duplicate } = await gatedStore(this.rawStore, redactions).addMemory({ ...data, namespace: ns, provenance: data.provenance ?? [{ source: 'api' }] });
    const warning = await this.embedMemory(memory.id);
    return { memory, duplicate, embedded: this.embedder !== null && warning === undefined, ...(warning ? { warning } : {}), ...(totalRedactions(redactions) ? { redactions } : {}) };
  }

  /**
   * Embeds one memory's index entry. Returns a warning instead of throwing: the memory itself is
   * stored (acknowledged) and status reports the missing vector. A backlog (e.g. after a model
   * switch) is left to reembed.
   */
  private async embedMemory(id: string): Promise<string | undefined> {
    if (!this.embedder) return undefined;
    try {
      const entry = await this.store.entryFor('memory', id);
      if (entry) await embedEntries(this.store, this.embedder, [entry]);
      return undefined;
    } catch (err) {
      return `stored, but not embedded: ${(err as Error).message}`;
    }
  }

  async get(id: string, namespace?: string): Promise<Memory> {
    const ns = this.namespace(namespace);
    const memory = await this.store.getMemory(ns, parseId(id));
    if (!memory) throw new CairnError(ERROR_CODES.NOT_FOUND, `No memory ${id} in namespace ${ns}`);
    return memory;
  }

  async list(options: { namespace?: string; limit?: number; includeSuperseded?: boolean } = {}): Promise<Memory[]> {
    return this.store.listMemories({
      namespace: this.namespace(options.namespace),
      limit: options.limit ?? 50,
      includeSuperseded: options.includeSuperseded ?? false,
    });
  }

  async supersede(
    id: string,
    replacement: StoreInput & { namespace?: string },
  ): Promise<{ previous: Memory; current: Memory; warning?: string; redactions?: RedactionCounts }> {
    const { namespace, ...rest } = replacement;
    const ns = this.namespace(namespace);
    const data = parseInput(storeInputSchema(this.config.limits.maxTextChars), rest, 'memory');
    const redactions: RedactionCounts = {};
    const out = await gatedStore(this.rawStore, redactions).supersedeMemory(ns, parseId(id), { ...data, namespace: ns, provenance: data.provenance ?? [{ source: 'api' }] });
    const warning = await this.embedMemory(out.current.id);
    return { ...out, ...(warning ? { warning } : {}), ...(totalRedactions(redactions) ? { redactions } : {}) };
  }

  async history(id: string, namespace?: string): Promise<Memory[]> {
    const ns = this.namespace(namespace);
    const chain = await this.store.memoryHistory(ns, parseId(id));
    if (chain.length === 0) throw new CairnError(ERROR_CODES.NOT_FOUND, `No memory ${id} in namespace ${ns}`);
    return chain;
  }

  /** Hybrid search in one namespace. Falls back to BM25 (and says why) when vectors are unusable. */
  async search(query: string, options: SearchOptions = {}): Promise<SearchResponse> {
    const { namespace, ...rest } = options;
    const ns = this.namespace(namespace);
    const parsed = parseInput(searchInputSchema, { ...rest, query }, 'search');
    // The query may go to a chat model (rewrite) or an embedding API, and is echoed back: gated.
    const input = { ...parsed, query: gateText(parsed.query) };
    const now = input.asOf === undefined ? Date.now() : Date.parse(input.asOf);
    const rewriting = (input.rewrite ?? this.config.search.queryRewrite) ? this.rewriteQuery(ns, input.query, now) : null;
    // Read once: the query vector's focus and the speaker factor both need them.
    const speakers = await this.store.speakers(ns);
    let vectors: VectorSide | null = null;
    let degraded: string | undefined;
    if (input.mode !== 'bm25') {
      if (!this.embedder) degraded = 'no embedder configured: BM25 only';
      else {
        try {
          // Embedding starts first (possibly on another thread); catch-up and BM25 run meanwhile.
          const queryVector = this.queryVector(input.query, speakers, rewriting);
          queryVector.catch(() => undefined); // awaited (and reported) below, or not needed
          const index = this.index();
          if ((await index.ready(ns)) === 0) degraded = await noVectorsNote(this.store, this.embedder.modelId, ns);
          else vectors = { index, model: this.embedder.modelId, passageModel: passageModelId(this.embedder.modelId), queryVector };
        } catch (err) {
          degraded = `vector search unavailable: ${(err as Error).message}`;
        }
      }
    }
    const mode = vectors ? input.mode : 'bm25';
    const rewrite = rewriting ? await rewriting : undefined;
    const filter: EntryFilter = {
      ...searchPeriod(input, now),
      categories: input.categories,
      kinds: input.kinds,
      layers: input.layers,
      minImportance: input.minImportance,
      includeSuperseded: input.includeSuperseded,
    };
    const timeWindow = await queryTimeWindow(input.query, now);
    const ranked: RankedSearch = (filter, limit) =>
      hybridSearch(
        { store: this.store, ranking: this.config.search, candidates: this.config.search.candidates, vectors },
        {
          namespace: ns,
          query: input.query,
          limit,
          mode,
          speakers,
          now,
          timeWindow,
          timeZone: this.config.timezone,
          ...(rewrite?.status === 'used' ? { expansion: [...rewrite.keywords, ...rewrite.queries] } : {}),
          filter,
        },
      );
    const results = input.strategy === 'layers' ? await layerFirstSearch(ranked, { limit: input.limit, filter }) : await ranked(filter, input.limit);
    return { namespace: ns, query: input.query, mode, results, ...(degraded ? { degraded } : {}), ...(rewrite ? { rewrite } : {}), ...(input.asOf ? { asOf: input.asOf } : {}) };
  }

  private rewriteQuery(namespace: string, query: string, now: number): Promise<RewriteOutcome> {
    if (this.rewriter === undefined) this.rewriter = createQueryRewriter(this.store, this.config, this.llmTransport);
    if (!this.rewriter) return Promise.resolve({ status: 'skipped', reason: 'no chat model configured (judge.llm)' });
    return this.rewriter.expand(namespace, query, localDayTime(new Date(now).toISOString(), this.config.timezone)!.day);
  }

  /**
   * The query's vector: the question blended with its focus (search.focusWeight), then moved
   * halfway towards the mean of the rewrite's phrasings when the model rewrote it.
   */
  private async queryVector(query: string, speakers: readonly SpeakerCount[], rewriting: Promise<RewriteOutcome> | null): Promise<Float32Array> {
    const weight = this.config.search.focusWeight;
    const focus = weight > 0 ? queryFocus(query, speakers) : null;
    const [own, focused] = await this.embedQueries(focus ? [query, focus] : [query]);
    const vector = focused ? blendVectors(own!, [focused], weight) : own!;
    const outcome = rewriting ? await rewriting : null;
    if (outcome?.status !== 'used' || outcome.queries.length === 0) return vector;
    return blendVectors(vector, await this.embedder!.embed(outcome.queries), 1);
  }

  private async embedQueries(texts: string[]): Promise<Float32Array[]> {
    // A text equal to an already embedded one reuses its cached vector (search never writes).
    const hashes = texts.map((t) => sha256(t));
    const cached = await this.store.cacheGet(this.embedder!.modelId, hashes);
    const missing = texts.filter((_, i) => !cached.has(hashes[i]!));
    const fresh = missing.length ? await this.embedder!.embed(missing) : [];
    let next = 0;
    return hashes.map((h) => cached.get(h) ?? fresh[next++]!);
  }

  /** Embeds every entry that lacks a vector for the active model. */
  async embedPending(options: { namespace?: string; limit?: number; onProgress?: (p: IndexProgress) => void } = {}): Promise<IndexProgress> {
    if (!this.embedder) throw new CairnError(ERROR_CODES.EMBEDDER, 'No embedder configured (embedder.provider is "none")');
    return embedPending(this.store, this.embedder, options);
  }

  /**
   * Rebuilds vectors for the active model (all of them with `force`), then drops vectors and
   * index files of other models so they never mix.
   */
  async reembed(options: { force?: boolean; onProgress?: (p: IndexProgress) => void } = {}): Promise<IndexProgress & { dropped: number }> {
    if (!this.embedder) throw new CairnError(ERROR_CODES.EMBEDDER, 'No embedder configured (embedder.provider is "none")');
    const index = this.index();
    let dropped = 0;
    if (options.force) {
      // Count only other models' vectors as dropped; the active model's are recomputed below.
      const keep = [this.embedder.modelId, passageModelId(this.embedder.modelId)];
      dropped += await this.store.dropVectorsExcept(keep);
      await this.store.dropVectorsExcept([]);
      index.reset();
    }
    const progress = await this.embedPending({ onProgress: options.onProgress });
    dropped += await this.store.dropVectorsExcept([this.embedder.modelId, passageModelId(this.embedder.modelId)]);
    VectorIndex.removeOtherModels(this.paths.indexDir, this.embedder.modelId);
    return { ...progress, dropped };
  }

  /** Captures what is new in transcript files (see ingestPaths), then views and vectors. */
  async ingest(paths: readonly string[], options: IngestOptions): Promise<IngestResponse> {
    return ingestPaths(
      this.captureDeps(),
      paths,
      { given: options.namespace === undefined ? undefined : this.namespace(options.namespace), fallback: this.defaultNamespace },
      options,
    );
  }

  /** What capture needs from the facade; `embed` is null without an embedder or when disabled. */
  captureDeps(): CaptureDeps {
    const embed = this.embedder && this.config.capture.embed ? async (ns: string, onProgress?: (p: IndexProgress) => void) => (await this.embedPending({ namespace: ns, onProgress })).done : null;
    const judge = async (ns: string, onProgress?: (done: number) => void) => (await this.judging().judgePending(ns, { onProgress })).judged;
    // Capture redacts every turn and chunk itself (the same redact, counted per source).
    return { store: this.rawStore, paths: this.paths, timeZone: this.config.timezone, embed, judge, vectorModel: embed ? this.embedder!.modelId : null };
  }

  /** The judge stage (one per facade: the LLM's breaker and budget live as long as the process). */
  judging(): Judging {
    this.judgingStage ??= new Judging(this.store, this.config, this.llm());
    return this.judgingStage;
  }

  /** Judges captured turns that have no judgment yet (all namespaces when none is given). */
  async judgePending(options: { namespace?: string; onProgress?: (done: number) => void } = {}): Promise<JudgeReport> {
    return this.judgeEach(options.namespace, (ns, progress) => this.judging().judgePending(ns, { onProgress: progress }), options.onProgress);
  }

  /** Judges history again: everything since a time, or only what the fallback judged. */
  async rejudge(options: { namespace?: string; since?: string; fallbacksOnly?: boolean; onProgress?: (done: number) => void } = {}): Promise<JudgeReport> {
    const since = options.since === undefined ? undefined : parseTime(options.since, 'since');
    return this.judgeEach(options.namespace, (ns, progress) => this.judging().rejudge(ns, { since, fallbacksOnly: options.fallbacksOnly, onProgress: progress }), options.onProgress);
  }

  private async judgeEach(namespace: string | undefined, run: (ns: string, progress: (n: number) => void) => Promise<JudgeReport>, onProgress?: (done: number) => void): Promise<JudgeReport> {
    const namespaces = namespace !== undefined ? [this.namespace(namespace)] : (await this.store.namespaceStats()).map((s) => s.namespace);
    const total: JudgeReport = { judged: 0, promoted: 0, byJudge: {}, fallbacks: 0, llmRequests: 0, costUsd: 0 };
    for (const ns of namespaces) {
      const base = total.judged;
      const r = await run(ns, (n) => onProgress?.(base + n));
      total.judged += r.judged;
      total.promoted += r.promoted;
      total.fallbacks += r.fallbacks;
      total.llmRequests += r.llmRequests;
      total.costUsd += r.costUsd;
      for (const [k, n] of Object.entries(r.byJudge)) total.byJudge[k] = (total.byJudge[k] ?? 0) + n;
    }
    if (total.promoted > 0 && this.embedder && this.config.capture.embed) {
      for (const ns of namespaces) await this.embedPending({ namespace: ns }).catch(() => undefined);
    }
    return total;
  }

  /** Judged, pending and promoted turns per namespace. */
  async judgeStats(): Promise<JudgeStats[]> {
    return this.store.judgeStats();
  }

  /** A person's label on a memory or turn: shapes later judgments and applies to that turn now. */
  async feedback(id: string, important: boolean, namespace?: string): Promise<FeedbackResult> {
    const result = await giveFeedback(this.store, this.namespace(namespace), id, important, this.config.limits.maxTextChars);
    if (result.memoryId && this.embedder && this.config.capture.embed) await this.embedPending({ namespace: this.namespace(namespace) }).catch(() => undefined);
    return result;
  }

  /** Registers sources (the kind's default locations when no path is given). */
  async addSources(input: AddSourceInput): Promise<Source[]> {
    return addSources(this.store, this.defaultNamespace, input);
  }

  async sourceStatuses(options: { watchedOnly?: boolean } = {}): Promise<SourceStatus[]> {
    return sourceStatuses(this.store, options);
  }

  /** Stops capturing a source; the turns it produced stay. */
  async removeSource(ref: string | number, kind?: string): Promise<Source> {
    const source = await findSource(this.store, ref, kind);
    await this.store.removeSource(source.id);
    return source;
  }

  /** Health, counts and index freshness; `integrity` also verifies every database page (slow). */
  async status(options: { integrity?: boolean } = {}): Promise<StatusReport> {
    return buildStatus(this.store, this.paths, this.config, this.embedder?.modelId ?? null, { ...options, readOnly: this.readOnly });
  }

  async exportJsonl(out: Writable, namespace?: string): Promise<number> {
    return exportJsonl(this.store, this.namespace(namespace), out);
  }

  async importJsonl(
    input: Readable,
    options: { namespace?: string; format?: ImportFormat; onLine?: (n: number) => void } = {},
  ): Promise<ImportReport & { embedded: number; warning?: string; redactions?: RedactionCounts }> {
    return this.importFrom({ stream: input }, options);
  }

  /**
   * Imports memories from a file, an OpenClaw workspace folder or a stream: export records keep
   * their namespace unless `namespace` is given; other records go to `namespace` or the default.
   */
  async importFrom(
    input: { path: string } | { stream: Readable },
    options: { namespace?: string; format?: ImportFormat | string; onLine?: (n: number) => void } = {},
  ): Promise<ImportReport & { embedded: number; warning?: string; redactions?: RedactionCounts }> {
    const redactions: RedactionCounts = {};
    const imported = await importMemories(gatedStore(this.rawStore, redactions), input, {
      namespace: options.namespace === undefined ? undefined : this.namespace(options.namespace),
      fallback: this.defaultNamespace,
      format: options.format === undefined ? undefined : parseImportFormat(options.format),
      maxTextChars: this.config.limits.maxTextChars,
      onLine: options.onLine,
    });
    const report = totalRedactions(redactions) ? { ...imported, redactions } : imported;
    if (!this.embedder || report.imported + report.merged === 0) return { ...report, embedded: 0 };
    try {
      return { ...report, embedded: (await this.embedPending()).done };
    } catch (err) {
      // The import itself succeeded; vectors can be rebuilt with reembed.
      return { ...report, embedded: 0, warning: `imported, but not embedded: ${(err as Error).message}; run "cairn reembed"` };
    }
  }

  /** The namespace's hot state (objective, blockers, next actions, notes); empty when never set. */
  async getState(namespace?: string): Promise<HotState> {
    return getState(this.store, this.namespace(namespace));
  }

  /**
   * Updates the hot state (fields given replace the stored ones; null clears). Write-ahead: the
   * store row is committed before this returns; then SESSION-STATE.md is rewritten atomically. If
   * only the file fails, the state is still saved and `warning` says so.
   */
  async setState(patch: HotStatePatch, namespace?: string): Promise<SetStateResult> {
    const redactions: RedactionCounts = {};
    const state = await setState(gatedStore(this.rawStore, redactions), this.paths, this.namespace(namespace), patch);
    return totalRedactions(redactions) ? { ...state, redactions } : state;
  }

  /** <home>/<ns>/SESSION-STATE.md */
  stateFilePath(namespace?: string): string {
    return stateFilePath(this.paths, this.namespace(namespace));
  }

  /** <home>/<ns>/MEMORY.md (may not exist yet). */
  memoryFilePath(namespace?: string): string {
    return memoryFilePath(this.paths, this.namespace(namespace));
  }

  /** The token-budgeted session-start brief: hot state, MEMORY.md, important memories, query hits. */
  async context(options: ContextOptions = {}): Promise<ContextBrief> {
    if (typeof options !== 'object' || options === null) throw new CairnError(ERROR_CODES.INVALID_INPUT, 'Invalid context request: expected an object');
    const { namespace, ...given } = options;
    const ns = this.namespace(namespace);
    // The query is echoed in the brief's heading and searched with: gated like a search query.
    const rest = typeof given.query === 'string' ? { ...given, query: gateText(given.query) } : given;
    // A session start (no query) is answered from the brief the nightly prep wrote, while it is current.
    const budget = typeof given.budgetTokens === 'number' ? given.budgetTokens : CONTEXT_DEFAULT_BUDGET;
    if (!rest.query) {
      const ready = await preparedBrief(this.store, this.paths, ns, budget);
      if (ready) return ready;
    }
    return this.buildBrief(ns, rest);
  }

  private buildBrief(ns: string, input: Omit<ContextOptions, 'namespace'>): Promise<ContextBrief> {
    return buildContext(
      {
        store: this.store,
        paths: this.paths,
        namespace: ns,
        search: async (query, limit) => (await this.search(query, { namespace: ns, limit, kinds: ['memory', 'turn', 'document', 'digest'] })).results,
      },
      input,
    );
  }

  /** The sleep protocol's prep: the session-start brief of a namespace written ahead (see context-prep.ts). */
  async prepareBrief(namespace?: string, budgetTokens = CONTEXT_DEFAULT_BUDGET): Promise<void> {
    const ns = this.namespace(namespace);
    await prepareBrief(this.store, this.paths, ns, budgetTokens, () => this.buildBrief(ns, { budgetTokens }));
  }

  /**
   * A window of lines of a file Cairn may show for the namespace (its folder, its indexed
   * documents, or `memory:<id>`); anything else is NOT_FOUND, whether or not it exists.
   */
  async readFile(input: ReadFileInput, namespace?: string): Promise<ReadFileResult> {
    return readNamespaceFile(this.store, this.paths, this.namespace(namespace), input);
  }

  /**
   * Purges, for secrets and legal removal (see purge.ts): records by `ids`, every occurrence of a
   * literal `text`, or all history again through the current redaction rules (`secrets`), from
   * every table, index, vector, cache, file Cairn wrote and backup, leaving an audit entry without
   * the removed text. Scoped to the namespace unless `allNamespaces`. Not an agent tool.
   */
  async purge(input: PurgeInput & { namespace?: string; allNamespaces?: boolean; via?: string }): Promise<PurgeReport> {
    if (typeof input !== 'object' || input === null) throw new CairnError(ERROR_CODES.INVALID_INPUT, 'Invalid purge request: expected an object with ids, text or secrets');
    const { namespace, allNamespaces, via, ...rule } = input;
    if (allNamespaces === true && namespace !== undefined) throw new CairnError(ERROR_CODES.INVALID_INPUT, 'Give a namespace or allNamespaces, not both');
    const embed = this.embedder ? async (ns: string) => (await this.embedPending({ namespace: ns })).done : null;
    return runPurge(
      { store: this.rawStore, paths: this.paths, scope: allNamespaces === true ? null : this.namespace(namespace), via: via ?? 'library', embed, forgetVectorIndex: () => (this.vectorIndex = null), busyTimeoutMs: this.busyTimeoutMs },
      rule,
    );
  }

  /**
   * Consolidates the layers (daily and last-night notes, reviews, weekly distills, topics,
   * MEMORY.md): everything due up to now by default, or one day or week (src/consolidate/).
   */
  async consolidate(options: ConsolidateOptions = {}): Promise<ConsolidateResult> {
    const prose = createProseWriter({ config: this.config, runtime: this.llm(), transport: this.llmTransport });
    return runConsolidation({ store: this.store, paths: this.paths, config: this.config, prose }, options);
  }

  private llm(): LlmRuntime | null {
    if (this.llmRuntime === undefined) this.llmRuntime = createLlmRuntime(this.store, this.config, this.llmTransport);
    return this.llmRuntime;
  }

  /**
   * The nightly sleep protocol (service/sleep.ts): backup (one a night, rotated) → consolidate every
   * namespace → content → the session-start briefs written ahead. Other firings only consolidate.
   */
  async sleep(req: SleepRequest): Promise<SleepReport> {
    return runSleep(
      {
        backup: async (at) => {
          const since = Date.parse(at) - RECENT_BACKUP_MS;
          if ((await listBackups(this.paths)).some((b) => b.kind === 'daily' && Date.parse(b.createdAt) > since)) return null;
          const made = await this.backupCreate({ kind: 'daily', now: new Date(at) });
          await this.backupRotate();
          return made.id;
        },
        consolidate: (at) => this.consolidate({ at }),
        prepare: (ns) => this.prepareBrief(ns),
      },
      req,
    );
  }

  /** The purge audit, newest first (`namespace`: only purges scoped to it). */
  async purgeLog(options: { namespace?: string; limit?: number } = {}): Promise<PurgeRecord[]> {
    return purgeLog(this.rawStore, { namespace: options.namespace === undefined ? undefined : this.namespace(options.namespace), limit: options.limit });
  }

  /** Copies the store, online, into <home>/backups/ (consolidate/backup.ts); `manual` unless told. */
  async backupCreate(options: { kind?: BackupKind; now?: Date } = {}): Promise<BackupInfo> {
    return createBackup(this.paths, this.rawStore, { kind: options.kind ?? 'manual', now: options.now });
  }

  /** The backups, newest first. */
  async backupList(): Promise<BackupInfo[]> {
    return listBackups(this.paths);
  }

  /** Removes nightly backups beyond consolidation.backups (keepDaily, keepWeekly); others stay. */
  async backupRotate(): Promise<RotationReport> {
    return rotateBackups(this.paths, { ...this.config.consolidation.backups, timeZone: this.config.timezone });
  }

  /**
   * Puts a backup back as the home's database. Static: no facade may hold the database open
   * meanwhile (a restore refuses while any process does, the daemon included).
   */
  static async backupRestore(id: string, options: { home?: string; now?: Date } = {}): Promise<RestoreReport> {
    return restoreBackup(resolveHome(options.home), id, { now: options.now });
  }

  /** Creates an API token granted to namespaces ('*': all); the token is returned once, stored hashed. */
  async createToken(input: { namespaces: string[]; label?: string }): Promise<CreatedToken> {
    return createToken(this.store, input);
  }

  async listTokens(): Promise<ApiToken[]> {
    return listTokens(this.store);
  }

  async revokeToken(id: string): Promise<boolean> {
    return revokeToken(this.store, id);
  }

  /** The token's record when it is valid and not revoked, else null. */
  async verifyToken(token: string): Promise<ApiToken | null> {
    return verifyToken(this.store, token);
  }

  /** Whether a token is active; with `includeRevoked`, whether the home ever had one. */
  async hasTokens(options: { includeRevoked?: boolean } = {}): Promise<boolean> {
    return hasTokens(this.store, options);
  }

  /**
   * Loads what the first search and brief would otherwise load on demand (the embedding model,
   * the brief's tokenizer, the date parser), for a long-lived process that answers them. Failures
   * surface later, at the call that needs the part.
   */
  async warmUp(): Promise<void> {
    await Promise.allSettled([this.embedder?.init(), loadTokenizer(), loadTimeParser()]);
  }

  async close(): Promise<void> {
    try {
      await this.vectorIndex?.persist();
    } finally {
      await this.embedder?.close();
      await this.store.close();
    }
  }
}
