// `npm run bench:consolidate`: a year of synthetic agent history (bench/consolidate-gen.ts, 100
// turns a day: sessions of coding, ops, research and chat, nights, heartbeats, acknowledgements,
// decisions that change, recurring projects, a few German and Japanese days) ingested through the
// real path (generic JSONL via `Cairn.ingest`, heuristic judge, no embedder: consolidation reads no
// vectors, and embedding a year would time the embedder, see bench:capture), then consolidated the
// way `cairn consolidate` does it with no flag (the catch-up: every day due), run again (nothing
// changed: nothing written), and once more after one late turn (the incremental run).
//
//   npm run bench:consolidate -- [--days 365] [--seed 7] [--keep]
//
// `--days 30` is the quick run. Ingest and consolidation each run in a child process (clean peak
// RSS). Results: printed, and written to bench/results/consolidate.md (and .json) for the year
// (the default scale), or consolidate-<days>d.md for another.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Cairn } from '../src/service/cairn.js';
import { addDay, writeHistory, zonedToUtc, type HistoryStats } from './consolidate-gen.js';
import { runPhase, dist, int, mb, pct, table, type Dist } from './stats.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_DIR = join(HERE, 'results');
const NAMESPACE = 'work';
const TIME_ZONE = 'Europe/Berlin';
const START = '2025-01-01';
const YEAR = 365;
const MEMORY_MD_MAX_LINES = 150;

