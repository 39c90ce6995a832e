// The one service facade. CLI, MCP, HTTP, the daemon and library users all call this class; it
// validates input, talks to the store, the embedder and search, and nothing else reaches past it.
// Split in two files by size: cairn-base.ts holds records, search, state, the brief and tokens;
// this file opening a home, capture, judging, sources, import/export, purge, consolidation and backups.
// What a search does not need is imported where it is used: a cold `cairn search` loads about half
// the modules it did (issue 29).
import { writeFileSync, existsSync, renameSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { loadConfigFile, parseConfig, type CairnConfigInput } from '../core/config.js';
import { storeTarget } from '../core/store-config.js';
import { ensureHomeDir, resolveHome, type HomePaths } from '../core/home.js';
import { PRIVATE_FILE_MODE } from '../core/private-files.js';
import { openHome } from './open-home.js';
import { parseNamespace } from '../core/namespace.js';
import { parseTime } from '../core/time.js';
import type { Source } from '../core/types.js';
import type { Embedder } from '../embed/embedder.js';
import { createThreadedEmbedder } from '../embed/factory.js';
import { NO_ENTRY_KEYS, placeEntryKeys } from '../memory/places/place-keys.js';
import type { JudgeStats } from '../store/store.js';
import type { IndexProgress } from './indexer.js';
import type { CaptureDeps } from './capture.js';
import type { IngestOptions, IngestResponse } from './ingest.js';
import type { AddSourceInput, SourceStatus } from './sources.js';
import type { ImportReport } from './jsonl.js';
import type { ImportFormat } from './import/read.js';
import type { StatusReport } from './status.js';
import { Judging, type JudgeReport } from './judging.js';
import type { Timing } from '../llm/retry.js';
import type { FeedbackResult } from './feedback.js';
import { gatedStore, gateText, totalRedactions, type RedactionCounts } from './redaction-gate.js';
import type { PurgeInput, PurgeReport } from './purge.js';
import type { SleepReport, SleepRequest } from './sleep.js';
import type { ConsolidateOptions, ConsolidateResult } from './consolidation.js';
import type { PurgeRecord } from '../store/store.js';
import type { BackupInfo, BackupKind } from '../consolidate/backup.js';
import type { RotationPolicy, RotationReport } from '../consolidate/backup-rotation.js';
import type { RestoreReport } from '../consolidate/backup-restore.js';
import { CairnKnowledge } from './cairn-knowledge.js';
import type { Timeline, TimelineInput, TurnView } from './browse/timeline.js';
import type { LayerEntry, LayerKind, RenderedLayer } from './browse/layers.js';
import type { HealthView } from './browse/health-view.js';
import type { EntityGraph } from './browse/entity-graph.js';

export type { SearchOptions, SearchResponse, StoreResult } from './cairn-base.js';

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
  /**
   * For a process that ends soon (the CLI's one-shot commands): reads the SQLite file through a
   * memory map, which a cold command reads faster. Not for a long-lived process (a server, a
   * daemon): it would keep every page it ever read in its RSS.
   */
  mapDatabase?: boolean;
  /** The LLM calls' clock, sleep and randomness: retries and circuit breakers (tests inject fake time). */
  llmTiming?: Timing;
  /**
   * Told once what opening changed in the home (modes made private, a reserved namespace renamed);
   * default: a "cairn: note:" line on stderr.
   */
  onNotice?: (message: string) => void;
}

function busyTimeoutFromEnv(): number | undefined {
  const raw = process.env.CAIRN_BUSY_TIMEOUT_MS;
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new CairnError(ERROR_CODES.CONFIG, `CAIRN_BUSY_TIMEOUT_MS must be a positive integer (milliseconds), got "${raw.slice(0, 40)}"`);
  }
  return Number(raw);
}


