// The daemon's side of consolidation: the schedule (ConsolidationTimer) calling the sleep protocol
// or a plain consolidation run, and the home-wide "last run" mark the catch-up is measured from
// (`<home>/run/consolidation.json`). A home whose daemon never ran the jobs catches up at first start.
// Several daemons on one PostgreSQL store: each consolidates the namespaces whose lease it holds
// (namespace-leases.ts); what each namespace has been consolidated up to is kept in the store, so
// a daemon taking a namespace over carries on where its last holder stopped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Cairn } from '../service/cairn.js';
import { writeFileAtomic } from '../service/hot-state.js';
import { ConsolidationTimer } from './consolidation-timer.js';
import type { Logger } from './logger.js';
import type { NamespaceLeases } from './namespace-leases.js';

/** Before any real run: makes the first start catch up on everything already captured. */
const NEVER = '1970-01-01T00:00:00.000Z';

function markFile(cairn: Cairn): string {
  return join(cairn.paths.root, 'run', 'consolidation.json');
}

function readMark(cairn: Cairn): string {
  try {
    const at = (JSON.parse(readFileSync(markFile(cairn), 'utf8')) as { lastRunAt?: unknown }).lastRunAt;
    return typeof at === 'string' && !Number.isNaN(Date.parse(at)) ? at : NEVER;
  } catch {
    return NEVER;
  }
}

/** The namespaces to consolidate now: null for all (SQLite), else the held ones whose lease still renews. */
async function namespacesHere(leases: NamespaceLeases): Promise<string[] | null> {
  const held = leases.heldNamespaces();
  if (held === null) return null;
  const confirmed: string[] = [];
  for (const namespace of held) if (await leases.confirm(namespace)) confirmed.push(namespace);
  return confirmed;
}

export function startConsolidation(cairn: Cairn, log: Logger, signal: AbortSignal, leases: NamespaceLeases): ConsolidationTimer | null {
  const settings = cairn.config.consolidation;
  if (!settings.enabled) return null;
  const timer = new ConsolidationTimer({
    schedule: settings.schedule,
    timeZone: cairn.config.timezone,
    lastRunAt: async () => readMark(cairn),
    run: async (trigger, at) => {
      if (signal.aborted) return;
      const started = Date.now();
      // The first catch-up of a home makes no backup: the first night does.
      const first = trigger === 'catch-up' && readMark(cairn) === NEVER;
      const namespaces = await namespacesHere(leases);
      if (namespaces !== null && namespaces.length === 0) {
        // This daemon's share is done; a namespace it takes over later is caught up from the store's state at the next firing.
        writeFileAtomic(markFile(cairn), JSON.stringify({ lastRunAt: at, trigger }) + '\n');
        log.info({ trigger, at }, 'consolidation skipped: every namespace is consolidated by another daemon');
        return;
      }
      // The work queue runs the knowledge pass in slices; a consolidation that ran it too would hold
      // the daemon (and compete with the queue) for as long as the backlog takes.
      const report = await cairn.sleep({ trigger: first ? 'first-start' : trigger, at, signal, learn: false, ...(namespaces !== null ? { namespaces } : {}) });
      // Stopped mid-run: no mark, so the next start catches up on what is left.
      if (signal.aborted) return;
      writeFileAtomic(markFile(cairn), JSON.stringify({ lastRunAt: at, trigger }) + '\n');
      log.info({ trigger, at, ms: Date.now() - started, ...report.summary, ...(namespaces !== null ? { namespaces } : {}) }, 'consolidated');
      for (const e of report.errors) log.error({ trigger, err: e }, 'a step of the nightly run failed; it is tried again at the next run');
    },
    onError: (err) => {
      // A stop cancels the model call in flight; the next start catches up on what is left.
      if (signal.aborted) return log.info({}, 'consolidation stopped mid-run; the next start catches up');
      log.error({ err: (err as Error)?.message ?? String(err) }, 'consolidation failed; it runs again at the next firing');
    },
  });
  void timer.start();
  return timer;
}
