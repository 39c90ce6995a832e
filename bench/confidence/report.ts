// bench/results/confidence.md: the model fitted now beside the one shipped, what each threshold
// does on the fit split, what the default does on the report split (by set and kind of negative),
// and whether a confidence of c is right about c of the time.
import type { ConfidenceModel } from '../../src/search/pipeline/confidence.js';
import { brier, cutFigures, reliability, type CutFigures, type Row } from './fit.js';

export interface ModeRun {
  mode: string;
  fitted: ConfidenceModel;
  shipped: ConfidenceModel;
  /** Rows scored by the shipped model. */
  fit: Row[];
  report: Row[];
  cpuMs: { p50: number; p95: number };
  wallMs: { p50: number; p95: number };
  stageCpuMs: number;
}

export interface ConfidenceReport {
  generatedAt: string;
  machine: string;
  locomo: { path: string; sha256: string };
  agentwork: string;
  minConfidence: number;
  runs: ModeRun[];
}

export const THRESHOLDS = [0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.1, 0.15, 0.2, 0.3, 0.5] as const;

/** The threshold the fit split recommends: the highest that costs each set at most this much recall@10. */
export const MAX_RECALL_LOSS = 0.03;
const SETS = ['locomo', 'agentwork'] as const;

const pct = (x: number) => (Number.isNaN(x) ? '–' : `${(100 * x).toFixed(1)} %`);
const num = (x: number, d = 3) => (Number.isNaN(x) ? '–' : x.toFixed(d));
const model = (m: ConfidenceModel) => `σ(${m.bias} + ${m.cosine}·cosine + ${m.cover}·cover + ${m.sessionCover}·sessionCover + ${m.speaker}·speaker)`;

function cutRow(label: string, f: CutFigures, n: { pos: number; neg: number }): string {
  return `| ${label} | ${n.neg} | ${pct(f.negativesCut)} | ${n.pos} | ${pct(f.positivesCut)} | ${pct(f.answerableCut)} | ${num(f.recall)} | ${num(f.recallCut)} | ${num(f.recall - f.recallCut)} |`;
}

const CUT_HEAD = [
  '| | negative searches | say "no good match" | positive searches | wrongly cut | wrongly cut, top result held evidence | recall@10 | recall@10 with the cut | lost |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
];

/** The highest threshold whose recall@10 loss on each set's positives in `rows` stays within MAX_RECALL_LOSS (0 when none does). */
export function recommended(rows: readonly Row[]): number {
  let best = 0;
  for (const t of THRESHOLDS) {
    const losses = SETS.map((set) => cutFigures(rows.filter((r) => r.set === set), t)).map((f) => f.recall - f.recallCut);
    if (losses.every((l) => !(l > MAX_RECALL_LOSS))) best = t;
  }
  return best;
}

function counts(rows: readonly Row[]) {
  return { pos: rows.filter((r) => r.positive).length, neg: rows.filter((r) => !r.positive).length };
}