export class Cairn extends CairnKnowledge {
  /** Opens (creating if needed) the home's database; loads no model until one is needed. */
  static async open(options: OpenOptions = {}): Promise<Cairn> {
    const paths = resolveHome(options.home);
    const config = options.config !== undefined ? parseConfig(options.config) : loadConfigFile(paths.config, { cacheDir: paths.cacheDir });
    const namespace = parseNamespace(options.namespace ?? config.defaultNamespace);
    const busyTimeoutMs = options.busyTimeoutMs ?? busyTimeoutFromEnv();
    // The embedder first: worker threads begin loading the model while the store opens.
    const embedder = options.embedder !== undefined ? options.embedder : createThreadedEmbedder(config.embedder, options.embedThreads ?? 0, { cacheDir: paths.cacheDir });
    try {
      const entryKeys = config.index.places ? placeEntryKeys() : NO_ENTRY_KEYS;
      const { store, readOnly, notices } = await openHome(paths, { busyTimeoutMs, entryKeys, store: config.store, mapped: options.mapDatabase });
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

  /** Captures what is new in transcript files (see ingestPaths), then views and vectors. */
  async ingest(paths: readonly string[], options: IngestOptions): Promise<IngestResponse> {
    const { ingestPaths } = await import('./ingest.js');
    return ingestPaths(
      this.captureDeps(),
      paths,
      { given: options.namespace === undefined ? undefined : this.namespace(options.namespace), fallback: this.defaultNamespace },
      options,
    );
  }

  /** What capture needs from the facade; `embed` is null without an embedder or when disabled. */
  captureDeps(): CaptureDeps {
    const embed: CaptureDeps['embed'] = this.embedder && this.config.capture.embed ? async (ns, onProgress, throughSeq) => (await this.embedPending({ namespace: ns, onProgress, throughSeq })).done : null;
    const judge: CaptureDeps['judge'] = async (ns, onProgress, onJudged) => (await this.judging().judgePending(ns, { onProgress, onJudged })).judged;
    // Capture redacts every turn and chunk itself (the same redact, counted per source).
    const learn = async (ns: string) => (await this.learn({ namespace: ns })).memories;
    return { store: this.rawStore, paths: this.paths, timeZone: this.config.timezone, embed, judge, learn, vectorModel: embed ? this.embedder!.modelId : null, passages: this.config.index.passages };
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

  protected async judgeEach(namespace: string | undefined, run: (ns: string, progress: (n: number) => void) => Promise<JudgeReport>, onProgress?: (done: number) => void): Promise<JudgeReport> {
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
    if (total.promoted > 0) for (const ns of namespaces) await this.learn({ namespace: ns });
    return total;
  }

  /** Judged, pending and promoted turns per namespace. */
  async judgeStats(): Promise<JudgeStats[]> {
    return this.store.judgeStats();
  }

  /** A person's label on a memory or turn: shapes later judgments and applies to that turn now. */
  async feedback(id: string, important: boolean, namespace?: string): Promise<FeedbackResult> {
    const { giveFeedback } = await import('./feedback.js');
    const result = await giveFeedback(this.store, this.namespace(namespace), id, important, this.config.limits.maxTextChars);
    if (result.memoryId && this.embedder && this.config.capture.embed) await this.embedPending({ namespace: this.namespace(namespace) }).catch(() => undefined);
    return result;
  }

  /** Registers sources (the kind's default locations when no path is given). */
  async addSources(input: AddSourceInput): Promise<Source[]> {
    return (await import('./sources.js')).addSources(this.store, this.defaultNamespace, input);
  }

  async sourceStatuses(options: { watchedOnly?: boolean } = {}): Promise<SourceStatus[]> {
    return (await import('./sources.js')).sourceStatuses(this.store, options);
  }

  /** Stops capturing a source; the turns it produced stay. */
  async removeSource(ref: string | number, kind?: string): Promise<Source> {
    const source = await (await import('./sources.js')).findSource(this.store, ref, kind);
    await this.store.removeSource(source.id);
    return source;
  }

  /** Health, counts and index freshness; `integrity` also verifies every database page (slow). */
  async status(options: { integrity?: boolean } = {}): Promise<StatusReport> {
    return (await import('./status.js')).buildStatus(this.store, this.paths, this.config, this.embedder?.modelId ?? null, { ...options, readOnly: this.readOnly });
  }

  // Browsing for people (the web UI; service/browse/): the timeline, the layers, capture health, the entity graph.
  async timeline(input: TimelineInput & { namespace?: string } = {}): Promise<Timeline> {
    return (await import('./browse/timeline.js')).buildTimeline(this.store, this.config, this.namespace(input.namespace), input);
  }

  async turn(id: string, namespace?: string): Promise<TurnView> {
    return (await import('./browse/timeline.js')).turnView(this.store, this.config, this.namespace(namespace), id);
  }

  async layers(input: { kind?: LayerKind; limit?: number; namespace?: string } = {}): Promise<LayerEntry[]> {
    return (await import('./browse/layers.js')).listLayers(this.store, this.namespace(input.namespace), input);
  }

  async layer(path: string, namespace?: string): Promise<RenderedLayer> {
    return (await import('./browse/layers.js')).renderLayer(this.store, this.config, this.namespace(namespace), path);
  }

  /** The life/ page of an entity (by id, slug or name), rendered; NOT_FOUND before consolidation wrote one. */
  async entitySummary(ref: string, namespace?: string): Promise<RenderedLayer> {
    const ns = this.namespace(namespace);
    const { entity } = await this.entity(ref, { namespace: ns });
    return (await import('./browse/layers.js')).renderEntitySummary(this.store, this.config, ns, entity.slug);
  }

  async healthView(input: { days?: number; to?: string; namespace?: string } = {}): Promise<HealthView> {
    return (await import('./browse/health-view.js')).buildHealthView(this.store, this.config, await this.status(), this.namespace(input.namespace), input);
  }

  async entityGraph(input: { limit?: number; promoted?: boolean; namespace?: string } = {}): Promise<EntityGraph> {
    const ns = this.namespace(input.namespace);
    return (await import('./browse/entity-graph.js')).buildEntityGraph(this.store, ns, (q) => this.entities({ ...q, namespace: ns }), input);
  }

  async exportJsonl(out: Writable, namespace?: string): Promise<number> {
    return (await import('./jsonl.js')).exportJsonl(this.store, this.namespace(namespace), out);
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
    const [{ importMemories }, { parseImportFormat }] = await Promise.all([import('./jsonl.js'), import('./import/read.js')]);
    const redactions: RedactionCounts = {};
    const imported = await importMemories(gatedStore(this.rawStore, redactions), input, {
      namespace: options.namespace === undefined ? undefined : this.namespace(options.namespace),
      fallback: this.defaultNamespace,
      format: options.format === undefined ? undefined : parseImportFormat(options.format),
      maxTextChars: this.config.limits.maxTextChars,
      onLine: options.onLine,
    });
    const report = totalRedactions(redactions) ? { ...imported, redactions } : imported;
    if (report.imported + report.merged === 0) return { ...report, embedded: 0 };
    let embedded = 0;
    const warnings: string[] = [];
    if (this.embedder) {
      try {
        embedded = (await this.embedPending()).done;
      } catch (err) {
        // The import itself succeeded; vectors can be rebuilt with reembed.
        warnings.push(`imported, but not embedded: ${(err as Error).message}; run "cairn reembed"`);
      }
    }
    // Imported memories join the knowledge like stored ones (a failure leaves them for the next pass).
    await this.learn().catch((err: Error) => warnings.push(`imported, but knowledge not updated: ${err.message}; it is retried at the next store or capture`));
    return { ...report, embedded, ...(warnings.length ? { warning: warnings.join('; ') } : {}) };
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
    const { runPurge } = await import('./purge.js');
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
    // Files are written before their store rows: on a read-only store the run would leave files
    // behind and then fail, so it is refused before any file is touched.
    if (this.readOnly) throw new CairnError(ERROR_CODES.READ_ONLY, `Consolidation writes into the data directory, which is read-only here: ${this.readOnly}`);
    const [{ createProseWriter }, { runConsolidation }] = await Promise.all([import('../consolidate/prose.js'), import('./consolidation.js')]);
    const prose = createProseWriter({ config: this.config, runtime: this.llm(), transport: this.llmTransport });
    // life/ is rendered from the knowledge: take in what was stored since the last pass first
    // (unless the caller runs the pass itself: the daemon's queue does, in slices).
    if (options.learn !== false) for (const namespace of options.namespace === undefined && options.namespaces ? options.namespaces : [options.namespace]) await this.learn({ namespace, signal: options.signal });
    return runConsolidation({ store: this.store, paths: this.paths, config: this.config, prose, redact: gateText }, options);
  }

  /**
   * The nightly sleep protocol (service/sleep.ts): backup (one a night, rotated) → consolidate every
   * namespace → content → the session-start briefs written ahead. Other firings only consolidate.
   */
  async sleep(req: SleepRequest): Promise<SleepReport> {
    const [{ runSleep }, { nightlyBackup }] = await Promise.all([import('./sleep.js'), import('../consolidate/backup-rotation.js')]);
    return runSleep(
      {
        // A PostgreSQL home is backed up by its server; the night's other steps run as usual.
        backup: async (at) => (this.rawStore.backend === 'sqlite' ? nightlyBackup(this.paths, this.rawStore, this.rotationPolicy(), new Date(at)) : { skipped: (await import('../consolidate/backup.js')).SERVER_BACKUPS_NOTE }),
        consolidate: (at, signal) => this.consolidate({ at, ...(signal ? { signal } : {}), ...(req.learn === false ? { learn: false } : {}), ...(req.namespaces ? { namespaces: req.namespaces } : {}) }),
        prepare: (ns) => this.prepareBrief(ns),
      },
      req,
    );
  }

  /** The purge audit, newest first (`namespace`: only purges scoped to it). */
  async purgeLog(options: { namespace?: string; limit?: number } = {}): Promise<PurgeRecord[]> {
    return (await import('./purge.js')).purgeLog(this.rawStore, { namespace: options.namespace === undefined ? undefined : this.namespace(options.namespace), limit: options.limit });
  }

  /** Copies the store, online, into <home>/backups/ (consolidate/backup.ts); `manual` unless told. */
  async backupCreate(options: { kind?: BackupKind; now?: Date } = {}): Promise<BackupInfo> {
    return (await import('../consolidate/backup.js')).createBackup(this.paths, this.rawStore, { kind: options.kind ?? 'manual', now: options.now });
  }

  /** The backups, newest first. */
  async backupList(): Promise<BackupInfo[]> {
    return (await import('../consolidate/backup.js')).listBackups(this.paths);
  }

  /** Removes nightly backups beyond consolidation.backups (keepDaily, keepWeekly); others stay. */
  async backupRotate(): Promise<RotationReport> {
    return (await import('../consolidate/backup-rotation.js')).rotateBackups(this.paths, this.rotationPolicy());
  }

  private rotationPolicy(): RotationPolicy {
    return { ...this.config.consolidation.backups, timeZone: this.config.timezone };
  }


  /**
   * Puts a backup back as the home's database. Static: no facade may hold the database open
   * meanwhile (a restore refuses while any process does, the daemon included).
   */
  static async backupRestore(id: string, options: { home?: string; now?: Date } = {}): Promise<RestoreReport> {
    const paths = resolveHome(options.home);
    // Restoring would write a SQLite file the home does not use (and the server's data stays as it is).
    if (storeTarget(loadConfigFile(paths.config).store).backend !== 'sqlite') throw new CairnError(ERROR_CODES.CONFIG, `This home's store is PostgreSQL: restore it on the server. ${(await import('../consolidate/backup.js')).SERVER_BACKUPS_NOTE}.`);
    return (await import('../consolidate/backup-restore.js')).restoreBackup(paths, id, { now: options.now });
  }

}