function log(msg: string): void {
  process.stderr.write(`[consolidate-bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}
const now = (): number => performance.now();
const peakRss = (): number => process.resourceUsage().maxRSS * 1024;
function argValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}
const config = { timezone: TIME_ZONE, embedder: { provider: 'none' as const } };

// ---------------------------------------------------------------------------------------------
// Phases

interface IngestResult {
  turns: number;
  memories: number;
  ms: number;
  rssPeak: number;
}

async function phaseIngest(p: { file: string; home: string }): Promise<IngestResult> {
  const cairn = await Cairn.open({ home: p.home, config, embedder: null });
  const t0 = now();
  const res = await cairn.ingest([p.file], { format: 'jsonl', namespace: NAMESPACE });
  const ms = now() - t0;
  if (res.warning) throw new Error(`ingest warning: ${res.warning}`);
  await cairn.close();
  const db = new Database(join(p.home, 'cairn.db'), { readonly: true });
  const memories = (db.prepare("SELECT count(*) AS n FROM entries WHERE kind = 'memory'").get() as { n: number }).n;
  db.close();
  return { turns: res.turnsInserted, memories, ms, rssPeak: peakRss() };
}

interface RunFigures {
  ms: number;
  written: number;
  unchanged: number;
  days: number;
  weeks: number;
}

interface ConsolidateResult {
  full: RunFigures & { perDay: Dist; perWeek: Dist; navigationMs: number; daysMs: number; weeksMs: number };
  again: RunFigures & { filesTouched: number };
  late: RunFigures & { changedPaths: string[] };
  files: FileFigures;
  /** sha256 over every file's path and bytes after the catch-up: equal for one ingested home, whatever the runner's speed. */
  filesSha256: string;
  db: { before: DbSizes; after: DbSizes; fileBytes: number };
  rssPeak: number;
}

interface FileFigures {
  total: number;
  count: number;
  byKind: Record<string, { count: number; total: number; sizes: Dist }>;
  memoryMdLines: number;
  topics: number;
}

/** Bytes SQLite holds per group of tables (dbstat: pages of each table and index). */
interface DbSizes {
  digests: number;
  entries: number;
  total: number;
}

function dbSizes(home: string): DbSizes {
  const db = new Database(join(home, 'cairn.db'));
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const rows = db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all() as Array<{ name: string; bytes: number }>;
    const owner = (name: string): string => {
      const table = db.prepare("SELECT tbl_name FROM sqlite_master WHERE name = ?").get(name) as { tbl_name: string } | undefined;
      return table?.tbl_name ?? name;
    };
    const sizes: DbSizes = { digests: 0, entries: 0, total: 0 };
    for (const r of rows) {
      const t = owner(r.name);
      sizes.total += r.bytes;
      if (t.startsWith('digest')) sizes.digests += r.bytes;
      else if (t.startsWith('entries')) sizes.entries += r.bytes;
    }
    return sizes;
  } finally {
    db.close();
  }
}

/** The files the pyramid is made of (raw/ is capture's realtime view), with their kind. */
function pyramidFiles(nsDir: string): Array<{ path: string; kind: string; bytes: number; mtimeMs: number }> {
  const out: Array<{ path: string; kind: string; bytes: number; mtimeMs: number }> = [];
  const kindOf = (rel: string): string | null => {
    if (rel === 'MEMORY.md') return 'memory';
    if (rel.startsWith('daily/')) return rel.endsWith('-last-night.md') ? 'night' : 'daily';
    if (rel.startsWith('reviews/')) return 'review';
    if (rel.startsWith('weekly/')) return 'weekly';
    if (rel.startsWith('topics/')) return 'topic';
    return null;
  };
  const walk = (dir: string, prefix: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (rel !== 'raw' && !e.name.startsWith('.')) walk(join(dir, e.name), rel);
        continue;
      }
      const kind = kindOf(rel);
      if (!kind || !rel.endsWith('.md')) continue;
      const st = statSync(join(dir, e.name));
      out.push({ path: rel, kind, bytes: st.size, mtimeMs: st.mtimeMs });
    }
  };
  if (existsSync(nsDir)) walk(nsDir, '');
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

function figuresOf(files: ReturnType<typeof pyramidFiles>, nsDir: string): FileFigures {
  const byKind: FileFigures['byKind'] = {};
  for (const kind of ['daily', 'night', 'review', 'weekly', 'topic', 'memory']) {
    const sizes = files.filter((f) => f.kind === kind).map((f) => f.bytes);
    byKind[kind] = { count: sizes.length, total: sizes.reduce((a, b) => a + b, 0), sizes: dist(sizes) };
  }
  const md = join(nsDir, 'MEMORY.md');
  const memoryMdLines = existsSync(md) ? readFileSync(md, 'utf8').replace(/\n$/, '').split('\n').length : 0;
  return { total: files.reduce((a, f) => a + f.bytes, 0), count: files.length, byKind, memoryMdLines, topics: byKind.topic!.count };
}

async function timedRun(cairn: Cairn, at: string, onLabel?: (label: string, t: number) => void) {
  const t0 = now();
  const res = await cairn.consolidate({ namespace: NAMESPACE, at, onProgress: (_ns, _done, _total, label) => onLabel?.(label, now()) });
  const ms = now() - t0;
  const report = res.namespaces[0]!;
  const written = report.files.filter((f) => f.changed);
  return { ms, report, figures: { ms, written: written.length, unchanged: report.files.length - written.length, days: report.days.length, weeks: report.weeks.length } };
}

async function phaseConsolidate(p: { home: string; file: string; at: string; lateDay: string }): Promise<ConsolidateResult> {
  const nsDir = join(p.home, NAMESPACE);
  const before = dbSizes(p.home);
  const cairn = await Cairn.open({ home: p.home, config, embedder: null });
  try {
    // 1. The catch-up: every day of the history is due.
    const marks: Array<{ label: string; t: number }> = [];
    const full = await timedRun(cairn, p.at, (label, t) => marks.push({ label, t }));
    const span = (i: number): number => (marks[i + 1]?.t ?? marks[i]!.t) - marks[i]!.t;
    const dayMs: number[] = [];
    const weekMs: number[] = [];
    let navigationMs = 0;
    marks.forEach((m, i) => {
      if (/^\d{4}-\d{2}-\d{2}$/.test(m.label)) dayMs.push(span(i));
      else if (/^\d{4}-W\d{2}$/.test(m.label)) weekMs.push(span(i));
      else if (m.label === 'MEMORY.md') navigationMs = span(i);
    });
    log(`catch-up: ${full.figures.days} days, ${full.figures.weeks} weeks, ${full.figures.written} files written in ${(full.ms / 1000).toFixed(1)} s`);
    const files = pyramidFiles(nsDir);
    const hash = createHash('sha256');
    for (const f of files) hash.update(`${f.path}\n`).update(readFileSync(join(nsDir, f.path))).update('\n');
    const filesSha256 = hash.digest('hex');

    // 2. Nothing changed: nothing is written.
    const again = await timedRun(cairn, p.at);
    const touched = pyramidFiles(nsDir).filter((f, i) => f.mtimeMs !== files[i]?.mtimeMs).length;
    log(`second run: ${again.figures.written} written, ${touched} files touched, ${again.ms.toFixed(0)} ms`);

    // 3. One turn arrives late, for a day long past: only its day, review, week and what depends on them change.
    appendFileSync(p.file, JSON.stringify({ role: 'user', content: 'Late note: we decided to keep the Heron API staging database on port 5433 after all, the migration is off.', timestamp: new Date(zonedToUtc(p.lateDay, 15 * 60 + 7, TIME_ZONE)).toISOString(), id: `${p.lateDay}-late`, session: `${p.lateDay}-s0` }) + '\n');
    const ingested = await cairn.ingest([p.file], { format: 'jsonl', namespace: NAMESPACE });
    if (ingested.turnsInserted !== 1) throw new Error(`late turn: ${ingested.turnsInserted} turns inserted`);
    const late = await timedRun(cairn, p.at);
    const changedPaths = late.report.files.filter((f) => f.changed).map((f) => f.path);
    log(`late turn: ${late.figures.written} written (${changedPaths.join(', ')}), ${late.ms.toFixed(0)} ms`);
    await cairn.close();
    const after = dbSizes(p.home);
    const fileBytes = statSync(join(p.home, 'cairn.db')).size;
    return {
      full: {
        ...full.figures, perDay: dist(dayMs), perWeek: dist(weekMs), navigationMs,
        daysMs: dayMs.reduce((a, b) => a + b, 0), weeksMs: weekMs.reduce((a, b) => a + b, 0),
      },
      again: { ...again.figures, filesTouched: touched },
      late: { ...late.figures, changedPaths },
      files: figuresOf(files, nsDir),
      filesSha256,
      db: { before, after, fileBytes },
      rssPeak: peakRss(),
    };
  } catch (err) {
    await cairn.close();
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Driver

function phaseOf<T>(phase: string, params: Record<string, unknown>): Promise<T> {
  return runPhase<T>(fileURLToPath(import.meta.url), phase, params, process.execArgv);
}

interface Report {
  meta: Record<string, unknown>;
  history: HistoryStats & { seed: number; start: string; timeZone: string };
  ingest: IngestResult;
  consolidate: ConsolidateResult;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const phase = argValue(args, '--phase');
  if (phase) {
    const params = JSON.parse(argValue(args, '--params')!);
    const result = phase === 'ingest' ? await phaseIngest(params) : phase === 'consolidate' ? await phaseConsolidate(params) : null;
    if (!result) throw new Error(`unknown phase ${phase}`);
    writeFileSync(argValue(args, '--out')!, JSON.stringify(result));
    return;
  }
  const days = Number(argValue(args, '--days') ?? YEAR);
  const seed = Number(argValue(args, '--seed') ?? 7);
  if (!Number.isSafeInteger(days) || days < 8 || days > 3660) throw new Error(`bad --days: ${days} (8 to 3660)`);
  if (!Number.isSafeInteger(seed)) throw new Error(`bad --seed: ${seed}`);
  const keep = args.includes('--keep');
  const wall0 = now();
  const load0 = loadavg()[0]!;
  const root = mkdtempSync(join(tmpdir(), 'cairn-consbench-'));
  try {
    const file = join(root, 'history.jsonl');
    const history = await writeHistory(file, { days, start: START, timeZone: TIME_ZONE, seed });
    log(`generated ${days} days, ${int(history.turns)} turns (${mb(history.bytes)}): ${file}`);
    const home = join(root, 'home');
    mkdirSync(home);
    const ingest = await phaseOf<IngestResult>('ingest', { file, home });
    log(`ingest: ${int(ingest.turns)} turns, ${int(ingest.memories)} memories in ${(ingest.ms / 1000).toFixed(1)} s`);
    // As of 08:00 the morning after the last day: every job of every day is due.
    const at = new Date(zonedToUtc(addDay(START, days), 8 * 60, TIME_ZONE)).toISOString();
    const lateDay = addDay(START, Math.floor(days / 2));
    const consolidate = await phaseOf<ConsolidateResult>('consolidate', { home, file, at, lateDay });
    const report: Report = {
      meta: {
        date: new Date().toISOString(), node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '?',
        memGiB: Math.round(totalmem() / 2 ** 30), load: { start: load0, end: loadavg()[0]! }, wallS: Math.round((now() - wall0) / 1000), args, at, lateDay,
      },
      history: { ...history, seed, start: START, timeZone: TIME_ZONE },
      ingest,
      consolidate,
    };
    const name = days === YEAR ? 'consolidate' : `consolidate-${days}d`;
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(join(RESULTS_DIR, `${name}.json`), JSON.stringify(report, null, 2) + '\n');
    const md = render(report);
    writeFileSync(join(RESULTS_DIR, `${name}.md`), md + '\n');
    process.stdout.write(md + '\n');
    log(`wrote ${join(RESULTS_DIR, `${name}.md`)} and ${name}.json`);
  } finally {
    if (keep) log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const s1 = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const msp = (d: Dist): string => (d.n ? `${d.p50.toFixed(0)} / ${d.p95.toFixed(0)} ms` : 'n/a');
const kb = (b: number): string => `${(b / 1024).toFixed(1)} KiB`;

function render(r: Report): string {
  const m = r.meta;
  const h = r.history;
  const c = r.consolidate;
  const load = m.load as { start: number; end: number };
  const out: string[] = ['# Cairn consolidation bench', ''];
  out.push(
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.memGiB} GiB RAM, Node ${m.node}. Run ${m.date} (wall ${m.wallS} s; load average ` +
      `${load.start.toFixed(1)} → ${load.end.toFixed(1)}). Command: \`npm run bench:consolidate${(m.args as string[]).length ? ` -- ${(m.args as string[]).join(' ')}` : ''}\`.`,
    '',
    `History: ${h.days} days from ${h.start} (${h.timeZone}), bench/consolidate-gen.ts seed ${h.seed}: ${int(h.turns)} turns (${mb(h.bytes)} of generic JSONL), ` +
      `${pct(h.nightTurns / h.turns)} in the night window (22:00–07:00), ${int(h.noiseTurns)} heartbeats and acknowledgements, ${int(h.decisions)} decisions (some changed later), ` +
      `${h.foreignDays} German or Japanese days; by activity ${Object.entries(h.byActivity).map(([k, v]) => `${k} ${int(v)}`).join(', ')}.`,
    '',
    `Ingest (generic JSONL through \`Cairn.ingest\`, heuristic judge, no embedder — consolidation reads no vectors): ${int(r.ingest.turns)} turns → ` +
      `${int(r.ingest.memories)} memories in ${s1(r.ingest.ms)}. Consolidated as of ${m.at}, the way \`cairn consolidate\` with no flag does it.`,
    '',
    '## Time',
    '',
  );
  const f = c.full;
  out.push(table(['run', 'time', 'files written', 'unchanged', 'detail'], [
    [`catch-up: ${f.days} days, ${f.weeks} weeks, topics, MEMORY.md`, `**${s1(f.ms)}**`, int(f.written), int(f.unchanged), `days ${s1(f.daysMs)}, weeks ${s1(f.weeksMs)}, topics + MEMORY.md ${f.navigationMs.toFixed(0)} ms`],
    ['  per day (its note, night note, review) p50 / p95', msp(f.perDay), '', '', `${(f.daysMs / Math.max(1, f.days)).toFixed(0)} ms mean`],
    ['  per week (the distill) p50 / p95', msp(f.perWeek), '', '', `a week of history costs ${s1((f.daysMs / Math.max(1, f.days)) * 7 + f.weeksMs / Math.max(1, f.weeks))}`],
    ['second run, nothing changed', `**${c.again.ms.toFixed(0)} ms**`, int(c.again.written), int(c.again.unchanged), `${c.again.filesTouched} files touched on disk`],
    [`one late turn on ${m.lateDay}`, `**${c.late.ms.toFixed(0)} ms**`, int(c.late.written), int(c.late.unchanged), c.late.changedPaths.join(', ')],
  ]));
  out.push('', '## Files', '');
  const fi = c.files;
  out.push(table(['kind', 'files', 'total', 'p50 / p95 size'], [
    ...Object.entries(fi.byKind).map(([k, v]) => [k, int(v.count), kb(v.total), v.count ? `${kb(v.sizes.p50)} / ${kb(v.sizes.p95)}` : 'n/a']),
    ['**all**', int(fi.count), kb(fi.total), ''],
  ]));
  out.push('', `MEMORY.md: ${fi.memoryMdLines} lines (limit ${MEMORY_MD_MAX_LINES}: ${fi.memoryMdLines <= MEMORY_MD_MAX_LINES ? 'kept' : 'EXCEEDED'}). ${fi.topics} topic pages. sha256 of all files after the catch-up: \`${c.filesSha256.slice(0, 16)}…\` (ids are minted at ingest: it compares runs over one ingested home, e.g. before and after a change to the runner).`);
  out.push('', '## Memory and database', '');
  const d = c.db;
  out.push(table(['what', 'value'], [
    ['peak RSS: ingest / consolidation (three runs)', `${mb(r.ingest.rssPeak)} / ${mb(c.rssPeak)}`],
    ['database growth from consolidation: digests (rows, sources, indexes)', kb(d.after.digests - d.before.digests)],
    ['database growth from consolidation: entries (digests are indexed too: rows, FTS)', kb(d.after.entries - d.before.entries)],
    ['database total before / after', `${mb(d.before.total)} / ${mb(d.after.total)}`],
  ]));
  return out.join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
