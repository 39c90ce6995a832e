// The eval's results as Markdown (bench/results/locomo.md and stdout): what was run where, then
// the ablation table when several variants ran, then each variant's table per category.
import { relative } from 'node:path';
import type { CairnConfig } from '../../core/config.js';
import { CATEGORIES, CATEGORY_LABELS } from './dataset.js';
import { ANSWER_K, BUDGETS, KS, SEARCH_LIMIT, type Metrics, type Scores } from './metrics.js';
import type { Variant } from './variants.js';

export interface VariantRun {
  name: string;
  description: string;
  config: Variant['config'];
  search?: Variant['search'];
  resolved: CairnConfig;
  home: { path: string; state: 'new' | 'reused' | 'extended'; ingestSeconds: number };
  questionsSeconds: number;
  metrics: Metrics;
  /** Why search fell back to BM25, when it did. */
  degraded: string[];
}

export interface EvalReport {
  generatedAt: string;
  command: string;
  machine: { cpu: string; cores: number; node: string; platform: string };
  dataset: {
    path: string;
    sha256: string;
    conversations: number;
    turns: number;
    questions: number;
    byCategory: Record<number, number>;
    excluded: { adversarial: number; noEvidence: number; unknownEvidenceIds: number };
  };
  variants: VariantRun[];
}

/** The bar set by issue 6 for the default configuration. */
const BAR = { overall10: 0.85, multiHop10: 0.65, openDomain10: 0.6, every20: 0.8, tokens10: 1000 };

const f3 = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : '–');
const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : '–');
export const plural = (n: number, word: string) => `${int(n)} ${word}${n === 1 ? '' : 's'}`;
const cat = (c: number) => `${c} ${CATEGORY_LABELS[c]}`;
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const rule = (n: number) => row(Array.from({ length: n }, () => '---'));

function configSummary(c: CairnConfig, search: Variant['search']): string {
  const e = c.embedder;
  const embedder = e.provider === 'none' ? 'none (BM25 only)' : 'model' in e ? `${e.provider} ${e.model}` : e.provider;
  const judge = c.judge.llm ? `LLM ${c.judge.llm.provider} ${c.judge.llm.model}` : 'heuristic';
  const searchCall = { mode: 'hybrid', limit: KS.join(' / '), ...search };
  return `embedder ${embedder}; judge ${judge} (threshold ${c.judge.threshold}); search config \`${JSON.stringify(c.search)}\`; search call \`${JSON.stringify(searchCall)}\``;
}

function header(r: EvalReport): string[] {
  const d = r.dataset;
  const perCat = CATEGORIES.map((c) => `${cat(c)} ${int(d.byCategory[c] ?? 0)}`).join(', ');
  return [
    '# LoCoMo evidence recall',
    '',
    `Run ${r.generatedAt} on ${r.machine.cpu} (${r.machine.cores} cores), Node ${r.machine.node}, ${r.machine.platform}. Command: \`${r.command}\`.`,
    '',
    `Data: \`${d.path}\` (sha256 ${d.sha256.slice(0, 12)}…): ${plural(d.conversations, 'conversation')}, ${plural(d.turns, 'turn')} as generic JSONL ` +
      `transcripts (one namespace per conversation), ingested through capture → judge → memory → index. ${plural(d.questions, 'question')} ` +
      `of categories 1–4 (${perCat}); left out: ${d.excluded.adversarial} adversarial (category 5), ${d.excluded.noEvidence} without evidence; ` +
      `${d.excluded.unknownEvidenceIds} evidence ids naming no turn dropped.`,
    '',
    `Metric: evidence recall@k (a result counts for every turn its provenance covers), averaged over questions; tokens are the ` +
      `o200k tokens (gpt-tokenizer) of what the results return (their text and any conversation context shown with them); "@N tok" takes results in rank order until N tokens are spent. ` +
      `Each question is asked with limit ${KS.join(', ')}, as a user asking for that many results would: recall and tokens @k come from the search for k. ` +
      `Budgets take the limit-${SEARCH_LIMIT} results in rank order, so budgets beyond their tokens equal recall@${SEARCH_LIMIT}; latency is that search's.`,
    '',
    `"answer words @${ANSWER_K}" reads the other way: the share of each annotated answer's words (categories 1, 3 and 4; a temporal answer is a date worked out, in no text) ` +
      `found in what the search for ${ANSWER_K} returns, a word matching by its first five letters. Recall counts a turn once any preview of it is shown; ` +
      `this asks whether what is shown holds the answer. The answer is read only to score a search's output, never to search.`,
  ];
}

