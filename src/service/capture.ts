// Capture as a stage of the pipeline: capture units of sources, then hand what is new to the
// stages after it (the realtime view now; embedding; judge and memory when they arrive). The
// daemon and `cairn ingest` both come through here, so they behave the same.
import type { HomePaths } from '../core/home.js';
import { parseNamespace } from '../core/namespace.js';
import type { Source } from '../core/types.js';
import type { Store } from '../store/store.js';
import type { PassagePolicy } from '../embed/passages.js';
import { updateRealtimeView } from '../consolidate/realtime-view.js';
import { captureUnit, type UnitOptions, type UnitResult } from '../capture/sources/capture-unit.js';
import { listUnits, type CaptureUnit } from '../capture/sources/units.js';

export interface CaptureDeps {
  store: Store;
  paths: HomePaths;
  timeZone: string;
  /**
   * Embeds what is missing in a namespace (only entries up to `throughSeq` when given); null
   * without an embedder or when capture must not embed.
   */
  embed: ((namespace: string, onProgress?: (p: { done: number; total: number }) => void, throughSeq?: number) => Promise<number>) | null;
  /**
   * Judges the namespace's unjudged turns (turning the important ones into memories); `onJudged`
   * hears the entry seq up to which every turn is judged (JudgeRunOptions.onJudged); null: not here.
   */
  judge: ((namespace: string, onProgress?: (done: number) => void, onJudged?: (throughEntrySeq: number) => void) => Promise<number>) | null;
  /** The model `embed` makes vectors with (to count a backlog before capture); null or absent: none. */
  vectorModel?: string | null;
  /** The index's passage policy, to count a backlog of passage rows under it (absent: the default). */
  passages?: PassagePolicy;
  /** Takes the namespace's new memories into its knowledge (entities, facts, near-duplicates); null or absent: not here. */
  learn?: ((namespace: string) => Promise<number>) | null;
}

export interface AfterCapture {
  judged: number;
  embedded: number;
  /** Turns appended to realtime views. */
  viewed: number;
  /** Memories the knowledge pass took in. */
  learned?: number;
  warning?: string;
}

export interface SourceScan {
  source: Source;
  results: UnitResult[];
  /** Folders under the root that could not be listed. */
  walkErrors: Array<{ path: string; message: string }>;
}

/** Captures every unit of a source as the disk stands now. */
export async function scanSource(deps: CaptureDeps, source: Source, options: UnitOptions & { shouldStop?: () => boolean } = {}): Promise<SourceScan> {
  const { units, errors } = await listUnits(source);
  const results: UnitResult[] = [];
  for (const unit of units) {
    if (options.shouldStop?.()) break;
    results.push(await captureUnit(deps.store, source, unit, options));
  }
  return { source, results, walkErrors: errors };
}

export async function captureOne(deps: CaptureDeps, source: Source, unit: CaptureUnit, options: UnitOptions = {}): Promise<UnitResult> {
  return captureUnit(deps.store, source, unit, options);
}

/**
 * The stages after capture, for the namespaces that received turns or documents: the realtime
 * view, the judge (important turns become memories), then vectors. A failure here never undoes capture: it is returned as a warning.
 */
export async function afterCapture(deps: CaptureDeps, results: readonly UnitResult[]): Promise<AfterCapture> {
  const touched = new Set<string>();
  const embedOnly = new Set<string>();
  for (const r of results) {
    if (r.turnsInserted > 0) touched.add(r.unit.namespace);
    else if ((r.documents ?? 0) > 0) embedOnly.add(r.unit.namespace);
  }
  const { byNamespace: _, ...out } = await runStages(deps, { view: touched, judge: touched, embed: new Set([...touched, ...embedOnly]) });
  return out;
}

/** The namespaces each stage after capture runs for. */
export interface StageTargets {
  view: Iterable<string>;
  judge: Iterable<string>;
  embed: Iterable<string>;
}

/**
 * Runs the stages after capture for the namespaces named: realtime view, judge, vectors, then knowledge.
 * Judging and embedding take everything pending in a namespace, new or left by an earlier run.
 * The model runs in other threads: while the judge runs, the turns it has judged so far get their
 * vectors (never one it has not: it decides what is embedded, and noise is not). The knowledge
 * pass comes after every vector, as it compares near-duplicates by meaning.
 */
