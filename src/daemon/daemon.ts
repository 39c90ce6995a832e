// `cairn watch`: one long-lived process per data directory. It watches every registered source
// (chokidar, with a periodic rescan as the safety net for missed events), debounces bursts of
// appends, captures through the same code as `cairn ingest`, updates the realtime views, and
// judges and embeds in small slices between captures, including what an earlier run (killed, or a
// hook that captured without embedding) left pending. SIGINT/SIGTERM finish the batch being
// committed, then exit cleanly; a kill -9 loses nothing because every batch commits with its checkpoint.
import { statSync, writeFileSync, renameSync } from 'node:fs';
import { PRIVATE_FILE_MODE } from '../core/private-files.js';
import { resolve } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Source } from '../core/types.js';
import type { Cairn } from '../service/cairn.js';
import { afterCapture, captureOne, scanSource, type CaptureDeps } from '../service/capture.js';
import { watchedSources } from '../service/sources.js';
import { missingVectors } from '../service/indexer.js';
import { unitForPath, watchRoot, type CaptureUnit } from '../capture/sources/units.js';
import type { UnitResult } from '../capture/sources/capture-unit.js';
import { acquireLock } from '../core/lock.js';
import type { Logger } from './logger.js';
import { Sentinel } from './sentinel.js';
import { startConsolidation } from './consolidation.js';
import type { ConsolidationTimer } from './consolidation-timer.js';
import { WorkQueue, type CaptureTask } from './work-queue.js';
import { SourceLeases } from './source-leases.js';

/** Entries embedded per slice: small enough that a waiting capture starts within a second or two. */
const EMBED_SLICE = 64;
/** Turns judged per slice (an LLM judge sends them in its own batches). */
const JUDGE_SLICE = 64;
/** Memories the knowledge pass takes in per slice (one transaction each). */
const LEARN_SLICE = 64;

export interface DaemonOptions {
  logger: Logger;
  /** Overrides of the config's capture timings (tests). */
  debounceMs?: number;
  rescanSeconds?: number;
  settleSeconds?: number;
  leaseSeconds?: number;
}

export interface DaemonState {
  pid: number;
  startedAt: string;
  lastScanAt: string | null;
  sources: number;
  queued: number;
  turnsCaptured: number;
  /** The LLM judge's breaker (state, calls, failures), when one is configured. */
  llm?: unknown;
}

export class Daemon {
  private readonly queue = new WorkQueue();
  private readonly abort = new AbortController();
  private readonly debounces = new Map<string, NodeJS.Timeout>();
  private readonly settles = new Map<string, NodeJS.Timeout>();
  private readonly lastErrors = new Map<string, string>();
  /** The last embedding failure per namespace, logged once rather than at every rescan. */
  private readonly embedErrors = new Map<string, string>();
  private sources = new Map<number, Source>();
  private watcher: FSWatcher | null = null;
  private watched = new Set<string>();
  private rescanTimer: NodeJS.Timeout | null = null;
  private leaseTimer: NodeJS.Timeout | null = null;
  /** The sources this daemon may capture now (several daemons on one database: source-leases.ts). */
  private readonly leases: SourceLeases;
  private loop: Promise<void> | null = null;
  private release: (() => void) | null = null;
  private readonly deps: CaptureDeps;
  private readonly state: DaemonState;
  private sentinel: Sentinel | null = null;
  private consolidation: ConsolidationTimer | null = null;
  private readonly timing: { debounceMs: number; rescanMs: number; settleMs: number; batchLines: number };
  /** Set while a capture or scan job runs; catch-up callers wait for it and the queue's captures. */
  private capturing = false;
  private catchUpWaiters: Array<() => void> = [];

