// Cairn's figures for one agent, as OpenClaw's memory status reads them (MemoryProviderStatus) and
// as `openclaw memory status` prints them: backend, memories/turns/documents, vectors, freshness of
// the index, the daemon, and whether OpenClaw's transcripts are being captured at all.
import { resolve, sep } from 'node:path';
import { homedir } from 'node:os';
import type { StatusReport } from '../../../src/service/status.js';
import type { MemoryProviderStatus } from './openclaw-api.js';

export interface AgentFigures {
  namespace: string;
  memories: number;
  currentMemories: number;
  turns: number;
  documents: number;
  vectors: number;
  missingVectors: number;
}

/** OpenClaw's state directory, as OpenClaw and Cairn's source discovery both resolve it. */
export function openclawStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.OPENCLAW_STATE_DIR || `${homedir()}${sep}.openclaw`);
}

export function figuresOf(report: StatusReport, namespace: string): AgentFigures {
  const ns = report.namespaces.find((n) => n.namespace === namespace);
  return {
    namespace,
    memories: ns?.memories ?? 0,
    currentMemories: ns?.currentMemories ?? 0,
    turns: ns?.turns ?? 0,
    documents: ns?.documents ?? 0,
    vectors: ns?.vectors ?? 0,
    missingVectors: ns?.missingVectors ?? 0,
  };
}

/** Whether a registered, watched OpenClaw source covers this OpenClaw's state directory. */
export function capturesOpenClaw(report: StatusReport, stateDir = openclawStateDir()): boolean {
  return report.capture.sources.some((s) => s.kind === 'openclaw' && s.watched && !s.missing && (stateDir === resolve(s.path) || stateDir.startsWith(resolve(s.path) + sep) || resolve(s.path).startsWith(stateDir + sep)));
}

export function providerStatus(report: StatusReport, namespace: string, home: string): MemoryProviderStatus {
  const f = figuresOf(report, namespace);
  const model = report.embedder.model;
  const state = f.vectors === 0 && f.missingVectors === 0 ? 'empty' : f.missingVectors > 0 ? 'incomplete' : 'complete';
  return {
    backend: 'builtin',
    provider: 'cairn',
    ...(model ? { model } : {}),
    files: f.documents,
    chunks: f.memories + f.turns + f.documents,
    dirty: !report.index.fresh,
    dbPath: report.database.location,
    workspaceDir: home,
    sources: ['memory', 'sessions'],
    vector: { enabled: model !== null, available: model !== null, storeAvailable: true, semanticAvailable: model !== null, index: { state } },
    fts: { enabled: true, available: true },
    custom: {
      cairn: {
        ...f,
        healthy: report.ok,
        daemon: report.capture.daemon,
        capturesOpenClaw: capturesOpenClaw(report),
        warnings: report.warnings,
        problems: report.problems,
      },
    },
  };
}

/** The human lines of `openclaw memory status` for one agent. */
export function statusLines(agentId: string, report: StatusReport, namespace: string, socket: string | null): string[] {
  const f = figuresOf(report, namespace);
  const d = report.capture.daemon;
  const model = report.embedder.model;
  const captures = capturesOpenClaw(report);
  const lines = [
    `Memory (Cairn) · agent ${agentId} → namespace ${namespace}: ${report.ok ? 'healthy' : 'UNHEALTHY'}`,
    `  Backend: cairn (${report.database.backend}, schema ${report.database.schemaVersion}) at ${report.home}`,
    `  Daemon: ${d.running ? `running (pid ${d.pid ?? '?'}${d.lastScanAt ? `, last scan ${d.lastScanAt}` : ''}, ${d.queued ?? 0} queued)` : 'not running'} · socket ${socket ?? 'none'}`,
    `  Memories: ${f.currentMemories} current (${f.memories} in all) · Turns: ${f.turns} · Documents: ${f.documents}`,
    `  Vectors: ${f.vectors}${f.missingVectors ? ` (${f.missingVectors} missing)` : ''} · ${model ? `model ${model}` : 'keyword search only (no embedder)'} · index ${report.index.fresh ? 'fresh' : `stale (${report.index.pending} pending)`}`,
    `  Capture: ${captures ? `OpenClaw transcripts under ${openclawStateDir()} are captured` : `OpenClaw transcripts are NOT captured: run cairn sources add openclaw`}`,
  ];
  for (const p of report.problems) lines.push(`  Problem: ${p}`);
  for (const w of report.warnings) lines.push(`  Warning: ${w}`);
  return lines;
}
