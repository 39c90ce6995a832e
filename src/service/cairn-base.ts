// The facade's core (see cairn.ts, whose `Cairn` extends it and is what callers use): the records,
// search, hot state, the session-start brief, files and tokens — the calls an agent makes most.
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { type CairnConfig } from '../core/config.js';
import { type HomePaths } from '../core/home.js';
import { parseNamespace } from '../core/namespace.js';
import type { Memory } from '../core/types.js';
import type { Embedder } from '../embed/embedder.js';
import { passageModelId } from '../embed/passages.js';
import type { Store } from '../store/store.js';
import type { SearchResult } from '../search/hybrid.js';
import { searchNamespace } from '../search/search.js';
import { VectorIndex } from '../search/vector-index.js';
import { embedEntries, embedPending, noVectorsNote, type IndexProgress } from './indexer.js';
import { parseId, parseInput, searchInputSchema, setTagsInputSchema, storeInputSchema, type SearchInput, type StoreInput } from './inputs.js';
import { Judging, type LlmRuntime } from './judging.js';
import { createLlmRuntime, createQueryRewriter } from './llm-runtime.js';
import type { TransportOptions } from '../llm/transport.js';
import type { QueryRewriter, RewriteOutcome } from '../search/query-rewrite.js';
import { warmTimeParser } from '../search/query-time.js';
import { localDayTime } from '../core/local-time.js';
import { getState, memoryFilePath, setState, stateFilePath, type HotState, type HotStatePatch, type SetStateResult } from './hot-state.js';
import { buildContext, CONTEXT_DEFAULT_BUDGET, type ContextBrief, type ContextOptions } from './context.js';
import { prepareBrief, preparedBrief } from './context-prep.js';
import { readNamespaceFile, type ReadFileInput, type ReadFileResult } from './files.js';
import { createToken, hasTokens, listTokens, revokeToken, verifyToken, type ApiToken, type CreatedToken } from './tokens.js';
import { gatedStore, gateText, totalRedactions, type RedactionCounts } from './redaction-gate.js';

export interface StoreResult {
  memory: Memory;
  duplicate: boolean;
  /** False when the memory is stored but its vector could not be made now (see status). */
  embedded: boolean;
  warning?: string;
  /** Secrets replaced by `[REDACTED:<kind>]` before anything was stored, per kind (absent when none). */
  redactions?: RedactionCounts;
  /** It says what this older memory says in other words: folded into it (its mentions and provenance went there). */
  mergedInto?: string;
  /** The memory whose fact this one's newer value superseded. */
  supersedes?: string;
}

export interface SearchOptions extends Omit<SearchInput, 'query'> {
  namespace?: string;
}

export interface SearchResponse {
  namespace: string;
  query: string;
  mode: 'hybrid' | 'bm25' | 'vector';
  results: SearchResult[];
  /** Results were found but not one is a good match: every one's confidence is below search.minConfidence, so none is returned (never with search.minConfidence 0). */
  noGoodMatch: boolean;
  /** Results left out for a confidence below search.minConfidence. */
  belowConfidence: number;
  /** Why the vector side was not used, when it was not. */
  degraded?: string;
  /** What query rewriting added, or why it was skipped (only when rewriting was asked for). */
  rewrite?: RewriteOutcome;
  /** The moment the search was asked as of (ISO), when it was given. */
  asOf?: string;
}

/** CAIRN_BUSY_TIMEOUT_MS: how long to wait for another process's write lock (default 5000 ms). */
/** A nightly backup younger than this makes another (a catch-up after a restart) unnecessary. */

/**
 * The facade's core: records, search, hot state, the session brief, files and tokens. `Cairn`
 * (cairn.ts) adds capture, judging, import, purge, consolidation and backups; callers use `Cairn`.
 */
export abstract class CairnBase {
  readonly paths: HomePaths;
  readonly config: CairnConfig;
  readonly defaultNamespace: string;
  /** The store behind the redaction gate: every write through it has its text redacted first. */
  readonly store: Store;
  /** Why this process cannot write the home (reads work; writes fail with READ_ONLY), or null. */
  readOnly: string | null = null;
  /** The store itself, for capture (which redacts each turn and chunk and counts per source) and purge. */
  protected readonly rawStore: Store;
  protected readonly embedder: Embedder | null;
  protected vectorIndex: VectorIndex | null = null;
  protected judgingStage: Judging | null = null;
  /** The chat model's client, budget and breaker: one per process, shared by the judge and the prose writer. */
  protected llmRuntime: LlmRuntime | null | undefined;
  protected readonly busyTimeoutMs: number | undefined;
  /** Built on first use; null without a chat model. */
  protected rewriter: QueryRewriter | null | undefined;
  /** How entity names are keyed (the memory part's alias rule, given by the subclass). */
  protected abstract aliasKey(name: string): string;
  /** Runs after a memory was stored and embedded (the knowledge pass, in the subclass): what it did to that memory. */
  protected abstract afterStore(namespace: string, memoryId: string): Promise<{ memory: Memory | null; outcome: Pick<StoreResult, 'mergedInto' | 'supersedes'> }>;
  protected llmTransport: TransportOptions = {};

  protected constructor(paths: HomePaths, config: CairnConfig, store: Store, embedder: Embedder | null, namespace: string, busyTimeoutMs?: number) {
    this.busyTimeoutMs = busyTimeoutMs;
    this.paths = paths;
    this.config = config;
    this.rawStore = store;
    this.store = gatedStore(store);
    this.embedder = embedder;
    this.defaultNamespace = namespace;
  }

