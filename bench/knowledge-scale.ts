// `npm run bench:knowledge-scale`: what the knowledge pass costs at 10k and 100k memories. The same
// generated turns (bench/knowledge-updates-data.ts factTurns: fact statements, changes, re-mentions
// over a year, one namespace) are ingested through `Cairn.ingest` in batches of 1,000 turns into
// two fresh homes: the baseline with knowledge off (capture + judge + store) and the defaults
// (the same, plus supersede and near-duplicates; ingest runs the knowledge pass in both, so the
// extraction is in both). Then the pass alone: the knowledge home's derived knowledge is reset and
// `Cairn.learn` takes every memory in again, timed per batch. No embedder anywhere: it would time
// the embedder (see bench:capture), and near-duplicates then compare words only.
//
//   npm run build && npm run bench:knowledge-scale -- [--scales 10k,100k] [--seed 25] [--keep]
//
// Each home is filled in a child process of its own (clean peak RSS). Results:
// bench/results/knowledge-scale.md (regenerated; never hand-edited).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Cairn } from '../src/service/cairn.js';
import { factTurns, jsonl, type ChatLine } from './knowledge-updates-data.js';
import { dist, int, mb, parseScale, runPhase, scaleLabel, table, type Dist } from './stats.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULT = join(HERE, 'results', 'knowledge-scale.md');
const NAMESPACE = 'scale';
const BATCH_TURNS = 1000;

const MODES = {
  baseline: { label: 'supersede and near-duplicates off', knowledge: { autoSupersede: false, nearDuplicates: false } },
  knowledge: { label: 'knowledge on (defaults)', knowledge: {} },
} as const;
type Mode = keyof typeof MODES;

