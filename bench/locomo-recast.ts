// Shared by the LoCoMo recast benches (locomo-roles.ts, locomo-long.ts): a recast writes its own
// transcripts and questions; this ingests them through capture (generic JSONL) into a kept home
// and asks every question through the facade's search, once per config, and writes the table.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Cairn } from '../src/service/cairn.js';
import type { CairnConfigInput } from '../src/core/config.js';
import { ANSWER_K, coveredIds, questionAnswerShown, recallAtK, returnedTexts } from './eval/metrics.js';
import { CATEGORY_LABELS, loadLocomo, type LocomoConversation } from './locomo.js';

export interface RecastQuestion {
  namespace: string;
  text: string;
  category: number;
  /** Message ids of the recast transcript that hold the evidence. */
  evidence: string[];
  /** An extra group the question is counted in ("about the user"), if any. */
  group?: string;
  /** The annotated answer, to measure how much of it the returned text shows. */
  answer?: string | undefined;
}

export interface Recast {
  /** Folder name under .bench-cache/ and the default results file's stem. */
  name: string;
  title: string;
  /** What the recast does, for the results file. */
  description: (questions: readonly RecastQuestion[]) => string;
  /** JSONL lines of a conversation's transcript, and its questions; null to leave it out. */
  recast: (conv: LocomoConversation) => { lines: object[]; questions: RecastQuestion[] } | null;
  configs: Array<{ name: string; config: CairnConfigInput }>;
  groups: readonly string[];
}

const KS = [5, 10, 20] as const;

export async function runRecast(r: Recast, argv: readonly string[]): Promise<void> {
  const arg = (name: string, fallback: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
  };
  const dataPath = resolve(arg('data', '../shared/bench/data/locomo10.json'));
  const out = resolve(arg('out', `bench/results/${r.name}.md`));
  const conversations = loadLocomo(dataPath);
  if (!conversations) {
    console.log(`LoCoMo data not found at ${dataPath}: nothing to measure.`);
    return;
  }
  const cacheDir = resolve(`.bench-cache/${r.name}`);
  mkdirSync(cacheDir, { recursive: true });
  const home = join(cacheDir, 'home');
  const asked: RecastQuestion[] = [];
  const files: Array<{ path: string; namespace: string }> = [];
  for (const conv of conversations) {
    const recast = r.recast(conv);
    if (!recast || recast.lines.length === 0) continue;
    const namespace = recast.questions[0]?.namespace ?? conv.id.toLowerCase();
    const path = join(cacheDir, `${namespace}.jsonl`);
    writeFileSync(path, recast.lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    files.push({ path, namespace });
    asked.push(...recast.questions);
  }

  // Capture is exactly-once per file: a second run finds the turns stored and adds nothing.
  const t0 = performance.now();
  const ingesting = await Cairn.open({ home });
  try {
    for (const f of files) await ingesting.ingest([f.path], { format: 'jsonl', namespace: f.namespace, final: true });
  } finally {
    await ingesting.close();
  }
  const ingestSeconds = (performance.now() - t0) / 1000;

  const rows: string[] = [];
  // --only "default|no passages": just those rows (a quick side-by-side; the results file then holds only them).
  const only = arg('only', '').split('|').map((x) => x.trim()).filter(Boolean);
  const configs = only.length ? r.configs.filter((c) => only.includes(c.name)) : r.configs;
  if (only.length && configs.length !== only.length) throw new Error(`--only: unknown row (rows: ${r.configs.map((c) => c.name).join(', ')})`);
  for (const { name, config } of configs) {
    const cairn = await Cairn.open({ home, config });
    const sums = new Map<string, { n: number; recall: number[]; tokens: number[]; answered: number; answers: number }>();
    try {
      for (const q of asked) {
        const recall: number[] = [];
        const chars: number[] = [];
        let shown: number | null = null;
        for (const k of KS) {
          const { results } = await cairn.search(q.text, { namespace: q.namespace, limit: k });
          recall.push(recallAtK(q.evidence, results.map((x) => ({ ids: coveredIds(x.provenance), tokens: 0 })), k));
          chars.push(results.reduce((n, x) => n + x.text.length + x.context.reduce((m, c) => m + c.text.length, 0), 0));
          // A temporal answer (category 2) is a date worked out, in no text: not scored.
          if (k === ANSWER_K) shown = questionAnswerShown(q.category === 2 ? {} : q, () => results.flatMap(returnedTexts));
        }
        for (const group of ['overall', ...(q.group ? [q.group] : []), `${q.category} ${CATEGORY_LABELS[q.category]}`]) {
          const s = sums.get(group) ?? { n: 0, recall: KS.map(() => 0), tokens: KS.map(() => 0), answered: 0, answers: 0 };
          s.n++;
          if (shown !== null) {
            s.answers++;
            s.answered += shown;
          }
          recall.forEach((x, i) => (s.recall[i]! += x));
          chars.forEach((x, i) => (s.tokens[i]! += x));
          sums.set(group, s);
        }
      }
    } finally {
      await cairn.close();
    }
    const order = ['overall', ...r.groups, ...Object.entries(CATEGORY_LABELS).map(([c, l]) => `${c} ${l}`)];
    for (const group of order) {
      const s = sums.get(group);
      if (!s) continue;
      const f = (x: number) => (x / s.n).toFixed(3);
      const answered = s.answers > 0 ? (s.answered / s.answers).toFixed(3) : '–';
      rows.push(`| ${name} | ${s.n} | ${group} | ${s.recall.map(f).join(' | ')} | ${Math.round(s.tokens[1]! / s.n).toLocaleString('en-US')} | ${answered} |`);
    }
  }

  const lines = [
    `# ${r.title}`,
    '',
    `\`npm run bench:${r.name.replace(/^locomo-/, '')}\` (bench/${r.name}.ts), ${new Date().toISOString().slice(0, 10)}. ${r.description(asked)}`,
    `Ingest ${ingestSeconds.toFixed(1)} s (0 when the kept home in .bench-cache/${r.name}/ already had the turns).`,
    `"answer words @10": the share of each annotated answer's words (categories 1, 3 and 4; a temporal answer is a date worked out, in no text) found in what a search for 10 returns, its texts and previews, a word matching by its first five letters. Recall counts a turn once any preview of it is shown; this asks whether what is shown holds the answer.`,
    '',
    '| config | questions | group | @5 | @10 | @20 | chars @10 | answer words @10 |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ];
  writeFileSync(out, lines.join('\n'));
  console.log(lines.join('\n'));
}
