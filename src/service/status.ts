// `cairn status`: database health, counts per namespace and kind, the embedder, and how fresh the
// vector index is. Unhealthy means the store itself is in trouble; a stale index is a warning
// (search still works on BM25) that names the command that fixes it.
import { isPassageModel } from '../embed/passages.js';
import type { CairnConfig } from '../core/config.js';
import type { HomePaths } from '../core/home.js';
import { readFileSync } from 'node:fs';
import type { HealthReport, JudgeStats, Store, UsageRow } from '../store/store.js';
import { localDayTime } from '../core/local-time.js';
import { lockHolder } from '../core/lock.js';
import { sourceStatuses, type SourceStatus } from './sources.js';
import { statusAlerts, type Alert } from './health/index.js';

export interface DaemonStatus {
  running: boolean;
  pid?: number;
  host?: string;
  startedAt?: string;
  /** The daemon's last full scan and queue, as it last reported them. */
  lastScanAt?: string | null;
  queued?: number;
  turnsCaptured?: number;
  /** The daemon's LLM judge breaker, as it last reported it. */
  llm?: unknown;
}

export interface JudgeStatus {
  threshold: number;
  llm: { provider: string; model: string; dailyBudgetUsd: number } | null;
  namespaces: JudgeStats[];
  /** LLM spending today (local day), per namespace: calls, failures, fallbacks, tokens, cost. */
  today: { day: string; usage: Array<UsageRow & { namespace: string }> };
}

export interface NamespaceStatus {
  namespace: string;
  memories: number;
  currentMemories: number;
  superseded: number;
  turns: number;
  documents: number;
  vectors: number;
  missingVectors: number;
}

export interface StatusReport {
  ok: boolean;
  home: string;
  /** Why this process cannot write the home (reads work, writes fail), or null when it can. */
  readOnly: string | null;
  database: HealthReport;
  embedder: { provider: string; model: string | null };
  index: {
    fresh: boolean;
    pending: number;
    /** Vectors of models other than the active one: unused until `cairn reembed` drops them. */
    otherModels: Array<{ model: string; dimensions: number; vectors: number }>;
  };
  namespaces: NamespaceStatus[];
  capture: { daemon: DaemonStatus; sources: SourceStatus[]; redactions: number; malformed: number };
  judge: JudgeStatus;
  totals: { memories: number; turns: number; documents: number; vectors: number };
  warnings: string[];
  problems: string[];
  /** The stability sentinel's raised alerts (capture stopped or lagging, judge failing, disk, backups…). */
  alerts: Alert[];
}

export async function buildStatus(
  store: Store,
  paths: HomePaths,
  config: CairnConfig,
  model: string | null,
  options: { integrity?: boolean; readOnly?: string | null } = {},
): Promise<StatusReport> {
  const database = await store.health(options);
  const readOnly = options.readOnly ?? null;
  const stats = await store.namespaceStats();
  const vectorStats = model ? await store.vectorStats(model) : [];
  const models = await store.vectorModels();
  const byNs = new Map(vectorStats.map((v) => [v.namespace, v]));
  const namespaces: NamespaceStatus[] = stats.map((s) => ({
    ...s,
    superseded: s.memories - s.currentMemories,
    vectors: byNs.get(s.namespace)?.vectors ?? 0,
    missingVectors: model ? Math.max(0, byNs.get(s.namespace)?.missing ?? 0) : 0,
  }));
  const pending = namespaces.reduce((n, s) => n + s.missingVectors, 0);
  // Passage vectors belong to their model (embed/passages.ts) and go with it: never listed apart.
  const otherModels = models.filter((m) => m.model !== model && !isPassageModel(m.model));
  const warnings: string[] = [];
  if (readOnly) warnings.push(`the data directory is read-only here (${readOnly}): search, export and status work; capture, store and state changes fail until it is writable`);
  if (pending > 0) warnings.push(`${pending} entries have no vector for ${model}; search uses BM25 for them until "cairn reembed"`);
  if (otherModels.length > 0) {
    warnings.push(`vectors of other models are stored (${otherModels.map((m) => m.model).join(', ')}): the embedder changed; run "cairn reembed"`);
  }
  if (!model) warnings.push('no embedder configured: search is BM25 only');
  const sources = await sourceStatuses(store, { watchedOnly: true });
  for (const src of sources) {
    if (src.missing) warnings.push(`source ${src.id} (${src.kind} ${src.path}) no longer exists`);
    if (src.errors.length) warnings.push(`source ${src.id} (${src.kind}): ${src.errors.length} unit(s) cannot be captured; first: ${src.errors[0]!.message}`);
  }
  const count = (f: (s: SourceStatus) => number) => sources.reduce((n, s) => n + f(s), 0);
  const capture = {
    daemon: daemonStatus(paths),
    sources,
    redactions: count((s) => Object.values(s.stats.redactions).reduce((a, b) => a + b, 0)),
    malformed: count((s) => s.stats.malformed),
  };
  const judgeStats = await store.judgeStats();
  const pendingJudge = judgeStats.reduce((n, j) => n + j.pending, 0);
  if (pendingJudge > 0 && !capture.daemon.running) warnings.push(`${pendingJudge} turns are not judged yet: run "cairn judge" (or "cairn watch", which judges continuously)`);
  const day = localDayTime(new Date().toISOString(), config.timezone)!.day;
  const llm = config.judge.llm;
  const judge: JudgeStatus = {
    threshold: config.judge.threshold,
    llm: llm ? { provider: llm.provider, model: llm.model, dailyBudgetUsd: config.judge.dailyBudgetUsd } : null,
    namespaces: judgeStats,
    today: { day, usage: (await store.usageList(day)).map(({ day: _d, ...u }) => u) },
  };
  const sum = (key: 'memories' | 'turns' | 'documents' | 'vectors') => namespaces.reduce((n, s) => n + s[key], 0);
  const alerts = await statusAlerts({ store, paths, config, daemon: capture.daemon, watched: sources, embedPending: model && config.capture.embed ? pending : null });
  return {
    ok: database.ok,
    home: paths.root,
    readOnly,
    database,
    embedder: { provider: config.embedder.provider, model },
    index: { fresh: pending === 0 && otherModels.length === 0, pending, otherModels },
    namespaces,
    capture,
    judge,
    totals: { memories: sum('memories'), turns: sum('turns'), documents: sum('documents'), vectors: sum('vectors') },
    warnings,
    problems: database.problems,
    alerts,
  };
}

function daemonStatus(paths: HomePaths): DaemonStatus {
  const holder = lockHolder(paths.daemonLock);
  if (!holder) return { running: false };
  let state: Partial<DaemonStatus> = {};
  try {
    const raw = JSON.parse(readFileSync(paths.daemonState, 'utf8')) as Record<string, unknown>;
    if (raw.pid === holder.pid) {
      state = {
        lastScanAt: typeof raw.lastScanAt === 'string' ? raw.lastScanAt : null,
        queued: typeof raw.queued === 'number' ? raw.queued : undefined,
        turnsCaptured: typeof raw.turnsCaptured === 'number' ? raw.turnsCaptured : undefined,
        ...(raw.llm ? { llm: raw.llm } : {}),
      };
    }
  } catch {
    /* not written yet */
  }
  return { running: true, pid: holder.pid, host: holder.host, startedAt: holder.startedAt, ...state };
}
