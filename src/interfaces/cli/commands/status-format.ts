// Terminal rendering of the status report.
import type { StatusReport } from '../../../service/status.js';
import type { SourceStatus } from '../../../service/sources.js';

/** SQLite's journal mode, or the PostgreSQL server's version and pgvector's (its location is the URL, password hidden). */
function engineOf(details: Record<string, unknown>): string {
  if (details.postgresVersion !== undefined) return `PostgreSQL ${String(details.postgresVersion)}${details.pgvector ? ` · pgvector ${String(details.pgvector)}` : ''}`;
  return String(details.journalMode);
}

export function formatStatus(r: StatusReport): string {
  const lines = [
    `Cairn ${!r.ok ? 'UNHEALTHY' : r.alerts.length ? `ALERT (${r.alerts.length} raised)` : r.readOnly ? 'read-only' : 'healthy'} · home ${r.home}`,
    ...r.alerts.map((a) => `alert ${a.kind} since ${a.since}: ${a.message}`),
    `Database: ${r.database.backend} ${r.database.location} · schema v${r.database.schemaVersion} · ${engineOf(r.database.details)} · ${formatBytes(Number(r.database.details.sizeBytes ?? 0))}`,
    `Embedder: ${r.embedder.provider}${r.embedder.model ? ` (${r.embedder.model})` : ''} · index ${r.index.fresh ? 'fresh' : `stale (${r.index.pending} pending)`}`,
    '',
    'namespace            memories  current  superseded  turns  documents  vectors  missing',
  ];
  for (const n of r.namespaces) {
    lines.push(
      `${n.namespace.padEnd(20)} ${String(n.memories).padStart(8)} ${String(n.currentMemories).padStart(8)} ${String(n.superseded).padStart(11)} ${String(n.turns).padStart(6)} ${String(n.documents).padStart(10)} ${String(n.vectors).padStart(8)} ${String(n.missingVectors).padStart(8)}`,
    );
  }
  if (r.namespaces.length === 0) lines.push('(no namespaces yet: store a memory with "cairn store")');
  const d = r.capture.daemon;
  lines.push('', d.running ? `Capture daemon: running (pid ${d.pid}, since ${d.startedAt}${d.lastScanAt ? `, last scan ${d.lastScanAt}` : ''}${d.queued ? `, ${d.queued} queued` : ''})` : 'Capture daemon: not running (start it with "cairn watch")');
  if (r.capture.sources.length === 0) lines.push('No sources: cairn sources add openclaw|claude-code|jsonl|markdown [PATH]');
  else lines.push(`Sources: ${r.capture.sources.length} · ${r.capture.malformed} malformed lines skipped · ${r.capture.redactions} secrets redacted`);
  for (const s of r.capture.sources) lines.push(formatSource(s));
  const j = r.judge;
  lines.push('', `Judge: ${j.llm ? `LLM ${j.llm.provider}/${j.llm.model} (budget $${j.llm.dailyBudgetUsd}/day per namespace) with the heuristic as fallback` : 'heuristic (offline)'} · memories from importance ≥ ${j.threshold}`);
  for (const n of j.namespaces) {
    const by = Object.entries(n.byJudge).map(([k, v]) => `${k} ${v}`).join(', ');
    lines.push(`  ${n.namespace.padEnd(20)} judged ${n.judged} · pending ${n.pending} · promoted ${n.promoted}${n.needsRejudge ? ` · ${n.needsRejudge} to re-judge` : ''}${by ? ` · ${by}` : ''}`);
  }
  for (const u of j.today.usage) {
    lines.push(`  LLM today (${j.today.day}) ${u.namespace}: ${u.calls} calls, ${u.failures} failures, ${u.fallbacks} fallbacks, ${u.tokensIn}+${u.tokensOut} tokens, $${u.costUsd.toFixed(4)}`);
  }
  const breaker = (d.llm as { breaker?: { state: string; consecutiveFailures: number } } | undefined)?.breaker;
  if (breaker) lines.push(`  LLM circuit: ${breaker.state}${breaker.consecutiveFailures ? ` (${breaker.consecutiveFailures} consecutive failures)` : ''}`);
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  for (const p of r.problems) lines.push(`problem: ${p}`);
  return lines.join('\n');
}

/** One source as a short block of text. */
export function formatSource(s: SourceStatus): string {
  const secrets = Object.values(s.stats.redactions).reduce((a, b) => a + b, 0);
  const ns = s.namespaceFrom === 'fixed' ? s.namespace : `per ${s.namespaceFrom}`;
  const lines = [
    `[${s.id}] ${s.kind} ${s.path}${s.missing ? '  (MISSING)' : ''}${s.watched ? '' : '  (one-off)'}`,
    `     namespace ${ns} · ${s.units} units · ${s.turns} turns · ${s.stats.linesRead} lines read · ${s.stats.malformed} malformed · ${s.stats.skipped} skipped · ${secrets} secrets redacted`,
    `     last capture ${s.stats.lastCaptureAt ?? 'never'}${s.pendingBytes > 0 ? ` · ${s.pendingBytes} bytes waiting for ${s.lagSeconds}s` : ' · caught up'}`,
  ];
  for (const issue of s.stats.recentIssues.slice(-3)) lines.push(`     malformed: line ${issue.line}: ${issue.reason}`);
  for (const e of s.errors.slice(0, 5)) lines.push(`     ERROR ${e.key}: ${e.message} (${e.at})`);
  if (s.errors.length > 5) lines.push(`     … ${s.errors.length - 5} more errors (see --json)`);
  return lines.join('\n');
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}
