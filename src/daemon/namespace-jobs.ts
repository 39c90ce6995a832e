// The daemon's background work on each namespace, in small slices from its work queue: judging
// (important turns become memories), embedding, then the knowledge pass. Only for namespaces
// whose lease this daemon holds (namespace-leases.ts: several daemons on one PostgreSQL store do
// each namespace's work once, not once per machine); on SQLite, for every namespace.
import type { Cairn } from '../service/cairn.js';
import { missingVectors } from '../service/indexer.js';
import type { Logger } from './logger.js';
import type { NamespaceLeases } from './namespace-leases.js';
import type { WorkQueue } from './work-queue.js';

/** Entries embedded per slice: small enough that a waiting capture starts within a second or two. */
const EMBED_SLICE = 64;
/** Turns judged per slice (an LLM judge sends them in its own batches). */
const JUDGE_SLICE = 64;
/** Memories the knowledge pass takes in per slice (one transaction each). */
const LEARN_SLICE = 64;

export type NamespaceJob = { judge: string; fallbacksOnly: boolean } | { embed: string } | { learn: string };

export class NamespaceJobs {
  /** The last embedding failure per namespace, logged once rather than at every rescan. */
  private readonly embedErrors = new Map<string, string>();

  constructor(
    private readonly cairn: Cairn,
    private readonly queue: WorkQueue,
    private readonly log: Logger,
    readonly leases: NamespaceLeases,
    private readonly signal: AbortSignal,
  ) {}

  /** Takes or renews the namespaces' leases; the backlog of a namespace newly taken is queued. */
  async claim(): Promise<void> {
    if (!this.leases.shared) return;
    const taken = await this.leases.claim(await this.cairn.store.namespaceIds());
    if (taken.length > 0) await this.queueBacklog(new Set(taken));
  }

  /**
   * Work no new line would start, in the namespaces worked here (`only`: of these): unjudged
   * turns and missing vectors (a kill -9 mid-pass, turns a hook or another daemon captured).
   */
  async queueBacklog(only?: ReadonlySet<string>): Promise<void> {
    // A daemon working no namespace asks nothing (the counts read every turn and vector).
    if (this.leases.heldNamespaces()?.length === 0) return;
    const mine = (namespace: string) => this.leases.holds(namespace) && (only === undefined || only.has(namespace));
    const llmReady = this.cairn.judging().llmReady();
    for (const s of await this.cairn.store.judgeStats()) {
      if (!mine(s.namespace)) continue;
      // Fallback judgments are re-judged once the LLM is back.
      if (s.pending > 0) this.queue.addJudge(s.namespace);
      else if (s.needsRejudge > 0 && llmReady) this.queue.addJudge(s.namespace, true);
    }
    // Memories the knowledge pass has not taken in yet (a crash mid-pass): cheap to ask when there are none.
    for (const namespace of await this.cairn.store.namespaceIds()) if (mine(namespace)) this.queue.addLearn(namespace);
    const model = this.cairn.modelId;
    if (!this.embeds || model === null) return;
    for (const [namespace, missing] of await missingVectors(this.cairn.store, model, this.cairn.config.index.passages)) if (missing > 0 && mine(namespace)) this.queue.addEmbed(namespace);
  }

  /** What a capture into `namespace` leaves to do here: judge its new turns, or embed its documents. */
  captured(namespace: string, turns: number, documents: number): void {
    if (!this.leases.holds(namespace)) return;
    if (turns > 0) this.queue.addJudge(namespace);
    else if (this.embeds && documents > 0) this.queue.addEmbed(namespace);
  }

  /** One slice of a job; dropped when the namespace's lease has gone to another daemon. */
  async run(job: NamespaceJob): Promise<void> {
    const namespace = 'judge' in job ? job.judge : 'embed' in job ? job.embed : job.learn;
    if (!(await this.leases.confirm(namespace))) {
      if ('judge' in job) this.queue.doneJudge(namespace);
      else if ('embed' in job) this.queue.doneEmbed(namespace);
      else this.queue.doneLearn(namespace);
      return;
    }
    if ('judge' in job) await this.judge(namespace, job.fallbacksOnly);
    else if ('embed' in job) await this.embed(namespace);
    else await this.learn(namespace);
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
        ? await judging.rejudge(namespace, { fallbacksOnly: true, limit: JUDGE_SLICE, signal: this.signal })
        : await judging.judgePending(namespace, { limit: JUDGE_SLICE, signal: this.signal });
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
      const report = await this.cairn.learn({ namespace, limit: LEARN_SLICE, signal: this.signal });
      if (report.memories < LEARN_SLICE) this.queue.doneLearn(namespace);
      if (report.memories > 0) this.log.info({ namespace, ...report }, 'knowledge updated');
    } catch (err) {
      this.queue.doneLearn(namespace);
      this.log.error({ namespace, err: (err as Error).message }, 'knowledge pass failed; its memories are taken in at the next rescan');
    }
  }
}
