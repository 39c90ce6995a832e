// Search over transcripts (part of `npm run bench`): LoCoMo itself (5,882 chat turns, 10
// conversations, the real use-lite model for turns and queries), 50k generated chat turns in
// sessions, and long agent messages (1–5k characters). Each corpus runs in its own process; per
// search it records wall and CPU time (process.cpuUsage: every thread of the process, the query
// embedding included) for default hybrid and BM25 alone, with the current neighbour lookup and
// with the one it replaced (bench/baseline-neighbours.ts), each on a Cairn of its own, alternating
// query by query, after 100 warm-up searches (timeMode).
//
//   node --import tsx bench/transcript-bench.ts [--corpora locomo,chat50k,agent] [--queries 200: per lookup]
//     [--locomo <locomo10.json>] [--profile <dir>: a .cpuprofile of each corpus's searches per mode]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';
import { Cairn } from '../src/service/cairn.js';
import type { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Embedder } from '../src/embed/embedder.js';
import type { NewTurn } from '../src/core/types.js';
import { SCHEMA_VERSION } from '../src/store/sqlite/migrations.js';
import { UseLiteEmbedder } from '../src/embed/use-lite.js';
import { loadLocomo } from './eval/locomo/dataset.js';
import { namespaceOf, turnContent } from './eval/locomo/transcripts.js';
import { baselineTurnNeighbours } from './baseline-neighbours.js';
import { Corpus, generateQueries } from './corpus.js';
import { SyntheticEmbedder } from './synthetic-embedder.js';
import { agentTranscript, chatTranscript, type TranscriptCorpus } from './transcript-gen.js';
import { dist, int, mark, pair, runPhase, table, type Dist } from './stats.js';

const SCRIPT = fileURLToPath(import.meta.url);
/** Where the other LoCoMo benches look for the dataset (a clone's sibling `shared` folder). */
export const DEFAULT_LOCOMO = '../shared/bench/data/locomo10.json';
const LIMIT = 10;
/**
 * Searches asked before the timed ones, none of them a timed query (as in bench/search-ab.ts): the
 * timed queries then meet a process that has served searches, as a daemon's or an MCP server's
 * do. V8 compiles a search's hot functions over its first hundred or so calls, on threads whose
 * CPU the columns count; that is the process's start, not a search's cost. The warm-up's own CPU
 * is reported beside the timed searches. Before 2026-11-28 the warm-up was the first 10 timed
 * queries themselves (each then asked again, timed, with its vector and postings cached).
 */
const WARMUP = 100;
const BATCH = 1000;

export const TRANSCRIPT_CORPORA = ['locomo', 'chat50k', 'agent'] as const;
export type TranscriptCorpusName = (typeof TRANSCRIPT_CORPORA)[number];

/** Goals of issue 29 (CPU ms per search, p95): LoCoMo with the query embedding, 50k turns hybrid. */
const TARGETS: Partial<Record<TranscriptCorpusName, number>> = { locomo: 15, chat50k: 25 };

export interface Timing {
  wall: Dist;
  cpu: Dist;
}

export interface TranscriptResult {
  name: TranscriptCorpusName;
  description: string;
  date: string;
  load: { start: number; end: number };
  turns: number;
  sessions: number;
  meanChars: number;
  queries: number;
  buildS: number;
  modes: Record<'hybrid' | 'bm25', { current: Timing; baseline: Timing; warmup?: Dist }>;
  notes: string[];
}

interface Built {
  cairn: Cairn;
  /** Another Cairn over the same home (its own store, connection and caches): the baseline lookup's. */
  reopen: () => Promise<Cairn>;
  queries: Array<{ text: string; namespace: string }>;
  /** Asked before the timed queries, none of them one of those (WARMUP). */
  warmups: Array<{ text: string; namespace: string }>;
  turns: number;
  sessions: number;
  meanChars: number;
  description: string;
  cleanup: () => void;
}

