// Search CPU of this tree against another commit's, in one run on the same homes: each query is
// asked of both, in alternating order, so load on the machine falls on both columns alike. Counts
// the queries whose results differ (ids, order, scores): a speed change meant to be order-neutral
// must show none.
//
//   node --import tsx bench/search-ab.ts --base <rev> [--corpora locomo,chat50k,mem100k]
//     [--queries 200] [--warmup 100] [--size <turns or memories of a generated corpus>] [--locomo <locomo10.json>] [--locomo-home <a home of LoCoMo built before>]
//     [--home <dir>: the one generated corpus named is stored there once, then reused by runs with the same --size; never removed]
//     [--capture-between: a turn is added to the namespace before every timed search, as a daemon
//      captures while an agent searches; both trees then search copies of the home]
//
// locomo: LoCoMo's 5,882 turns with the real model, its questions (query embedding included, each
// tree with its own model: a base stores the home it builds with its own);
// chat50k: 50k generated chat turns in sessions (bench/transcript-gen.ts), synthetic vectors;
// mem100k: 100k standalone memories (bench/corpus.ts), synthetic vectors (query embedding ~0).
// The base commit's src/ is exported to a temporary folder and imported from there.
// Before the timed queries, one search per namespace warms that namespace's caches (vector index
// catch-up, entry and turn caches); its CPU is reported on its own ("first search per namespace").
// Then --warmup other queries (none of them a timed one) are asked of both trees, so the timed
// ones meet a process that has served searches, as a daemon or an MCP server does: V8 compiles a
// search's hot functions over its first hundred or so calls (~190 optimised compilations in the
// first 200 LoCoMo searches, on threads of their own, whose CPU the columns count), which is the
// process's start, not a search's cost. The warm-up's own CPU is reported too ("warm-up
// searches"). The timed queries are still each asked for the first time: their terms' postings,
// their candidates' entries and vectors are read as a new query's are.
// The tree asked first may also pay for what it leaves on disk for both (an HNSW index it builds
// and saves): compare first searches only on a home whose index is already saved.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Cairn as CairnType } from '../src/service/cairn.js';
import { Cairn } from '../src/service/cairn.js';
import type { Embedder } from '../src/embed/embedder.js';
import { UseLiteEmbedder } from '../src/embed/use-lite.js';
import { loadLocomo } from './eval/locomo/dataset.js';
import { namespaceOf, turnContent } from './eval/locomo/transcripts.js';
import { Corpus, generateQueries } from './corpus.js';
import { SyntheticEmbedder } from './synthetic-embedder.js';
import { chatTranscript } from './transcript-gen.js';
import { dist, pair, table, type Dist } from './stats.js';
import { DEFAULT_LOCOMO } from './transcript-bench.js';
import { exportBase } from './base-tree.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LIMIT = 10;
const WARMUP = 100;
const BATCH = 1000;

