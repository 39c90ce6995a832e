// The stability sentinel's rules: from what was observed now and what the previous check left
// behind, which alerts are raised and since when. Pure (no I/O), so the daemon's periodic checks
// and `cairn status` reach the same verdict from the same facts.
import type { AlertsConfig } from '../../core/alerts-config.js';

export const ALERT_KINDS = ['daemon-stopped', 'capture-lag', 'judge-fallback', 'embed-backlog', 'disk-low', 'integrity', 'backup-stale'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export interface Alert {
  /** Stable identity across checks: the kind, plus the source for capture lag ("capture-lag:3"). */
  id: string;
  kind: AlertKind;
  message: string;
  /** When the condition began, as far as Cairn can tell (ISO). */
  since: string;
  details: Record<string, unknown>;
}

/** A watched file with complete lines beyond its checkpoint. */
export interface UnitBacklog {
  sourceId: number;
  key: string;
  /** The checkpoint's byte offset and when it was last written. */
  offset: number;
  capturedAt: string;
  pendingBytes: number;
  /** The file's last modification (the unread lines were written by then). */
  modifiedAt: string;
}

export interface IntegrityResult {
  at: string;
  ok: boolean;
  problems: string[];
}

export interface HealthObservation {
  at: string;
  /** Whether a capture daemon holds the lock; `lastSeen`: its last check, when it stopped. */
  daemon: { running: boolean; lastSeen: string | null };
  /** The watched sources. */
  sources: ReadonlyArray<{ id: number; kind: string; path: string; createdAt: string }>;
  units: readonly UnitBacklog[];
  /** The LLM judge's breaker as the running daemon sees it; null: no LLM, or nothing to see. */
  llm: { inFallback: boolean; detail: string } | null;
  /** Entries waiting for a vector; null when nothing embeds them on its own. */
  embedPending: number | null;
  disk: { freeBytes: number; totalBytes: number } | null;
  /** A database check run now; null: not run now (the previous result stands). */
  integrity: IntegrityResult | null;
  /** The newest entry of <home>/backups/; null: no backups there yet. */
  newestBackupAt: string | null;
}

/** What one check leaves for the next (and for `cairn status`), in <home>/run/health.json. */
export interface HealthState {
  version: 1;
  /** The daemon that wrote it, and when. */
  pid: number | null;
  checkedAt: string | null;
  /** Per watched file with unread lines: the checkpoint offset seen, and since when it has not moved. */
  lag: Record<string, { offset: number; since: string }>;
  /** The LLM judge as this check saw it (the daemon's breaker; `cairn status` cannot see it itself). */
  llm: HealthObservation['llm'];
  fallbackSince: string | null;
  backlog: Array<{ at: string; pending: number }>;
  integrity: IntegrityResult | null;
  alerts: Alert[];
}

export function emptyHealthState(): HealthState {
  return { version: 1, pid: null, checkedAt: null, lag: {}, llm: null, fallbackSince: null, backlog: [], integrity: null, alerts: [] };
}

const MIB = 1024 * 1024;
const ms = (iso: string): number => Date.parse(iso);
const iso = (t: number): string => new Date(t).toISOString();
const seconds = (from: string, to: string): number => Math.max(0, Math.round((ms(to) - ms(from)) / 1000));
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The next state: trackers updated and the alerts raised now, each keeping its `since` while it lasts. */
export function evaluateHealth(obs: HealthObservation, prev: HealthState, cfg: AlertsConfig, pid: number | null = null): HealthState {
  const next: HealthState = { ...emptyHealthState(), pid, checkedAt: obs.at, llm: obs.llm, integrity: obs.integrity ?? prev.integrity };
  const raised: Alert[] = [];
  const raise = (kind: AlertKind, subject: string | null, message: string, since: string, details: Record<string, unknown> = {}): void => {
    const id = subject === null ? kind : `${kind}:${subject}`;
    const before = prev.alerts.find((a) => a.id === id);
    raised.push({ id, kind, message, since: before?.since ?? since, details });
  };

  if (!obs.daemon.running && obs.sources.length > 0) {
    const registered = Math.min(...obs.sources.map((s) => ms(s.createdAt)));
    const since = iso(Math.max(registered, obs.daemon.lastSeen ? ms(obs.daemon.lastSeen) : -Infinity));
    raise('daemon-stopped', null, `the capture daemon is not running: ${plural(obs.sources.length, 'watched source')} ${obs.sources.length === 1 ? 'is' : 'are'} not captured (start it with "cairn watch")`, since, { sources: obs.sources.length });
  }

  // Capture lag: the unread lines have waited at least since the file last changed (or was last
  // captured, if later), and at least since a check first saw the checkpoint stuck where it is.
  const lagBySource = new Map<number, { since: string; bytes: number; files: number }>();
  for (const u of obs.units) {
    if (u.pendingBytes <= 0) continue;
    const tracked = prev.lag[u.key];
    const stuckSince = tracked && tracked.offset === u.offset ? tracked.since : obs.at;
    next.lag[u.key] = { offset: u.offset, since: stuckSince };
    const since = iso(Math.min(ms(stuckSince), Math.max(ms(u.modifiedAt), ms(u.capturedAt))));
    const agg = lagBySource.get(u.sourceId) ?? { since, bytes: 0, files: 0 };
    lagBySource.set(u.sourceId, { since: ms(since) < ms(agg.since) ? since : agg.since, bytes: agg.bytes + u.pendingBytes, files: agg.files + 1 });
  }
  for (const [sourceId, lag] of lagBySource) {
    const waited = seconds(lag.since, obs.at);
    if (waited <= cfg.captureLagSeconds) continue;
    const source = obs.sources.find((s) => s.id === sourceId);
    const name = source ? `source ${sourceId} (${source.kind} ${source.path})` : `source ${sourceId}`;
    raise('capture-lag', String(sourceId), `${name}: ${lag.bytes} bytes of new lines in ${plural(lag.files, 'file')} not captured for ${waited} s (alerts.captureLagSeconds ${cfg.captureLagSeconds})`, lag.since, {
      source: sourceId, pendingBytes: lag.bytes, files: lag.files, lagSeconds: waited,
    });
  }

  if (obs.llm?.inFallback) {
    next.fallbackSince = prev.fallbackSince ?? obs.at;
    const minutes = (ms(obs.at) - ms(next.fallbackSince)) / 60_000;
    if (minutes >= cfg.judgeFallbackMinutes) {
      raise('judge-fallback', null, `the LLM judge has been failing for ${Math.round(minutes)} min (${obs.llm.detail}); the heuristic judges meanwhile (alerts.judgeFallbackMinutes ${cfg.judgeFallbackMinutes})`, next.fallbackSince, {
        minutes: Math.round(minutes * 10) / 10,
      });
    }
  } else if (obs.llm === null) next.fallbackSince = prev.fallbackSince;

  if (obs.embedPending !== null) {
    next.backlog = [...prev.backlog, { at: obs.at, pending: obs.embedPending }].slice(-(cfg.embedBacklogRisingChecks + 1));
    const b = next.backlog;
    const rising = b.length === cfg.embedBacklogRisingChecks + 1 && b.every((s, i) => i === 0 || s.pending > b[i - 1]!.pending);
    if (obs.embedPending > cfg.embedBacklogMax) {
      raise('embed-backlog', null, `${obs.embedPending} entries wait for a vector (alerts.embedBacklogMax ${cfg.embedBacklogMax}); search uses BM25 for them`, obs.at, { pending: obs.embedPending });
    } else if (rising) {
      raise('embed-backlog', null, `entries waiting for a vector grew at each of the last ${cfg.embedBacklogRisingChecks} checks (${b[0]!.pending} → ${obs.embedPending})`, b[0]!.at, { pending: obs.embedPending, from: b[0]!.pending });
    }
  }

  if (obs.disk && obs.disk.freeBytes < cfg.minFreeDiskMb * MIB) {
    const free = Math.floor(obs.disk.freeBytes / MIB);
    raise('disk-low', null, `${free} MiB free on the data directory's file system (alerts.minFreeDiskMb ${cfg.minFreeDiskMb})`, obs.at, { freeMb: free, totalMb: Math.floor(obs.disk.totalBytes / MIB) });
  }

  const integrity = next.integrity;
  if (integrity && !integrity.ok) {
    raise('integrity', null, `the database integrity check failed: ${integrity.problems.join('; ').replace(/\s+/g, ' ').slice(0, 300) || 'unknown problem'} (back up cairn.db before anything else)`, integrity.at, {
      checkedAt: integrity.at, problems: integrity.problems,
    });
  }

  if (obs.newestBackupAt !== null) {
    const staleAt = ms(obs.newestBackupAt) + cfg.backupMaxAgeHours * 3_600_000;
    if (ms(obs.at) > staleAt) {
      const hours = Math.floor((ms(obs.at) - ms(obs.newestBackupAt)) / 3_600_000);
      raise('backup-stale', null, `the newest backup is ${hours} h old (alerts.backupMaxAgeHours ${cfg.backupMaxAgeHours})`, iso(staleAt), { newestBackupAt: obs.newestBackupAt });
    }
  }

  next.alerts = raised;
  return next;
}

/** Alerts in `next` that `prev` did not have, and those of `prev` that are gone. */
export function alertChanges(prev: readonly Alert[], next: readonly Alert[]): { raised: Alert[]; cleared: Alert[] } {
  const before = new Set(prev.map((a) => a.id));
  const now = new Set(next.map((a) => a.id));
  return { raised: next.filter((a) => !before.has(a.id)), cleared: prev.filter((a) => !now.has(a.id)) };
}
