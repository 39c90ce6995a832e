// A consolidation run for one namespace: the days that changed (or were asked for), oldest first,
// each day's note, night note and review; the weeks they fall in; life/, topic pages; then MEMORY.md. The
// bookkeeping (watermark, days still owing jobs) commits only after every file is written, so a run
// cut short is redone from where the last complete run ended.
import type { CairnConfig } from '../core/config.js';
import { namespaceDir, type HomePaths } from '../core/home.js';
import type { Namespace } from '../core/namespace.js';
import type { Store } from '../store/store.js';
import type { Item } from './contracts.js';
import { gatherWindow } from './material.js';
import { changedDays, cutOf, dueJobs, parseState, type ConsolidationState } from './plan.js';
import { digestPath } from './digest-paths.js';
import { runDigestJob, type JobContext, type ProseWriter, type WrittenFile } from './digest-job.js';
import { addDays, daysOfIsoWeek, isoWeekOf, placeInstant, weekWindow, windowsOf, type DayBounds } from './windows.js';
import { renderDailyNote } from './render-daily.js';
import { renderReview } from './render-review.js';
import { renderWeekly } from './render-weekly.js';
import { writeTopicsAndMemoryMd } from './runner-navigation.js';

export interface ConsolidateDeps {
  store: Store;
  paths: HomePaths;
  config: CairnConfig;
  prose: ProseWriter | null;
  /** The redaction gate for text written to files (see JobContext.redact). */
  redact: (text: string) => string;
}

export interface ConsolidateRequest {
  namespace: string;
  now: Date;
  /** Only this logical day (its note, night note, review), its week and MEMORY.md. */
  date?: string;
  /** Only this ISO week's distill (and MEMORY.md). */
  week?: string;
  /** Redo jobs whose material is unchanged. */
  force?: boolean;
  /** Checked between jobs: once aborted, the run ends without saving its bookkeeping (the rest is redone). */
  signal?: AbortSignal;
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface ConsolidateReport {
  namespace: string;
  /** Days looked at, oldest first. */
  days: string[];
  weeks: string[];
  files: WrittenFile[];
}

/** Days before a review whose material counts as "recent" (automation candidates: things done again and again). */
const RECENT_DAYS = 7;

export function boundsOf(config: CairnConfig): DayBounds {
  return { dayStart: config.consolidation.dayStart, nightStart: config.consolidation.nightStart };
}

class DayMaterial {
  private readonly cache = new Map<string, Promise<Item[]>>();
  constructor(private readonly store: Store, private readonly namespace: string, private readonly timeZone: string, private readonly bounds: DayBounds) {}

  part(day: string, part: 'day' | 'night'): Promise<Item[]> {
    const key = `${day}|${part}`;
    let p = this.cache.get(key);
    if (!p) {
      const w = windowsOf(day, this.timeZone, this.bounds);
      p = gatherWindow(this.store, this.namespace, part === 'day' ? w.day : w.night, this.timeZone);
      this.cache.set(key, p);
    }
    return p;
  }