const now = (): number => performance.now();
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
function log(msg: string): void {
  process.stderr.write(`[transcripts ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

async function addAll(cairn: Cairn, turns: readonly NewTurn[]): Promise<void> {
  for (let i = 0; i < turns.length; i += BATCH) await cairn.store.addTurns(turns.slice(i, i + BATCH));
}

/**
 * LoCoMo with the real model, kept between runs (embedding 5,882 turns takes minutes): the home
 * is rebuilt when the dataset, the schema or the model changes.
 */
async function buildLocomo(queryCount: number, path: string): Promise<Built> {
  const conversations = loadLocomo(path);
  if (!conversations) throw new Error(`LoCoMo not found at ${path} (--locomo <path>)`);
  const embedder = new UseLiteEmbedder();
  const info = await embedder.init();
  const key = createHash('sha256').update(JSON.stringify([statSync(path).size, SCHEMA_VERSION, info.modelId])).digest('hex').slice(0, 12);
  const home = join(tmpdir(), 'cairn-bench-locomo', key);
  const ready = join(home, 'ready');
  if (!existsSync(ready)) {
    rmSync(home, { recursive: true, force: true });
    mkdirSync(home, { recursive: true });
    const cairn = await Cairn.open({ home, embedder, config: {} });
    log(`locomo: ingesting and embedding ${conversations.length} conversations with ${info.modelId} (kept in ${home})`);
    for (const conv of conversations) {
      const namespace = namespaceOf(conv);
      await addAll(cairn, conv.turns.map((t) => ({ namespace, sessionId: t.sessionId, messageId: t.diaId, role: 'user', speaker: t.speaker, text: turnContent(t), timestamp: t.timestamp, meta: {} })));
      await cairn.embedPending({ namespace });
    }
    await cairn.close();
    writeFileSync(ready, new Date().toISOString());
  }
  const cairn = await Cairn.open({ home, embedder, config: {} });
  const all = conversations.flatMap((c) => c.questions.map((q) => ({ text: q.question, namespace: namespaceOf(c) })));
  const step = Math.max(1, all.length / queryCount);
  const queries = Array.from({ length: Math.min(queryCount, all.length) }, (_, k) => all[Math.floor(k * step)]!);
  const timed = new Set(queries);
  const rest = all.filter((q) => !timed.has(q));
  const warmupStep = Math.max(1, rest.length / WARMUP);
  const warmups = Array.from({ length: Math.min(WARMUP, rest.length) }, (_, k) => rest[Math.floor(k * warmupStep)]!);
  const turns = conversations.flatMap((c) => c.turns);
  return {
    cairn,
    reopen: () => Cairn.open({ home, embedder, config: {} }),
    queries,
    warmups,
    turns: turns.length,
    sessions: conversations.reduce((n, c) => n + new Set(c.turns.map((t) => t.sessionId)).size, 0),
    meanChars: Math.round(turns.reduce((n, t) => n + turnContent(t).length, 0) / turns.length),
    description: `LoCoMo (${conversations.length} conversations, one namespace each), turns and queries embedded by ${info.modelId}; its questions`,
    cleanup: () => undefined,
  };
}

/** A generated corpus with synthetic vectors (the real model would take hours at 50k turns). */
async function buildGenerated(name: 'chat50k' | 'agent', queryCount: number, seed: number): Promise<Built> {
  const corpus = new Corpus({ seed });
  const namespace = 'default';
  const count = name === 'chat50k' ? 50_000 : 5_000;
  const made: TranscriptCorpus = name === 'chat50k' ? chatTranscript(corpus, count, namespace, seed + 3) : agentTranscript(corpus, count, namespace, seed + 3);
  const root = mkdtempSync(join(tmpdir(), `cairn-bench-${name}-`));
  const embedder: Embedder = new SyntheticEmbedder({ lexicon: corpus.lexicon() });
  const open = () => Cairn.open({ home: join(root, 'home'), embedder, config: {} });
  const cairn = await open();
  log(`${name}: storing and embedding ${int(made.turns.length)} turns in ${int(made.sessions)} sessions`);
  await addAll(cairn, made.turns);
  await cairn.embedPending({ namespace });
  // The first queryCount are the same whatever WARMUP is (the generator is sequential).
  const asked = generateQueries(corpus, queryCount + WARMUP, count, seed + 1).map((q) => ({ text: q.text, namespace }));
  const queries = asked.slice(0, queryCount);
  const timed = new Set(queries.map((q) => q.text));
  return {
    cairn,
    reopen: open,
    queries,
    warmups: asked.slice(queryCount).filter((q) => !timed.has(q.text)),
    turns: made.turns.length,
    sessions: made.sessions,
    meanChars: Math.round(made.turns.reduce((n, t) => n + t.text.length, 0) / made.turns.length),
    description:
      name === 'chat50k'
        ? 'generated chat turns (bench/transcript-gen.ts), sessions of 8–40 turns among 2–4 people, synthetic vectors; queries about random turns'
        : 'generated agent work: short requests, answers of 1–5k characters (code, paths, errors), tool output; synthetic vectors; queries about random messages',
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * Times each lookup on its own Cairn over the home, on half of the queries each (alternating, so
 * load on the machine falls on both alike): every timed search is the process's first asking of
 * its query, its query vector, postings, entries, vectors and text analysis not yet cached. Until
 * 2026-11-28 each query was asked of one instance with both lookups in turn, so half of the timed
 * searches found the other's caches. Then, untimed, each query is asked of the other lookup too:
 * the queries answered differently are counted.
 */
async function timeMode(built: Built, other: Cairn, mode: 'hybrid' | 'bm25'): Promise<{ current: Timing; baseline: Timing; warmup: Dist; differing: number }> {
  const store = other.store as SqliteStore;
  (store as unknown as Record<string, unknown>).turnNeighbours = (ns: string, ids: readonly string[], radius: number) => Promise.resolve(baselineTurnNeighbours(store.db, ns, ids, radius));
  const search = async (cairn: Cairn, q: { text: string; namespace: string }) => {
    const c0 = cpuMs();
    const t0 = now();
    const res = await cairn.search(q.text, { mode, limit: LIMIT, namespace: q.namespace });
    const wall = now() - t0;
    const cpu = cpuMs() - c0;
    return { wall, cpu, ids: res.results.map((r) => `${r.id}:${r.context.length}`).join(',') };
  };
  try {
    const warm: number[] = [];
    for (const q of built.warmups) {
      warm.push((await search(built.cairn, q)).cpu);
      await search(other, q);
    }
    const times = { current: { wall: [] as number[], cpu: [] as number[] }, baseline: { wall: [] as number[], cpu: [] as number[] } };
    const answers: string[] = [];
    for (let j = 0; j < built.queries.length; j++) {
      const r = await search(j % 2 === 0 ? built.cairn : other, built.queries[j]!);
      const into = j % 2 === 0 ? times.current : times.baseline;
      into.wall.push(r.wall);
      into.cpu.push(r.cpu);
      answers.push(r.ids);
    }
    let differing = 0;
    for (let j = 0; j < built.queries.length; j++) if ((await search(j % 2 === 0 ? other : built.cairn, built.queries[j]!)).ids !== answers[j]) differing++;
    const timing = (t: { wall: number[]; cpu: number[] }): Timing => ({ wall: dist(t.wall), cpu: dist(t.cpu) });
    return { current: timing(times.current), baseline: timing(times.baseline), warmup: dist(warm), differing };
  } finally {
    delete (store as unknown as Record<string, unknown>).turnNeighbours;
  }
}

/** A CPU profile of what runs until the returned function is called (its JSON). */
async function startProfile(): Promise<() => Promise<string>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    return JSON.stringify(profile);
  };
}

async function runCorpus(name: TranscriptCorpusName, queryCount: number, seed: number, locomo: string, profile?: string): Promise<TranscriptResult> {
  const load0 = loadavg()[0]!;
  const t0 = now();
  // Each lookup is timed on queryCount queries of its own (timeMode).
  const built = name === 'locomo' ? await buildLocomo(2 * queryCount, locomo) : await buildGenerated(name, 2 * queryCount, seed);
  const buildS = (now() - t0) / 1000;
  const notes: string[] = [];
  const other = await built.reopen();
  try {
    // The first search builds or loads the ANN index: not a search's cost (a warm-up query: the
    // timed ones stay new to both instances).
    for (const c of [built.cairn, other]) await c.search(built.warmups[0]!.text, { namespace: built.warmups[0]!.namespace, limit: LIMIT });
    const modes = {} as TranscriptResult['modes'];
    for (const mode of ['hybrid', 'bm25'] as const) {
      const stop = profile ? await startProfile() : null;
      const r = await timeMode(built, other, mode);
      if (stop) writeFileSync(join(profile!, `${name}-${mode}.cpuprofile`), await stop());
      modes[mode] = { current: r.current, baseline: r.baseline, warmup: r.warmup };
      if (r.differing) notes.push(`${mode}: ${r.differing} of ${built.queries.length} queries got other results with the baseline lookup`);
      log(`${name} ${mode}: CPU p50/p95 ${pair(r.current.cpu)} (baseline ${pair(r.baseline.cpu)})`);
    }
    return { name, description: built.description, date: new Date().toISOString(), load: { start: load0, end: loadavg()[0]! }, turns: built.turns, sessions: built.sessions, meanChars: built.meanChars, queries: queryCount, buildS, modes, notes };
  } finally {
    await other.close();
    await built.cairn.close();
    built.cleanup();
  }
}

/** Runs each corpus in a child process (clean RSS, no state shared between corpora). */
export async function runTranscriptBench(options: { corpora?: readonly TranscriptCorpusName[]; queries?: number; seed?: number; locomo?: string; profile?: string } = {}): Promise<TranscriptResult[]> {
  const out: TranscriptResult[] = [];
  const locomo = resolve(options.locomo ?? DEFAULT_LOCOMO);
  for (const name of options.corpora ?? TRANSCRIPT_CORPORA) {
    if (name === 'locomo' && !existsSync(locomo)) {
      log(`skipping locomo: no dataset at ${locomo} (--locomo <path>)`);
      continue;
    }
    log(`=== ${name} ===`);
    out.push(await runPhase<TranscriptResult>(SCRIPT, name, { queries: options.queries ?? 200, seed: options.seed ?? 42, locomo, ...(options.profile ? { profile: resolve(options.profile) } : {}) }));
  }
  return out;
}

export function renderTranscripts(results: readonly TranscriptResult[]): string {
  const parts = [
    '## Search over transcripts',
    '',
    'In process, limit 10, default ranking. CPU is the process\'s CPU time per search (all threads; the query embedding',
    'included), the figure that holds on a loaded machine; wall time is beside it. "baseline" is the neighbour lookup',
    'before issue 29 (bench/baseline-neighbours.ts: two queries per hit), on a second Cairn over the same home in the',
    'same run; everything else (coverage, keyword search, speakers) is the current code in both columns. Before the',
    `timed queries, ${WARMUP} others are asked of both (none of them a timed one): a process that has served searches,`,
    "as a daemon's does; their CPU (the current lookup's) is the last column. Each lookup is then timed on queries of",
    'its own (alternating; each asked once in the process), the queries column counting those of one lookup.',
    '',
  ];
  for (const r of results) {
    const target = TARGETS[r.name];
    const rows = (['hybrid', 'bm25'] as const).map((mode) => {
      const m = r.modes[mode];
      const ok = mode === 'hybrid' && target !== undefined ? `p95 ≤ ${target} ms ${mark(m.current.cpu.p95 <= target)}` : '';
      const warm = m.warmup ? `${pair(m.warmup)} (${m.warmup.n})` : 'not recorded';
      return [mode === 'hybrid' ? 'default hybrid' : 'BM25 alone', pair(m.current.cpu), pair(m.baseline.cpu), pair(m.current.wall), pair(m.baseline.wall), ok, warm];
    });
    parts.push(
      `### ${r.name}: ${int(r.turns)} turns in ${int(r.sessions)} sessions, mean ${int(r.meanChars)} chars (${r.queries} queries; run ${r.date.slice(0, 16).replace('T', ' ')} UTC, load ${r.load.start.toFixed(1)} → ${r.load.end.toFixed(1)})`,
      '',
      `${r.description}. Built in ${r.buildS.toFixed(0)} s.`,
      '',
      table(['search', 'CPU p50 / p95', 'baseline CPU p50 / p95', 'wall p50 / p95', 'baseline wall p50 / p95', 'goal (CPU)', 'warm-up searches, CPU p50 / p95'], rows),
      ...(r.notes.length ? ['', ...r.notes.map((n) => `- note: ${n}`)] : []),
      '',
    );
  }
  return parts.join('\n');
}

function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const phase = argValue(args, '--phase');
  if (phase !== undefined) {
    const params = JSON.parse(argValue(args, '--params') ?? '{}') as { queries: number; seed: number; locomo: string; profile?: string };
    if (!(TRANSCRIPT_CORPORA as readonly string[]).includes(phase)) throw new Error(`unknown corpus ${phase}`);
    writeFileSync(argValue(args, '--out')!, JSON.stringify(await runCorpus(phase as TranscriptCorpusName, params.queries, params.seed, params.locomo, params.profile)));
    return;
  }
  const corpora = (argValue(args, '--corpora')?.split(',') ?? [...TRANSCRIPT_CORPORA]) as TranscriptCorpusName[];
  const results = await runTranscriptBench({ corpora, queries: Number(argValue(args, '--queries') ?? 200), seed: Number(argValue(args, '--seed') ?? 42), locomo: argValue(args, '--locomo'), profile: argValue(args, '--profile') });
  process.stdout.write(renderTranscripts(results) + '\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => {
    process.stderr.write(`transcript bench failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  });
}
