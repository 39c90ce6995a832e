// The eval's results as Markdown (bench/results/<set>[-<split>].md and stdout): what was run where,
// the summary table (every variant with its intervals and its difference from the default), then
// each variant's table per category.
import { relative } from 'node:path';
import type { CairnConfig } from '../../src/core/config.js';
import { BOOTSTRAP_DEFAULTS, beyondNoise, type Interval } from './bootstrap.js';
import { ANSWER_K, BUDGETS, KS, SEARCH_LIMIT, type HeadlineKey, type K, type Metrics, type Scores } from './metrics.js';
import type { Variant } from './variants.js';

export interface VariantRun {
  name: string;
  description: string;
  config: Variant['config'];
  search?: Variant['search'];
  resolved: CairnConfig;
  /** The limits its questions were asked with, when not every k (`--limits`). */
  limits?: K[];
  home: { path: string; state: 'new' | 'reused' | 'extended'; ingestSeconds: number };
  questionsSeconds: number;
  metrics: Metrics;
  /** This variant minus the reference variant, paired over the same questions (absent for the reference). */
  difference?: Record<HeadlineKey, Interval>;
  /** Questions whose limit-10 results differ from the reference's (changedAt; absent for the reference). */
  changed10?: number;
  /** The variant `difference` was taken against (the reference can change while a run is under way). */
  differenceFrom?: string;
  /** Why search fell back to BM25, when it did. */
  degraded: string[];
}

export interface EvalReport {
  generatedAt: string;
  command: string;
  machine: { cpu: string; cores: number; node: string; platform: string };
  dataset: {
    name: string;
    source: string;
    sha256: string;
    split: 'dev' | 'report' | 'all';
    /** First and last conversation index (0-based) of the set that were asked. */
    range: [number, number];
    /** Conversations in the whole set. */
    of: number;
    conversations: number;
    turns: number;
    questions: number;
    byCategory: Record<string, number>;
    notes?: string;
  };
  /** The variant every other is compared with (the default when it ran). */
  reference: string;
  variants: VariantRun[];
  /** Present while a run is under way (or was stopped): variants finished of those asked for. */
  incomplete?: { done: number; of: number };
}

/** The bar set by issue 6 for the default configuration on LoCoMo (its category labels). */
const BAR = { overall10: 0.85, multiHop10: 0.65, openDomain10: 0.6, every20: 0.8, tokens10: 1000 };
const MULTI_HOP = '1 multi-hop';
const OPEN_DOMAIN = '3 open-domain';

const f3 = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : '–');
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '–');
const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const signed = (n: number, f: (x: number) => string) => (Number.isFinite(n) ? `${n >= 0 ? '+' : '−'}${f(Math.abs(n))}` : '–');
const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : '–');
export const plural = (n: number, word: string) => `${int(n)} ${word}${n === 1 ? '' : 's'}`;
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const rule = (n: number) => row(Array.from({ length: n }, () => '---'));

/** "0.902 [0.887, 0.916]"; tokens as integers. */
export function withInterval(i: Interval, tokens = false): string {
  const f = tokens ? int : f3;
  return `${f(i.mean)} [${f(i.low)}, ${f(i.high)}]`;
}

/** "+0.012 [−0.003, +0.027]", starred when the interval excludes zero. */
export function differenceText(i: Interval, tokens = false): string {
  const f = tokens ? int : f3;
  return `${signed(i.mean, f)} [${signed(i.low, f)}, ${signed(i.high, f)}]${beyondNoise(i) ? ' *' : ''}`;
}

function configSummary(c: CairnConfig, search: Variant['search'], limits: readonly K[] = KS): string {
  const e = c.embedder;
  const embedder = e.provider === 'none' ? 'none (BM25 only)' : 'model' in e ? `${e.provider} ${e.model}` : e.provider;
  const judge = c.judge.llm ? `LLM ${c.judge.llm.provider} ${c.judge.llm.model}` : 'heuristic';
  const searchCall = { mode: 'hybrid', limit: limits.join(' / '), ...search };
  return `embedder ${embedder}; judge ${judge} (threshold ${c.judge.threshold}); search config \`${JSON.stringify(c.search)}\`; search call \`${JSON.stringify(searchCall)}\``;
}

function splitText(d: EvalReport['dataset']): string {
  const which = `conversations ${d.range[0]}–${d.range[1]} of 0–${d.of - 1}`;
  return d.split === 'all' ? `all (${which})` : `${d.split} (${which}; the set's ${d.split === 'dev' ? 'first half, to choose mechanisms on' : 'second half, to report'})`;
}