interface Home {
  home: string;
  embedder: Embedder;
  /** The base tree's own model, where the model is part of what is compared (LoCoMo's use-lite). */
  baseEmbedder?: Embedder;
  queries: Array<{ text: string; namespace: string }>;
  /** Asked before the timed queries (see the header), none of them one of those. */
  warmups: Array<{ text: string; namespace: string }>;
  label: string;
  cleanup: () => void;
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const log = (msg: string) => process.stderr.write(`[search-ab ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

async function locomoHome(path: string, count: number, warmup: number, BuildCairn: typeof Cairn, BaseUseLite: typeof UseLiteEmbedder, built?: string): Promise<Home> {
  const conversations = loadLocomo(path);
  if (!conversations) throw new Error(`LoCoMo not found at ${path} (--locomo <path>)`);
  const embedder = new UseLiteEmbedder();
  // Each tree embeds its queries with its own model: a change to the model (its graph, how it
  // runs) is measured too, and the query vectors may differ (counted below).
  const baseEmbedder = new BaseUseLite();
  await Promise.all([embedder.init(), baseEmbedder.init()]);
  const home = mkdtempSync(join(tmpdir(), 'cairn-search-ab-locomo-'));
  // A home built before (embedding 5,882 turns takes minutes): its database copied, never changed.
  if (built) copyFileSync(join(built, 'cairn.db'), join(home, 'cairn.db'));
  else log(`locomo: ingesting and embedding ${conversations.length} conversations`);
  const cairn = await BuildCairn.open({ home, embedder: baseEmbedder, config: {} });
  for (const conv of built ? [] : conversations) {
    const namespace = namespaceOf(conv);
    const turns = conv.turns.map((t) => ({ namespace, sessionId: t.sessionId, messageId: t.diaId, role: 'user' as const, speaker: t.speaker, text: turnContent(t), timestamp: t.timestamp, meta: {} }));
    for (let i = 0; i < turns.length; i += BATCH) await cairn.store.addTurns(turns.slice(i, i + BATCH));
    await cairn.embedPending({ namespace });
  }
  await cairn.close();
  const all = conversations.flatMap((c) => c.questions.map((q) => ({ text: q.question, namespace: namespaceOf(c) })));
  const step = Math.max(1, all.length / count);
  const queries = Array.from({ length: Math.min(count, all.length) }, (_, k) => all[Math.floor(k * step)]!);
  const timed = new Set(queries);
  const rest = all.filter((q) => !timed.has(q));
  const warmupStep = Math.max(1, rest.length / warmup);
  const warmups = Array.from({ length: Math.min(warmup, rest.length) }, (_, k) => rest[Math.floor(k * warmupStep)]!);
  const cleanup = () => {
    rmSync(home, { recursive: true, force: true });
    void embedder.close();
    void baseEmbedder.close();
  };
  return { home, embedder, baseEmbedder, queries, warmups, label: 'LoCoMo, 5,882 turns, use-lite (query embedding included)', cleanup };
}

async function generatedHome(name: 'chat50k' | 'mem100k', count: number, warmup: number, BuildCairn: typeof Cairn, size?: number, built?: string): Promise<Home> {
  const seed = 42;
  const corpus = new Corpus({ seed });
  const embedder = new SyntheticEmbedder({ lexicon: corpus.lexicon() });
  const n = size ?? (name === 'chat50k' ? 50_000 : 100_000);
  const label = name === 'chat50k' ? `${n} generated chat turns, synthetic vectors` : `${n} standalone memories, synthetic vectors (query embedding ~0)`;
  // --home: stored there by the first run and searched again by later ones (storing 100k memories
  // takes many minutes on a loaded machine), never removed.
  const home = built ?? mkdtempSync(join(tmpdir(), `cairn-search-ab-${name}-`));
  const cleanup = built ? () => undefined : () => rmSync(home, { recursive: true, force: true });
  if (built && existsSync(join(built, 'cairn.db'))) {
    return { home, embedder, ...generatedQueries(corpus, count, warmup, n, seed + 1), label: `${label}, home stored before`, cleanup };
  }
  mkdirSync(home, { recursive: true });
  const cairn = await BuildCairn.open({ home, embedder, config: {} });
  log(`${name}: storing and embedding ${n} ${name === 'chat50k' ? 'turns' : 'memories'}`);
  if (name === 'chat50k') {
    const made = chatTranscript(corpus, n, 'default', seed + 3);
    for (let i = 0; i < made.turns.length; i += BATCH) await cairn.store.addTurns(made.turns.slice(i, i + BATCH));
  } else {
    for (let from = 0; from < n; from += BATCH) await cairn.store.addMemories(corpus.batch(from, Math.min(n, from + BATCH)));
  }
  await cairn.embedPending({ namespace: 'default' });
  await cairn.close();
  return { home, embedder, ...generatedQueries(corpus, count, warmup, n, seed + 1), label, cleanup };
}

/** `count` timed queries (the same whatever the warm-up) and the warm-up's, none asking what a timed one asks. */
function generatedQueries(corpus: Corpus, count: number, warmup: number, size: number, seed: number): Pick<Home, 'queries' | 'warmups'> {
  const made = generateQueries(corpus, count + warmup, size, seed).map((q) => ({ text: q.text, namespace: 'default' }));
  const queries = made.slice(0, count);
  const timed = new Set(queries.map((q) => q.text));
  return { queries, warmups: made.slice(count).filter((q) => !timed.has(q.text)) };
}

interface Row {
  corpus: string;
  queries: number;
  cpu: { current: Dist; base: Dist };
  wall: { current: Dist; base: Dist };
  /** CPU of each namespace's first search (untimed in cpu/wall). */
  first: { current: Dist; base: Dist };
  /** CPU of the warm-up searches (untimed in cpu/wall). */
  warmup: { current: Dist; base: Dist };
  differing: number;
  load: string;
}

/** The turn --capture-between adds before a search: words no query asks for, so it is never a hit. */
const capturedTurn = (namespace: string, k: number, moment: number) => ({
  namespace, sessionId: 'search-ab-live', messageId: `m${k}`, role: 'user' as const, speaker: 'user', text: 'ok, noted', timestamp: new Date(moment).toISOString(), meta: {},
});

async function compare(name: string, h: Home, BaseCairn: typeof Cairn, captureBetween = false): Promise<Row> {
  const load0 = loadavg()[0]!;
  // One moment for every search: recency scores move with the clock, and a query asked of both
  // trees milliseconds apart would otherwise count as answered differently.
  const realNow = Date.now;
  const moment = realNow();
  Date.now = () => moment;
  // The base searches a copy of the home as it was stored, this tree the home itself: a tree with a
  // newer schema migrates its copy on open, and the comparison then covers that upgrade too. The
  // saved HNSW graphs go with it: a graph the base rebuilt would find other approximate neighbours.
  const baseHome = mkdtempSync(join(tmpdir(), 'cairn-search-ab-base-'));
  for (const f of ['cairn.db', 'cairn.db-wal']) if (existsSync(join(h.home, f))) copyFileSync(join(h.home, f), join(baseHome, f));
  if (existsSync(join(h.home, 'index'))) cpSync(join(h.home, 'index'), join(baseHome, 'index'), { recursive: true });
  const base = (await BaseCairn.open({ home: baseHome, embedder: h.baseEmbedder ?? h.embedder, config: {} })) as CairnType;
  // Writing, this tree too searches a copy: a home kept with --home stays as it was stored.
  const currentHome = captureBetween ? mkdtempSync(join(tmpdir(), 'cairn-search-ab-current-')) : h.home;
  if (captureBetween) {
    for (const f of ['cairn.db', 'cairn.db-wal']) if (existsSync(join(h.home, f))) copyFileSync(join(h.home, f), join(currentHome, f));
    if (existsSync(join(h.home, 'index'))) cpSync(join(h.home, 'index'), join(currentHome, 'index'), { recursive: true });
  }
  const current = await Cairn.open({ home: currentHome, embedder: h.embedder, config: {} });
  const times = { current: { cpu: [] as number[], wall: [] as number[] }, base: { cpu: [] as number[], wall: [] as number[] } };
  let differing = 0;
  let firstCpu: Row['first'] | null = null;
  let warmupCpu: Row['warmup'] | null = null;
  const ask = async (c: CairnType, q: { text: string; namespace: string }) => {
    const c0 = cpuMs();
    const t0 = performance.now();
    const res = await c.search(q.text, { namespace: q.namespace, limit: LIMIT });
    return { cpu: cpuMs() - c0, wall: performance.now() - t0, key: JSON.stringify(res.results.map((r) => [r.id, r.score, r.context.length])) };
  };
  try {
    const first = { current: [] as number[], base: [] as number[] };
    const namespaces = new Map(h.queries.map((q) => [q.namespace, q] as const));
    for (const q of namespaces.values()) {
      first.current.push((await ask(current, q)).cpu);
      first.base.push((await ask(base, q)).cpu);
    }
    firstCpu = { current: dist(first.current), base: dist(first.base) };
    const warm = { current: [] as number[], base: [] as number[] };
    for (let j = 0; j < h.warmups.length; j++) {
      for (const side of j % 2 === 0 ? (['current', 'base'] as const) : (['base', 'current'] as const)) warm[side].push((await ask(side === 'current' ? current : base, h.warmups[j]!)).cpu);
    }
    warmupCpu = { current: dist(warm.current), base: dist(warm.base) };
    for (let j = 0; j < h.queries.length; j++) {
      const q = h.queries[j]!;
      const order = j % 2 === 0 ? (['current', 'base'] as const) : (['base', 'current'] as const);
      const keys: string[] = [];
      for (const side of order) {
        const c = side === 'current' ? current : base;
        if (captureBetween) await c.store.addTurns([capturedTurn(q.namespace, j, moment)]);
        const r = await ask(c, q);
        times[side].cpu.push(r.cpu);
        times[side].wall.push(r.wall);
        keys.push(r.key);
      }
      if (keys[0] !== keys[1]) differing++;
    }
  } finally {
    Date.now = realNow;
    await current.close();
    await base.close();
    rmSync(baseHome, { recursive: true, force: true });
    if (captureBetween) rmSync(currentHome, { recursive: true, force: true });
  }
  const row: Row = {
    corpus: `${name}: ${h.label}`,
    queries: h.queries.length,
    cpu: { current: dist(times.current.cpu), base: dist(times.base.cpu) },
    wall: { current: dist(times.current.wall), base: dist(times.base.wall) },
    first: firstCpu!,
    warmup: warmupCpu!,
    differing,
    load: `${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
  };
  log(`${name}: CPU p50/p95 ${pair(row.cpu.current)} (base ${pair(row.cpu.base)}), ${differing} queries with other results`);
  return row;
}

const firstPair = (d: Dist): string => `${d.p50.toFixed(1)} / ${d.max.toFixed(1)} ms (${d.n})`;
const warmPair = (d: Dist): string => (d.n === 0 ? 'none' : `${pair(d)} (${d.n})`);

function argValue(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const rev = argValue(args, '--base');
  if (!rev) throw new Error('--base <rev> is required');
  const count = Number(argValue(args, '--queries') ?? 200);
  const warmup = Number(argValue(args, '--warmup') ?? WARMUP);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(warmup) || warmup < 0) throw new Error('--queries must be a positive integer and --warmup a whole number');
  const corpora = (argValue(args, '--corpora') ?? 'locomo,chat50k').split(',');
  const baseDir = exportBase(rev);
  const { Cairn: BaseCairn } = (await import(pathToFileURL(join(baseDir, 'src', 'service', 'cairn.ts')).href)) as { Cairn: typeof Cairn };
  const { UseLiteEmbedder: BaseUseLite } = (await import(pathToFileURL(join(baseDir, 'src', 'embed', 'use-lite.ts')).href)) as { UseLiteEmbedder: typeof UseLiteEmbedder };
  const rows: Row[] = [];
  for (const name of corpora) {
    // Stored by the base tree, whose schema is never newer than this tree's (a home this tree stored could be beyond the base).
    const h = name === 'locomo' ? await locomoHome(resolve(argValue(args, '--locomo') ?? DEFAULT_LOCOMO), count, warmup, BaseCairn, BaseUseLite, argValue(args, '--locomo-home')) : await generatedHome(name as 'chat50k' | 'mem100k', count, warmup, BaseCairn, argValue(args, '--size') === undefined ? undefined : Number(argValue(args, '--size')), argValue(args, '--home'));
    try {
      rows.push(await compare(name, h, BaseCairn, args.includes('--capture-between')));
    } finally {
      h.cleanup();
    }
  }
  process.stdout.write(
    `Search, default hybrid, limit 10, in process; this tree against ${rev} (CPU per search, all threads)${args.includes('--capture-between') ? '; a turn added before each search' : ''}\n\n` +
      table(
        ['corpus', 'queries', 'CPU p50 / p95', `${rev} CPU p50 / p95`, 'wall p50 / p95', `${rev} wall p50 / p95`, 'first search per namespace, CPU p50 / max', `${rev} first search`, 'warm-up searches, CPU p50 / p95', `${rev} warm-up`, 'queries with other results', 'load'],
        rows.map((r) => [r.corpus, String(r.queries), pair(r.cpu.current), pair(r.cpu.base), pair(r.wall.current), pair(r.wall.base), firstPair(r.first.current), firstPair(r.first.base), warmPair(r.warmup.current), warmPair(r.warmup.base), String(r.differing), r.load]),
      ) +
      '\n',
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`search-ab failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