  constructor(private readonly cairn: Cairn, private readonly options: DaemonOptions) {
    const capture = cairn.config.capture;
    this.timing = {
      debounceMs: options.debounceMs ?? capture.debounceMs,
      rescanMs: (options.rescanSeconds ?? capture.rescanSeconds) * 1000,
      settleMs: (options.settleSeconds ?? capture.settleSeconds) * 1000,
      batchLines: capture.batchLines,
    };
    // Views are updated right after each capture; vectors come later, in slices, from the queue.
    this.deps = { ...cairn.captureDeps(), embed: null, judge: null, learn: null };
    this.leases = new SourceLeases(cairn.store, options.logger, (options.leaseSeconds ?? capture.leaseSeconds) * 1000);
    this.state = { pid: process.pid, startedAt: new Date().toISOString(), lastScanAt: null, sources: 0, queued: 0, turnsCaptured: 0 };
  }

  private get log(): Logger {
    return this.options.logger;
  }

  /** Takes the lock (CONFLICT when another daemon runs), scans everything, starts watching. */
  async start(): Promise<void> {
    this.release = acquireLock(this.cairn.paths.daemonLock, 'cairn watch');
    await this.leases.start();
    // Renewed every third of the lease from the start (a busy start must not let them run out),
    // apart from the rescan: a lease outlives a slow renewal or two.
    this.leaseTimer = setInterval(() => void this.renewLeases(), Math.floor(this.leases.ttlMs / 3));
    this.leaseTimer.unref(); // a start that fails after this must still let the process exit
    this.watcher = watch([], {
      ignoreInitial: true,
      followSymlinks: false,
      ignored: (path: string) => /(^|[/\\])(node_modules|\.git|\.obsidian|\.trash)([/\\]|$)/.test(path),
    });
    this.watcher.on('add', (p) => this.onChange(p));
    this.watcher.on('change', (p) => this.onChange(p));
    this.watcher.on('unlink', (p) => this.onChange(p, true));
    this.watcher.on('error', (err) => this.log.warn({ err: String(err) }, 'file watcher error'));
    await this.refreshSources();
    await this.queueBacklog();
    this.rescanTimer = setInterval(() => void this.rescan(), this.timing.rescanMs);
    this.loop = this.run();
    this.sentinel = new Sentinel(this.cairn, this.log);
    this.sentinel.start();
    this.consolidation = startConsolidation(this.cairn, this.log, this.abort.signal);
    this.log.info({ home: this.cairn.paths.root, sources: this.sources.size, rescanSeconds: this.timing.rescanMs / 1000, holder: this.leases.holder }, 'cairn watch started');
  }

  /** Finishes the batch in progress, stops watching, releases the lock. */
  async stop(reason: string): Promise<void> {
    if (this.abort.signal.aborted) return;
    this.log.info({ reason }, 'stopping: finishing the current batch');
    this.abort.abort();
    if (this.rescanTimer) clearInterval(this.rescanTimer);
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    for (const t of [...this.debounces.values(), ...this.settles.values()]) clearTimeout(t);
    this.queue.wakeUp();
    const watcher = this.watcher;
    this.watcher = null;
    await watcher?.close();
    await this.loop;
    // Given up at once, so another daemon captures these sources without waiting for expiry.
    await this.leases.releaseAll();
    this.releaseCatchUps();
    await this.consolidation?.stop();
    await this.sentinel?.stop();
    this.writeState();
    this.release?.();
    this.log.info({ turnsCaptured: this.state.turnsCaptured }, 'cairn watch stopped');
  }

  private get stopping(): boolean {
    return this.abort.signal.aborted;
  }

  /**
   * Scans every source now and resolves once that scan (and any capture queued before it) is
   * committed: what OpenClaw's plugin asks before a session is compacted, so the transcript's
   * newest lines are in the store first. Same checkpoints as every capture, so nothing is doubled.
   */
  async catchUp(): Promise<{ turnsCaptured: number }> {
    const before = this.state.turnsCaptured;
    if (this.stopping) return { turnsCaptured: 0 };
    const done = new Promise<void>((resolve) => this.catchUpWaiters.push(resolve));
    await this.refreshSources();
    // No source at all, or stopped meanwhile: the loop may be asleep with nothing to wake it for.
    if (this.stopping || (!this.capturing && this.queue.capturesIdle())) this.releaseCatchUps();
    await done;
    return { turnsCaptured: this.state.turnsCaptured - before };
  }

