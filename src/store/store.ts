// The persistence seam. SQLite (embedded default) implements it now, PostgreSQL later; both must
// pass test/store/conformance.ts unchanged. Methods are async so a networked backend fits.
import type { Category, Digest, DigestKind, Kind, Layer, Memory, NamespaceStats, NewDigest, NewMemory, NewTurn, Provenance, Source, Turn } from '../core/types.js';
import type { PurgeChanges, PurgeIdsResult, PurgeRecord, PurgeScope, TextRewrite } from './purge.js';

export { PURGED_MARKER, type PurgeChanges, type PurgeIdsResult, type PurgeRecord, type PurgeScope, type PurgedKind, type RemovedDigest, type TextRewrite } from './purge.js';
import type { AddMemoryOptions, AddMemoryResult, AddTurnsResult, ApiTokenRecord, CheckpointRecord, CheckpointState, DigestFilter, DocumentChunk, DocumentChunkInput, DocumentFile, EntryChange, EntryFilter, EntryKeys, FeedbackRecord, HealthOptions, HealthReport, HotStateRecord, ImportOutcome, IndexEntry, JudgeStats, JudgmentInput, JudgmentRecord, KeywordHit, MemoryFilter, NeighbourOptions, NeighbourTurn, NeighbourTurns, NewApiToken, PutDigestResult, ReplaceDocumentInput, ReplaceDocumentResult, SpeakerCount, StoredJudgment, StoredVector, SupersedeResult, TurnsCheckpoint, UsageRow, VectorRow, VectorStats } from './records.js';

export * from './records.js';
export * from './memory-unit.js';
import type { MemoryUnit } from './memory-unit.js';
export * from './knowledge-records.js';
import type { ApplyKnowledgeResult, EntityEdit, EntityListFilter, EntityRef, EntityWithStats, FactFilter, KnowledgeBatch, SeqMemory } from './knowledge-records.js';
import type { Entity, EntityType, Fact } from '../core/types.js';
import type { LeaseRecord } from './leases.js';

export type { LeaseRecord } from './leases.js';

export interface Store {
  readonly backend: string;
  close(): Promise<void>;
  health(options?: HealthOptions): Promise<HealthReport>;

  ensureNamespace(namespace: string): Promise<void>;
  namespaceStats(): Promise<NamespaceStats[]>;
  /** Every namespace id, sorted (cheap: no counts). */
  namespaceIds(): Promise<string[]>;
  /** Moves all of `from` to the new namespace `to` (CONFLICT when `to` exists); false when `from` is gone. */
  renameNamespace(from: string, to: string): Promise<boolean>;

  /**
   * Runs `fn` over the memory-writing primitives in one transaction: committed when it resolves,
   * rolled back when it throws. The rules that use it live in src/memory/remember.ts; the methods
   * below that write memories (addMemory, addMemories, supersedeMemory, importMemory,
   * applyJudgments, setMemoryTags) are those rules, which every backend delegates to unchanged (docs/STORE.md).
   */
  memoryUnit<T>(fn: (unit: MemoryUnit) => Promise<T>): Promise<T>;
  addMemory(input: NewMemory, options?: AddMemoryOptions): Promise<AddMemoryResult>;
  /** Adds many memories in one transaction (bulk import); same dedup rules as addMemory, in order. */
  addMemories(inputs: readonly NewMemory[], options?: AddMemoryOptions): Promise<AddMemoryResult[]>;
  getMemory(namespace: string, id: string): Promise<Memory | null>;
  listMemories(filter: MemoryFilter): Promise<Memory[]>;
  supersedeMemory(namespace: string, id: string, replacement: NewMemory, options?: AddMemoryOptions): Promise<SupersedeResult>;
  /** The supersede chain that contains `id`, oldest first; empty when the id is unknown. */
  memoryHistory(namespace: string, id: string): Promise<Memory[]>;
  /** Every memory of the namespace including superseded ones, oldest first, in pages. */
  exportMemories(namespace: string): AsyncIterable<Memory>;
  /** Inserts a memory record verbatim (id, times, supersede links), for lossless import. */
  importMemory(memory: Memory): Promise<ImportOutcome>;