  get modelId(): string | null {
    return this.embedder?.modelId ?? null;
  }

  namespace(ns?: string): string {
    return ns === undefined ? this.defaultNamespace : parseNamespace(ns);
  }

  protected index(): VectorIndex {
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
    const learned = await this.afterStore(ns, memory.id);
    return { memory: learned.memory ?? memory, ...(duplicate ? {} : learned.outcome), duplicate, embedded: this.embedder !== null && warning === undefined, ...(warning ? { warning } : {}), ...(totalRedactions(redactions) ? { redactions } : {}) };
  }

  /**
   * Embeds one memory's index entry. Returns a warning instead of throwing: the memory itself is
   * stored (acknowledged) and status reports the missing vector. A backlog (e.g. after a model
   * switch) is left to reembed.
   */
  protected async embedMemory(id: string): Promise<string | undefined> {
    if (!this.embedder) return undefined;
    try {
      const entry = await this.store.entryFor('memory', id);
      if (entry) await embedEntries(this.store, this.embedder, [entry], this.config.index.passages);
      return undefined;
    } catch (err) {
      return `stored, but not embedded: ${(err as Error).message}`;
    }
  }

  /** Every namespace of the home, sorted (no counts). */
  async namespaceIds(): Promise<string[]> {
    return this.store.namespaceIds();
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

  /** Replaces the tags of a current memory (a superseded version keeps its own: CONFLICT). */
  async setTags(id: string, tags: readonly string[], namespace?: string): Promise<Memory> {
    const ns = this.namespace(namespace);
    const { tags: clean } = parseInput(setTagsInputSchema, { tags }, 'tags');
    return this.store.setMemoryTags(ns, parseId(id), clean);
  }

  /** Hybrid search in one namespace. Falls back to BM25 (and says why) when vectors are unusable. */
  async search(query: string, options: SearchOptions = {}): Promise<SearchResponse> {
    const { namespace, ...rest } = options;
    const ns = this.namespace(namespace);
    const parsed = parseInput(searchInputSchema, { ...rest, query }, 'search');
    // The query may go to a chat model (rewrite) or an embedding API, and is echoed back: gated.
    const input = { ...parsed, query: gateText(parsed.query) };
    const embedder = this.embedder;
    const config = this.config;
    const out = await searchNamespace(
      {
        store: this.store,
        ranking: this.config.search,
        get timeZone() {
          return config.timezone; // read only when the query names a time (core/config.ts: lazy)
        },
        passages: this.config.index.passages,
        clock: Date.now,
        embedder: embedder && {
          modelId: embedder.modelId,
          embed: (texts) => embedder.embed(texts),
          index: () => this.index(),
          whyNoVectors: (n) => noVectorsNote(this.store, embedder.modelId, n),
        },
        rewrite: (n, q, now) => this.rewriteQuery(n, q, now),
        aliasKey: (name) => this.aliasKey(name),
      },
      ns,
      input,
    );
    return { namespace: ns, query: input.query, ...out, ...(input.asOf ? { asOf: input.asOf } : {}) };
  }

  protected rewriteQuery(namespace: string, query: string, now: number): Promise<RewriteOutcome> {
    if (this.rewriter === undefined) this.rewriter = createQueryRewriter(this.store, this.config, this.llmTransport);
    if (!this.rewriter) return Promise.resolve({ status: 'skipped', reason: 'no chat model configured (judge.llm)' });
    return this.rewriter.expand(namespace, query, localDayTime(new Date(now).toISOString(), this.config.timezone)!.day);
  }

  /** Embeds every entry that lacks a vector for the active model. */
  async embedPending(options: { namespace?: string; limit?: number; onProgress?: (p: IndexProgress) => void; throughSeq?: number } = {}): Promise<IndexProgress> {
    if (!this.embedder) throw new CairnError(ERROR_CODES.EMBEDDER, 'No embedder configured (embedder.provider is "none")');
    return embedPending(this.store, this.embedder, { ...options, passages: this.config.index.passages });
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
      const keep = [this.embedder.modelId, passageModelId(this.embedder.modelId, this.config.index.passages)];
      dropped += await this.store.dropVectorsExcept(keep);
      await this.store.dropVectorsExcept([]);
      index.reset();
    }
    const progress = await this.embedPending({ onProgress: options.onProgress });
    dropped += await this.store.dropVectorsExcept([this.embedder.modelId, passageModelId(this.embedder.modelId, this.config.index.passages)]);
    VectorIndex.removeOtherModels(this.paths.indexDir, this.embedder.modelId);
    return { ...progress, dropped };
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

  protected buildBrief(ns: string, input: Omit<ContextOptions, 'namespace'>): Promise<ContextBrief> {
    return buildContext(
      {
        store: this.store,
        paths: this.paths,
        namespace: ns,
        search: async (query, limit) => (await this.search(query, { namespace: ns, limit, kinds: ['memory', 'turn', 'document'] })).results,
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

  protected llm(): LlmRuntime | null {
    if (this.llmRuntime === undefined) this.llmRuntime = createLlmRuntime(this.store, this.config, this.llmTransport);
    return this.llmRuntime;
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
   * Loads what the first search would otherwise load on demand (the embedding model, the date
   * parser with its patterns compiled), for a long-lived process that answers searches. Failures
   * surface later, at the call that needs the part. The brief's tokenizer is not among them: it
   * holds ~60 MiB resident, and a daemon serves a brief only for `cairn context`, whose first call
   * pays its ~200 ms load once.
   */
  async warmUp(): Promise<void> {
    await Promise.allSettled([this.embedder?.init(), warmTimeParser()]);
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