/** One row per variant: overall, per category @10 and @20, tokens @10, recall at 1,000 tokens, answer words shown. */
export function ablationTable(runs: readonly VariantRun[]): string[] {
  const head = ['variant', '@5', '@10', '@20', ...CATEGORIES.map((c) => `${cat(c)} @10`), ...CATEGORIES.map((c) => `${c} @20`), 'tokens @10', '@1000 tok', `answer words @${ANSWER_K}`];
  const lines = [row(head), rule(head.length)];
  for (const run of runs) {
    const o = run.metrics.overall;
    const by = (c: number, k: 10 | 20) => f3(run.metrics.byCategory[c]?.recall[k] ?? NaN);
    lines.push(row([run.name, f3(o.recall[5]), f3(o.recall[10]), f3(o.recall[20]), ...CATEGORIES.map((c) => by(c, 10)), ...CATEGORIES.map((c) => by(c, 20)), int(o.tokens[10]), f3(o.budget[1000]), f3(o.answerWords)]));
  }
  return lines;
}

function scoresRow(label: string, s: Scores): string {
  return row([label, int(s.questions), ...KS.map((k) => f3(s.recall[k])), ...KS.map((k) => int(s.tokens[k])), ...BUDGETS.map((b) => f3(s.budget[b])), f3(s.answerWords)]);
}

export function barLine(m: Metrics): string {
  const c = (n: number) => m.byCategory[n]!;
  // A category with no questions (a file of other conversations may lack one) is not judged.
  const asked = (n: number) => c(n).questions > 0;
  const judged = (n: number, ok: () => boolean): boolean | null => (asked(n) ? ok() : null);
  const checks: Array<[string, boolean | null]> = [
    [`overall @10 ≥ ${BAR.overall10}`, m.overall.recall[10] >= BAR.overall10],
    [`multi-hop @10 ≥ ${BAR.multiHop10}`, judged(1, () => c(1).recall[10] >= BAR.multiHop10)],
    [`open-domain @10 ≥ ${BAR.openDomain10}`, judged(3, () => c(3).recall[10] >= BAR.openDomain10)],
    [`every category @20 ≥ ${BAR.every20}`, CATEGORIES.filter(asked).every((n) => c(n).recall[20] >= BAR.every20)],
    [`tokens @10 ≤ ${int(BAR.tokens10)}`, m.overall.tokens[10] <= BAR.tokens10],
  ];
  return `Bar (issue 6): ${checks.map(([label, ok]) => `${ok === null ? '–' : ok ? '✓' : '✗'} ${label}${ok === null ? ' (no such questions)' : ''}`).join(' · ')}`;
}

function variantSection(run: VariantRun, cwd: string): string[] {
  const m = run.metrics;
  const head = ['category', 'questions', ...KS.map((k) => `@${k}`), ...KS.map((k) => `tokens @${k}`), ...BUDGETS.map((b) => `@${b} tok`), `answer words @${ANSWER_K}`];
  const ingest = run.home.state === 'reused' ? 'reused (nothing ingested)' : `${run.home.state === 'new' ? 'new' : 'reused and extended'}, ingest ${run.home.ingestSeconds.toFixed(1)} s`;
  return [
    `## ${run.name}`,
    '',
    `${run.description}. Config: ${configSummary(run.resolved, run.search)}.`,
    '',
    row(head),
    rule(head.length),
    scoresRow('overall', m.overall),
    ...CATEGORIES.map((c) => scoresRow(cat(c), m.byCategory[c]!)),
    '',
    `Home \`${relative(cwd, run.home.path) || run.home.path}\`: ${ingest}. Questions: ${run.questionsSeconds.toFixed(1)} s; search latency p50 ${ms(m.latencyMs.p50)}, p95 ${ms(m.latencyMs.p95)}.`,
    ...(run.degraded.length ? ['', `Search fell back: ${run.degraded.join('; ')}.`] : []),
    // The bar is set for the default configuration only.
    ...(run.name === 'default' ? ['', barLine(m)] : []),
  ];
}

export function renderReport(r: EvalReport, cwd = process.cwd()): string {
  const lines = header(r);
  if (r.variants.length > 1) {
    lines.push('', '## Ablation', '', ...ablationTable(r.variants), '', ...r.variants.map((v) => `- **${v.name}**: ${v.description}`));
  }
  for (const run of r.variants) lines.push('', ...variantSection(run, cwd));
  return lines.join('\n') + '\n';
}