  addTurns(turns: readonly NewTurn[], checkpoint?: TurnsCheckpoint): Promise<AddTurnsResult>;
  getTurn(namespace: string, id: string): Promise<Turn | null>;
  /** The turns of a namespace among `ids`, in the order asked, each once (unknown ids left out). */
  getTurns(namespace: string, ids: readonly string[]): Promise<Turn[]>;
  /** Turns of a namespace in insertion order after `afterSeq` (views that follow the log). */
  turnsAfter(namespace: string, afterSeq: number, limit: number): Promise<Array<{ seq: number; turn: Turn }>>;
  /** Stored turns per source id. */
  sourceTurnCounts(): Promise<Map<number, number>>;
  /** Turns of the same session before `beforeSeq`, oldest first (a judge's context). */
  turnsBefore(namespace: string, sessionId: string, beforeSeq: number, limit: number): Promise<Turn[]>;

  /** Turns with no judgment yet, in insertion order after `afterSeq`. */
  unjudgedTurns(namespace: string, afterSeq: number, limit: number): Promise<Array<{ seq: number; turn: Turn }>>;
  /**
   * Records judgments in one transaction, with the memories they create (deduplicated like
   * addMemory) and the turns' index importance and category. Judging a turn again replaces its
   * judgment; a memory it already produced is updated, never duplicated or deleted.
   */
  applyJudgments(items: readonly JudgmentInput[]): Promise<Array<{ turnId: string; memoryId: string | null; duplicate: boolean }>>;
  /** Judged turns after `afterSeq` (re-judging), optionally since a time or only those marked for it. */
  judgedTurns(namespace: string, afterSeq: number, limit: number, filter?: { since?: string; onlyNeedsRejudge?: boolean }): Promise<Array<{ seq: number; turn: Turn; judgment: StoredJudgment }>>;
  getJudgment(turnId: string): Promise<StoredJudgment | null>;
  /** Sets a current memory's importance (a person's feedback); false when there is no such memory. */
  setMemoryImportance(namespace: string, id: string, importance: number): Promise<boolean>;
  /** Replaces a current memory's tags (duplicates dropped), by the rule in memory/remember.ts: NOT_FOUND, or CONFLICT for a superseded one. */
  setMemoryTags(namespace: string, id: string, tags: readonly string[]): Promise<Memory>;
  judgeStats(): Promise<JudgeStats[]>;
  addFeedback(feedback: Omit<FeedbackRecord, 'id' | 'createdAt'>): Promise<FeedbackRecord>;
  /** Newest first. */
  listFeedback(namespace: string, limit: number): Promise<FeedbackRecord[]>;
  usageGet(namespace: string, day: string): Promise<UsageRow>;
  usageAdd(namespace: string, day: string, delta: Partial<UsageRow>): Promise<void>;
  /** Usage rows of a day (all namespaces), or of every day when omitted. */
  usageList(day?: string): Promise<Array<UsageRow & { namespace: string; day: string }>>;

  addSource(namespace: string, kind: string, path: string, options?: Record<string, unknown>): Promise<Source>;
  listSources(namespace?: string): Promise<Source[]>;
  removeSource(id: number): Promise<boolean>;
  getCheckpoint(sourceId: number, key: string): Promise<Record<string, unknown> | null>;
  putCheckpoint(checkpoint: CheckpointState): Promise<void>;
  /** Every checkpoint of a source, by key (status totals, a renamed file finding its state). */
  listCheckpoints(sourceId: number): Promise<CheckpointRecord[]>;

  /**
   * Makes the stored chunks of one file equal `chunks`, in one transaction: a no-op when the stored
   * hash equals `fileHash` (the rows only move to `sourceId` if another source had them);
   * otherwise the file's chunks and their entries (and so their vectors) are replaced.
   */
  replaceDocument(input: ReplaceDocumentInput): Promise<ReplaceDocumentResult>;
  /** Drops every chunk of one file with its entries; returns how many chunks went. */
  removeDocument(namespace: string, path: string): Promise<number>;
  /** Indexed files of a namespace, sorted by path; `sourceId` narrows to one source, `null` to unsourced files. */
  documentFiles(namespace: string, sourceId?: number | null): Promise<DocumentFile[]>;
  getDocumentChunk(namespace: string, id: string): Promise<DocumentChunk | null>;

