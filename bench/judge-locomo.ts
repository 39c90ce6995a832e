// How well the heuristic judge keeps what matters: every LoCoMo turn is judged (with the earlier
// turns of its session as context), and the turns that questions cite as evidence stand in for
// "what mattered later". Conversations 0–4 are the development split, 5–9 the held-out check.
// Usage: npm run bench:judge [-- --data PATH] [-- --threshold 5] [-- --out bench/results] [-- --dump FILE]
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { CATEGORIES, type Category } from '../src/core/types.js';
import { HEURISTIC_VERSION, judgeHeuristic, type JudgeInput, type Judgment } from '../src/judge/heuristic.js';
import { CATEGORY_LABELS, loadLocomo, type LocomoConversation } from './locomo.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const dataPath = resolve(arg('data', '../shared/bench/data/locomo10.json'));
const threshold = Number(arg('threshold', '5'));
const outDir = resolve(arg('out', 'bench/results'));
const dumpPath = arg('dump', '');
const DEV = new Set([0, 1, 2, 3, 4]);
/** Context handed to the judge: the session so far, as a capture pipeline would have it. */
const CONTEXT_TURNS = 8;
const TARGET_EVIDENCE = 0.9;
const TARGET_ALL = 0.6;

interface Judged {
  conv: number;
  diaId: string;
  speaker: string;
  text: string;
  evidence: boolean;
  /** Question categories (1–4) citing this turn. */
  cites: number[];
  j: Judgment;
}

interface Split {
  label: string;
  conversations: number;
  turns: number;
  promoted: number;
  evidenceTurns: number;
  evidencePromoted: number;
  /** Questions all of whose evidence turns were promoted, per question category and overall. */
  questions: Record<string, { total: number; covered: number }>;
  categories: Partial<Record<Category, { turns: number; promoted: number; evidence: number }>>;
  histogram: number[];
  evidenceHistogram: number[];
}

function judgeAll(conversations: LocomoConversation[], withContext = true): { judged: Judged[]; ms: number; questions: Map<number, LocomoConversation['questions']> } {
  const judged: Judged[] = [];
  const questions = new Map<number, LocomoConversation['questions']>();
  let ms = 0;
  conversations.forEach((conv, ci) => {
    questions.set(ci, conv.questions);
    const cites = new Map<string, number[]>();
    for (const q of conv.questions) for (const id of q.evidence) cites.set(id, [...(cites.get(id) ?? []), q.category]);
    let session = '';
    let context: Array<{ role: string; speaker: string | null; text: string }> = [];
    const inputs: JudgeInput[] = [];
    for (const t of conv.turns) {
      if (t.sessionId !== session) {
        session = t.sessionId;
        context = [];
      }
      inputs.push({ text: t.text, role: 'user', speaker: t.speaker, timestamp: t.timestamp, kind: 'message', context: withContext ? context.slice(-CONTEXT_TURNS) : [] });
      context.push({ role: 'user', speaker: t.speaker, text: t.text });
    }
    const t0 = performance.now();
    const out = inputs.map((input) => judgeHeuristic(input));
    ms += performance.now() - t0;
    conv.turns.forEach((t, i) => {
      judged.push({ conv: ci, diaId: t.diaId, speaker: t.speaker, text: t.text, evidence: cites.has(t.diaId), cites: cites.get(t.diaId) ?? [], j: out[i]! });
    });
  });
  return { judged, ms, questions };
}