  async whole(day: string): Promise<Item[]> {
    return [...(await this.part(day, 'day')), ...(await this.part(day, 'night'))];
  }
}

export async function consolidateNamespace(deps: ConsolidateDeps, req: ConsolidateRequest): Promise<ConsolidateReport> {
  const { store, config } = deps;
  const ns = req.namespace;
  const timeZone = config.timezone;
  const bounds = boundsOf(config);
  const cut = cutOf(timeZone, bounds);
  const nowIso = req.now.toISOString();
  const ctx: JobContext = { store, namespace: ns, dir: namespaceDir(deps.paths, ns as Namespace), prose: deps.prose, force: req.force, redact: deps.redact, ...(req.signal ? { signal: req.signal } : {}) };
  const files: WrittenFile[] = [];
  const add = (w: WrittenFile | null): void => {
    if (w) files.push(w);
  };

  const previous = parseState(await store.getConsolidationState(ns));
  const fresh = !previous || previous.cut !== cut;
  let days: string[];
  let weeksAsked: string[] = [];
  let nextState: ConsolidationState | null = null;
  if (req.date !== undefined) days = [req.date];
  else if (req.week !== undefined) {
    days = [];
    weeksAsked = [req.week];
  } else {
    const changed = await changedDays(store, ns, fresh ? 0 : previous.entrySeq, timeZone, bounds);
    const all = new Set([...changed.days, ...(fresh ? [] : previous.pendingDays)]);
    days = [...all].sort();
    nextState = { version: 1, entrySeq: Math.max(changed.lastSeq, fresh ? 0 : previous.entrySeq), pendingDays: [], cut, lastRunAt: nowIso };
  }

  const material = new DayMaterial(store, ns, timeZone, bounds);
  const weeks = new Set<string>(weeksAsked);
  const total = days.length + 1;
  let done = 0;
  // A stop (SIGTERM) reaches the abort signal through the event loop: the run lets it in before
  // each check, or a run whose jobs never wait on I/O would finish every day before seeing it.
  const stopped = async (): Promise<boolean> => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return req.signal?.aborted === true;
  };
  for (const day of days) {
    if (await stopped()) return { namespace: ns, days, weeks: [...weeks].sort(), files };
    req.onProgress?.(done, total, day);
    const due = dueJobs(day, req.now, timeZone, bounds);
    if (due.pending && nextState) nextState.pendingDays.push(day);
    const w = windowsOf(day, timeZone, bounds);
    if (due.daily) {
      const items = await material.part(day, 'day');
      add(await runDigestJob(ctx, {
        kind: 'daily', path: digestPath('daily', day), periodStart: w.day.start, periodEnd: w.day.end,
        inputs: [timeZone, bounds, items], items, title: `${day} · day`, prose: true,
        render: () => renderDailyNote({ namespace: ns, day, part: 'day', timeZone, bounds, items }),
      }));
    }
    if (due.night) {
      const items = await material.part(day, 'night');
      add(await runDigestJob(ctx, {
        kind: 'night', path: digestPath('night', day), periodStart: w.night.start, periodEnd: w.night.end,
        inputs: [timeZone, bounds, items], items, title: `${day} · last night`, prose: true,
        render: () => renderDailyNote({ namespace: ns, day, part: 'night', timeZone, bounds, items }),
      }));
    }
    if (due.review) {
      const items = await material.whole(day);
      const recentItems: Item[] = [];
      for (let i = RECENT_DAYS; i >= 1; i--) recentItems.push(...(await material.whole(addDays(day, -i))));
      add(await runDigestJob(ctx, {
        kind: 'review', path: digestPath('review', day), periodStart: w.day.start, periodEnd: w.night.end,
        inputs: [timeZone, bounds, items, recentItems], items, title: `Review of ${day}`, prose: true,
        render: () => renderReview({ namespace: ns, day, timeZone, items, recentItems }),
      }));
      weeks.add(isoWeekOf(day));
    }
    done++;
  }

  for (const week of [...weeks].sort()) {
    if (await stopped()) return { namespace: ns, days, weeks: [...weeks].sort(), files };
    req.onProgress?.(done, total, week);
    const ww = weekWindow(week, timeZone, bounds);
    if (nowIso < ww.start) continue;
    const weekDays: Array<{ day: string; items: Item[] }> = [];
    for (const day of daysOfIsoWeek(week)) {
      if (nowIso < windowsOf(day, timeZone, bounds).day.start) break;
      weekDays.push({ day, items: await material.whole(day) });
    }
    const items = weekDays.flatMap((d) => d.items);
    const decisionsInForce = items.filter((i) => i.kind === 'memory' && i.category === 'decision' && i.current);
    add(await runDigestJob(ctx, {
      kind: 'weekly', path: digestPath('weekly', week), periodStart: ww.start, periodEnd: ww.end,
      inputs: [timeZone, bounds, weekDays, decisionsInForce], items, title: `Week ${week}`, prose: true,
      render: () => renderWeekly({ namespace: ns, week, timeZone, days: weekDays, decisionsInForce }),
    }));
  }

  if (await stopped()) return { namespace: ns, days, weeks: [...weeks].sort(), files };
  req.onProgress?.(done, total, 'MEMORY.md');
  const today = placeInstant(nowIso, timeZone, bounds)?.day ?? nowIso.slice(0, 10);
  for (const w of await writeTopicsAndMemoryMd(ctx, { timeZone, bounds, now: req.now, today, maxLines: config.consolidation.memoryMdMaxLines, knowledge: config.knowledge })) add(w);
  req.onProgress?.(total, total, 'done');

  if (nextState) await store.putConsolidationState(ns, nextState as unknown as Record<string, unknown>);
  return { namespace: ns, days, weeks: [...weeks].sort(), files };
}
