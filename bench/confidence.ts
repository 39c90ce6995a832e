// `npm run bench:confidence`: does a result's confidence say whether it holds the answer, and does
// search.minConfidence turn noise into "no good match" without losing answers? Both dev sets, each
// question asked in its own conversation (positives) and where it has no answer (negatives: the
// other set's conversations, another conversation of its own set, off-topic questions). The model
// is fitted on LoCoMo conversations 0–4 and the agent-work set's first half, and judged on LoCoMo
// 5–9 and the second half; bench/results/confidence.md is written by this script.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { dirname, resolve } from 'node:path';
import { searchConfigSchema } from '../src/core/config.js';
import { CONFIDENCE_MODELS, withConfidence } from '../src/search/pipeline/confidence.js';
import type { SearchMode } from '../src/search/hybrid.js';
import { Cairn } from '../src/service/cairn.js';
import { loadAgentWork } from './agentwork/devset.js';
import { splitConversations } from './eval/evaluate.js';
import { loadLocomo10 } from './eval/locomo/devset.js';
import { ask, type Ask } from './confidence/collect.js';
import { balancedWeights, fitLogistic, rescore, type Row } from './confidence/fit.js';
import { DEFAULT, homeFor } from './confidence/homes.js';
import { OFF_TOPIC, planSplit } from './confidence/plan.js';
import { renderConfidenceReport, type ModeRun } from './confidence/report.js';

const LOCOMO = resolve(process.env.LOCOMO_PATH ?? '/work/shared/bench/data/locomo10.json');
const OUT = resolve('bench/results/confidence.md');
/** Every search's row, for looking into what the cut misses (not committed). */
const ROWS = resolve('.cairn-eval/confidence-rows.json');
const log = (line: string) => process.stderr.write(`confidence: ${line}\n`);
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
};

async function main(): Promise<void> {
  const locomo = loadLocomo10(LOCOMO);
  if (!locomo) {
    log(`LoCoMo data not found at ${LOCOMO} (set LOCOMO_PATH): skipping.`);
    return;
  }
  const agentwork = loadAgentWork();
  const homes = {
    locomo: await homeFor(locomo, locomo.conversations, log),
    agentwork: await homeFor(agentwork, agentwork.conversations, log),
  };
  const half = Math.ceil(OFF_TOPIC.length / 2);
  const fitAsks = planSplit({ locomo: splitConversations(locomo.conversations, 'dev').picked, agentwork: splitConversations(agentwork.conversations, 'dev').picked, offTopic: OFF_TOPIC.slice(0, half) });
  const reportAsks = planSplit({ locomo: splitConversations(locomo.conversations, 'report').picked, agentwork: splitConversations(agentwork.conversations, 'report').picked, offTopic: OFF_TOPIC.slice(half) });

  // The cut off while asking: every result's signals are kept, and each threshold is applied here.
  const config = { ...DEFAULT().resolved, search: { ...DEFAULT().resolved.search, minConfidence: 0 } };
  const open = async (path: string) => Cairn.open({ home: path, config, embedThreads: 0, onNotice: () => undefined });
  const cairns: Record<string, Cairn> = { locomo: await open(homes.locomo.path), agentwork: await open(homes.agentwork.path) };
  const runs: ModeRun[] = [];
  try {
    for (const mode of ['hybrid', 'bm25'] as SearchMode[]) {
      const askAll = async (asks: Ask[], label: string) => {
        const rows: Row[] = [];
        const cpu: number[] = [];
        const wall: number[] = [];
        for (const [i, a] of asks.entries()) {
          const out = await ask(cairns[a.home]!, a, mode);
          rows.push(out.row);
          cpu.push(out.cpuMs);
          wall.push(out.wallMs);
          if ((i + 1) % 500 === 0) log(`${mode} ${label}: ${i + 1}/${asks.length}`);
        }
        return { rows, cpu, wall };
      };
      const fit = await askAll(fitAsks, 'fit');
      const report = await askAll(reportAsks, 'report');
      const withCosine = mode !== 'bm25';
      const found = fit.rows.filter((r) => r.top);
      const weights = balancedWeights(found);
      const fitted = fitLogistic(found.map((r, i) => ({ x: r.top!, y: r.holds, weight: weights[i]! })), withCosine);
      runs.push({
        mode,
        fitted,
        shipped: withCosine ? CONFIDENCE_MODELS.hybrid : CONFIDENCE_MODELS.bm25,
        fit: rescore(fit.rows, CONFIDENCE_MODELS),
        report: rescore(report.rows, CONFIDENCE_MODELS),
        cpuMs: { p50: quantile([...fit.cpu, ...report.cpu], 0.5), p95: quantile([...fit.cpu, ...report.cpu], 0.95) },
        wallMs: { p50: quantile([...fit.wall, ...report.wall], 0.5), p95: quantile([...fit.wall, ...report.wall], 0.95) },
        stageCpuMs: stageCost(report.rows.length),
      });
      log(`${mode}: fitted ${JSON.stringify(fitted)}`);
    }
  } finally {
    await Promise.all(Object.values(cairns).map((c) => c.close()));
  }
  const markdown = renderConfidenceReport({
    generatedAt: new Date().toISOString(),
    machine: `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${availableParallelism()} cores, Node ${process.version}`,
    locomo: { path: 'locomo10.json', sha256: locomo.sha256 },
    agentwork: agentwork.source,
    minConfidence: searchConfigSchema().parse({}).minConfidence,
    runs,
  });
  writeFileSync(ROWS, JSON.stringify(runs.map((r) => ({ mode: r.mode, fit: r.fit, report: r.report }))));
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, markdown);
  process.stdout.write(markdown + `\nWritten to ${OUT}\n`);
}

/**
 * The confidence stage's own CPU per search, on ten results of realistic length with a
 * five-term query and 125 candidates: what it adds to a search's time.
 */
function stageCost(times: number): number {
  const text = (i: number) => `We moved the staging database to port ${5400 + i} after the migration failed on the replica; tests pass again ${i}.`;
  const results = Array.from({ length: 10 }, (_, i) => ({
    id: `t_${i}`, kind: 'turn' as const, namespace: 'x', text: text(i), snippet: '', score: 1, time: '', createdAt: '', validTo: null, current: true, category: null, importance: null, provenance: [],
    parts: { bm25: 1, vector: 1, cosine: 0.5, own: 1, neighbours: 0, speaker: 1, when: 1, relevance: 1, importance: 1, recency: 1, tier: 'cold' as const },
    context: Array.from({ length: 4 }, (_, j) => ({ offset: j + 1, match: true, speaker: null, role: 'user', text: text(i * 10 + j), time: '', messageId: '' })),
  }));
  const candidates = Array.from({ length: 125 }, (_, i) => text(i));
  const n = Math.max(200, Math.min(times, 2000));
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) withConfidence(results, { terms: ['stage', 'databas', 'port', 'migrat', 'replica'], language: 'en', namesPerson: false, calibratedCosine: true }, candidates);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / n;
}

await main();