function modeSection(run: ModeRun, min: number): string[] {
  const out = [`## ${run.mode === 'bm25' ? 'BM25 only (no vectors)' : 'Hybrid (the default)'}`, ''];
  out.push(`Shipped model: \`${model(run.shipped)}\`  `, `Fitted now on the fit split: \`${model(run.fitted)}\``, '');
  out.push('### Thresholds on the fit split (LoCoMo 0–4, agent-work first half)', '');
  for (const set of SETS) {
    const rows = run.fit.filter((r) => r.set === set);
    out.push(`${set === 'locomo' ? 'LoCoMo' : 'Agent-work'} questions (asked in their own conversation, and where they have no answer):`, '', ...CUT_HEAD);
    for (const t of THRESHOLDS) out.push(cutRow(`${t}`, cutFigures(rows, t), counts(rows)));
    out.push('');
  }
  const offTopic = run.fit.filter((r) => r.kind === 'off-topic');
  out.push('| off-topic questions | ' + THRESHOLDS.map((t) => `${t}`).join(' | ') + ' |', '|---|' + THRESHOLDS.map(() => '---:').join('|') + '|');
  out.push(`| say "no good match" (${offTopic.length} searches) | ` + THRESHOLDS.map((t) => pct(cutFigures(offTopic, t).negativesCut)).join(' | ') + ' |');
  out.push('', `Highest threshold losing each set at most ${MAX_RECALL_LOSS} recall@10 here: **${recommended(run.fit)}**.`, '');
  out.push(`### At search.minConfidence ${min} on the report split (LoCoMo 5–9, agent-work second half)`, '', ...CUT_HEAD);
  const groups: [string, (r: Row) => boolean][] = [
    ['all, off-topic included', () => true],
    ['LoCoMo questions', (r) => r.set === 'locomo'],
    ['agent-work questions', (r) => r.set === 'agentwork'],
  ];
  for (const [label, f] of groups) {
    const rows = run.report.filter(f);
    out.push(cutRow(label, cutFigures(rows, min), counts(rows)));
  }
  out.push('', '| negatives by kind | searches | say "no good match" |', '|---|---:|---:|');
  for (const kind of ['cross-set', 'other conversation', 'off-topic']) {
    for (const set of ['locomo', 'agentwork', 'off-topic']) {
      const rows = run.report.filter((r) => r.kind === kind && (kind === 'off-topic' ? r.conversation !== '' && homeOf(r) === set : r.set === set));
      if (rows.length === 0) continue;
      const asked = kind === 'off-topic' ? `off-topic questions in ${set === 'locomo' ? 'LoCoMo conversations' : 'agent-work projects'}` : `${set === 'locomo' ? 'LoCoMo' : 'agent-work'} questions in ${kind === 'cross-set' ? 'the other set' : 'another conversation'}`;
      out.push(`| ${asked} | ${rows.length} | ${pct(cutFigures(rows, min).negativesCut)} |`);
    }
  }
  out.push('', '### Reliability on the report split (top results; every search, positive and negative)', '');
  out.push('| confidence | searches | mean confidence | top result holds evidence |', '|---|---:|---:|---:|');
  for (const b of reliability(run.report)) out.push(`| ${b.from.toFixed(1)}–${b.to.toFixed(1)} | ${b.searches} | ${num(b.meanConfidence)} | ${pct(b.observed)} |`);
  out.push('', `Brier score (top result's confidence against holding evidence): ${num(brier(run.report))} on the report split, ${num(brier(run.fit))} on the fit split.`, '');
  out.push(`Speed: a search (${run.mode}, limit 10, query embedding included) took ${num(run.cpuMs.p50, 1)} / ${num(run.cpuMs.p95, 1)} ms CPU p50 / p95 (${num(run.wallMs.p50, 1)} / ${num(run.wallMs.p95, 1)} ms wall); the confidence stage's own share: ${num(run.stageCpuMs, 3)} ms CPU per search (ten results of five hits, 125 candidates).`, '');
  return out;
}

/** Off-topic rows remember the home through their namespace: LoCoMo namespaces are conv-N. */
function homeOf(r: Row): string {
  return r.conversation.startsWith('conv-') ? 'locomo' : 'agentwork';
}

export function renderConfidenceReport(r: ConfidenceReport): string {
  const lines = [
    '# Confidence and "no good match"',
    '',
    `Generated ${r.generatedAt} by \`npm run bench:confidence\` on ${r.machine}. LoCoMo: ${r.locomo.path} (sha256 ${r.locomo.sha256.slice(0, 12)}…); agent work: ${r.agentwork}.`,
    '',
    'Every question is asked through the service facade (limit 10, the cut off while asking) in its own conversation (a **positive**: does the top result hold an',
    'evidence turn?) and where it has no answer (a **negative**): agent-work questions in LoCoMo conversations and every fourth LoCoMo question in agent-work',
    'projects (cross-set), the same questions in another conversation of their own set, and 40 off-topic questions (20 per split) in every conversation.',
    'A result\'s confidence is a logistic model of absolute signals of it (pipeline/confidence.ts): the raw cosine with the query (its closest passage blended',
    'in), the IDF-weighted share of the query\'s terms its text has (terms no candidate has weigh most) and the same over its session\'s hits shown with it, and',
    'whether it is what a person the query names said. It is fitted on the **fit split** (LoCoMo conversations 0–4, agent-work projects 1–4, off-topic',
    'questions 1–20) and judged on the **report split** (LoCoMo 5–9, agent-work 5–7, off-topic 21–40). A positive search is "wrongly cut" when none of',
    'its results reaches the threshold (search then answers "no good match" and shows none); otherwise it keeps every result (the cut is all or nothing), as search',
    'returns them (each evidence turn once). The shipped model is the one fitted at the time it was pasted into pipeline/confidence.ts; "fitted now" shows',
    'whether a refit would change it.',
    '',
    `search.minConfidence default: **${r.minConfidence}**.`,
    '',
  ];
  for (const run of r.runs) lines.push(...modeSection(run, r.minConfidence));
  return lines.join('\n');
}