  private releaseCatchUps(): void {
    const waiters = this.catchUpWaiters;
    this.catchUpWaiters = [];
    for (const w of waiters) w();
  }

  /**
   * Reloads the registered sources (another process may have added or removed one), takes or
   * renews their leases, and queues a scan of each held (`scanAll` false: of newly held ones only).
   */
  private async refreshSources(scanAll = true): Promise<void> {
    const list = await this.leases.claim(await watchedSources(this.cairn.store));
    // Stopped while reading: touching the closed watcher now would open new handles that keep
    // the process alive after shutdown.
    if (this.stopping) return;
    const fresh = list.filter((s) => !this.sources.has(s.id));
    this.sources = new Map(list.map((s) => [s.id, s]));
    const roots = new Set(list.map((s) => watchRoot(s)));
    const added = [...roots].filter((r) => !this.watched.has(r));
    const removed = [...this.watched].filter((r) => !roots.has(r));
    if (added.length) this.watcher?.add(added);
    if (removed.length) this.watcher?.unwatch(removed);
    this.watched = roots;
    for (const s of scanAll ? list : fresh) this.queue.addScan(s.id);
    this.state.sources = list.length;
  }

  private async renewLeases(): Promise<void> {
    if (this.stopping) return;
    try {
      await this.refreshSources(false);
    } catch (err) {
      this.log.error({ err: (err as Error).message }, 'renewing source leases failed; retried shortly');
    }
  }

  private async rescan(): Promise<void> {
    if (this.stopping) return;
    try {
      await this.refreshSources();
      await this.queueBacklog();
    } catch (err) {
      this.log.error({ err: (err as Error).message }, 'rescan failed');
    }
  }

  /**
   * Work no new line would start: unjudged turns and missing vectors (a kill -9 mid-pass, turns a
   * hook captured without embedding). Queued behind captures and scans, done in slices.
   */
  private async queueBacklog(): Promise<void> {
    await this.queueJudging();
    const model = this.cairn.modelId;
    // Memories the knowledge pass has not taken in yet (a crash mid-pass): cheap to ask when there are none.
    for (const namespace of await this.cairn.store.namespaceIds()) this.queue.addLearn(namespace);
    if (!this.embeds || model === null) return;
    for (const [namespace, missing] of await missingVectors(this.cairn.store, model, this.cairn.config.index.passages)) if (missing > 0) this.queue.addEmbed(namespace);
  }

  /** Unjudged turns (a crash, a failed pass) and fallback judgments (once the LLM is back) get judged. */
  private async queueJudging(): Promise<void> {
    const llmReady = this.cairn.judging().llmReady();
    for (const s of await this.cairn.store.judgeStats()) {
      if (s.pending > 0) this.queue.addJudge(s.namespace);
      else if (s.needsRejudge > 0 && llmReady) this.queue.addJudge(s.namespace, true);
    }
  }

  private onChange(path: string, removed = false): void {
    if (this.stopping) return;
    const abs = resolve(path);
    for (const source of this.sources.values()) {
      // unitForPath knows what belongs to a source (including a database root's -wal beside it).
      const unit = unitForPath(source, abs);
      // A removed transcript keeps its turns; only a Markdown tree must drop the file's chunks.
      if (!unit || (removed && unit.type !== 'markdown')) continue;
      this.debounce({ source, unit, final: false });
    }
  }

  private debounce(task: CaptureTask): void {
    const key = `${task.source.id}\0${task.unit.path}`;
    clearTimeout(this.debounces.get(key));
    this.debounces.set(key, setTimeout(() => {
      this.debounces.delete(key);
      this.queue.addCapture(task);
    }, this.timing.debounceMs));
  }

