// Ingest speed of this tree against a base commit, in one run: the corpus rows of bench:capture
// (long agent messages, chat turns; bench/capture-corpora.ts), each row a child process on a fresh
// home, the two trees alternating row by row (base first in every other round) so a change of the
// machine's load lands on both. CPU time per message is the figure to compare on a shared machine;
// the main thread's share shows how far an idle machine's wall time could go.
//
//   node --import tsx bench/capture-ab.ts --base <rev> [--rounds 3] [--long 100] [--chat 600] [--passages none]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PassagePolicy } from '../src/embed/passages.js';
import { exportBase } from './base-tree.js';
import { cpuPerMessage, phaseCorpus, writeCorpus, type CorpusName, type CorpusRow } from './capture-corpora.js';
import { runPhase, table } from './stats.js';

function argValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

const log = (msg: string) => process.stderr.write(`[capture-ab ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
/** Messages of the same shape ingested before the clock starts (as bench:capture's rows). */
const WARMUP_MESSAGES = 8;

type Side = 'current' | 'base';

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const phase = argValue(args, '--phase');
  if (phase === 'corpus') {
    writeFileSync(argValue(args, '--out')!, JSON.stringify(await phaseCorpus(JSON.parse(argValue(args, '--params')!))));
    return;
  }
  const rev = argValue(args, '--base');
  if (!rev) throw new Error('--base <rev> is required');
  const rounds = Number(argValue(args, '--rounds') ?? 3);
  const passages = (argValue(args, '--passages') ?? 'none') as PassagePolicy;
  const plan: Array<{ corpus: CorpusName; count: number }> = [
    { corpus: 'long agent messages', count: Number(argValue(args, '--long') ?? 100) },
    { corpus: 'chat turns', count: Number(argValue(args, '--chat') ?? 600) },
  ].filter((p) => p.count > 0) as Array<{ corpus: CorpusName; count: number }>;
  const baseSrc = join(exportBase(rev), 'src');
  const root = mkdtempSync(join(tmpdir(), 'cairn-capture-ab-'));
  const rows = new Map<string, Record<Side, CorpusRow[]>>();
  const load0 = loadavg()[0]!;
  let homes = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      for (const p of plan) {
        const slug = p.corpus.replace(/ /g, '-');
        const file = join(root, `${slug}-${p.count}.jsonl`);
        const warmup = join(root, `warmup-${slug}.jsonl`);
        writeCorpus(file, p.corpus, p.count, 42);
        writeCorpus(warmup, p.corpus, WARMUP_MESSAGES, 43);
        const order: Side[] = round % 2 ? ['base', 'current'] : ['current', 'base'];
        for (const side of order) {
          const params = { file, warmup, home: join(root, `home-${homes++}`), corpus: p.corpus, passages, ...(side === 'base' ? { src: baseSrc } : {}) };
          const r = await runPhase<CorpusRow>(fileURLToPath(import.meta.url), 'corpus', params);
          const got = rows.get(p.corpus) ?? rows.set(p.corpus, { current: [], base: [] }).get(p.corpus)!;
          got[side].push(r);
          log(`round ${round + 1} ${p.corpus} ${side}: ${(r.messages / (r.cpuMs / 1000)).toFixed(1)} per CPU s, CPU ms/msg ${cpuPerMessage(r)}, ${(r.modelTexts / r.messages).toFixed(2)} model texts/msg, load ${loadavg()[0]!.toFixed(1)}`);
        }
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const perCpu = (r: CorpusRow) => r.messages / (r.cpuMs / 1000);
  const cell = (rs: CorpusRow[], f: (r: CorpusRow) => number, digits = 1) => `${median(rs.map(f)).toFixed(digits)} (${rs.map((r) => f(r).toFixed(digits)).join(' / ')})`;
  const out = [...rows].flatMap(([corpus, s]) =>
    (['current', 'base'] as const).map((side) => [
      corpus,
      side === 'base' ? `base ${rev}` : 'this tree',
      cell(s[side], perCpu),
      median(s[side].map((r) => perCpu(r) * r.threads)).toFixed(1),
      cell(s[side], (r) => r.cpuMs / r.messages),
      s[side].every((r) => r.mainCpuMs !== null) ? cell(s[side], (r) => r.mainCpuMs! / r.messages) : 'n/a',
      (s[side][0]!.modelTexts / s[side][0]!.messages).toFixed(2),
      String(s[side][0]!.memories),
    ]),
  );
  process.stdout.write(
    `Ingest A/B, ${rounds} rounds, passages ${passages}, load ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}; median (each round)\n\n` +
      table(['corpus', 'tree', 'msgs per CPU s', 'idle machine', 'CPU ms / msg', 'main thread ms / msg', 'model texts / msg', 'memories'], out) +
      '\n',
  );
}

await main();
