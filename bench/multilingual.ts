// Recall on the multilingual set (bench/data/multilingual.json: memories and questions in Chinese,
// Japanese, German, Russian and Spanish, questions in other inflections, CJK without spaces,
// distractors per language): recall@1 and @5 per language for BM25 alone and the default hybrid,
// through the real facade on a real home, beside the analysis before issue 29 in the same run, a
// plain FTS5 `porter unicode61` table over the same texts asked with the old query words.
// Usage: npm run bench:multilingual [-- --embedder use-lite|none] [-- --out bench/results/multilingual.md]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Cairn } from '../src/service/cairn.js';
import { ENGLISH } from '../src/search/stop-words.js';
import type { DevConversation } from './eval/devset.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const dataPath = resolve(arg('data', 'bench/data/multilingual.json'));
const outPath = resolve(arg('out', 'bench/results/multilingual.md'));
const embedder = arg('embedder', 'use-lite') as 'use-lite' | 'none';

interface Tally {
  at1: number;
  at5: number;
  n: number;
  cpuMs: number;
}
const tally = (): Tally => ({ at1: 0, at5: 0, n: 0, cpuMs: 0 });

function count(t: Tally, ranked: readonly string[], evidence: readonly string[], cpuMs: number): void {
  t.n++;
  t.cpuMs += cpuMs;
  t.at1 += evidence.filter((e) => ranked.slice(0, 1).includes(e)).length / evidence.length;
  t.at5 += evidence.filter((e) => ranked.slice(0, 5).includes(e)).length / evidence.length;
}

function cpuMsOf<T>(fn: () => T): [T, number] {
  const c = process.cpuUsage();
  const out = fn();
  const d = process.cpuUsage(c);
  return [out, (d.user + d.system) / 1000];
}

/** The analysis before issue 29: lower-case letter runs, English stop words dropped, porter in FTS5. */
function oldQueryWords(query: string): string[] {
  const tokens = query.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu) ?? [];
  const content = tokens.filter((t) => !ENGLISH.has(t) && (t.length > 1 || /\d/.test(t)));
  return [...new Set((content.length ? content : tokens).map((t) => t.replace(/'s$/, '').replace(/['’]/g, '')))].filter(Boolean);
}

function baseline(conv: DevConversation, into: Tally): void {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE old USING fts5(id UNINDEXED, body, tokenize='porter unicode61 remove_diacritics 2')");
  const add = db.prepare('INSERT INTO old (id, body) VALUES (?, ?)');
  for (const t of conv.turns) add.run(t.id, t.text);
  const search = db.prepare('SELECT id FROM old WHERE old MATCH ? ORDER BY bm25(old) LIMIT 5').pluck();
  for (const q of conv.questions) {
    const words = oldQueryWords(q.question);
    const [ids, ms] = cpuMsOf(() => (words.length ? (search.all(words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ')) as string[]) : []));
    count(into, ids, q.evidence, ms);
  }
  db.close();
}

async function current(conv: DevConversation, home: string, bm25: Tally, hybrid: Tally, write: Tally): Promise<void> {
  const cairn = await Cairn.open({ home, config: { embedder: { provider: embedder } } });
  try {
    const idOf = new Map<string, string>();
    for (const t of conv.turns) {
      const c = process.cpuUsage();
      const { memory } = await cairn.remember({ text: t.text, namespace: conv.id });
      const d = process.cpuUsage(c);
      write.n++;
      write.cpuMs += (d.user + d.system) / 1000;
      idOf.set(memory.id, t.id);
    }
    for (const q of conv.questions) {
      for (const [mode, into] of [['bm25', bm25], ['hybrid', hybrid]] as const) {
        const c = process.cpuUsage();
        const { results } = await cairn.search(q.question, { namespace: conv.id, limit: 5, mode });
        const d = process.cpuUsage(c);
        const ranked = results.map((r) => idOf.get(r.id) ?? r.id);
        count(into, ranked, q.evidence, (d.user + d.system) / 1000);
        if (ranked[0] !== q.evidence[0]) misses.push(`${mode} ${q.evidence[0]} "${q.question}" → ${ranked[0] ?? 'nothing'}`);
      }
    }
  } finally {
    await cairn.close();
  }
}

const f = (x: number): string => x.toFixed(2);
const misses: string[] = [];

async function main(): Promise<void> {
  const data = JSON.parse(readFileSync(dataPath, 'utf8')) as { conversations: DevConversation[] };
  const work = mkdtempSync(join(tmpdir(), 'cairn-multilingual-'));
  const rows: string[] = [];
  const totals = { old: tally(), bm25: tally(), hybrid: tally(), write: tally() };
  try {
    for (const conv of data.conversations) {
      const t = { old: tally(), bm25: tally(), hybrid: tally() };
      baseline(conv, t.old);
      await current(conv, join(work, conv.id), t.bm25, t.hybrid, totals.write);
      rows.push(`| ${conv.id} | ${conv.turns.length} | ${t.old.n} | ${f(t.old.at1 / t.old.n)} / ${f(t.old.at5 / t.old.n)} | ${f(t.bm25.at1 / t.bm25.n)} / ${f(t.bm25.at5 / t.bm25.n)} | ${f(t.hybrid.at1 / t.hybrid.n)} / ${f(t.hybrid.at5 / t.hybrid.n)} |`);
      for (const k of ['old', 'bm25', 'hybrid'] as const) {
        totals[k].at1 += t[k].at1;
        totals[k].at5 += t[k].at5;
        totals[k].n += t[k].n;
        totals[k].cpuMs += t[k].cpuMs;
      }
      process.stderr.write(`${conv.id}: done\n`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const all = (t: Tally) => `${f(t.at1 / t.n)} / ${f(t.at5 / t.n)}`;
  const memories = data.conversations.reduce((n, c) => n + c.turns.length, 0);
  const cpu = (t: Tally) => (t.cpuMs / t.n).toFixed(2);
  const md = `# Multilingual recall

Run ${new Date().toISOString()} on ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), Node ${process.version}. Command: \`npm run bench:multilingual${args.length ? ` -- ${args.join(' ')}` : ''}\`.

Data: \`bench/data/multilingual.json\`, ${memories} memories and ${totals.bm25.n} questions in Chinese, Japanese, German, Russian and Spanish (one namespace per language, distractors included). Each question names one memory; recall@k is whether it is among the first k results.

- **before (porter unicode61)**: the analysis before issue 29, in this run: a plain FTS5 \`porter unicode61 remove_diacritics 2\` table over the same texts, asked with the old query words (letter runs, English stop words dropped), BM25 order.
- **BM25 now**: \`cairn search --mode bm25\` through the facade: words segmented (Intl.Segmenter), stemmed per detected language (Snowball), folded.
- **hybrid now**: the default search (embedder ${embedder}${embedder === 'use-lite' ? ', an English model: its vectors add little here' : ''}).

| language | memories | questions | before @1 / @5 | BM25 now @1 / @5 | hybrid now @1 / @5 |
| --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
| all | ${memories} | ${totals.bm25.n} | ${all(totals.old)} | ${all(totals.bm25)} | ${all(totals.hybrid)} |

CPU per operation (this process, loaded machine): before ${cpu(totals.old)} ms per search; BM25 now ${cpu(totals.bm25)} ms; hybrid now ${cpu(totals.hybrid)} ms (query embedding included); remember ${cpu(totals.write)} ms per memory (analysis, judge, embedding).
`;
  writeFileSync(outPath, md + `\nQuestions whose memory is not first (mode, memory, question → first result):\n\n${misses.map((m) => `- ${m}`).join('\n')}\n`);
  console.log(md);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
