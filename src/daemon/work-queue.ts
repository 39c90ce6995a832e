// The daemon's one line of work, by priority: captures (they make new turns searchable), scans,
// judging (important turns become memories), embedding, then knowledge (entities, facts,
// near-duplicates), the last three in small slices so a long backfill never delays a fresh line.
import type { Source } from '../core/types.js';
import type { CaptureUnit } from '../capture/sources/units.js';

export interface CaptureTask {
  source: Source;
  unit: CaptureUnit;
  final: boolean;
}

export class WorkQueue {
  private readonly captures = new Map<string, CaptureTask>();
  private readonly scans = new Set<number>();
  private readonly judges = new Map<string, { fallbacksOnly: boolean }>();
  private readonly embeds = new Set<string>();
  private readonly learns = new Set<string>();
  private wake: (() => void) | null = null;

  private notify(): void {
    this.wake?.();
    this.wake = null;
  }

  /** A unit to capture; a task already waiting for it is merged (final wins). */
  addCapture(task: CaptureTask): void {
    const key = `${task.source.id}\0${task.unit.path}`;
    const waiting = this.captures.get(key);
    this.captures.set(key, waiting ? { ...task, final: waiting.final || task.final } : task);
    this.notify();
  }

  addScan(sourceId: number): void {
    this.scans.add(sourceId);
    this.notify();
  }

  /** Judging of a namespace; `fallbacksOnly` re-judges what the fallback judged (LLM back). */
  addJudge(namespace: string, fallbacksOnly = false): void {
    const waiting = this.judges.get(namespace);
    this.judges.set(namespace, { fallbacksOnly: waiting ? waiting.fallbacksOnly && fallbacksOnly : fallbacksOnly });
    this.notify();
  }

  doneJudge(namespace: string): void {
    this.judges.delete(namespace);
  }

  addEmbed(namespace: string): void {
    this.embeds.add(namespace);
    this.notify();
  }

  doneEmbed(namespace: string): void {
    this.embeds.delete(namespace);
  }

  addLearn(namespace: string): void {
    this.learns.add(namespace);
    this.notify();
  }

  doneLearn(namespace: string): void {
    this.learns.delete(namespace);
  }

  /** No capture or scan waiting (judging, embedding and knowledge may still be). */
  capturesIdle(): boolean {
    return this.captures.size === 0 && this.scans.size === 0;
  }

  get size(): number {
    return this.captures.size + this.scans.size + this.judges.size + this.embeds.size + this.learns.size;
  }

  /** The next job by priority, or null when idle. */
  next(): { capture: CaptureTask } | { scan: number } | { judge: string; fallbacksOnly: boolean } | { embed: string } | { learn: string } | null {
    for (const [key, task] of this.captures) {
      this.captures.delete(key);
      return { capture: task };
    }
    for (const id of this.scans) {
      this.scans.delete(id);
      return { scan: id };
    }
    for (const [ns, job] of this.judges) return { judge: ns, fallbacksOnly: job.fallbacksOnly };
    for (const ns of this.embeds) return { embed: ns };
    for (const ns of this.learns) return { learn: ns };
    return null;
  }

  /** Resolves when work arrives (or `wakeUp` is called). */
  waitForWork(): Promise<void> {
    if (this.size > 0) return Promise.resolve();
    return new Promise((resolve) => (this.wake = resolve));
  }

  wakeUp(): void {
    this.notify();
  }
}
