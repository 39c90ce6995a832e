// The stability sentinel as `cairn status` sees it: the same checks the daemon runs, evaluated now
// from this process, continuing from what the daemon's last check saved (since-when, trackers,
// the last integrity check; status itself never runs the slow integrity check nor saves anything).
import { statSync } from 'node:fs';
import type { CairnConfig } from '../../core/config.js';
import type { HomePaths } from '../../core/home.js';
import type { Store } from '../../store/store.js';
import { evaluateHealth, type Alert, type HealthObservation } from './evaluate.js';
import { diskSpace, healthStatePath, newestBackup, unitBacklogs } from './observe.js';
import { readHealthState } from './state-file.js';

export type { Alert, AlertKind } from './evaluate.js';

/** What the judge's circuit breaker says about the LLM: failing (its batches go to the fallback) or not. */
export function llmObservation(breaker: unknown): HealthObservation['llm'] {
  const b = breaker as { state?: unknown; consecutiveFailures?: unknown } | null | undefined;
  if (!b || typeof b.state !== 'string') return null;
  const failures = typeof b.consecutiveFailures === 'number' ? b.consecutiveFailures : 0;
  return { inFallback: b.state !== 'closed' || failures > 0, detail: `circuit ${b.state}, ${failures} consecutive failures` };
}

export interface StatusHealthInput {
  store: Store;
  paths: HomePaths;
  config: CairnConfig;
  /** Entries waiting for a vector of the active model (null: no embedder, or capture does not embed). */
  embedPending: number | null;
  daemon: { running: boolean; pid?: number };
  watched: ReadonlyArray<{ id: number; kind: string; path: string; createdAt: string }>;
}

export async function statusAlerts(input: StatusHealthInput): Promise<Alert[]> {
  const { store, paths, config } = input;
  const prev = readHealthState(healthStatePath(paths));
  const at = new Date().toISOString();
  const obs: HealthObservation = {
    at,
    daemon: { running: input.daemon.running, lastSeen: lastSeen(paths, prev.checkedAt) },
    sources: input.watched,
    units: await unitBacklogs(store, input.watched),
    // The breaker lives in the daemon: what its last check saw (without one running, no LLM judges).
    llm: input.daemon.running && prev.pid === input.daemon.pid ? prev.llm : null,
    embedPending: input.embedPending,
    disk: await diskSpace(paths.root),
    integrity: null,
    newestBackupAt: await newestBackup(paths),
  };
  return evaluateHealth(obs, prev, config.alerts).alerts;
}

/** The daemon's last sign of life: its last health check or its last state write. */
function lastSeen(paths: HomePaths, checkedAt: string | null): string | null {
  let t = checkedAt ? Date.parse(checkedAt) : -Infinity;
  try {
    t = Math.max(t, statSync(paths.daemonState).mtimeMs);
  } catch {
    /* never ran */
  }
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}
