// The embedded default backend: one SQLite file in WAL mode, shared safely by a daemon, MCP servers
// and the CLI at once. This class only adapts the plain functions beside it to the Store interface
// and maps SQLite errors to typed ones.
import type { Database } from 'better-sqlite3';
import type { EntityType, Kind, Memory, NewDigest, NewMemory, NewTurn } from '../../core/types.js';
import type {
  AddMemoryOptions,
  NeighbourOptions,
  CheckpointState,
  TurnsCheckpoint,
  EntryFilter,
  FeedbackRecord,
  HealthOptions,
  JudgmentInput,
  UsageRow,
  HealthReport,
  MemoryFilter,
  NewApiToken,
  ReplaceDocumentInput,
  Store,
  EntryKeys,
  DigestFilter,
  EntityEdit,
  EntityListFilter,
  FactFilter,
  KnowledgeBatch,
  VectorRow,
} from '../store.js';
import { useEntryKeys } from './keys.js';
import { openDatabase, mapSqliteError, type OpenOptions } from './open.js';
import { openReadOnlyDatabase } from './open-read-only.js';
import { SCHEMA_VERSION } from './migrations.js';
import { applyJudgments, importRecord, remember, rememberAll, retag, supersede } from '../../memory/remember.js';
import type { MemoryUnit } from '../memory-unit.js';
import { runMemoryUnit } from './memory-unit.js';
import { openUnit } from './unit-gate.js';
import * as memories from './memories.js';
import * as turns from './turns.js';
import * as entries from './entries.js';
import * as documents from './documents.js';
import * as digests from './digests.js';
import * as judgments from './judgments.js';
import * as hotState from './hot-state.js';
import * as tokens from './tokens.js';
import * as context from './context.js';
import * as knowledge from './knowledge.js';
import * as knowledgeEntities from './knowledge-entities.js';
import * as purgeLog from './purge-log.js';
import { purgeRecords } from './purge-records.js';
import { rewriteTexts } from './purge-text.js';
import * as leases from './leases.js';
import type { PurgeScope, TextRewrite } from '../purge.js';
import { ensureNamespaceTx, namespaceIds, namespaceStats, renameNamespace } from './namespaces.js';
import { termsHeld } from './term-scores.js';

const nowIso = (): string => new Date().toISOString();

export interface SqliteStoreOptions extends OpenOptions {
  /** Words entries are also found by (store.ts EntryKeys); without it, entries keep the keys they have. */
  entryKeys?: EntryKeys;
}

export class SqliteStore implements Store {
  readonly backend = 'sqlite';
  readonly path: string;
  readonly db: Database;
  /** Read from a temporary copy (a read-only folder without the database's -shm file): its folder. */
  readonly snapshot: string | null = null;
  private readonly release: () => void = () => undefined;

  constructor(path: string, options: SqliteStoreOptions = {}) {
    this.path = path;
    if (options.readonly) {
      const opened = openReadOnlyDatabase(path, options);
      this.db = opened.db;
      this.snapshot = opened.snapshot;
      this.release = opened.release;
    } else this.db = openDatabase(path, options);
    try {
      if (options.entryKeys && !options.readonly) useEntryKeys(this.db, options.entryKeys);
    } catch (err) {
      this.db.close();
      throw mapSqliteError(err, path);
    }
  }

