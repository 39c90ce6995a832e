// <home>/run/health.json: the daemon's last health check (trackers and raised alerts), written
// atomically after each check and read by `cairn status` in another process.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ALERT_KINDS, emptyHealthState, type Alert, type HealthState } from './evaluate.js';

const isString = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));

/** The saved state, or an empty one when there is none or it cannot be read (it is rebuilt at the next check). */
export function readHealthState(path: string): HealthState {
  let raw: Partial<HealthState>;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<HealthState>;
  } catch {
    return emptyHealthState();
  }
  if (!raw || typeof raw !== 'object' || raw.version !== 1) return emptyHealthState();
  const state = emptyHealthState();
  state.pid = typeof raw.pid === 'number' ? raw.pid : null;
  state.checkedAt = isString(raw.checkedAt) ? raw.checkedAt : null;
  state.fallbackSince = isString(raw.fallbackSince) ? raw.fallbackSince : null;
  if (raw.llm && typeof raw.llm.inFallback === 'boolean' && typeof raw.llm.detail === 'string') state.llm = { inFallback: raw.llm.inFallback, detail: raw.llm.detail };
  if (raw.lag && typeof raw.lag === 'object') {
    for (const [key, t] of Object.entries(raw.lag)) if (t && typeof t.offset === 'number' && isString(t.since)) state.lag[key] = { offset: t.offset, since: t.since };
  }
  if (Array.isArray(raw.backlog)) state.backlog = raw.backlog.filter((b) => b && isString(b.at) && typeof b.pending === 'number');
  const i = raw.integrity;
  if (i && isString(i.at) && typeof i.ok === 'boolean' && Array.isArray(i.problems)) state.integrity = { at: i.at, ok: i.ok, problems: i.problems.map(String) };
  if (Array.isArray(raw.alerts)) state.alerts = raw.alerts.filter(isAlert);
  return state;
}

function isAlert(a: unknown): a is Alert {
  const x = a as Partial<Alert> | null;
  return !!x && typeof x.id === 'string' && (ALERT_KINDS as readonly string[]).includes(x.kind as string) && typeof x.message === 'string' && isString(x.since) && typeof x.details === 'object' && x.details !== null;
}

export function writeHealthState(path: string, state: HealthState): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(state) + '\n', { mode: 0o600 });
  renameSync(tmp, path);
}
