// `npm run bench:near-dup`: measures the near-duplicate thresholds (src/memory/knowledge/near-dup.ts).
// Labelled pairs: ~700 generated from templates with a seed (bench/near-dup-gen.ts: paraphrases,
// value/number/date/negation changes, unrelated pairs sharing words) and 61 hand-written ones
// (bench/data/near-dup-pairs.json). Every text is embedded with the bundled offline model (use-lite).
// Thresholds are swept for word overlap alone and for overlap + cosine; precision, recall and F1 are
// reported per setting, and the chosen point is the best F1 on the generated pairs among settings
// whose precision is ≥ 0.97 (a wrong merge hides a fact; a missed one leaves a duplicate in view).
// The hand-written pairs are not used to choose: they check the choice.
//
//   npm run bench:near-dup -- [--seed 25] [--pairs 700]
//
// Results: printed, and written to bench/results/near-dup.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UseLiteEmbedder } from '../src/embed/use-lite.js';
import { NEAR_DUP_THRESHOLDS, nearDuplicate, type NearDupThresholds } from '../src/memory/knowledge/near-dup.js';
import { generatePairs, type LabelledPair, type PairKind } from './near-dup-gen.js';
import { table } from './stats.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const TARGET_PRECISION = 0.97;
const OFF = 2; // a threshold no score reaches

interface Scored extends LabelledPair {
  overlap: number;
  cosine: number | null;
  /** The veto's reason, asked with every score passing (vetoes do not depend on the thresholds). */
  reason: string | undefined;
}