function summarise(label: string, judged: Judged[], questions: Map<number, LocomoConversation['questions']>, convs: number[]): Split {
  const rows = judged.filter((r) => convs.includes(r.conv));
  const promotedIds = new Set(rows.filter((r) => r.j.importance >= threshold).map((r) => `${r.conv}/${r.diaId}`));
  const split: Split = {
    label,
    conversations: convs.length,
    turns: rows.length,
    promoted: promotedIds.size,
    evidenceTurns: rows.filter((r) => r.evidence).length,
    evidencePromoted: rows.filter((r) => r.evidence && r.j.importance >= threshold).length,
    questions: {},
    categories: {},
    histogram: new Array(11).fill(0),
    evidenceHistogram: new Array(11).fill(0),
  };
  for (const r of rows) {
    const c = (split.categories[r.j.category] ??= { turns: 0, promoted: 0, evidence: 0 });
    c.turns++;
    if (r.j.importance >= threshold) c.promoted++;
    if (r.evidence) c.evidence++;
    split.histogram[r.j.importance]!++;
    if (r.evidence) split.evidenceHistogram[r.j.importance]!++;
  }
  for (const ci of convs) {
    for (const q of questions.get(ci) ?? []) {
      const covered = q.evidence.every((id) => promotedIds.has(`${ci}/${id}`));
      for (const key of [String(q.category), 'all']) {
        const b = (split.questions[key] ??= { total: 0, covered: 0 });
        b.total++;
        if (covered) b.covered++;
      }
    }
  }
  return split;
}

interface Sweep {
  label: string;
  evidence: number;
  all: number;
}

function sweepAt(label: string, judged: Judged[], at: number): Sweep {
  const ev = judged.filter((r) => r.evidence);
  return { label, evidence: ev.filter((r) => r.j.importance >= at).length / ev.length, all: judged.filter((r) => r.j.importance >= at).length / judged.length };
}

const pct = (n: number, d: number): string => (d === 0 ? '–' : (n / d).toFixed(3));

function markdown(splits: Split[], sweep: Sweep[], speed: { turns: number; ms: number; perSecond: number; bigTurnMs: { median: number; worst: number } }, when: string): string {
  const lines: string[] = [];
  lines.push('# Heuristic judge on LoCoMo');
  lines.push('');
  lines.push(`Judge \`${HEURISTIC_VERSION}\`, threshold ${threshold} (a turn is promoted to a memory at importance ≥ ${threshold}). Run ${when} on ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}.`);
  lines.push('Every turn is judged as role `user` with its speaker and the earlier turns of its session (last 8) as context. Evidence turns are the');
  lines.push('turns any category 1–4 question cites (ids normalised by bench/locomo.ts). Conversations 0–4 were used while developing the rules;');
  lines.push('5–9 are the held-out check. Command: `npm run bench:judge`.');
  lines.push('');
  lines.push(`Target: ≥ ${TARGET_EVIDENCE} of evidence turns promoted while promoting ≤ ${TARGET_ALL} of all turns.`);
  lines.push('');
  lines.push('| split | conversations | turns | evidence turns | **evidence promoted** | **all promoted** | questions with all evidence promoted | target |');
  lines.push('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const s of splits) {
    const ev = s.evidencePromoted / s.evidenceTurns;
    const all = s.promoted / s.turns;
    const ok = ev >= TARGET_EVIDENCE && all <= TARGET_ALL ? '✓' : '✗';
    lines.push(`| ${s.label} | ${s.conversations} | ${s.turns} | ${s.evidenceTurns} | **${ev.toFixed(3)}** | **${all.toFixed(3)}** | ${pct(s.questions.all?.covered ?? 0, s.questions.all?.total ?? 0)} | ${ok} |`);
  }
  lines.push('');
  const overall = splits[splits.length - 1]!;
  lines.push('Other thresholds, and the judge without context (each turn alone), overall:');
  lines.push('');
  lines.push('| variant | evidence promoted | all promoted |');
  lines.push('| --- | --- | --- |');
  for (const v of sweep) lines.push(`| ${v.label} | ${v.evidence.toFixed(3)} | ${v.all.toFixed(3)} |`);
  lines.push('');
  lines.push('Questions whose every evidence turn was promoted, by question category (overall):');
  lines.push('');
  lines.push('| category | questions | all evidence promoted |');
  lines.push('| --- | --- | --- |');
  for (const c of [1, 2, 3, 4]) {
    const b = overall.questions[String(c)];
    if (b) lines.push(`| ${c} ${CATEGORY_LABELS[c]} | ${b.total} | ${pct(b.covered, b.total)} |`);
  }
  lines.push('');
  lines.push('Per judged category (overall):');
  lines.push('');
  lines.push('| category | turns | share | promoted | evidence turns |');
  lines.push('| --- | --- | --- | --- | --- |');
  for (const cat of CATEGORIES) {
    const c = overall.categories[cat];
    if (c) lines.push(`| ${cat} | ${c.turns} | ${pct(c.turns, overall.turns)} | ${pct(c.promoted, c.turns)} | ${c.evidence} |`);
  }
  lines.push('');
  lines.push('Importance histogram (overall):');
  lines.push('');
  lines.push('| importance | turns | evidence turns |');
  lines.push('| --- | --- | --- |');
  for (let i = 1; i <= 10; i++) lines.push(`| ${i} | ${overall.histogram[i]} | ${overall.evidenceHistogram[i]} |`);
  lines.push('');
  lines.push(`Speed: ${speed.turns} turns in ${speed.ms.toFixed(0)} ms (with context) = **${Math.round(speed.perSecond).toLocaleString('en-US')} turns/s**; a 100 KB turn judges in ${speed.bigTurnMs.median.toFixed(2)} ms (median of 21 after warm-up; worst ${speed.bigTurnMs.worst.toFixed(2)} ms).`);
  lines.push('');
  return lines.join('\n');
}

