// Terminal rendering of the status report.
import type { StatusReport } from '../../../service/status.js';

export function formatStatus(r: StatusReport): string {
  const lines = [
    `Cairn ${r.ok ? 'healthy' : 'UNHEALTHY'} · home ${r.home}`,
    `Database: ${r.database.backend} ${r.database.location} · schema v${r.database.schemaVersion} · ${r.database.details.journalMode} · ${formatBytes(Number(r.database.details.sizeBytes ?? 0))}`,
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
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  for (const p of r.problems) lines.push(`problem: ${p}`);
  return lines.join('\n');
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}
