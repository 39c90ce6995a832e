// `cairn consolidate` and the daemon's scheduled jobs: validate the request, pick the namespaces,
// run the consolidate part for each. The part does the work; this file only connects it.
import { invalidInput } from '../core/errors.js';
import { parseNamespace } from '../core/namespace.js';
import { parseTime } from '../core/time.js';
import type { CairnConfig } from '../core/config.js';
import type { HomePaths } from '../core/home.js';
import type { Store } from '../store/store.js';
import { consolidateNamespace, type ConsolidateReport } from '../consolidate/runner.js';
import type { ProseWriter } from '../consolidate/digest-job.js';
import { checkDay, parseIsoWeek, placeInstant } from '../consolidate/windows.js';
import { boundsOf } from '../consolidate/runner.js';

export interface ConsolidateOptions {
  /** One namespace; default: every namespace. */
  namespace?: string;
  /** These namespaces (when no `namespace` is given); default: every namespace. */
  namespaces?: readonly string[];
  /** Only this local day (YYYY-MM-DD): its note, night note and review, its week, MEMORY.md. */
  date?: string;
  /** Only this ISO week's distill (YYYY-Www), with MEMORY.md. */
  week?: string;
  /** Only the current day (what the schedule would do now). */
  current?: boolean;
  /** The moment to consolidate as of (ISO or an age such as 2h); default now. Nothing after it is due. */
  at?: string;
  /** Redo files whose material is unchanged. */
  force?: boolean;
  /** Stops between jobs; the namespace's bookkeeping is then not advanced, so the rest is redone. */
  signal?: AbortSignal;
  /** False: render from the knowledge as it stands, without running the knowledge pass first (default true). */
  learn?: boolean;
  onProgress?: (namespace: string, done: number, total: number, label: string) => void;
}

export interface ConsolidateResult {
  at: string;
  namespaces: ConsolidateReport[];
}

function validDay(value: string): string {
  try {
    return checkDay(value.trim());
  } catch (err) {
    throw invalidInput(`Invalid date "${value.slice(0, 40)}": ${(err as Error).message}; use a calendar day such as 2026-11-25`);
  }
}

export interface ConsolidationDeps {
  store: Store;
  paths: HomePaths;
  config: CairnConfig;
  prose: ProseWriter | null;
  redact: (text: string) => string;
}

export async function runConsolidation(deps: ConsolidationDeps, options: ConsolidateOptions, clock: () => number = Date.now): Promise<ConsolidateResult> {
  const chosen = [options.date !== undefined, options.week !== undefined, Boolean(options.current)].filter(Boolean).length;
  if (chosen > 1) throw invalidInput('Give at most one of --date, --week and --now');
  const now = new Date(options.at === undefined ? clock() : Date.parse(parseTime(options.at, 'at', clock())));
  const date = options.date === undefined ? undefined : validDay(options.date);
  const week = options.week === undefined ? undefined : normalWeek(options.week);
  const namespaces = options.namespace !== undefined ? [parseNamespace(options.namespace)] : options.namespaces !== undefined ? options.namespaces.map((n) => parseNamespace(n)) : await deps.store.namespaceIds();
  const reports: ConsolidateReport[] = [];
  for (const namespace of namespaces) {
    if (options.signal?.aborted) break;
    const report = await consolidateNamespace(deps, {
      namespace,
      now,
      ...(date !== undefined ? { date } : {}),
      ...(week !== undefined ? { week } : {}),
      ...(options.current ? { date: currentDay(deps.config, now) } : {}),
      ...(options.force ? { force: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: (done, total, label) => options.onProgress?.(namespace, done, total, label),
    });
    reports.push(report);
  }
  return { at: now.toISOString(), namespaces: reports };
}

/** The logical day `now` belongs to (02:00 belongs to the day before: its night). */
function currentDay(config: CairnConfig, now: Date): string {
  return placeInstant(now.toISOString(), config.timezone, boundsOf(config))?.day ?? now.toISOString().slice(0, 10);
}

/** `2026-w48` → `2026-W48`, validated (W53 only in years that have one). */
function normalWeek(text: string): string {
  const { year, week } = parseIsoWeek(text.trim().toUpperCase());
  return `${year}-W${String(week).padStart(2, '0')}`;
}