  /** BM25 over the index entries of one namespace; `terms` are words in the index's form (search/text-analysis.ts: queryTerms, termOf), OR-ed. */
  /** Who speaks in a namespace and how often (named speakers only). Read-only: a backend may give every caller the same list. */
  speakers(namespace: string): Promise<readonly SpeakerCount[]>;
  /** Up to `radius` turns on each side of each given turn, within its session, in order (what ranking reads of them: NeighbourTurn). */
  turnNeighbours(namespace: string, turnIds: readonly string[], radius: number, options?: NeighbourOptions): Promise<NeighbourTurns[]>;
  keywordSearch(namespace: string, terms: readonly string[], limit: number, filter?: EntryFilter): Promise<KeywordHit[]>;
  /**
   * For each of `seqs`, which of `terms` (index forms, as keywordSearch takes them) its entry's
   * keyword index holds: 1 at the term's index. What a query of that term alone matches, so
   * coverage counts exactly the words keyword search finds an entry by. The seqs are the
   * namespace's (a search's candidates and their neighbours, read through the wall already); the
   * answer for another namespace's seq is unspecified.
   */
  termsHeld(namespace: string, terms: readonly string[], seqs: readonly number[]): Promise<Map<number, Uint8Array>>;
  /** Entries by seq within one namespace (others are silently not returned: namespaces are walls). */
  getEntries(namespace: string, seqs: readonly number[]): Promise<IndexEntry[]>;
  /** Seqs of the namespace's entries passing a filter, newest first, at most `limit`. */
  filterEntries(namespace: string, filter: EntryFilter, limit: number): Promise<number[]>;

  /**
   * Entries with no vector of `model` and seq above `afterSeq`, oldest first (page with the last
   * seq), each with the text it is embedded by: a memory's own text, else the indexed text.
   */
  entriesMissingVector(
    model: string,
    limit: number,
    namespace?: string,
    afterSeq?: number,
  ): Promise<Array<{ seq: number; namespace: string; text: string }>>;
  /** The index entry of one record (its seq and the text it is embedded by, as entriesMissingVector), or null. */
  entryFor(kind: Kind, refId: string): Promise<{ seq: number; namespace: string; text: string } | null>;
  /**
   * Stores vectors (replacing an entry's vector of the same model). A row with a text hash holds
   * that text's vector for cacheGet as well; when it is replaced or its entry goes, the vector
   * stays in the cache (unless another row holds the text), as a cache row of its own would.
   */
  putVectors(model: string, rows: ReadonlyArray<VectorRow>): Promise<void>;
  vectorsAfter(namespace: string, model: string, afterId: number, limit: number): Promise<StoredVector[]>;
  /**
   * Optional: the k nearest vectors of a namespace by cosine distance (1 − similarity), nearest
   * first, answered by the backend's own approximate index (PostgreSQL: pgvector HNSW). A store
   * that offers it spares every process building an in-memory graph of a large namespace:
   * search/vector-index.ts uses it past its exact-search size and searches smaller namespaces
   * exactly in process, as for a store without it.
   */
  nearestVectors?(namespace: string, model: string, query: Float32Array, k: number): Promise<Array<{ seq: number; distance: number }>>;
  getVectors(model: string, seqs: readonly number[]): Promise<Map<number, Float32Array>>;
  /**
   * Optional: the vectors of `seqs` as stored, each the bytes of store/vector-codec.ts's encoding,
   * undecoded (search keeps them in memory that way and rescores from them: a quarter of the
   * bytes of decoded floats, the same cosines).
   */
  getQuantisedVectors?(model: string, seqs: readonly number[]): Promise<Map<number, Uint8Array>>;
  vectorStats(model: string): Promise<VectorStats[]>;
  /** Vector counts per model, across namespaces (detects a model switch). */
  vectorModels(): Promise<Array<{ model: string; dimensions: number; vectors: number }>>;
  /** Drops vectors of every model not in `keep` (they are derived data, rebuilt by reembed). */
  dropVectorsExcept(keep: readonly string[]): Promise<number>;

