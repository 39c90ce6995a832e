// The scale-out backend: Cairn's tables in a PostgreSQL database (pgvector installed), shared by
// daemons, MCP servers and `cairn serve` on any number of machines. This class only adapts the
// plain async functions beside it to the Store interface and maps driver errors to typed ones;
// the memory rules are src/memory/remember.ts's, as for SQLite (docs/STORE.md).
import type pg from 'pg';
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
import { applyJudgments, importRecord, remember, rememberAll, retag, supersede } from '../../memory/remember.js';
import type { MemoryUnit } from '../memory-unit.js';
import type { PurgeScope, TextRewrite } from '../purge.js';
import { createPool, mapPgError, redactUrl, type Db, type PgConnectOptions } from './connect.js';
import { migrate, PG_SCHEMA_VERSION } from './migrations.js';
import { useEntryKeys } from './keys.js';
import { runMemoryUnit } from './memory-unit.js';
import * as namespaces from './namespaces.js';
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
import * as purgeRecords from './purge-records.js';
import * as purgeText from './purge-text.js';
import * as leases from './leases.js';

const nowIso = (): string => new Date().toISOString();

export interface PgStoreOptions extends PgConnectOptions {
  /** Words entries are also found by (store.ts EntryKeys); without it, entries keep the keys they have. */
  entryKeys?: EntryKeys;
}

export class PgStore implements Store {
  readonly backend = 'postgres';
  readonly url: string;
  readonly schema: string;
  readonly pool: pg.Pool;
  /** Migrated and keyed: every operation waits for it (the constructor cannot). */
  private readonly ready: Promise<void>;

