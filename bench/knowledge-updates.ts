// `npm run bench:knowledge`: do searches rank the value that is true now (or was true on a date)
// first, when facts change over weeks? Seeded personas (bench/knowledge-updates-data.ts), each a
// 12-week chat in its own namespace, go through the real CLI: `cairn ingest` (a late file of
// older turns after the main one), then `cairn search --json` per question, answered by a warm
// `cairn serve` on the home's local socket. Variants side by side, each in a fresh home.
//
//   npm run build && npm run bench:knowledge -- [--seed 25] [--personas 40] [--keep]
//
// A question counts as "ranked first" when the first result naming any value of its timeline names
// the expected one. Results: bench/results/knowledge-updates.md (regenerated; never hand-edited).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, jsonl, names, WEEKS, START_DAY, type Persona, type Question, type Shape } from './knowledge-updates-data.js';
import { dist, int, pct, table, type Dist } from './stats.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, '..', 'dist', 'interfaces', 'cli', 'main.js');
const RESULT = join(HERE, 'results', 'knowledge-updates.md');
const LIMIT = 10;

interface Variant {
  name: string;
  description: string;
  config: Record<string, unknown>;
  /** Whether as-of questions pass `--as-of DATE` (else only their words name the date). */
  asOfFlag: boolean;
}

const PLAIN = { knowledge: { autoSupersede: false, nearDuplicates: false } };
const PLAIN_NOTE = 'knowledge off (`knowledge.autoSupersede: false`, `knowledge.nearDuplicates: false`)';

const VARIANTS: readonly Variant[] = [
  { name: 'plain search', description: `${PLAIN_NOTE}; as-of questions without \`--as-of\``, config: PLAIN, asOfFlag: false },
  { name: 'plain + --as-of', description: 'the plain home, as-of questions with `--as-of DATE` (search leaves out what came later)', config: PLAIN, asOfFlag: true },
  { name: 'knowledge', description: 'the defaults (facts supersede, near-duplicates merge); as-of questions with `--as-of DATE`', config: {}, asOfFlag: true },
];

function log(msg: string): void {
  process.stderr.write(`[knowledge-bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}
function argValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function cliEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: home, NO_COLOR: '1', ...extra };
  for (const k of ['NODE_OPTIONS', 'CAIRN_TEST', 'NODE_TEST_CONTEXT', 'CAIRN_DEBUG']) if (!(k in extra)) delete env[k];
  return env;
}

/** Runs the built CLI; resolves with its output and wall time, rejects on a non-zero exit. */
function cairn(home: string, args: readonly string[], extraEnv: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(home, extraEnv), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) reject(new Error(`cairn ${args.slice(0, 4).join(' ')} exited ${code}: ${stderr.slice(0, 500)}`));
      else resolve({ stdout, stderr, ms });
    });
  });
}

/** `cairn serve` on a free loopback port: its local socket answers `cairn search` warm, its REST API times searches. */
async function serve(home: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--host', '127.0.0.1', '--port', '0', '--quiet'], { env: cliEnv(home), stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const until = Date.now() + 120_000;
  let url: string | undefined;
  while (!existsSync(join(home, 'cairn.sock')) || !(url = /listening on (http:\/\/\S+?) /.exec(stdout)?.[1])) {
    if (Date.now() > until || child.exitCode !== null) {
      child.kill('SIGTERM');
      throw new Error(`cairn serve did not start within 120 s: ${stdout.slice(0, 300)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url };
}

/** One search over the REST API of the warm server: the search's own time, without a process start. */
async function timedSearch(url: string, namespace: string, body: Record<string, unknown>): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/namespaces/${encodeURIComponent(namespace)}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`POST search: HTTP ${res.status}`);
  return performance.now() - t0;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const closed = new Promise<void>((r) => child.once('close', () => r()));
  child.kill('SIGTERM');
  return closed;
}

interface Outcome {
  question: Question;
  /** The value the first result naming any value of the timeline names (null: none does). */
  first: string | null;
  /** Rank (1-based) of the first result naming the expected value, null if none of the results does. */
  rank: number | null;
  /** Wall time of the `cairn search` process. */
  cliMs: number;
  /** The same search over the warm server's REST API. */
  ms: number;
}

interface VariantRun {
  variant: Variant;
  ingestMs: number;
  turns: number;
  outcomes: Outcome[];
}

interface SearchJson {
  results: Array<{ text: string }>;
}

/** The value a result text states: the last of the timeline's values it names ("from 5433 to 6543" states 6543). */
function statedValue(text: string, values: readonly string[]): string | null {
  let best: { v: string; at: number } | null = null;
  for (const v of values) {
    if (!names(text, v)) continue;
    const at = text.toLowerCase().lastIndexOf(v.toLowerCase());
    if (!best || at > best.at) best = { v, at };
  }
  return best?.v ?? null;
}