  /** Runs a synchronous database operation, mapping SQLite errors to CairnErrors; after an open memory unit. */
  private run<T>(fn: () => T): Promise<T> {
    const unit = openUnit();
    if (unit) return unit.then(() => this.run(fn));
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(mapSqliteError(err, this.path));
    }
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
    this.release();
  }

  health(options: HealthOptions = {}): Promise<HealthReport> {
    return this.run(() => {
      const problems: string[] = [];
      // quick_check reads every page (7 s at 1M memories): only when asked for.
      if (options.integrity) {
        const check = this.db.pragma('quick_check', { simple: true }) as string;
        if (check !== 'ok') problems.push(`quick_check: ${check}`);
      }
      // A cheap read of every table the engine depends on proves the schema is usable.
      for (const table of ['namespaces', 'memories', 'turns', 'documents', 'entries', 'vectors', 'hot_state', 'api_tokens', 'digests', 'consolidation_state', 'entities', 'facts']) this.db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get();
      const version = this.db.pragma('user_version', { simple: true }) as number;
      if (version !== SCHEMA_VERSION) problems.push(`schema version ${version}, expected ${SCHEMA_VERSION}`);
      const journal = this.db.pragma('journal_mode', { simple: true }) as string;
      if (journal !== 'wal') problems.push(`journal mode ${journal}, expected wal`);
      const pageCount = this.db.pragma('page_count', { simple: true }) as number;
      const pageSize = this.db.pragma('page_size', { simple: true }) as number;
      return {
        ok: problems.length === 0,
        backend: this.backend,
        schemaVersion: version,
        location: this.path,
        problems,
        details: { integrityChecked: Boolean(options.integrity), journalMode: journal, sizeBytes: pageCount * pageSize, sqliteVersion: this.db.prepare('SELECT sqlite_version()').pluck().get() },
      };
    });
  }

  ensureNamespace(namespace: string) {
    return this.run(() => void this.db.transaction(() => ensureNamespaceTx(this.db, namespace, nowIso())).immediate());
  }
  namespaceStats() {
    return this.run(() => namespaceStats(this.db));
  }
  namespaceIds() {
    return this.run(() => namespaceIds(this.db));
  }
  renameNamespace(from: string, to: string) {
    return this.run(() => renameNamespace(this.db, from, to));
  }

  memoryUnit<T>(fn: (unit: MemoryUnit) => Promise<T>): Promise<T> {
    return runMemoryUnit(this.db, this.path, fn);
  }
  addMemory(input: NewMemory, options?: AddMemoryOptions) {
    return remember(this, input, options?.now ?? nowIso());
  }
  addMemories(inputs: readonly NewMemory[], options?: AddMemoryOptions) {
    return rememberAll(this, inputs, options?.now ?? nowIso());
  }
  getMemory(namespace: string, id: string) {
    return this.run(() => memories.getMemory(this.db, namespace, id));
  }
  listMemories(filter: MemoryFilter) {
    return this.run(() => memories.listMemories(this.db, filter));
  }
  supersedeMemory(namespace: string, id: string, replacement: NewMemory, options?: AddMemoryOptions) {
    return supersede(this, namespace, id, replacement, options?.now ?? nowIso());
  }
  memoryHistory(namespace: string, id: string) {
    return this.run(() => memories.memoryHistory(this.db, namespace, id));
  }
  async *exportMemories(namespace: string): AsyncIterable<Memory> {
    try {
      yield* memories.exportMemories(this.db, namespace);
    } catch (err) {
      throw mapSqliteError(err, this.path);
    }
  }
  importMemory(memory: Memory) {
    return importRecord(this, memory, nowIso());
  }

  addTurns(list: readonly NewTurn[], checkpoint?: TurnsCheckpoint) {
    return this.run(() => turns.addTurns(this.db, list, checkpoint, nowIso()));
  }
  turnsAfter(namespace: string, afterSeq: number, limit: number) {
    return this.run(() => turns.turnsAfter(this.db, namespace, afterSeq, limit));
  }
  sourceTurnCounts() {
    return this.run(() => turns.sourceTurnCounts(this.db));
  }
  speakers(namespace: string) {
    return this.run(() => context.speakers(this.db, namespace));
  }
  turnNeighbours(namespace: string, turnIds: readonly string[], radius: number, options?: NeighbourOptions) {
    return this.run(() => context.turnNeighbours(this.db, namespace, turnIds, radius, options));
  }
  turnsBefore(namespace: string, sessionId: string, beforeSeq: number, limit: number) {
    return this.run(() => judgments.turnsBefore(this.db, namespace, sessionId, beforeSeq, limit));
  }
  unjudgedTurns(namespace: string, afterSeq: number, limit: number) {
    return this.run(() => judgments.unjudgedTurns(this.db, namespace, afterSeq, limit));
  }
  applyJudgments(items: readonly JudgmentInput[]) {
    return applyJudgments(this, items, nowIso());
  }
  judgedTurns(namespace: string, afterSeq: number, limit: number, filter?: { since?: string; onlyNeedsRejudge?: boolean }) {
    return this.run(() => judgments.judgedTurns(this.db, namespace, afterSeq, limit, filter));
  }
  getJudgment(turnId: string) {
    return this.run(() => judgments.getJudgment(this.db, turnId));
  }
  setMemoryImportance(namespace: string, id: string, importance: number) {
    return this.run(() => judgments.setMemoryImportance(this.db, namespace, id, importance, nowIso()));
  }
  setMemoryTags(namespace: string, id: string, tags: readonly string[]) {
    return retag(this, namespace, id, tags, nowIso());
  }
  judgeStats() {
    return this.run(() => judgments.judgeStats(this.db));
  }
  addFeedback(feedback: Omit<FeedbackRecord, 'id' | 'createdAt'>) {
    return this.run(() => judgments.addFeedback(this.db, feedback, nowIso()));
  }
  listFeedback(namespace: string, limit: number) {
    return this.run(() => judgments.listFeedback(this.db, namespace, limit));
  }
  usageGet(namespace: string, day: string) {
    return this.run(() => judgments.usageGet(this.db, namespace, day));
  }
  usageAdd(namespace: string, day: string, delta: Partial<UsageRow>) {
    return this.run(() => judgments.usageAdd(this.db, namespace, day, delta));
  }
  usageList(day?: string) {
    return this.run(() => judgments.usageList(this.db, day));
  }
  getTurn(namespace: string, id: string) {
    return this.run(() => turns.getTurn(this.db, namespace, id));
  }
  getTurns(namespace: string, ids: readonly string[]) {
    return this.run(() => turns.getTurns(this.db, namespace, ids));
  }
  addSource(namespace: string, kind: string, path: string, options: Record<string, unknown> = {}) {
    return this.run(() => turns.addSource(this.db, namespace, kind, path, options, nowIso()));
  }
  listSources(namespace?: string) {
    return this.run(() => turns.listSources(this.db, namespace));
  }
  removeSource(id: number) {
    return this.run(() => turns.removeSource(this.db, id));
  }
  getCheckpoint(sourceId: number, key: string) {
    return this.run(() => turns.getCheckpoint(this.db, sourceId, key));
  }
  listCheckpoints(sourceId: number) {
    return this.run(() => turns.listCheckpoints(this.db, sourceId));
  }
  putCheckpoint(cp: CheckpointState) {
    return this.run(() => turns.putCheckpoint(this.db, cp, nowIso()));
  }

  replaceDocument(input: ReplaceDocumentInput) {
    return this.run(() => documents.replaceDocument(this.db, input, nowIso()));
  }
  removeDocument(namespace: string, path: string) {
    return this.run(() => documents.removeDocument(this.db, namespace, path));
  }
  documentFiles(namespace: string, sourceId?: number | null) {
    return this.run(() => documents.documentFiles(this.db, namespace, sourceId));
  }
  getDocumentChunk(namespace: string, id: string) {
    return this.run(() => documents.getDocumentChunk(this.db, namespace, id));
  }

  keywordSearch(namespace: string, terms: readonly string[], limit: number, filter?: EntryFilter) {
    return this.run(() => entries.keywordSearch(this.db, namespace, terms, limit, filter));
  }
  termsHeld(_namespace: string, terms: readonly string[], seqs: readonly number[]) {
    return this.run(() => termsHeld(this.db, terms, seqs));
  }
  getEntries(namespace: string, seqs: readonly number[]) {
    return this.run(() => entries.getEntries(this.db, namespace, seqs));
  }
  filterEntries(namespace: string, filter: EntryFilter, limit: number) {
    return this.run(() => entries.filterEntries(this.db, namespace, filter, limit));
  }
  entriesMissingVector(model: string, limit: number, namespace?: string, afterSeq?: number) {
    return this.run(() => entries.entriesMissingVector(this.db, model, limit, namespace, afterSeq));
  }
  entryFor(kind: Kind, refId: string) {
    return this.run(() => entries.entryFor(this.db, kind, refId));
  }
  putVectors(model: string, rows: ReadonlyArray<VectorRow>) {
    return this.run(() => entries.putVectors(this.db, model, rows));
  }
  vectorsAfter(namespace: string, model: string, afterId: number, limit: number) {
    return this.run(() => entries.vectorsAfter(this.db, namespace, model, afterId, limit));
  }
  getVectors(model: string, seqs: readonly number[]) {
    return this.run(() => entries.getVectors(this.db, model, seqs));
  }
  getQuantisedVectors(model: string, seqs: readonly number[]) {
    return this.run(() => entries.getQuantisedVectors(this.db, model, seqs));
  }
  vectorStats(model: string) {
    return this.run(() => entries.vectorStats(this.db, model));
  }
  vectorModels() {
    return this.run(() => entries.vectorModels(this.db));
  }
  dropVectorsExcept(keep: readonly string[]) {
    return this.run(() => entries.dropVectorsExcept(this.db, keep));
  }
  cacheGet(model: string, hashes: readonly string[]) {
    return this.run(() => entries.cacheGet(this.db, model, hashes));
  }
  cachePut(model: string, list: ReadonlyArray<{ textHash: string; vector: Float32Array }>) {
    return this.run(() => entries.cachePut(this.db, model, list));
  }

  putDigest(input: NewDigest, options?: { now?: string }) {
    return this.run(() => digests.putDigest(this.db, input, options?.now ?? nowIso()));
  }
  getDigest(namespace: string, path: string) {
    return this.run(() => digests.getDigest(this.db, namespace, path));
  }
  listDigests(namespace: string, filter?: DigestFilter) {
    return this.run(() => digests.listDigests(this.db, namespace, filter));
  }
  deleteDigest(namespace: string, path: string) {
    return this.run(() => digests.deleteDigest(this.db, namespace, path));
  }
  entryChangesAfter(namespace: string, afterSeq: number, limit: number) {
    return this.run(() => digests.entryChangesAfter(this.db, namespace, afterSeq, limit));
  }
  getConsolidationState(namespace: string) {
    return this.run(() => digests.getConsolidationState(this.db, namespace));
  }
  putConsolidationState(namespace: string, state: Record<string, unknown>) {
    return this.run(() => digests.putConsolidationState(this.db, namespace, state, nowIso()));
  }

  knowledgeCursor(namespace: string) {
    return this.run(() => knowledge.knowledgeCursor(this.db, namespace));
  }
  memoriesAfter(namespace: string, afterSeq: number, limit: number) {
    return this.run(() => knowledge.memoriesAfter(this.db, namespace, afterSeq, limit));
  }
  applyKnowledge(batch: KnowledgeBatch) {
    return this.run(() => knowledge.applyKnowledge(this.db, batch));
  }
  entitiesByAliasKeys(namespace: string, keys: readonly string[]) {
    return this.run(() => knowledgeEntities.entitiesByAliasKeys(this.db, namespace, keys));
  }
  entitiesByAliasPrefix(namespace: string, prefix: string, options: { type?: EntityType; limit: number }) {
    return this.run(() => knowledgeEntities.entitiesByAliasPrefix(this.db, namespace, prefix, options));
  }
  listEntities(namespace: string, filter?: EntityListFilter) {
    return this.run(() => knowledgeEntities.listEntities(this.db, namespace, filter));
  }
  getEntity(namespace: string, idOrSlug: string) {
    return this.run(() => knowledgeEntities.getEntity(this.db, namespace, idOrSlug));
  }
  entityMemoryIds(namespace: string, entityIds: readonly string[], limit: number, options?: { includeSuperseded?: boolean }) {
    return this.run(() => knowledgeEntities.entityMemoryIds(this.db, namespace, entityIds, limit, options?.includeSuperseded));
  }
  listFacts(namespace: string, filter?: FactFilter) {
    return this.run(() => knowledgeEntities.listFacts(this.db, namespace, filter));
  }
  editEntities(edit: EntityEdit) {
    return this.run(() => knowledgeEntities.editEntities(this.db, edit));
  }
  resetKnowledge(namespace: string) {
    return this.run(() => knowledge.resetKnowledge(this.db, namespace));
  }

  getHotState(namespace: string) {
    return this.run(() => hotState.getHotState(this.db, namespace));
  }
  mergeHotState(namespace: string, patch: Readonly<Record<string, unknown>>, options?: { now?: string }) {
    return this.run(() => hotState.mergeHotState(this.db, namespace, patch, options?.now ?? nowIso()));
  }

  addApiToken(token: NewApiToken) {
    return this.run(() => tokens.addApiToken(this.db, token));
  }
  listApiTokens(options: { includeRevoked?: boolean } = {}) {
    return this.run(() => tokens.listApiTokens(this.db, options.includeRevoked ?? false));
  }
  revokeApiToken(id: string, options?: { now?: string }) {
    return this.run(() => tokens.revokeApiToken(this.db, id, options?.now ?? nowIso()));
  }
  touchApiToken(id: string, now: string, ifUsedBefore: string) {
    return this.run(() => tokens.touchApiToken(this.db, id, now, ifUsedBefore));
  }
  hasApiTokens(options: { includeRevoked?: boolean } = {}) {
    return this.run(() => tokens.hasApiTokens(this.db, options.includeRevoked ?? false));
  }

  purgeRecords(scope: PurgeScope, ids: readonly string[], options: { dryRun?: boolean } = {}) {
    return this.run(() => purgeRecords(this.db, scope, ids, options.dryRun ?? false, nowIso()));
  }
  rewriteTexts(scope: PurgeScope, rule: TextRewrite, options: { dryRun?: boolean } = {}) {
    return this.run(() => rewriteTexts(this.db, scope, rule, options.dryRun ?? false, nowIso()));
  }
  dropCachedVectors(textHashes: readonly string[]) {
    return this.run(() => purgeLog.dropCachedVectors(this.db, textHashes));
  }
  scrub() {
    return this.run(() => purgeLog.scrub(this.db));
  }
  startPurge(entry: { namespace: string | null; via: string; rule: Record<string, unknown>; startedAt?: string }) {
    return this.run(() => purgeLog.startPurge(this.db, entry, entry.startedAt ?? nowIso()));
  }
  finishPurge(id: number, result: Record<string, unknown>, options: { finishedAt?: string } = {}) {
    return this.run(() => purgeLog.finishPurge(this.db, id, result, options.finishedAt ?? nowIso()));
  }
  listPurges(options: { limit?: number } = {}) {
    return this.run(() => purgeLog.listPurges(this.db, options.limit ?? 100));
  }
  lastPurgeId() {
    return this.run(() => purgeLog.lastPurgeId(this.db));
  }
  changeMark() {
    return this.run(() => context.changeToken(this.db));
  }

  acquireLease(name: string, holder: string, ttlMs: number, now?: string) {
    return this.run(() => leases.acquireLease(this.db, name, holder, ttlMs, now));
  }
  releaseLease(name: string, holder: string) {
    return this.run(() => leases.releaseLease(this.db, name, holder));
  }
  listLeases() {
    return this.run(() => leases.listLeases(this.db));
  }
}
