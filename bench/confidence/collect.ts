// Asking the searches the confidence bench judges: each question through the real facade with the
// cut off (search.minConfidence 0), in hybrid and BM25-only mode, keeping the top ten results'
// signals and the evidence turns they cover. Which question goes to which namespace is plan.ts's.
import type { Cairn } from '../../src/service/cairn.js';
import type { SearchMode } from '../../src/search/hybrid.js';
import { coveredIds } from '../eval/metrics.js';
import type { Row } from './fit.js';

export const LIMIT = 10;

/** One search to ask: a question, the namespace it goes to, and the evidence it would have there. */
export interface Ask {
  /** The set the question comes from. */
  set: string;
  /** The set whose home holds the namespace asked. */
  home: string;
  namespace: string;
  question: string;
  /** Evidence turn ids in this namespace (empty for a negative). */
  evidence: readonly string[];
  kind: 'own' | 'cross-set' | 'other conversation' | 'off-topic';
}

export interface Asked {
  row: Row;
  /** CPU time of the search (user + system), ms. */
  cpuMs: number;
  wallMs: number;
}

/** Asks one search and turns its results into a row (evidence counted per result, each turn once). */
export async function ask(cairn: Cairn, a: Ask, mode: SearchMode): Promise<Asked> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const res = await cairn.search(a.question, { namespace: a.namespace, limit: LIMIT, mode });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const wanted = new Set(a.evidence);
  const seen = new Set<string>();
  const results = res.results.map((r) => {
    let evidence = 0;
    for (const id of coveredIds(r.provenance)) {
      if (wanted.has(id) && !seen.has(id)) {
        seen.add(id);
        evidence++;
      }
    }
    return { signals: r.signals, confidence: r.confidence, evidence };
  });
  const row: Row = {
    set: a.set,
    conversation: a.namespace,
    question: a.question,
    positive: a.kind === 'own',
    kind: a.kind,
    top: res.results[0]?.signals ?? null,
    holds: (results[0]?.evidence ?? 0) > 0,
    results,
    evidence: wanted.size,
  };
  return { row, cpuMs: (cpu.user + cpu.system) / 1000, wallMs };
}