export async function runStages(deps: CaptureDeps, targets: StageTargets): Promise<AfterCapture & { byNamespace: Map<string, { judged: number; embedded: number }> }> {
  const out: AfterCapture = { judged: 0, embedded: 0, viewed: 0 };
  const byNamespace = new Map<string, { judged: number; embedded: number }>();
  const tally = (ns: string) => byNamespace.get(ns) ?? byNamespace.set(ns, { judged: 0, embedded: 0 }).get(ns)!;
  const warnings: string[] = [];
  for (const ns of targets.view) {
    try {
      out.viewed += await updateRealtimeView(deps.store, deps.paths, parseNamespace(ns), deps.timeZone);
    } catch (err) {
      warnings.push(`realtime view of ${ns} not updated: ${(err as Error).message}`);
    }
  }
  const toEmbed = [...targets.embed];
  let embedFailed: Error | null = null;
  if (deps.judge) {
    for (const ns of targets.judge) {
      const early: JudgedVectors | null = deps.embed && !embedFailed && toEmbed.includes(ns) ? new JudgedVectors(deps.embed, ns) : null;
      try {
        const judged = await deps.judge(ns, undefined, early ? (seq) => early.advance(seq) : undefined);
        out.judged += judged;
        tally(ns).judged += judged;
      } catch (err) {
        // Unjudged turns stay searchable and are judged on the next pass (the daemon, `cairn judge`).
        warnings.push(`captured, but not judged: ${(err as Error).message}; run "cairn judge"`);
        break;
      } finally {
        if (early) {
          const { embedded, error } = await early.finish();
          out.embedded += embedded;
          tally(ns).embedded += embedded;
          embedFailed ??= error;
        }
      }
    }
  }
  if (embedFailed) warnings.push(`captured, but not embedded: ${embedFailed.message}; run "cairn reembed"`);
  else if (deps.embed) {
    for (const ns of toEmbed) {
      try {
        const embedded = await deps.embed(ns);
        out.embedded += embedded;
        tally(ns).embedded += embedded;
      } catch (err) {
        // The turns are stored and searchable by keyword; vectors can be rebuilt with reembed.
        warnings.push(`captured, but not embedded: ${(err as Error).message}; run "cairn reembed"`);
        break;
      }
    }
  }
  if (deps.learn) {
    // After vectors, so near-duplicates are also compared by meaning.
    for (const ns of targets.judge) {
      try {
        out.learned = (out.learned ?? 0) + (await deps.learn(ns));
      } catch (err) {
        // The memories are stored; the pass takes them in at its next run (its cursor did not move).
        warnings.push(`captured, but knowledge not updated: ${(err as Error).message}; it is retried at the next capture`);
        break;
      }
    }
  }
  if (warnings.length) out.warning = warnings.join('; ');
  return { ...out, byNamespace };
}

/**
 * Vectors for a namespace's judged turns while its judge runs: one embedding pass at a time (so
 * memory stays bounded by its batch), each up to the judge's latest frontier. What is left (the
 * memories judging made, turns past the last frontier) is the embed stage's, after the judge.
 */
class JudgedVectors {
  private frontier = 0;
  private embedded = 0;
  private running: Promise<void> | null = null;
  private error: Error | null = null;

  constructor(
    private readonly embed: NonNullable<CaptureDeps['embed']>,
    private readonly namespace: string,
  ) {}

  advance(throughSeq: number): void {
    this.frontier = Math.max(this.frontier, throughSeq);
    if (this.running || this.error) return;
    this.running = this.drain().finally(() => (this.running = null));
  }

  private async drain(): Promise<void> {
    let through = 0;
    try {
      while (through < this.frontier) {
        through = this.frontier;
        this.embedded += await this.embed(this.namespace, undefined, through);
      }
    } catch (err) {
      this.error = err as Error;
    }
  }

  /** Waits for the pass under way; the first failure, if any, stops the embedding of this run. */
  async finish(): Promise<{ embedded: number; error: Error | null }> {
    while (this.running) await this.running;
    return { embedded: this.embedded, error: this.error };
  }
}