function log(msg: string): void {
  process.stderr.write(`[knowledge-scale ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}
function argValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

interface FillResult {
  turns: number;
  memories: number;
  /** Memories retired by the knowledge pass (superseded or merged). */
  retired: number;
  facts: number;
  entities: number;
  ms: number;
  perBatch: Dist;
  rssPeak: number;
}

/** Child process: ingests the batch files in order into a fresh home. */
async function phaseFill(p: { home: string; files: string[]; mode: Mode }): Promise<FillResult> {
  const config = { embedder: { provider: 'none' as const }, knowledge: MODES[p.mode].knowledge };
  const cairn = await Cairn.open({ home: p.home, config, embedder: null });
  const batchMs: number[] = [];
  let turns = 0;
  try {
    for (const file of p.files) {
      const t0 = performance.now();
      const res = await cairn.ingest([file], { format: 'jsonl', namespace: NAMESPACE });
      batchMs.push(performance.now() - t0);
      if (res.warning) throw new Error(`ingest warning: ${res.warning}`);
      turns += res.turnsInserted;
    }
  } finally {
    await cairn.close();
  }
  const db = new Database(join(p.home, 'cairn.db'), { readonly: true });
  try {
    const count = (sql: string): number => (db.prepare(sql).get() as { n: number }).n;
    const has = (table: string): boolean => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
    return {
      turns,
      memories: count("SELECT count(*) AS n FROM entries WHERE kind = 'memory'"),
      retired: count("SELECT count(*) AS n FROM entries WHERE kind = 'memory' AND valid_to IS NOT NULL"),
      facts: has('facts') ? count('SELECT count(*) AS n FROM facts') : 0,
      entities: has('entities') ? count('SELECT count(*) AS n FROM entities') : 0,
      ms: batchMs.reduce((a, b) => a + b, 0),
      perBatch: dist(batchMs),
      rssPeak: process.resourceUsage().maxRSS * 1024,
    };
  } finally {
    db.close();
  }
}

interface RelearnResult {
  memories: number;
  facts: number;
  entities: number;
  superseded: number;
  merged: number;
  ms: number;
  /** Per batch the pass applies (its default size). */
  perBatch: Dist;
  rssPeak: number;
}

/** Child process: forgets the home's derived knowledge and times the pass taking every memory in again. */
async function phaseRelearn(p: { home: string }): Promise<RelearnResult> {
  const cairn = await Cairn.open({ home: p.home, config: { embedder: { provider: 'none' as const } }, embedder: null });
  try {
    await cairn.store.resetKnowledge(NAMESPACE);
    const batchMs: number[] = [];
    let last = performance.now();
    const t0 = last;
    const report = await cairn.learn({
      namespace: NAMESPACE,
      onProgress: () => {
        const t = performance.now();
        batchMs.push(t - last);
        last = t;
      },
    });
    return {
      memories: report.memories, facts: report.facts, entities: report.entities, superseded: report.superseded, merged: report.merged,
      ms: performance.now() - t0, perBatch: dist(batchMs), rssPeak: process.resourceUsage().maxRSS * 1024,
    };
  } finally {
    await cairn.close();
  }
}

/** Writes the turns as batch files of BATCH_TURNS lines; returns their paths in order. */
function writeBatches(dir: string, seed: number, n: number): string[] {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  let batch: ChatLine[] = [];
  const flush = () => {
    const file = join(dir, `batch-${String(files.length).padStart(4, '0')}.jsonl`);
    writeFileSync(file, jsonl(batch));
    files.push(file);
    batch = [];
  };
  for (const line of factTurns(seed, n)) {
    batch.push(line);
    if (batch.length === BATCH_TURNS) flush();
  }
  if (batch.length) flush();
  return files;
}

interface ScaleRun {
  scale: number;
  runs: Record<Mode, FillResult>;
  relearn: RelearnResult;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const phase = argValue(args, '--phase');
  if (phase) {
    const params = JSON.parse(argValue(args, '--params')!);
    const result = phase === 'fill' ? await phaseFill(params) : phase === 'relearn' ? await phaseRelearn(params) : null;
    if (!result) throw new Error(`unknown phase ${phase}`);
    writeFileSync(argValue(args, '--out')!, JSON.stringify(result));
    return;
  }
  const scales = (argValue(args, '--scales') ?? '10k,100k').split(',').map(parseScale);
  const seed = Number(argValue(args, '--seed') ?? 25);
  if (!Number.isSafeInteger(seed)) throw new Error(`bad --seed: ${argValue(args, '--seed')}`);
  for (const s of scales) if (s < 100 || s > 2_000_000) throw new Error(`bad scale ${s} (100 to 2M turns)`);
  const keep = args.includes('--keep');
  const wall0 = performance.now();
  const load0 = loadavg()[0]!;
  const root = mkdtempSync(join(tmpdir(), 'cairn-kscale-'));
  const results: ScaleRun[] = [];
  try {
    for (const scale of scales) {
      const files = writeBatches(join(root, `turns-${scale}`), seed, scale);
      const runs = {} as Record<Mode, FillResult>;
      const script = fileURLToPath(import.meta.url);
      let relearn: RelearnResult | null = null;
      for (const mode of Object.keys(MODES) as Mode[]) {
        const home = join(root, `home-${scale}-${mode}`);
        mkdirSync(home, { mode: 0o700 });
        runs[mode] = await runPhase<FillResult>(script, 'fill', { home, files, mode }, process.execArgv);
        log(`${scaleLabel(scale)} ${mode}: ${int(runs[mode].memories)} memories in ${(runs[mode].ms / 1000).toFixed(1)} s`);
        if (mode === 'knowledge') {
          relearn = await runPhase<RelearnResult>(script, 'relearn', { home }, process.execArgv);
          log(`${scaleLabel(scale)} pass alone: ${int(relearn.memories)} memories in ${(relearn.ms / 1000).toFixed(1)} s`);
        }
        rmSync(home, { recursive: true, force: true });
      }
      results.push({ scale, runs, relearn: relearn! });
    }
    const md = render(results, {
      seed, args, date: new Date().toISOString(), node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '?',
      memGiB: Math.round(totalmem() / 2 ** 30), load: [load0, loadavg()[0]!], wallS: Math.round((performance.now() - wall0) / 1000),
    });
    mkdirSync(dirname(RESULT), { recursive: true });
    writeFileSync(RESULT, md + '\n');
    process.stdout.write(md + '\n');
    log(`wrote ${RESULT}`);
  } finally {
    if (keep) log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

interface Meta {
  seed: number;
  args: string[];
  date: string;
  node: string;
  cpus: number;
  cpuModel: string;
  memGiB: number;
  load: number[];
  wallS: number;
}

const perSec = (n: number, ms: number): string => (ms > 0 ? int((n * 1000) / ms) : 'n/a');
const msPair = (d: Dist): string => (d.n ? `${d.p50.toFixed(0)} / ${d.p95.toFixed(0)} ms` : 'n/a');

function render(results: readonly ScaleRun[], m: Meta): string {
  const out: string[] = ['# Knowledge pass throughput', ''];
  out.push(
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.memGiB} GiB RAM, Node ${m.node}. Run ${m.date} (wall ${m.wallS} s; load average ${m.load[0]!.toFixed(1)} → ${m.load[1]!.toFixed(1)}). ` +
      `Command: \`npm run bench:knowledge-scale${m.args.length ? ` -- ${m.args.join(' ')}` : ''}\`.`,
    '',
    `Turns: bench/knowledge-updates-data.ts factTurns seed ${m.seed} (fact statements about many subjects: first values, changes, re-mentions over a year), one namespace, ` +
      `ingested through \`Cairn.ingest\` in batches of ${int(BATCH_TURNS)} turns (heuristic judge, no embedder) into a fresh home per row. ` +
      'Ingest runs the knowledge pass in every home; the baseline switches supersede and near-duplicates off (`knowledge.autoSupersede`, `knowledge.nearDuplicates`), so the ingest difference is what those two cost.',
    '',
  );
  const rows: string[][] = [];
  for (const r of results) {
    const base = r.runs.baseline;
    for (const mode of Object.keys(MODES) as Mode[]) {
      const x = r.runs[mode];
      const over = x.ms - base.ms;
      const extra = mode === 'baseline' ? '' : over > 0 ? `${(over / 1000).toFixed(1)} s (${perSec(x.memories, over)} memories/s)` : `none measurable (${(over / 1000).toFixed(1)} s)`;
      rows.push([
        scaleLabel(r.scale), MODES[mode].label, int(x.turns), int(x.memories), `${(x.ms / 1000).toFixed(1)} s`, perSec(x.memories, x.ms), msPair(x.perBatch),
        extra, int(x.retired), int(x.facts), int(x.entities), mb(x.rssPeak),
      ]);
    }
  }
  out.push('## The knowledge pass alone', '', 'Derived knowledge reset (`Store.resetKnowledge`), then `Cairn.learn` takes every memory in again (offline extractors, defaults).', '');
  out.push(table(['turns', 'memories taken in', 'time', 'memories/s', 'per batch p50 / p95', 'facts', 'entities', 'superseded', 'merged', 'peak RSS'], results.map((r) => {
    const x = r.relearn;
    return [scaleLabel(r.scale), int(x.memories), `${(x.ms / 1000).toFixed(1)} s`, `**${perSec(x.memories, x.ms)}**`, msPair(x.perBatch), int(x.facts), int(x.entities), int(x.superseded), int(x.merged), mb(x.rssPeak)];
  })));
  out.push('', '## Ingest with knowledge off and on', '');
  out.push(table(['turns', 'home', 'turns in', 'memories', 'ingest', 'memories/s', `per batch of ${int(BATCH_TURNS)} p50 / p95`, 'over the baseline', 'memories retired', 'facts', 'entities', 'peak RSS'], rows));
  return out.join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