interface Outcome {
  th: NearDupThresholds;
  precision: number;
  recall: number;
  f1: number;
  /** Precision counting only the change pairs (value, number, date, negation) as the wrong merges. */
  changePrecision: number;
  falseMerges: Partial<Record<PairKind, number>>;
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function says(p: Scored, th: NearDupThresholds, vetoes = true): boolean {
  const scores = p.overlap >= th.overlap || (p.cosine !== null && p.cosine >= th.cosine && p.overlap >= th.overlapWithCosine);
  return scores && (!vetoes || p.reason === undefined);
}

function evaluate(pairs: readonly Scored[], th: NearDupThresholds, vetoes = true): Outcome {
  let tp = 0, fp = 0, fn = 0, fpChange = 0;
  const falseMerges: Partial<Record<PairKind, number>> = {};
  for (const p of pairs) {
    const yes = says(p, th, vetoes);
    if (yes && p.duplicate) tp++;
    else if (yes) {
      fp++;
      if (p.kind !== 'unrelated') fpChange++;
      falseMerges[p.kind] = (falseMerges[p.kind] ?? 0) + 1;
    } else if (p.duplicate) fn++;
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { th, precision, recall, f1, changePrecision: tp + fpChange === 0 ? 1 : tp / (tp + fpChange), falseMerges };
}

const steps = (lo: number, hi: number, step: number): number[] => Array.from({ length: Math.round((hi - lo) / step) + 1 }, (_, i) => Math.round((lo + i * step) * 1000) / 1000);

function strictness(o: Outcome): number {
  return o.th.overlap + (o.th.cosine <= 1 ? o.th.cosine + o.th.overlapWithCosine : 0);
}

/** Best F1 among outcomes at or above the target precision; ties go to the stricter setting. */
function choose(outcomes: readonly Outcome[]): Outcome | undefined {
  return outcomes
    .filter((o) => o.precision >= TARGET_PRECISION && o.changePrecision >= TARGET_PRECISION)
    .sort((x, y) => y.f1 - x.f1 || y.precision - x.precision || strictness(y) - strictness(x))[0];
}

const f3 = (v: number) => v.toFixed(3);
const thText = (th: NearDupThresholds) => (th.cosine > 1 ? `overlap ≥ ${th.overlap}` : `${th.overlap > 1 ? '' : `overlap ≥ ${th.overlap}, or `}cosine ≥ ${th.cosine} with overlap ≥ ${th.overlapWithCosine}`);
const merges = (o: Outcome) => Object.entries(o.falseMerges).map(([k, n]) => `${k} ${n}`).join(', ') || '—';
const row = (o: Outcome) => [thText(o.th), f3(o.precision), f3(o.changePrecision), f3(o.recall), f3(o.f1), merges(o)];
const HEAD = ['setting', 'precision', 'precision (changes)', 'recall', 'F1', 'wrong merges by kind'];

async function main(): Promise<void> {
  const seed = Number(argValue('--seed') ?? 25);
  const total = Number(argValue('--pairs') ?? 700);
  const generated = generatePairs(seed, total);
  const hand = (JSON.parse(readFileSync(join(HERE, 'data', 'near-dup-pairs.json'), 'utf8')) as { pairs: LabelledPair[] }).pairs;

  const embedder = new UseLiteEmbedder();
  const info = await embedder.init();
  const texts = [...new Set([...generated, ...hand].flatMap((p) => [p.a, p.b]))];
  const vectors = new Map<string, Float32Array>();
  for (let i = 0; i < texts.length; i += 64) {
    const batch = texts.slice(i, i + 64);
    (await embedder.embed(batch)).forEach((v, j) => vectors.set(batch[j]!, v));
  }
  await embedder.close();

  const all: NearDupThresholds = { overlap: 0, cosine: -1, overlapWithCosine: 0 };
  const score = (pairs: readonly LabelledPair[]): Scored[] =>
    pairs.map((p) => {
      const v = nearDuplicate({ id: 'a', text: p.a, vector: vectors.get(p.a) }, { id: 'b', text: p.b, vector: vectors.get(p.b) }, all);
      return { ...p, overlap: v.overlap, cosine: v.cosine, reason: v.reason };
    });
  const gen = score(generated);
  const handScored = score(hand);

  const overlapOnly = steps(0.3, 1, 0.05).map((o) => evaluate(gen, { overlap: o, cosine: OFF, overlapWithCosine: OFF }));
  const withCosine: Outcome[] = [];
  for (const o of [...steps(0.5, 1, 0.05), OFF]) for (const c of steps(0.5, 0.95, 0.025)) for (const oc of steps(0, 0.6, 0.05)) withCosine.push(evaluate(gen, { overlap: o, cosine: c, overlapWithCosine: oc }));
  const bestOverlap = choose(overlapOnly);
  const bestCosine = choose(withCosine);
  const noVetoes = choose(steps(0.3, 1, 0.05).map((o) => evaluate(gen, { overlap: o, cosine: OFF, overlapWithCosine: OFF }, false)).concat(withCosine.map((x) => evaluate(gen, x.th, false))));

  // The code's thresholds, through the function itself (not the sweep's arithmetic): they must agree.
  const inCode = (pairs: readonly LabelledPair[], useVectors: boolean) =>
    pairs.filter((p) => nearDuplicate({ id: 'a', text: p.a, vector: useVectors ? vectors.get(p.a) : null }, { id: 'b', text: p.b, vector: useVectors ? vectors.get(p.b) : null }).duplicate === p.duplicate).length / pairs.length;
  const codeGen = evaluate(gen, NEAR_DUP_THRESHOLDS);
  const codeHand = evaluate(handScored, NEAR_DUP_THRESHOLDS);
  const codeHandNoVec = evaluate(handScored.map((p) => ({ ...p, cosine: null })), NEAR_DUP_THRESHOLDS);
  const agreeGen = inCode(generated, true);
  if (Math.abs(agreeGen - (gen.filter((p) => says(p, NEAR_DUP_THRESHOLDS) === p.duplicate).length / gen.length)) > 1e-9) throw new Error('sweep arithmetic and nearDuplicate() disagree');

  const counts = (pairs: readonly LabelledPair[]) => Object.entries(pairs.reduce<Record<string, number>>((m, p) => ((m[p.kind] = (m[p.kind] ?? 0) + 1), m), {})).map(([k, n]) => `${k} ${n}`).join(', ');
  const misses = handScored.filter((p) => says(p, NEAR_DUP_THRESHOLDS) !== p.duplicate);
  const topOverlap = [...overlapOnly].sort((x, y) => x.th.overlap - y.th.overlap).filter((_, i) => i % 2 === 0);
  // Many settings tie (the vetoes decide most pairs): one line per outcome, its strictest setting.
  const outcomeKey = (o: Outcome) => `${f3(o.precision)} ${f3(o.recall)} ${merges(o)}`;
  const distinct = new Map<string, Outcome>();
  for (const o of [...withCosine].filter((x) => x.precision >= TARGET_PRECISION).sort((x, y) => y.f1 - x.f1 || strictness(y) - strictness(x))) if (!distinct.has(outcomeKey(o))) distinct.set(outcomeKey(o), o);
  const topCosine = [...distinct.values()].slice(0, 12);
  const md = [
    '# Near-duplicate memories: thresholds measured',
    '',
    `Generated by \`npm run bench:near-dup\` (bench/near-dup.ts), seed ${seed}, embedder ${info.modelId} (${info.dimensions} dimensions). ` +
      `A pair is a duplicate when the scores pass and no veto fires (numbers, dates, negation, a name or value word differ).`,
    '',
    `- Generated pairs: ${gen.length} (${counts(generated)}).`,
    `- Hand-written pairs (bench/data/near-dup-pairs.json, not used to choose): ${hand.length} (${counts(hand)}).`,
    `- Choice rule: best F1 on the generated pairs with precision ≥ ${TARGET_PRECISION}, overall and counting only change pairs as wrong merges.`,
    '',
    '## Chosen',
    '',
    table(['', ...HEAD], [
      ['best, overlap only', ...(bestOverlap ? row(bestOverlap) : ['none reaches the target', '', '', '', '', ''])],
      ['best, overlap + cosine', ...(bestCosine ? row(bestCosine) : ['none reaches the target', '', '', '', '', ''])],
      ['best without the vetoes', ...(noVetoes ? row(noVetoes) : ['none reaches the target', '', '', '', '', ''])],
      ['the code\'s thresholds without the vetoes', ...row(evaluate(gen, NEAR_DUP_THRESHOLDS, false))],
      ['**in the code**, generated', ...row(codeGen)],
      ['**in the code**, hand-written, with vectors', ...row(codeHand)],
      ['**in the code**, hand-written, no vectors', ...row(codeHandNoVec)],
    ]),
    '',
    `In the code (NEAR_DUP_THRESHOLDS): ${thText(NEAR_DUP_THRESHOLDS)}.`,
    '',
    '## Sweep: word overlap only (generated pairs)',
    '',
    table(HEAD, topOverlap.map(row)),
    '',
    `## Sweep: overlap + cosine, the 12 best F1 at precision ≥ ${TARGET_PRECISION} (generated pairs, ${withCosine.length} settings tried; ties shown once, strictest setting)`,
    '',
    table(HEAD, topCosine.map(row)),
    '',
    '## Hand-written pairs the code gets wrong',
    '',
    misses.length === 0 ? 'None.' : table(['kind', 'a', 'b', 'overlap', 'cosine', 'veto'], misses.map((p) => [p.kind, p.a, p.b, f3(p.overlap), p.cosine === null ? '—' : f3(p.cosine), p.reason ?? '—'])),
  ].join('\n');
  console.log(md);
  writeFileSync(join(HERE, 'results', 'near-dup.md'), md + '\n');
}

await main();