function header(r: EvalReport): string[] {
  const d = r.dataset;
  const perCat = Object.entries(d.byCategory).map(([c, n]) => `${c} ${int(n)}`).join(', ');
  return [
    `# Evidence recall: ${d.name}, split ${d.split}`,
    '',
    `Run ${r.generatedAt} on ${r.machine.cpu} (${r.machine.cores} cores), Node ${r.machine.node}, ${r.machine.platform}. Command: \`${r.command}\`.`,
    '',
    ...(r.incomplete ? [`**Incomplete: ${r.incomplete.done} of ${r.incomplete.of} variants finished when this was written** (the run was under way or stopped).`, ''] : []),
    `Data: \`${d.source}\` (sha256 ${d.sha256.slice(0, 12)}…), split ${splitText(d)}: ${plural(d.conversations, 'conversation')}, ${plural(d.turns, 'turn')} ` +
      `as transcripts (one namespace per conversation), ingested through capture → judge → memory → index. ${plural(d.questions, 'question')} (${perCat})` +
      `${d.notes ? `; ${d.notes}` : ''}.`,
    '',
    `Metric: evidence recall@k (a result counts for every turn its provenance covers: its hit, the session's further hits folded into it, context turns), averaged over questions; ` +
      `"first-hit @k" counts only each result's own hit (its first provenance entry). Tokens are the o200k tokens (gpt-tokenizer) of what the results return ` +
      `(each hit's snippet, a long text's matching passage or a short text whole, and any conversation turns shown with it: what the MCP tool and the CLI show; the full text is one get away); "@N tok" takes results in rank order until N tokens are spent. ` +
      `Each question is asked with limit ${KS.join(', ')}, as a user asking for that many results would: recall and tokens @k come from the search for k. ` +
      `Budgets take the limit-${SEARCH_LIMIT} results in rank order, so budgets beyond their tokens equal recall@${SEARCH_LIMIT}; latency is that search's.` +
      (r.variants.some((v) => v.limits) ? ` Variants asked with fewer limits (\`--limits\`, to spare CPU) show – for the figures of searches not asked, and their latency is that of their largest limit.` : ''),
    '',
    `Intervals: 95 % percentile bootstrap over questions (${int(BOOTSTRAP_DEFAULTS.resamples)} resamples, seed ${BOOTSTRAP_DEFAULTS.seed}). ` +
      `"Δ" is a variant minus ${r.reference}, resampling the same questions for both (paired); * marks a difference whose interval excludes zero, beyond the set's noise. ` +
      `"changed @10": the questions whose search for 10 showed other turns than ${r.reference}'s, or the same in another order or grouping (0: the mechanism never changed a result there).`,
    '',
    `"answer words @${ANSWER_K}" reads the other way: the share of each annotated answer's words (where the set gives one) found in what the search for ${ANSWER_K} returns, ` +
      `a word matching by its first five letters. The answer is read only to score a search's output, never to search.`,
  ];
}

/** One row per variant: recall with intervals, first hit, budgets, tokens, the difference from the reference. */
export function summaryTable(r: EvalReport): string[] {
  const head = ['variant', '@5', '@10', '@20', 'first-hit @10', '@500 tok', '@1000 tok', '@2000 tok', 'tokens @10 mean / p50', `answer words @${ANSWER_K}`, 'Δ @10', 'Δ first-hit @10', 'Δ @1000 tok', 'changed @10'];
  const lines = [row(head), rule(head.length)];
  for (const run of r.variants) {
    const o = run.metrics.overall;
    const i = run.metrics.intervals;
    const d = run.difference;
    lines.push(row([
      run.name, f3(o.recall[5]), withInterval(i.recall10), f3(o.recall[20]), withInterval(i.firstHit10), withInterval(i.budget500), withInterval(i.budget1000), withInterval(i.budget2000),
      `${int(o.tokens[10])} / ${int(o.tokensP50[10])}`, f3(o.answerWords),
      d ? differenceText(d.recall10) : '(reference)', d ? differenceText(d.firstHit10) : '', d ? differenceText(d.budget1000) : '',
      run.changed10 === undefined ? '' : `${int(run.changed10)} of ${int(o.questions)}`,
    ]));
  }
  return lines;
}