  /** Vectors of texts by hash (sha256, hex): from the cache, or a vector row stored with that text's hash. */
  cacheGet(model: string, textHashes: readonly string[]): Promise<Map<string, Float32Array>>;
  cachePut(model: string, entries: ReadonlyArray<{ textHash: string; vector: Float32Array }>): Promise<void>;

  /**
   * Stores a digest by (namespace, path), replacing the one there, in one transaction with its
   * sections' index entries (kind 'digest', one per section, provenance = the cited turns and
   * memories) so search finds it; a section whose text is unchanged keeps its entry (and vector).
   * Same text and inputs hash as stored: nothing is written (`changed: false`).
   */
  putDigest(input: NewDigest, options?: { now?: string }): Promise<PutDigestResult>;
  getDigest(namespace: string, path: string): Promise<Digest | null>;
  /** Digests of a namespace, by path, with their texts and sections. */
  listDigests(namespace: string, filter?: DigestFilter): Promise<Digest[]>;
  /**
   * Forgets the digest at `path` with its section entries and sources, in one transaction (a file
   * Cairn no longer writes there: an entity page that moved). False when there was none.
   */
  deleteDigest(namespace: string, path: string): Promise<boolean>;
  /** Index entries of the namespace with seq above `afterSeq`, in seq order (digests excluded). */
  entryChangesAfter(namespace: string, afterSeq: number, limit: number): Promise<EntryChange[]>;
  /** The namespace's consolidation bookkeeping (a JSON object the consolidate part gives its shape), or null. */
  getConsolidationState(namespace: string): Promise<Record<string, unknown> | null>;
  putConsolidationState(namespace: string, state: Record<string, unknown>): Promise<void>;

  /** Where the namespace's knowledge pass stands: the seq of the last memory it took in (0: none). */
  knowledgeCursor(namespace: string): Promise<number>;
  /** Memories (current and superseded) with seq above `afterSeq`, in seq order. */
  memoriesAfter(namespace: string, afterSeq: number, limit: number): Promise<SeqMemory[]>;
  /** Applies what the knowledge pass learned, with its cursor, in one transaction (compare-and-set on the cursor). */
  applyKnowledge(batch: KnowledgeBatch): Promise<ApplyKnowledgeResult>;
  /** The entities these alias keys name (key → entity); unknown keys are absent. */
  entitiesByAliasKeys(namespace: string, keys: readonly string[]): Promise<Map<string, Entity>>;
  /**
   * Entities with an alias key starting with `prefix` (a plain prefix: no pattern characters), each
   * once, in no particular order, at most `limit`: a lookup through the alias key index that reads
   * neither aliases nor mention stats (listEntities' `aliasPrefix` orders by mentions, which costs
   * a read of every mention of every match).
   */
  entitiesByAliasPrefix(namespace: string, prefix: string, options: { type?: EntityType; limit: number }): Promise<EntityRef[]>;
  /** Entities with their mention stats, most mentioned first (ties: name). */
  listEntities(namespace: string, filter?: EntityListFilter): Promise<EntityWithStats[]>;
  /** One entity by id or slug, with stats; null when the namespace has none such. */
  getEntity(namespace: string, idOrSlug: string): Promise<EntityWithStats | null>;
  /** Ids of the memories that name any of these entities, newest first, at most `limit`. */
  entityMemoryIds(namespace: string, entityIds: readonly string[], limit: number, options?: { includeSuperseded?: boolean }): Promise<string[]>;
  /** Facts of a namespace, oldest valid time first. */
  listFacts(namespace: string, filter?: FactFilter): Promise<Fact[]>;
  /** A person's fix to entities (merge, rename, split steps), in one transaction. */
  editEntities(edit: EntityEdit): Promise<void>;
  /**
   * Forgets what the knowledge pass derived (entities nobody named or pinned, unpinned aliases,
   * mentions, facts) and sets the cursor to 0, so the pass takes every memory in again. Memories
   * it retired stay retired (history is never rewritten); pinned aliases and locked names stay.
   */
  resetKnowledge(namespace: string): Promise<void>;