  /** A file holding an unfinished response is captured with `final` once it has been quiet long enough. */
  private scheduleSettle(source: Source, unit: CaptureUnit): void {
    const key = `${source.id}\0${unit.path}`;
    clearTimeout(this.settles.get(key));
    this.settles.set(key, setTimeout(() => {
      this.settles.delete(key);
      let quietMs = Infinity;
      try {
        quietMs = Date.now() - statSync(unit.path).mtimeMs;
      } catch {
        return;
      }
      if (quietMs >= this.timing.settleMs) this.queue.addCapture({ source, unit, final: true });
      else this.scheduleSettle(source, unit);
    }, this.timing.settleMs));
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      // The store answers synchronously (SQLite), so a busy queue would otherwise run on
      // microtasks alone and starve signals, file events and timers until it is empty.
      await new Promise((resolve) => setImmediate(resolve));
      // Checked again after the turn of the loop: a stop that came meanwhile woke no one (nothing
      // was waiting yet), so waiting now would wait for ever.
      if (this.stopping) break;
      const job = this.queue.next();
      if (!job) {
        this.writeState();
        await this.queue.waitForWork();
        continue;
      }
      this.capturing = 'capture' in job || 'scan' in job;
      try {
        if ('capture' in job) await this.capture(job.capture);
        else if ('scan' in job) await this.scan(job.scan);
        else if ('judge' in job) await this.judge(job.judge, job.fallbacksOnly);
        else if ('embed' in job) await this.embed(job.embed);
        else await this.learn(job.learn);
      } catch (err) {
        this.log.error({ err: (err as Error).message }, 'capture job failed');
      }
      this.capturing = false;
      if (this.catchUpWaiters.length > 0 && this.queue.capturesIdle()) this.releaseCatchUps();
    }
  }

  private async capture(task: CaptureTask): Promise<void> {
    if (!(await this.leases.confirm(task.source))) return;
    const result = await captureOne(this.deps, task.source, task.unit, { final: task.final, batchLines: this.timing.batchLines, signal: this.abort.signal });
    await this.handle(task.source, [result]);
  }

  private async scan(sourceId: number): Promise<void> {
    const source = this.sources.get(sourceId);
    if (!source || !(await this.leases.confirm(source))) return;
    const scan = await scanSource(this.deps, source, { batchLines: this.timing.batchLines, signal: this.abort.signal, shouldStop: () => this.stopping });
    for (const e of scan.walkErrors) this.reportError(`${source.id}:${e.path}`, { source: source.id, path: e.path }, e.message);
    await this.handle(source, scan.results);
    this.state.lastScanAt = new Date().toISOString();
    // Said at once, not only when the queue runs dry: a long backlog keeps it busy for minutes.
    this.writeState();
  }

  private async handle(source: Source, results: UnitResult[]): Promise<void> {
    for (const r of results) {
      const key = `${source.id}:${r.unit.path}`;
      if (r.error) this.reportError(key, { source: source.id, path: r.unit.path, code: r.error.code }, r.error.message);
      else if (this.lastErrors.delete(key)) this.log.info({ source: source.id, path: r.unit.path }, 'readable again');
      if (r.turnsInserted > 0 || r.malformed > 0 || (r.documents ?? 0) > 0) {
        this.log.info(
          { source: source.id, kind: source.kind, path: r.unit.path, namespace: r.unit.namespace, turns: r.turnsInserted, duplicates: r.duplicates, malformed: r.malformed, documents: r.documents, redactions: r.redactions, adoptedFrom: r.adoptedFrom },
          'captured',
        );
      }
      this.state.turnsCaptured += r.turnsInserted;
      if (r.held && !this.stopping) this.scheduleSettle(source, r.unit);
      if (r.turnsInserted > 0) this.queue.addJudge(r.unit.namespace);
      else if (this.embeds && (r.documents ?? 0) > 0) this.queue.addEmbed(r.unit.namespace);
    }
    const after = await afterCapture(this.deps, results);
    if (after.warning) this.log.warn({ source: source.id }, after.warning);
  }

  /** Logs an error once per distinct message per unit (a rescan must not repeat it every 30 s). */
  private reportError(key: string, fields: Record<string, unknown>, message: string): void {
    if (this.lastErrors.get(key) === message) return;
    this.lastErrors.set(key, message);
    this.log.error({ ...fields, err: message }, 'cannot capture');
  }

  private get embeds(): boolean {
    return this.cairn.captureDeps().embed !== null;
  }

  /** One slice of judging; requeued while turns remain, then the namespace's vectors. */
  private async judge(namespace: string, fallbacksOnly: boolean): Promise<void> {
    const judging = this.cairn.judging();
    // Re-judging fallbacks only makes sense while the LLM takes requests (else it would loop).
    if (fallbacksOnly && !judging.llmReady()) return this.queue.doneJudge(namespace);
    try {
      const report = fallbacksOnly
        ? await judging.rejudge(namespace, { fallbacksOnly: true, limit: JUDGE_SLICE, signal: this.abort.signal })
        : await judging.judgePending(namespace, { limit: JUDGE_SLICE, signal: this.abort.signal });
      if (report.judged > 0) {
        this.log.info({ namespace, judged: report.judged, promoted: report.promoted, byJudge: report.byJudge, fallbacks: report.fallbacks, llmRequests: report.llmRequests, costUsd: report.costUsd }, fallbacksOnly ? 're-judged fallbacks' : 'judged');
      }
      if (report.judged < JUDGE_SLICE) this.queue.doneJudge(namespace);
      if (this.embeds && report.judged > 0) this.queue.addEmbed(namespace);
      else if (report.promoted > 0) this.queue.addLearn(namespace);
    } catch (err) {
      this.queue.doneJudge(namespace);
      this.log.error({ namespace, err: (err as Error).message }, 'judging failed; the turns stay unjudged and are retried at the next rescan');
    }
  }

  private async embed(namespace: string): Promise<void> {
    try {
      const progress = await this.cairn.embedPending({ namespace, limit: EMBED_SLICE });
      if (progress.done < EMBED_SLICE) {
        this.queue.doneEmbed(namespace);
        // Vectors first, so the knowledge pass also compares new memories by meaning.
        this.queue.addLearn(namespace);
      }
      if (this.embedErrors.delete(namespace)) this.log.info({ namespace }, 'embedding works again');
    } catch (err) {
      this.queue.doneEmbed(namespace);
      // Retried at every rescan (the backlog is still there); said once per distinct failure.
      const message = (err as Error).message;
      if (this.embedErrors.get(namespace) === message) return;
      this.embedErrors.set(namespace, message);
      this.log.warn({ namespace, err: message }, 'embedding failed; turns stay searchable by keyword and are embedded at a later rescan');
    }
  }

  /** One slice of the knowledge pass; requeued while memories remain. */
  private async learn(namespace: string): Promise<void> {
    try {
      const report = await this.cairn.learn({ namespace, limit: LEARN_SLICE, signal: this.abort.signal });
      if (report.memories < LEARN_SLICE) this.queue.doneLearn(namespace);
      if (report.memories > 0) this.log.info({ namespace, ...report }, 'knowledge updated');
    } catch (err) {
      this.queue.doneLearn(namespace);
      this.log.error({ namespace, err: (err as Error).message }, 'knowledge pass failed; its memories are taken in at the next rescan');
    }
  }

  private writeState(): void {
    this.state.queued = this.queue.size;
    const llm = this.cairn.judging().llmHealth();
    if (llm) this.state.llm = llm;
    const state = this.cairn.paths.daemonState;
    try {
      writeFileSync(`${state}.tmp`, JSON.stringify(this.state) + '\n', { mode: PRIVATE_FILE_MODE });
      renameSync(`${state}.tmp`, state);
    } catch {
      /* informational only */
    }
  }
}