async function ingestHome(home: string, files: string, personas: readonly Persona[]): Promise<{ ms: number; turns: number }> {
  let ms = 0;
  let turns = 0;
  for (const p of personas) {
    for (const file of p.late.length ? [`${p.slug}.jsonl`, `${p.slug}-late.jsonl`] : [`${p.slug}.jsonl`]) {
      const r = await cairn(home, ['-n', p.slug, 'ingest', '--format', 'jsonl', '--json', join(files, file)]);
      const res = JSON.parse(r.stdout) as { turnsInserted: number; files: Array<{ error?: { message: string } }> };
      const failed = res.files.find((f) => f.error);
      if (failed) throw new Error(`ingest ${file}: ${failed.error!.message}`);
      ms += r.ms;
      turns += res.turnsInserted;
    }
  }
  return { ms, turns };
}

async function ask(home: string, variants: readonly Variant[], personas: readonly Persona[]): Promise<Outcome[][]> {
  const server = await serve(home);
  try {
    const probe = await cairn(home, ['-n', personas[0]!.slug, 'search', '--json', '-q', 'warm up'], { CAIRN_DEBUG: '1' });
    if (!/answered by the running daemon/.test(probe.stderr)) throw new Error(`the warm server did not answer: ${probe.stderr.slice(0, 300)}`);
    const out: Outcome[][] = variants.map(() => []);
    for (const p of personas) {
      for (const q of p.questions) {
        // Variants of one home asking the same thing share one answer.
        const answers = new Map<string, { json: SearchJson; cliMs: number; ms: number }>();
        for (const [i, v] of variants.entries()) {
          const asOf = q.type === 'as-of' && v.asOfFlag ? q.date! : undefined;
          const args = ['-n', p.slug, 'search', '--json', '--limit', String(LIMIT), '-q', q.text, ...(asOf ? ['--as-of', asOf] : [])];
          let answer = answers.get(args.join('\0'));
          if (!answer) {
            const r = await cairn(home, args);
            const ms = await timedSearch(server.url, p.slug, { query: q.text, limit: LIMIT, ...(asOf ? { asOf } : {}) });
            answer = { json: JSON.parse(r.stdout) as SearchJson, cliMs: r.ms, ms };
            answers.set(args.join('\0'), answer);
          }
          const stated = answer.json.results.map((x) => statedValue(x.text, q.values));
          const at = stated.findIndex((s) => s === q.answer);
          out[i]!.push({ question: q, first: stated.find((s) => s !== null) ?? null, rank: at >= 0 ? at + 1 : null, cliMs: answer.cliMs, ms: answer.ms });
        }
      }
    }
    return out;
  } finally {
    await stop(server.child);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const seed = Number(argValue(args, '--seed') ?? 25);
  const count = Number(argValue(args, '--personas') ?? 40);
  if (!Number.isSafeInteger(seed)) throw new Error(`bad --seed: ${argValue(args, '--seed')}`);
  if (!Number.isSafeInteger(count) || count < 1 || count > 400) throw new Error(`bad --personas: ${argValue(args, '--personas')} (1 to 400)`);
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first`);
  const keep = args.includes('--keep');
  const wall0 = performance.now();
  const load0 = loadavg()[0]!;
  const data = generate(seed, count);
  const root = mkdtempSync(join(tmpdir(), 'cairn-kb-'));
  try {
    const files = join(root, 'transcripts');
    mkdirSync(files);
    for (const p of data.personas) {
      writeFileSync(join(files, `${p.slug}.jsonl`), jsonl(p.main));
      if (p.late.length) writeFileSync(join(files, `${p.slug}-late.jsonl`), jsonl(p.late));
    }
    const questions = data.personas.flatMap((p) => p.questions);
    log(`${count} personas, ${int(data.personas.reduce((a, p) => a + p.main.length + p.late.length, 0))} lines, ${questions.length} questions: ${root}`);
    // Variants that differ only in how they ask share one home.
    const homes = new Map<string, Variant[]>();
    for (const v of VARIANTS) homes.set(JSON.stringify(v.config), [...(homes.get(JSON.stringify(v.config)) ?? []), v]);
    const runs: VariantRun[] = [];
    let n = 0;
    for (const [config, variants] of homes) {
      const home = join(root, `home-${n++}`);
      mkdirSync(home, { mode: 0o700 });
      writeFileSync(join(home, 'config.json'), config + '\n');
      log(`${variants.map((v) => v.name).join(' / ')}: ingesting`);
      const ingest = await ingestHome(home, files, data.personas);
      log(`  ${int(ingest.turns)} turns in ${(ingest.ms / 1000).toFixed(1)} s; asking ${questions.length} × ${variants.length}`);
      const outcomes = await ask(home, variants, data.personas);
      variants.forEach((v, i) => runs.push({ variant: v, ingestMs: ingest.ms, turns: ingest.turns, outcomes: outcomes[i]! }));
    }
    runs.sort((a, b) => VARIANTS.indexOf(a.variant) - VARIANTS.indexOf(b.variant));
    const md = render({
      seed, count, args, runs, personas: data.personas,
      meta: { date: new Date().toISOString(), node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '?', memGiB: Math.round(totalmem() / 2 ** 30), load: [load0, loadavg()[0]!], wallS: Math.round((performance.now() - wall0) / 1000) },
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

// ---------------------------------------------------------------------------------------------
// Report

interface ReportInput {
  seed: number;
  count: number;
  args: string[];
  runs: VariantRun[];
  personas: Persona[];
  meta: { date: string; node: string; cpus: number; cpuModel: string; memGiB: number; load: number[]; wallS: number };
}

function share(outcomes: readonly Outcome[], pred: (o: Outcome) => boolean): string {
  if (outcomes.length === 0) return 'n/a';
  const k = outcomes.filter(pred).length;
  return `${pct(k / outcomes.length)} (${k}/${outcomes.length})`;
}
const first = (o: Outcome): boolean => o.first === o.question.answer;
const ms = (d: Dist): string => (d.n ? `${d.p50.toFixed(0)} / ${d.p95.toFixed(0)} ms` : 'n/a');

function render(r: ReportInput): string {
  const m = r.meta;
  const lateIds = new Set(r.personas.flatMap((p) => p.timelines.filter((t) => t.lateValues > 0).map((t) => t.id)));
  const lines = r.personas.reduce((a, p) => a + p.main.length + p.late.length, 0);
  const cur = (o: Outcome) => o.question.type === 'current';
  const asOf = (o: Outcome) => o.question.type === 'as-of';
  const out: string[] = ['# Knowledge updates: is the current (or as-of) value ranked first?', ''];
  out.push(
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.memGiB} GiB RAM, Node ${m.node}. Run ${m.date} (wall ${m.wallS} s; load average ${m.load[0]!.toFixed(1)} → ${m.load[1]!.toFixed(1)}). ` +
      `Command: \`npm run bench:knowledge${r.args.length ? ` -- ${r.args.join(' ')}` : ''}\`.`,
    '',
    `Data: bench/knowledge-updates-data.ts seed ${r.seed}: ${r.count} personas, each a ${WEEKS}-week generic-JSONL chat from ${START_DAY} in its own namespace ` +
      `(${int(lines)} lines in all) where facts change — moves, job and role changes, version bumps, coffee and editor preferences, ports and hosts — ` +
      `between filler and re-mentions; ${lateIds.size} personas also have a file of older turns (the old value of a port) ingested after the main one. ` +
      `Each changing fact asks one "current" question (the newest value) and one "as of" question per earlier value (a date midway through its validity).`,
    '',
    'Pipeline: a fresh home per configuration, `cairn -n <persona> ingest --format jsonl` per file (heuristic judge, bundled embedder), then ' +
      `\`cairn -n <persona> search --json --limit ${LIMIT}\` per question, answered by a warm \`cairn serve\` on the home's socket. ` +
      'A question is **ranked first** when the first result naming any value of its fact names the expected one; "found" when any of the results does. ' +
      '"search" is the same search timed over the warm server\'s REST API (`POST /v1/namespaces/<ns>/search`); "`cairn search`" is the CLI process\'s wall time (a Node start included, sensitive to machine load).',
    '',
    '## Results',
    '',
  );
  out.push(table(['variant', 'current value ranked first', 'as-of value ranked first', 'current found (top 10)', 'as-of found (top 10)', 'search p50 / p95', '`cairn search` p50 / p95'],
    r.runs.map((run) => [
      `**${run.variant.name}**`, share(run.outcomes.filter(cur), first), share(run.outcomes.filter(asOf), first),
      share(run.outcomes.filter(cur), (o) => o.rank !== null), share(run.outcomes.filter(asOf), (o) => o.rank !== null), ms(dist(run.outcomes.map((o) => o.ms))), ms(dist(run.outcomes.map((o) => o.cliMs))),
    ])));
  out.push('', r.runs.map((run) => `- **${run.variant.name}**: ${run.variant.description}. Ingest: ${int(run.turns)} turns in ${(run.ingestMs / 1000).toFixed(1)} s.`).join('\n'));
  out.push('', '## By kind of fact (ranked first: current / as of)', '');
  const shapes = [...new Set(r.personas.flatMap((p) => p.timelines.map((t) => t.shape)))].sort() as Shape[];
  const shapeOf = (o: Outcome) => o.question.timeline.split('/')[1] as Shape;
  const rows = shapes.map((s) => [s, ...r.runs.map((run) => {
    const os = run.outcomes.filter((o) => shapeOf(o) === s);
    return `${share(os.filter(cur), first)} / ${share(os.filter(asOf), first)}`;
  })]);
  rows.push(['older fact captured late', ...r.runs.map((run) => {
    const os = run.outcomes.filter((o) => lateIds.has(o.question.timeline));
    return `${share(os.filter(cur), first)} / ${share(os.filter(asOf), first)}`;
  })]);
  out.push(table(['fact', ...r.runs.map((run) => run.variant.name)], rows));
  const knowledge = r.runs.find((run) => run.variant.name === 'knowledge');
  const misses = knowledge?.outcomes.filter((o) => !first(o)).slice(0, 8) ?? [];
  if (misses.length) {
    out.push('', '## A few misses of the knowledge variant', '');
    out.push(table(['question', 'expected', 'first value named'], misses.map((o) => [`${o.question.text} (${o.question.persona})`, o.question.answer, o.first ?? '(none)'])));
  }
  return out.join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