function scoresRow(label: string, s: Scores): string {
  return row([label, int(s.questions), ...KS.map((k) => f3(s.recall[k])), f3(s.firstHit[10]), ...KS.map((k) => int(s.tokens[k])), ...BUDGETS.map((b) => f3(s.budget[b])), f3(s.answerWords)]);
}

/** Issue 6's bar for LoCoMo's default; a category the run has no questions of is not judged. */
export function barLine(m: Metrics): string {
  const c = (label: string) => m.byCategory[label];
  const asked = (label: string) => (c(label)?.questions ?? 0) > 0;
  const judged = (label: string, min: number): boolean | null => (asked(label) ? c(label)!.recall[10] >= min : null);
  const checks: Array<[string, boolean | null]> = [
    [`overall @10 ≥ ${BAR.overall10}`, m.overall.recall[10] >= BAR.overall10],
    [`multi-hop @10 ≥ ${BAR.multiHop10}`, judged(MULTI_HOP, BAR.multiHop10)],
    [`open-domain @10 ≥ ${BAR.openDomain10}`, judged(OPEN_DOMAIN, BAR.openDomain10)],
    [`every category @20 ≥ ${BAR.every20}`, Object.values(m.byCategory).filter((s) => s.questions > 0).every((s) => s.recall[20] >= BAR.every20)],
    [`tokens @10 ≤ ${int(BAR.tokens10)}`, m.overall.tokens[10] <= BAR.tokens10],
  ];
  return `Bar (issue 6): ${checks.map(([label, ok]) => `${ok === null ? '–' : ok ? '✓' : '✗'} ${label}${ok === null ? ' (no such questions)' : ''}`).join(' · ')}`;
}

function intervalsLine(run: VariantRun, reference: string): string[] {
  const i = run.metrics.intervals;
  const keys: HeadlineKey[] = ['recall5', 'recall10', 'recall20', 'firstHit10', 'budget500', 'budget1000', 'budget2000', 'tokens10'];
  const label: Record<HeadlineKey, string> = { recall5: '@5', recall10: '@10', recall20: '@20', firstHit10: 'first-hit @10', budget500: '@500 tok', budget1000: '@1000 tok', budget2000: '@2000 tok', tokens10: 'tokens @10' };
  const lines = [`95 % intervals: ${keys.map((k) => `${label[k]} ${withInterval(i[k], k === 'tokens10')}`).join(' · ')}.`];
  if (run.difference) lines.push('', `Δ against ${reference}: ${keys.map((k) => `${label[k]} ${differenceText(run.difference![k], k === 'tokens10')}`).join(' · ')}.`);
  return lines;
}

function variantSection(run: VariantRun, r: EvalReport, cwd: string): string[] {
  const m = run.metrics;
  const head = ['category', 'questions', ...KS.map((k) => `@${k}`), 'first-hit @10', ...KS.map((k) => `tokens @${k}`), ...BUDGETS.map((b) => `@${b} tok`), `answer words @${ANSWER_K}`];
  const ingest = run.home.state === 'reused' ? 'reused (nothing ingested)' : `${run.home.state === 'new' ? 'new' : 'reused and extended'}, ingest ${run.home.ingestSeconds.toFixed(1)} s`;
  return [
    `## ${run.name}`,
    '',
    `${run.description}. Config: ${configSummary(run.resolved, run.search, run.limits)}.`,
    '',
    row(head),
    rule(head.length),
    scoresRow('overall', m.overall),
    ...Object.entries(m.byCategory).map(([c, s]) => scoresRow(c, s)),
    '',
    ...intervalsLine(run, r.reference),
    '',
    `Home \`${relative(cwd, run.home.path) || run.home.path}\`: ${ingest}. Questions: ${run.questionsSeconds.toFixed(1)} s; search latency p50 ${ms(m.latencyMs.p50)}, p95 ${ms(m.latencyMs.p95)}.`,
    ...(run.degraded.length ? ['', `Search fell back: ${run.degraded.join('; ')}.`] : []),
    // The bar was set for LoCoMo's default configuration only.
    ...(run.name === 'default' && r.dataset.name === 'locomo' ? ['', barLine(m)] : []),
  ];
}

export function renderReport(r: EvalReport, cwd = process.cwd()): string {
  const lines = header(r);
  lines.push('', '## Summary', '', ...summaryTable(r));
  if (r.variants.length > 2) lines.push('', ...r.variants.map((v) => `- **${v.name}**: ${v.description}`));
  for (const run of r.variants) lines.push('', ...variantSection(run, r, cwd));
  return lines.join('\n') + '\n';
}
