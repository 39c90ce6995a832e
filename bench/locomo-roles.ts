// LoCoMo recast as an agent's transcript: the first speaker of each conversation becomes the
// `user`, the second the `assistant`, and no turn keeps a speaker name. A question that names one
// of the two (and not the other) is asked in the first person about the user ("What did I…",
// "my") or in the second person about the assistant ("What did you…", "your"); questions naming
// both or neither are left out. This measures what LoCoMo cannot: LoCoMo asks about people by
// name, while a person asking their own agent says "I" and "you". Ingest goes through capture
// (generic JSONL), questions through the facade's search, as in `cairn eval locomo`.
// Usage: npm run bench:roles [-- --data PATH] [-- --out FILE]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Cairn } from '../src/service/cairn.js';
import type { CairnConfigInput } from '../src/core/config.js';
import { coveredIds, recallAtK } from '../src/eval/locomo/metrics.js';
import { namespaceOf, turnContent } from '../src/eval/locomo/transcripts.js';
import { CATEGORY_LABELS, loadLocomo, type LocomoConversation } from './locomo.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const dataPath = resolve(arg('data', '../shared/bench/data/locomo10.json'));
const out = resolve(arg('out', 'bench/results/locomo-roles.md'));
const cacheDir = resolve('.bench-cache/locomo-roles');
const KS = [5, 10, 20] as const;

interface Question {
  namespace: string;
  text: string;
  original: string;
  category: number;
  evidence: string[];
  about: 'user' | 'assistant';
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The conversation's two speakers, in order of first appearance. */
function speakers(conv: LocomoConversation): [string, string] | null {
  const first = conv.turns[0]?.speaker;
  const second = conv.turns.find((t) => t.speaker !== first)?.speaker;
  return first && second ? [first, second] : null;
}

function recast(conv: LocomoConversation, user: string): string {
  return (
    conv.turns
      .map((t) => JSON.stringify({ role: t.speaker === user ? 'user' : 'assistant', content: turnContent(t), timestamp: t.timestamp, id: t.diaId, session: t.sessionId }))
      .join('\n') + '\n'
  );
}

/** "What is Ana's job?" → "What is my job?"; about the other speaker → "What is your job?". */
function questions(conv: LocomoConversation, [user, assistant]: [string, string]): Question[] {
  const out: Question[] = [];
  for (const q of conv.questions) {
    const names = (n: string) => new RegExp(`\\b${escape(n)}\\b`).test(q.question);
    if (names(user) === names(assistant)) continue;
    const [name, possessive, subject, about] = names(user) ? [user, 'my', 'I', 'user' as const] : [assistant, 'your', 'you', 'assistant' as const];
    const text = q.question.replace(new RegExp(`\\b${escape(name)}['’]s\\b`, 'g'), possessive).replace(new RegExp(`\\b${escape(name)}\\b`, 'g'), subject);
    out.push({ namespace: namespaceOf(conv), text, original: q.question, category: q.category, evidence: q.evidence, about });
  }
  return out;
}

const conversations = loadLocomo(dataPath);
if (!conversations) {
  console.log(`LoCoMo data not found at ${dataPath}: nothing to measure.`);
  process.exit(0);
}
mkdirSync(cacheDir, { recursive: true });
const home = join(cacheDir, 'home');
const asked: Question[] = [];
const files: Array<{ path: string; namespace: string }> = [];
for (const conv of conversations) {
  const pair = speakers(conv);
  if (!pair) continue;
  const path = join(cacheDir, `${namespaceOf(conv)}.jsonl`);
  writeFileSync(path, recast(conv, pair[0]));
  files.push({ path, namespace: namespaceOf(conv) });
  asked.push(...questions(conv, pair));
}

// Capture is exactly-once per file: a second run finds the turns stored and adds nothing.
const t0 = performance.now();
{
  const cairn = await Cairn.open({ home });
  try {
    for (const f of files) await cairn.ingest([f.path], { format: 'jsonl', namespace: f.namespace, final: true });
  } finally {
    await cairn.close();
  }
}
const ingestSeconds = (performance.now() - t0) / 1000;

const CONFIGS: Array<{ name: string; config: CairnConfigInput }> = [
  { name: 'default', config: {} },
  { name: 'no speaker factor', config: { search: { speakerBoost: 0 } } },
];
type Row = { name: string; group: string; n: number; recall: number[] };
const rows: Row[] = [];
for (const { name, config } of CONFIGS) {
  const cairn = await Cairn.open({ home, config });
  const sums = new Map<string, { n: number; recall: number[] }>();
  try {
    for (const q of asked) {
      const recall = [];
      for (const k of KS) {
        const { results } = await cairn.search(q.text, { namespace: q.namespace, limit: k });
        recall.push(recallAtK(q.evidence, results.map((r) => ({ ids: coveredIds(r.provenance), tokens: 0 })), k));
      }
      for (const group of ['overall', `about the ${q.about}`, `${q.category} ${CATEGORY_LABELS[q.category]}`]) {
        const s = sums.get(group) ?? { n: 0, recall: KS.map(() => 0) };
        s.n++;
        recall.forEach((r, i) => (s.recall[i]! += r));
        sums.set(group, s);
      }
    }
  } finally {
    await cairn.close();
  }
  const order = ['overall', 'about the user', 'about the assistant', ...Object.entries(CATEGORY_LABELS).map(([c, l]) => `${c} ${l}`)];
  for (const group of order) {
    const s = sums.get(group);
    if (s) rows.push({ name, group, n: s.n, recall: s.recall.map((r) => r / s.n) });
  }
}

const lines = [
  '# LoCoMo recast as a user/assistant transcript, asked in the first and second person',
  '',
  `\`npm run bench:roles\` (bench/locomo-roles.ts), ${new Date().toISOString().slice(0, 10)}. ${asked.length} questions`,
  `(${asked.filter((q) => q.about === 'user').length} in the first person about the user, the rest in the second person about the assistant),`,
  `ingest ${ingestSeconds.toFixed(1)} s. Example: "${asked[0]?.original}" → "${asked[0]?.text}".`,
  '',
  '| config | questions | group | @5 | @10 | @20 |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.name} | ${r.n} | ${r.group} | ${r.recall.map((x) => x.toFixed(3)).join(' | ')} |`),
  '',
];
writeFileSync(out, lines.join('\n'));
console.log(lines.join('\n'));