  /** The namespace's hot state, or null when none was ever set. */
  getHotState(namespace: string): Promise<HotStateRecord | null>;
  /**
   * Merges `patch` into the hot state key by key (undefined values are skipped; others, null
   * included, replace), creating the namespace if needed, in one durable transaction.
   */
  mergeHotState(namespace: string, patch: Readonly<Record<string, unknown>>, options?: { now?: string }): Promise<HotStateRecord>;

  /** Stores a new token record; its hash must be unique (CONFLICT otherwise). */
  addApiToken(token: NewApiToken): Promise<ApiTokenRecord>;
  /** Tokens oldest first; revoked ones only with `includeRevoked`. */
  listApiTokens(options?: { includeRevoked?: boolean }): Promise<ApiTokenRecord[]>;
  /** Marks a token revoked; false when there is no such active token. */
  revokeApiToken(id: string, options?: { now?: string }): Promise<boolean>;
  /** Sets last_used_at to `now` when it is unset or older than `ifUsedBefore`; true when it changed. */
  touchApiToken(id: string, now: string, ifUsedBefore: string): Promise<boolean>;
  /** Whether any token is active; with `includeRevoked`, whether the home ever had a token. */
  hasApiTokens(options?: { includeRevoked?: boolean }): Promise<boolean>;

  /**
   * The only deletion (secrets, legal removal). Removes the records with these ids (memory, turn or
   * document chunk ids) in the scope, with everything derived from them: index entries, vectors,
   * feedback, judgments, and the memory the judge made of a purged turn; supersede links close
   * over a removed memory. A missing id changes nothing and is reported. `dryRun` reports only.
   */
  purgeRecords(scope: PurgeScope, ids: readonly string[], options?: { dryRun?: boolean }): Promise<PurgeIdsResult>;
  /**
   * Puts every stored text of the scope (turns, memories with tags, entities and provenance,
   * document chunks, judgments, feedback, hot state, index entries, speakers) through `rule`,
   * keeping derived data consistent: changed entries lose their vectors, a memory that becomes
   * equal to a current one is superseded by it. In batches, each one transaction.
   */
  rewriteTexts(scope: PurgeScope, rule: TextRewrite, options?: { dryRun?: boolean }): Promise<PurgeChanges>;
  /**
   * Drops cached embeddings of these text hashes, for every model: cache rows, and the hash on
   * vector rows (which stay, as the vectors of their entries); returns how many of either.
   */
  dropCachedVectors(textHashes: readonly string[]): Promise<number>;
  /**
   * Makes what was removed unrecoverable from the backend's files (merged index segments, rewritten
   * free space, an emptied write-ahead log). `complete` is false when another connection kept part
   * of it from finishing (run again once it is closed).
   */
  scrub(): Promise<{ complete: boolean }>;
  /** Records a purge as started (the audit entry); finishPurge completes it. */
  startPurge(entry: { namespace: string | null; via: string; rule: Record<string, unknown>; startedAt?: string }): Promise<PurgeRecord>;
  finishPurge(id: number, result: Record<string, unknown>, options?: { finishedAt?: string }): Promise<void>;
  /** Audit entries, newest first. */
  listPurges(options?: { limit?: number }): Promise<PurgeRecord[]>;
  /** Id of the newest finished purge (0: none). A process holding derived data (vector indexes) drops it when this changes. */
  lastPurgeId(): Promise<number>;
  /**
   * Optional: a value that changes whenever anything is written to the store, by this handle or
   * any other (another process included); equal values mean nothing was written in between. A
   * process holding derived data (the vector index) then skips asking what changed. A store
   * without it is asked each time.
   */
  changeMark?(): Promise<string>;

  /**
   * Takes the lease `name` for `holder` for `ttlMs` when it is free or has expired, or renews it
   * when `holder` has it already (keeping when it was taken); false while another holder's lease
   * runs. Atomic across processes and machines: of racing takers exactly one gets it. The clock
   * is the database's (PostgreSQL's server, SQLite's process) unless `now` (ISO) is given.
   */
  acquireLease(name: string, holder: string, ttlMs: number, now?: string): Promise<boolean>;
  /** Gives the lease up so another may take it at once; false when `holder` does not have it. */
  releaseLease(name: string, holder: string): Promise<boolean>;
  /** Every lease, expired ones included (their holder stopped renewing), by name. */
  listLeases(): Promise<LeaseRecord[]>;
}