/** Median and worst time to judge a 100 KB turn, after a warm-up (the first call compiles the patterns). */
function bigTurnMs(): { median: number; worst: number } {
  const base = 'We decided to move the staging DB to port 5433 on Friday because the old one kept failing. ';
  const text = base.repeat(Math.ceil(100_000 / base.length)).slice(0, 100_000);
  const input = { text, role: 'user', speaker: 'a', timestamp: new Date(0).toISOString() };
  for (let i = 0; i < 3; i++) judgeHeuristic(input);
  const times: number[] = [];
  for (let i = 0; i < 21; i++) {
    const t0 = performance.now();
    judgeHeuristic(input);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[10]!, worst: times[times.length - 1]! };
}

function main(): void {
  const conversations = loadLocomo(dataPath);
  if (!conversations) {
    console.log(`LoCoMo data not found at ${dataPath}; skipping the judge measurement (see ../shared/bench/README.md).`);
    return;
  }
  // Warm-up so the speed figure is not the regex compiler's.
  judgeAll(conversations.slice(0, 1));
  const { judged, ms, questions } = judgeAll(conversations);
  const all = conversations.map((_, i) => i);
  const splits = [
    summarise('dev (conversations 0–4)', judged, questions, all.filter((i) => DEV.has(i))),
    summarise('held-out (conversations 5–9)', judged, questions, all.filter((i) => !DEV.has(i))),
    summarise('overall', judged, questions, all),
  ];
  const alone = judgeAll(conversations, false).judged;
  const sweep = [
    sweepAt(`threshold ${threshold - 1}`, judged, threshold - 1),
    sweepAt(`threshold ${threshold} (default)`, judged, threshold),
    sweepAt(`threshold ${threshold + 1}`, judged, threshold + 1),
    sweepAt(`threshold ${threshold}, no context`, alone, threshold),
  ];
  const speed = { turns: judged.length, ms, perSecond: (judged.length / ms) * 1000, bigTurnMs: bigTurnMs() };
  const when = new Date().toISOString();
  const md = markdown(splits, sweep, speed, when);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'judge.md'), md);
  writeFileSync(
    join(outDir, 'judge.json'),
    `${JSON.stringify({ judge: HEURISTIC_VERSION, threshold, ranAt: when, node: process.version, speed, splits, sweep }, null, 2)}\n`,
  );
  if (dumpPath) {
    writeFileSync(dumpPath, judged.map((r) => JSON.stringify({ conv: r.conv, id: r.diaId, ev: r.evidence, cites: r.cites, imp: r.j.importance, cat: r.j.category, reason: r.j.reason, speaker: r.speaker, text: r.text })).join('\n') + '\n');
  }
  process.stdout.write(md);
}

main();