  constructor(options: PgStoreOptions) {
    this.url = options.url;
    this.schema = options.schema ?? 'public';
    const pool = (this.pool = createPool(options));
    const schema = this.schema;
    this.ready = (async () => {
      await migrate(pool, schema);
      if (options.entryKeys) await useEntryKeys(pool, options.entryKeys);
    })();
    // Reported by the first operation that waits for it, not as an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  /** Opens the store and waits until its schema is ready (errors surface here, typed). */
  static async open(options: PgStoreOptions): Promise<PgStore> {
    const store = new PgStore(options);
    try {
      await store.run(async () => undefined);
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }

  /** Runs an operation on the pool once the schema is ready, mapping driver errors to CairnErrors. */
  private async run<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    try {
      await this.ready;
      return await fn(this.pool);
    } catch (err) {
      throw mapPgError(err, this.url);
    }
  }

  private closed = false;
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  health(options: HealthOptions = {}): Promise<HealthReport> {
    return this.run(async (db) => {
      const problems: string[] = [];
      for (const table of ['namespaces', 'memories', 'turns', 'documents', 'entries', 'vectors', 'hot_state', 'api_tokens', 'digests', 'consolidation_state', 'entities', 'facts']) {
        await db.query(`SELECT 1 FROM ${table} LIMIT 1`);
      }
      const version = ((await db.query('SELECT version FROM cairn_schema')).rows[0] as { version: number }).version;
      if (version !== PG_SCHEMA_VERSION) problems.push(`schema version ${version}, expected ${PG_SCHEMA_VERSION}`);
      if (options.integrity) {
        // PostgreSQL checks its own pages (checksums, WAL); what Cairn can check is its invariants.
        const twice = (await db.query('SELECT count(*)::int AS n FROM (SELECT 1 FROM memories WHERE valid_to IS NULL GROUP BY namespace, dedup_key HAVING count(*) > 1) d')).rows[0] as { n: number };
        if (twice.n > 0) problems.push(`${twice.n} statements have more than one current memory`);
      }
      const info = (await db.query(
        `SELECT current_setting('server_version') AS version, pg_database_size(current_database())::bigint AS bytes,
           (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS pgvector`,
      )).rows[0] as { version: string; bytes: number; pgvector: string | null };
      return {
        ok: problems.length === 0,
        backend: this.backend,
        schemaVersion: version,
        location: `${redactUrl(this.url)} (schema ${this.schema})`,
        problems,
        details: { integrityChecked: Boolean(options.integrity), sizeBytes: info.bytes, postgresVersion: info.version, pgvector: info.pgvector, schema: this.schema },
      };
    });
  }

  ensureNamespace(namespace: string) {
    return this.run((db) => namespaces.ensureNamespace(db, namespace, nowIso()));
  }
  namespaceStats() {
    return this.run((db) => namespaces.namespaceStats(db));
  }
  namespaceIds() {
    return this.run((db) => namespaces.namespaceIds(db));
  }
  renameNamespace(from: string, to: string) {
    return this.run((db) => namespaces.renameNamespace(db, from, to));
  }

  memoryUnit<T>(fn: (unit: MemoryUnit) => Promise<T>): Promise<T> {
    return this.run((db) => runMemoryUnit(db, fn));
  }
  addMemory(input: NewMemory, options?: AddMemoryOptions) {
    return remember(this, input, options?.now ?? nowIso());
  }
  addMemories(inputs: readonly NewMemory[], options?: AddMemoryOptions) {
    return rememberAll(this, inputs, options?.now ?? nowIso());
  }
  getMemory(namespace: string, id: string) {
    return this.run((db) => memories.getMemory(db, namespace, id));
  }
  listMemories(filter: MemoryFilter) {
    return this.run((db) => memories.listMemories(db, filter));
  }
  supersedeMemory(namespace: string, id: string, replacement: NewMemory, options?: AddMemoryOptions) {
    return supersede(this, namespace, id, replacement, options?.now ?? nowIso());
  }
  memoryHistory(namespace: string, id: string) {
    return this.run((db) => memories.memoryHistory(db, namespace, id));
  }
  async *exportMemories(namespace: string): AsyncIterable<Memory> {
    try {
      await this.ready;
      yield* memories.exportMemories(this.pool, namespace);
    } catch (err) {
      throw mapPgError(err, this.url);
    }
  }
  importMemory(memory: Memory) {
    return importRecord(this, memory, nowIso());
  }

  addTurns(list: readonly NewTurn[], checkpoint?: TurnsCheckpoint) {
    return this.run((db) => turns.addTurns(db, list, checkpoint, nowIso()));
  }
  turnsAfter(namespace: string, afterSeq: number, limit: number) {
    return this.run((db) => turns.turnsAfter(db, namespace, afterSeq, limit));
  }
  sourceTurnCounts() {
    return this.run((db) => turns.sourceTurnCounts(db));
  }
  speakers(namespace: string) {
    return this.run((db) => context.speakers(db, namespace));
  }
  turnNeighbours(namespace: string, turnIds: readonly string[], radius: number, options?: NeighbourOptions) {
    return this.run((db) => context.turnNeighbours(db, namespace, turnIds, radius, options));
  }
  turnsBefore(namespace: string, sessionId: string, beforeSeq: number, limit: number) {
    return this.run((db) => judgments.turnsBefore(db, namespace, sessionId, beforeSeq, limit));
  }
  unjudgedTurns(namespace: string, afterSeq: number, limit: number) {
    return this.run((db) => judgments.unjudgedTurns(db, namespace, afterSeq, limit));
  }
  applyJudgments(items: readonly JudgmentInput[]) {
    return applyJudgments(this, items, nowIso());
  }
  judgedTurns(namespace: string, afterSeq: number, limit: number, filter?: { since?: string; onlyNeedsRejudge?: boolean }) {
    return this.run((db) => judgments.judgedTurns(db, namespace, afterSeq, limit, filter));
  }
  getJudgment(turnId: string) {
    return this.run((db) => judgments.getJudgment(db, turnId));
  }
  setMemoryImportance(namespace: string, id: string, importance: number) {
    return this.run((db) => judgments.setMemoryImportance(db, namespace, id, importance, nowIso()));
  }
  setMemoryTags(namespace: string, id: string, tags: readonly string[]) {
    return retag(this, namespace, id, tags, nowIso());
  }
  judgeStats() {
    return this.run((db) => judgments.judgeStats(db));
  }
  addFeedback(feedback: Omit<FeedbackRecord, 'id' | 'createdAt'>) {
    return this.run((db) => judgments.addFeedback(db, feedback, nowIso()));
  }
  listFeedback(namespace: string, limit: number) {
    return this.run((db) => judgments.listFeedback(db, namespace, limit));
  }
  usageGet(namespace: string, day: string) {
    return this.run((db) => judgments.usageGet(db, namespace, day));
  }
  usageAdd(namespace: string, day: string, delta: Partial<UsageRow>) {
    return this.run((db) => judgments.usageAdd(db, namespace, day, delta));
  }
  usageList(day?: string) {
    return this.run((db) => judgments.usageList(db, day));
  }
  getTurn(namespace: string, id: string) {
    return this.run((db) => turns.getTurn(db, namespace, id));
  }
  getTurns(namespace: string, ids: readonly string[]) {
    return this.run((db) => turns.getTurns(db, namespace, ids));
  }
  addSource(namespace: string, kind: string, path: string, options: Record<string, unknown> = {}) {
    return this.run((db) => turns.addSource(db, namespace, kind, path, options, nowIso()));
  }
  listSources(namespace?: string) {
    return this.run((db) => turns.listSources(db, namespace));
  }
  removeSource(id: number) {
    return this.run((db) => turns.removeSource(db, id));
  }
  getCheckpoint(sourceId: number, key: string) {
    return this.run((db) => turns.getCheckpoint(db, sourceId, key));
  }
  listCheckpoints(sourceId: number) {
    return this.run((db) => turns.listCheckpoints(db, sourceId));
  }
  putCheckpoint(cp: CheckpointState) {
    return this.run((db) => turns.putCheckpoint(db, cp, nowIso()));
  }

  replaceDocument(input: ReplaceDocumentInput) {
    return this.run((db) => documents.replaceDocument(db, input, nowIso()));
  }
  removeDocument(namespace: string, path: string) {
    return this.run((db) => documents.removeDocument(db, namespace, path));
  }
  documentFiles(namespace: string, sourceId?: number | null) {
    return this.run((db) => documents.documentFiles(db, namespace, sourceId));
  }
  getDocumentChunk(namespace: string, id: string) {
    return this.run((db) => documents.getDocumentChunk(db, namespace, id));
  }

  keywordSearch(namespace: string, terms: readonly string[], limit: number, filter?: EntryFilter) {
    return this.run((db) => entries.keywordSearch(db, namespace, terms, limit, filter));
  }
  termsHeld(namespace: string, terms: readonly string[], seqs: readonly number[]) {
    return this.run((db) => entries.termsHeld(db, namespace, terms, seqs));
  }
  getEntries(namespace: string, seqs: readonly number[]) {
    return this.run((db) => entries.getEntries(db, namespace, seqs));
  }
  filterEntries(namespace: string, filter: EntryFilter, limit: number) {
    return this.run((db) => entries.filterEntries(db, namespace, filter, limit));
  }
  entriesMissingVector(model: string, limit: number, namespace?: string, afterSeq?: number) {
    return this.run((db) => entries.entriesMissingVector(db, model, limit, namespace, afterSeq));
  }
  entryFor(kind: Kind, refId: string) {
    return this.run((db) => entries.entryFor(db, kind, refId));
  }
  putVectors(model: string, rows: ReadonlyArray<VectorRow>) {
    return this.run((db) => entries.putVectors(db, model, rows));
  }
  vectorsAfter(namespace: string, model: string, afterId: number, limit: number) {
    return this.run((db) => entries.vectorsAfter(db, namespace, model, afterId, limit));
  }
  nearestVectors(namespace: string, model: string, query: Float32Array, k: number) {
    return this.run((db) => entries.nearestVectors(db, namespace, model, query, k));
  }
  getVectors(model: string, seqs: readonly number[]) {
    return this.run((db) => entries.getVectors(db, model, seqs));
  }
  getQuantisedVectors(model: string, seqs: readonly number[]) {
    return this.run((db) => entries.getQuantisedVectors(db, model, seqs));
  }
  vectorStats(model: string) {
    return this.run((db) => entries.vectorStats(db, model));
  }
  vectorModels() {
    return this.run((db) => entries.vectorModels(db));
  }
  dropVectorsExcept(keep: readonly string[]) {
    return this.run((db) => entries.dropVectorsExcept(db, keep));
  }
  cacheGet(model: string, hashes: readonly string[]) {
    return this.run((db) => entries.cacheGet(db, model, hashes));
  }
  cachePut(model: string, list: ReadonlyArray<{ textHash: string; vector: Float32Array }>) {
    return this.run((db) => entries.cachePut(db, model, list));
  }

  putDigest(input: NewDigest, options?: { now?: string }) {
    return this.run((db) => digests.putDigest(db, input, options?.now ?? nowIso()));
  }
  getDigest(namespace: string, path: string) {
    return this.run((db) => digests.getDigest(db, namespace, path));
  }
  listDigests(namespace: string, filter?: DigestFilter) {
    return this.run((db) => digests.listDigests(db, namespace, filter));
  }
  deleteDigest(namespace: string, path: string) {
    return this.run((db) => digests.deleteDigest(db, namespace, path));
  }
  entryChangesAfter(namespace: string, afterSeq: number, limit: number) {
    return this.run((db) => digests.entryChangesAfter(db, namespace, afterSeq, limit));
  }
  getConsolidationState(namespace: string) {
    return this.run((db) => digests.getConsolidationState(db, namespace));
  }
  putConsolidationState(namespace: string, state: Record<string, unknown>) {
    return this.run((db) => digests.putConsolidationState(db, namespace, state, nowIso()));
  }

  knowledgeCursor(namespace: string) {
    return this.run((db) => knowledge.knowledgeCursor(db, namespace));
  }
  memoriesAfter(namespace: string, afterSeq: number, limit: number) {
    return this.run((db) => knowledge.memoriesAfter(db, namespace, afterSeq, limit));
  }
  applyKnowledge(batch: KnowledgeBatch) {
    return this.run((db) => knowledge.applyKnowledge(db, batch));
  }
  entitiesByAliasKeys(namespace: string, keys: readonly string[]) {
    return this.run((db) => knowledgeEntities.entitiesByAliasKeys(db, namespace, keys));
  }
  entitiesByAliasPrefix(namespace: string, prefix: string, options: { type?: EntityType; limit: number }) {
    return this.run((db) => knowledgeEntities.entitiesByAliasPrefix(db, namespace, prefix, options));
  }
  listEntities(namespace: string, filter?: EntityListFilter) {
    return this.run((db) => knowledgeEntities.listEntities(db, namespace, filter));
  }
  getEntity(namespace: string, idOrSlug: string) {
    return this.run((db) => knowledgeEntities.getEntity(db, namespace, idOrSlug));
  }
  entityMemoryIds(namespace: string, entityIds: readonly string[], limit: number, options?: { includeSuperseded?: boolean }) {
    return this.run((db) => knowledgeEntities.entityMemoryIds(db, namespace, entityIds, limit, options?.includeSuperseded));
  }
  listFacts(namespace: string, filter?: FactFilter) {
    return this.run((db) => knowledgeEntities.listFacts(db, namespace, filter));
  }
  editEntities(edit: EntityEdit) {
    return this.run((db) => knowledgeEntities.editEntities(db, edit));
  }
  resetKnowledge(namespace: string) {
    return this.run((db) => knowledge.resetKnowledge(db, namespace));
  }

  getHotState(namespace: string) {
    return this.run((db) => hotState.getHotState(db, namespace));
  }
  mergeHotState(namespace: string, patch: Readonly<Record<string, unknown>>, options?: { now?: string }) {
    return this.run((db) => hotState.mergeHotState(db, namespace, patch, options?.now ?? nowIso()));
  }

  addApiToken(token: NewApiToken) {
    return this.run((db) => tokens.addApiToken(db, token));
  }
  listApiTokens(options: { includeRevoked?: boolean } = {}) {
    return this.run((db) => tokens.listApiTokens(db, options.includeRevoked ?? false));
  }
  revokeApiToken(id: string, options?: { now?: string }) {
    return this.run((db) => tokens.revokeApiToken(db, id, options?.now ?? nowIso()));
  }
  touchApiToken(id: string, now: string, ifUsedBefore: string) {
    return this.run((db) => tokens.touchApiToken(db, id, now, ifUsedBefore));
  }
  hasApiTokens(options: { includeRevoked?: boolean } = {}) {
    return this.run((db) => tokens.hasApiTokens(db, options.includeRevoked ?? false));
  }

  purgeRecords(scope: PurgeScope, ids: readonly string[], options: { dryRun?: boolean } = {}) {
    return this.run((db) => purgeRecords.purgeRecords(db, scope, ids, options.dryRun ?? false, nowIso()));
  }
  rewriteTexts(scope: PurgeScope, rule: TextRewrite, options: { dryRun?: boolean } = {}) {
    return this.run((db) => purgeText.rewriteTexts(db, scope, rule, options.dryRun ?? false, nowIso()));
  }
  dropCachedVectors(textHashes: readonly string[]) {
    return this.run((db) => purgeLog.dropCachedVectors(db, textHashes));
  }
  scrub() {
    return this.run((db) => purgeLog.scrub(db));
  }
  startPurge(entry: { namespace: string | null; via: string; rule: Record<string, unknown>; startedAt?: string }) {
    return this.run((db) => purgeLog.startPurge(db, entry, entry.startedAt ?? nowIso()));
  }
  finishPurge(id: number, result: Record<string, unknown>, options: { finishedAt?: string } = {}) {
    return this.run((db) => purgeLog.finishPurge(db, id, result, options.finishedAt ?? nowIso()));
  }
  listPurges(options: { limit?: number } = {}) {
    return this.run((db) => purgeLog.listPurges(db, options.limit ?? 100));
  }
  lastPurgeId() {
    return this.run((db) => purgeLog.lastPurgeId(db));
  }
  changeMark() {
    return this.run((db) => purgeLog.changeMark(db));
  }

  acquireLease(name: string, holder: string, ttlMs: number, now?: string) {
    return this.run((db) => leases.acquireLease(db, name, holder, ttlMs, now));
  }
  releaseLease(name: string, holder: string) {
    return this.run((db) => leases.releaseLease(db, name, holder));
  }
  listLeases() {
    return this.run((db) => leases.listLeases(db));
  }
}
