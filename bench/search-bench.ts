// `npm run bench`: search latency, store throughput, memory and disk per memory at 10k and 100k
// memories (1M with --scales 1m), against an OpenClaw-style baseline (FTS5 + sqlite-vec exact KNN,
// 0.7·vector + 0.3·keyword) on the same data in the same run, plus `cairn search` cold start.
//
//   npm run bench -- --backend postgres [--scales 100k,1m]   (SQLite and PostgreSQL side by side: bench/backend-bench.ts)
//   npm run bench -- [--scales 10k,100k] [--queries 200] [--no-cold] [--cold-only] [--keep] [--merge]
//                    [--no-transcripts] [--transcripts-only] [--locomo <locomo10.json>]
//
// Transcript corpora (bench/transcript-bench.ts): LoCoMo with the real model, 50k generated chat
// turns in sessions, long agent messages; per search CPU and wall time against the previous
// neighbour lookup in the same run. --transcripts-only measures just those (with --merge, the
// scales and cold start of the previous report are kept).
//
// --scales 1m adds a million memories (checked against free RAM and disk first; ~15–20 min here).
// --render rewrites latest.md from latest.json without measuring.
// --cli <main.js> times another build of the CLI (default dist/interfaces/cli/main.js).
// --merge keeps the scales and cold start of the previous bench/results/latest.json that this run
// does not measure, so `--scales 1m --no-cold --merge` adds 1M to an earlier 10k/100k report.
//
// Each scale runs in a child process (clean RSS, memory returned between scales). Memories come
// from bench/corpus.ts; document vectors from bench/synthetic-embedder.ts (the real model would
// need ~20 minutes per 100k); the real model's query-embedding cost is measured separately and
// also end to end. Results: printed, and written to bench/results/latest.{md,json}.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { Cairn } from '../src/service/cairn.js';
import type { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { VectorIndex } from '../src/search/vector-index.js';
import { UseLiteEmbedder } from '../src/embed/use-lite.js';
import { gazetteer, gazetteerOf, gazetteerVersion } from '../src/memory/places/gazetteer.js';
import { readCompiledGazetteer } from '../src/memory/places/gazetteer-file.js';
import { detectLanguage } from '../src/search/text-analysis.js';
import { Corpus, generateQueries, lengthStats, type BenchQuery } from './corpus.js';
import { SwitchableEmbedder, SyntheticEmbedder, SYNTH_DIMENSIONS } from './synthetic-embedder.js';
import { compareVectorLayouts, describeParts, type LayoutComparison } from './vector-layout.js';
import { dirSize, dist, int, mark, mb, memAvailableBytes, pair, parseScale, pct, scaleLabel, table, type Dist } from './stats.js';
import { runColdStart, renderColdStart, type ColdStartResult } from './cold-start.js';
import { renderTranscripts, runTranscriptBench, type TranscriptResult } from './transcript-bench.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_DIR = join(HERE, 'results');
const COMPILED_IN_DIST = join(HERE, '..', 'dist', 'memory', 'places', 'gazetteer.json');
const require = createRequire(import.meta.url);
type UsearchModule = typeof import('usearch');

const DIMS = SYNTH_DIMENSIONS;
const LIMIT = 10;
const NAMESPACE = 'default';
const STORE_BATCH = 1000;
const VECTOR_BATCH = 5000;
/** OpenClaw's candidate multiplier: each side fetches limit × 4. */
const BASELINE_CANDIDATES = LIMIT * 4;
/** Searches before each mode's timed ones (none of them a timed query): a process that has served searches. */
const WARMUP_QUERIES = 100;

const TARGETS = {
  /** Issue 29's goal (the founding target was 15 ms). */
  hybridP95At100k: 10,
  hybridP95At1M: 60,
  embedP95: 20,
  storePerSec: 5000,
  coldStartP95: 300,
};

export interface ScaleResult {
  n: number;
  label: string;
  /** When this scale ran (ISO). */
  date: string;
  queries: number;
  wallMs: number;
  /** 1-minute load average at the start and end of the scale (other processes skew timings). */
  load: { start: number; end: number };
  corpus: { medianWords: number; p95Words: number; maxWords: number; meanChars: number; duplicates: number; distinctWords: number; topWords: Array<{ word: string; docShare: number }> };
  store: { ms: number; perSec: number };
  /** Loading the place gazetteer before the first write (once per process). */
  placesLoadMs?: number;
  /** Reading the gazetteer the build compiled into dist (what the CLI and daemon do). */
  placesCompiledMs?: number;
  /** Loading language detection's tables (tinyld's n-grams, the function-word lists) on the first text that needs them. */
  detectorLoadMs?: number;
  synthEmbed: { ms: number; perSec: number };
  putVectors: { ms: number; perSec: number };
  annBuildMs: number;
  reopenFirstSearchMs: number;
  search: { bm25: Dist; vector: Dist; hybrid: Dist };
  synthQueryEmbed: Dist;
  stages: Record<string, Dist>;
  useLite: { initMs: number; embed: Dist; hybridWithEmbed: Dist } | { error: string };
  baseline: { storeMs: number; storePerSec: number; queries: number; total: Dist; keyword: Dist; vector: Dist; merge: Dist; bytes: number; bytesPerMemory: number };
  ratio: { p50: number; p95: number };
  recall: { hnsw: number; vectorMode: number };
  hitAt10: { bm25: number; vector: number; hybrid: number; baseline: number; exactVector: number };
  rss: { afterSearch: number; afterUseLite: number; peak: number; fileAfterSearch?: number };
  size: { homeBytes: number; perMemory: number; files: Record<string, number>; tables: Record<string, number>; layouts?: LayoutComparison };
  probes: { remember: Dist; vectorStatsMs: number; entriesMissingVectorMs: number; statusMs: number };
  notes: string[];
}

function log(msg: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

const now = (): number => performance.now();

/** RssFile from /proc/self/status (Linux): resident pages backed by files, mapped databases included. */
function rssFileBytes(): number | undefined {
  try {
    const kb = /^RssFile:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** OpenClaw's buildFtsQuery: ASCII word tokens, quoted, OR-ed (stop words included). */
function openclawFtsQuery(raw: string): string | null {
  const tokens = raw.match(/[A-Za-z0-9_]+/g)?.filter(Boolean) ?? [];
  if (tokens.length === 0) return null;
  return tokens.map((t) => `"${t.replaceAll('"', '')}"`).join(' OR ');
}

/** OpenClaw's bm25RankToScore. FTS5's bm25() is ≤ 0, so every keyword hit scores exactly 1. */
function bm25RankToScore(rank: number): number {
  return 1 / (1 + (Number.isFinite(rank) ? Math.max(0, rank) : 999));
}

function vecBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

// ---------------------------------------------------------------------------------------------
// One scale (child process)

async function runScale(n: number, queryCount: number, seed: number, keep: boolean): Promise<ScaleResult> {
  const wall0 = now();
  const load0 = loadavg()[0]!;
  const notes: string[] = [];
  const label = scaleLabel(n);
  const root = mkdtempSync(join(tmpdir(), `cairn-bench-${label}-`));
  const home = join(root, 'home');
  const corpus = new Corpus({ seed });
  const synth = new SyntheticEmbedder({ lexicon: corpus.lexicon() });
  const switchable = new SwitchableEmbedder(synth, DIMS);
  const queries = generateQueries(corpus, queryCount, n, seed + 1);
  const warmups = generateQueries(corpus, WARMUP_QUERIES, n, seed + 2);
  const cairn = await Cairn.open({ home, embedder: switchable, config: {} });
  const store = cairn.store as SqliteStore;
  const db = store.db;

  // 1. Bulk store through Store.addMemories, 1,000 per transaction (generation not timed). The
  // place gazetteer loads on a process's first write: timed apart, as a daemon pays it once. Run
  // from source the bench builds it from the data packages; the built CLI reads the file the build
  // compiled into dist, timed here too when it is there.
  const compiledStart = now();
  const placesVersion = gazetteerVersion();
  const compiled = readCompiledGazetteer(placesVersion, COMPILED_IN_DIST);
  if (compiled) gazetteerOf(compiled, placesVersion);
  const placesCompiledMs = compiled ? now() - compiledStart : undefined;
  const placesStart = now();
  gazetteer();
  const placesLoadMs = now() - placesStart;
  // Language detection loads its tables on the first text that needs them (a German sentence
  // does): timed apart like the gazetteer, as a daemon pays it once.
  const detectorStart = now();
  detectLanguage('Wir haben gestern beschlossen, die Datenbank im Mai nach Postgres zu verschieben.');
  const detectorLoadMs = now() - detectorStart;
  log(`${label}: storing ${int(n)} memories in batches of ${STORE_BATCH}`);
  const targetIndexes = new Map<number, number[]>();
  queries.forEach((q, k) => targetIndexes.set(q.target, [...(targetIndexes.get(q.target) ?? []), k]));
  const targetRef: string[] = new Array(queries.length).fill('');
  let storeMs = 0;
  let duplicates = 0;
  for (let from = 0; from < n; from += STORE_BATCH) {
    const to = Math.min(n, from + STORE_BATCH);
    const batch = corpus.batch(from, to);
    const t0 = now();
    const res = await store.addMemories(batch);
    storeMs += now() - t0;
    res.forEach((r, k) => {
      if (r.duplicate) duplicates++;
      const qs = targetIndexes.get(from + k);
      if (qs) for (const q of qs) targetRef[q] = r.memory.id;
    });
    if ((to / STORE_BATCH) % Math.max(1, Math.round(n / STORE_BATCH / 5)) === 0) log(`${label}:   ${int(to)} stored (${int((to / storeMs) * 1000)}/s so far)`);
  }

  // 2. Synthetic embedding of each entry body (what the indexer embeds) and putVectors, timed apart.
  log(`${label}: embedding (synthetic) and putVectors`);
  const entryCount = db.prepare('SELECT COUNT(*) FROM entries').pluck().get() as number;
  // The bench's own float copy of every vector (for the baseline and exact top-10); dropped before
  // Cairn is measured so RSS reflects Cairn, not the bench.
  const held = { vectors: new Float32Array(entryCount * DIMS) };
  const vectors = (): Float32Array => held.vectors;
  const seqs = new Int32Array(entryCount);
  const page = db.prepare('SELECT seq, body FROM entries WHERE seq > ? ORDER BY seq LIMIT ?');
  let embedMs = 0;
  let putMs = 0;
  let k = 0;
  for (let after = 0; ; ) {
    const rows = page.all(after, VECTOR_BATCH) as Array<{ seq: number; body: string }>;
    if (rows.length === 0) break;
    const t0 = now();
    const out: Array<{ seq: number; vector: Float32Array }> = [];
    for (const r of rows) {
      const v = synth.embedOne(r.body);
      held.vectors.set(v, k * DIMS);
      seqs[k++] = r.seq;
      out.push({ seq: r.seq, vector: v });
    }
    const t1 = now();
    await store.putVectors(synth.modelId, out);
    embedMs += t1 - t0;
    putMs += now() - t1;
    after = rows[rows.length - 1]!.seq;
  }

  // 3. OpenClaw-style baseline: its own SQLite file (FTS5 + vec0), same bodies, same vectors.
  log(`${label}: building the OpenClaw-style baseline (FTS5 + sqlite-vec vec0)`);
  const baselinePath = join(root, 'baseline.db');
  const bdb = new Database(baselinePath);
  sqliteVec.load(bdb);
  bdb.pragma('journal_mode = WAL');
  bdb.exec(`
    CREATE TABLE chunks (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
    CREATE VIRTUAL TABLE chunks_fts USING fts5(text, id UNINDEXED, tokenize='porter unicode61');
    CREATE VIRTUAL TABLE chunks_vec USING vec0(embedding float[${DIMS}] distance_metric=cosine);
  `);
  const insChunk = bdb.prepare('INSERT INTO chunks (id, text) VALUES (?, ?)');
  const insFts = bdb.prepare('INSERT INTO chunks_fts (text, id) VALUES (?, ?)');
  const insVec = bdb.prepare('INSERT INTO chunks_vec (rowid, embedding) VALUES (?, ?)');
  let baselineStoreMs = 0;
  for (let start = 0; start < entryCount; start += VECTOR_BATCH) {
    const rows = page.all(start === 0 ? 0 : seqs[start - 1]!, VECTOR_BATCH) as Array<{ seq: number; body: string }>;
    const t0 = now();
    bdb.transaction(() => {
      rows.forEach((r, j) => {
        insChunk.run(r.seq, r.body);
        insFts.run(r.body, r.seq);
        insVec.run(BigInt(r.seq), vecBlob(vectors().subarray((start + j) * DIMS, (start + j + 1) * DIMS)));
      });
    })();
    baselineStoreMs += now() - t0;
  }

  // 4. Exact top-10 per query (brute force over the float vectors) for recall.
  const qvecs = new Float32Array(queries.length * DIMS);
  queries.forEach((q, j) => qvecs.set(synth.embedOne(q.text), j * DIMS));
  const usearch = require('usearch') as UsearchModule;
  const exact = usearch.exactSearch(vectors(), qvecs, DIMS, LIMIT, usearch.MetricKind.Cos, 0) as InstanceType<UsearchModule['BatchMatches']>;
  const exactTop: number[][] = queries.map((_, j) => Array.from(exact.get(j).keys, (key) => seqs[Number(key)]!));
  const targetSeq = queries.map((_, j) => (db.prepare("SELECT seq FROM entries WHERE kind = 'memory' AND ref_id = ?").pluck().get(targetRef[j]) as number) ?? -1);
  const exactHit = queries.filter((_, j) => exactTop[j]!.includes(targetSeq[j]!)).length / queries.length;

  // 5. First search builds the ANN index by catching up from the store (and saves it).
  held.vectors = new Float32Array(0);
  synth.clearCache();
  (globalThis as { gc?: () => void }).gc?.();
  log(`${label}: first search (builds the usearch HNSW index from ${int(entryCount)} vectors)`);
  let t0 = now();
  const first = await cairn.search(warmups[0]!.text, { mode: 'hybrid', limit: LIMIT });
  const annBuildMs = now() - t0;
  if (first.degraded) notes.push(`first search degraded: ${first.degraded}`);
  log(`${label}:   index built in ${(annBuildMs / 1000).toFixed(1)} s`);

  // 6. Search latency per mode (synthetic query embedding: measured below, ~0.01 ms). Hybrid first:
  // its timed queries are new to the process (their postings, entries and vectors not yet read),
  // as an agent's questions are; BM25 and vector then ask the same queries again.
  const search: ScaleResult['search'] = { bm25: dist([]), vector: dist([]), hybrid: dist([]) };
  const hits = { bm25: 0, vector: 0, hybrid: 0 };
  const vectorModeRefs: string[][] = [];
  for (const mode of ['hybrid', 'bm25', 'vector'] as const) {
    for (const w of warmups) await cairn.search(w.text, { mode, limit: LIMIT });
    const times: number[] = [];
    for (let j = 0; j < queries.length; j++) {
      const t = now();
      const res = await cairn.search(queries[j]!.text, { mode, limit: LIMIT });
      times.push(now() - t);
      if (res.degraded) notes.push(`${mode} degraded: ${res.degraded}`);
      if (res.results.some((r) => r.id === targetRef[j])) hits[mode]++;
      if (mode === 'vector') vectorModeRefs.push(res.results.map((r) => r.id));
    }
    search[mode] = dist(times);
    log(`${label}:   ${mode}: p50/p95 ${pair(search[mode])}`);
  }
  const synthTimes = queries.map((q) => {
    const t = now();
    synth.embedOne(q.text);
    return now() - t;
  });

  // 7. Where hybrid time goes: the store's and the index's calls timed inside real searches, on a
  // second Cairn over the same home whose calls are wrapped before its first search (the facade's
  // store binds each method once). Steps timed apart from the search, before it, warmed its caches
  // for it and read vectors the search no longer reads (it rescores from the int8 rows).
  const stages: Record<string, number[]> = { keywordSearch: [], 'query vector (cache lookup, synthetic model)': [], 'annSearch (incl. its catchUp)': [], getEntries: [], 'stored vectors': [], 'rest (validation, terms, coverage, fusion, snippets)': [], total: [] };
  const vectorIndex = (cairn as unknown as { vectorIndex: VectorIndex | null }).vectorIndex;
  const recallHits = { hnsw: 0, vectorMode: 0 };
  if (!vectorIndex || typeof vectorIndex.search !== 'function') {
    notes.push('stage profile and HNSW recall skipped: Cairn.vectorIndex not found (src changed?)');
  } else {
    const probe = await Cairn.open({ home, embedder: switchable, config: {} });
    const spent = new Map<string, number>();
    const timed = (target: object, method: string, step: string): void => {
      const t = target as Record<string, (...args: unknown[]) => Promise<unknown>>;
      const original = t[method]!.bind(target);
      t[method] = async (...args: unknown[]) => {
        const t0 = now();
        try {
          return await original(...args);
        } finally {
          spent.set(step, (spent.get(step) ?? 0) + now() - t0);
        }
      };
    };
    const raw = (probe as unknown as { rawStore: SqliteStore }).rawStore;
    timed(raw, 'keywordSearch', 'keywordSearch');
    timed(raw, 'cacheGet', 'query vector (cache lookup, synthetic model)');
    timed(raw, 'getEntries', 'getEntries');
    timed(raw, 'getQuantisedVectors', 'stored vectors');
    timed(raw, 'getVectors', 'stored vectors');
    timed((probe as unknown as { index(): VectorIndex }).index(), 'search', 'annSearch (incl. its catchUp)');
    for (const w of warmups) await probe.search(w.text, { mode: 'hybrid', limit: LIMIT });
    for (let j = 0; j < queries.length; j++) {
      const q = queries[j]!.text;
      spent.clear();
      const t = now();
      await probe.search(q, { mode: 'hybrid', limit: LIMIT });
      const tTotal = now() - t;
      let steps = 0;
      for (const name of Object.keys(stages)) {
        if (name === 'total' || name.startsWith('rest')) continue;
        const ms = spent.get(name) ?? 0;
        stages[name]!.push(ms);
        steps += ms;
      }
      stages['rest (validation, terms, coverage, fusion, snippets)']!.push(Math.max(0, tTotal - steps));
      stages.total!.push(tTotal);
      const qv = synth.embedOne(q);
      const top = (await vectorIndex.search(NAMESPACE, qv, LIMIT)).map((h) => h.seq);
      const exactSet = new Set(exactTop[j]);
      recallHits.hnsw += top.filter((s) => exactSet.has(s)).length;
      const exactRefs = new Set(
        (db.prepare(`SELECT ref_id FROM entries WHERE seq IN (${exactTop[j]!.join(',')})`).pluck().all() as string[]),
      );
      recallHits.vectorMode += vectorModeRefs[j]!.filter((r) => exactRefs.has(r)).length;
    }
    await probe.close();
  }
  const recall = { hnsw: recallHits.hnsw / (queries.length * LIMIT), vectorMode: recallHits.vectorMode / (queries.length * LIMIT) };
  const rssAfterSearch = process.memoryUsage().rss;
  const rssFileAfterSearch = rssFileBytes();

  // 8. Query embedding with the real model, alone and inside a real hybrid search.
  let useLite: ScaleResult['useLite'];
  try {
    const lite = new UseLiteEmbedder();
    t0 = now();
    await lite.init();
    const initMs = now() - t0;
    for (const w of warmups.slice(0, 5)) await lite.embed([w.text]);
    const embedTimes: number[] = [];
    for (const q of queries) {
      const t = now();
      await lite.embed([q.text]);
      embedTimes.push(now() - t);
    }
    switchable.use(lite);
    for (const w of warmups.slice(0, 5)) await cairn.search(w.text, { mode: 'hybrid', limit: LIMIT });
    const withEmbed: number[] = [];
    for (const q of queries) {
      const t = now();
      await cairn.search(q.text, { mode: 'hybrid', limit: LIMIT });
      withEmbed.push(now() - t);
    }
    switchable.use(null);
    useLite = { initMs, embed: dist(embedTimes), hybridWithEmbed: dist(withEmbed) };
    log(`${label}:   use-lite query embedding p50/p95 ${pair(useLite.embed)}; hybrid incl. embedding ${pair(useLite.hybridWithEmbed)}`);
  } catch (err) {
    useLite = { error: (err as Error).message };
    notes.push(`use-lite unavailable: ${(err as Error).message}`);
  }
  const rssAfterUseLite = process.memoryUsage().rss;

  // 9. The baseline's queries: FTS5 top-K and vec0 exact KNN top-K, merged 0.7/0.3.
  const baselineQueries = n >= 1_000_000 ? Math.min(queries.length, 50) : queries.length;
  log(`${label}: baseline searches (${baselineQueries} queries)`);
  const kwStmt = bdb.prepare('SELECT id, text, bm25(chunks_fts) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank ASC LIMIT ?');
  const knnStmt = bdb.prepare(
    `WITH knn AS (SELECT rowid, distance FROM chunks_vec WHERE embedding MATCH ? AND k = ?)
     SELECT knn.rowid AS id, c.text AS text, knn.distance AS dist FROM knn JOIN chunks c ON c.id = knn.rowid ORDER BY knn.distance`,
  );
  const baselineSearch = (text: string, qv: Float32Array) => {
    const ta = now();
    const fts = openclawFtsQuery(text);
    const kw = fts ? (kwStmt.all(fts, BASELINE_CANDIDATES) as Array<{ id: number; text: string; rank: number }>) : [];
    const tb = now();
    const vec = knnStmt.all(vecBlob(qv), BigInt(BASELINE_CANDIDATES)) as Array<{ id: number; text: string; dist: number }>;
    const tc = now();
    const byId = new Map<number, { id: number; text: string; v: number; t: number }>();
    for (const r of vec) byId.set(r.id, { id: r.id, text: r.text, v: 1 - r.dist, t: 0 });
    for (const r of kw) {
      const e = byId.get(r.id);
      if (e) e.t = bm25RankToScore(r.rank);
      else byId.set(r.id, { id: r.id, text: r.text, v: 0, t: bm25RankToScore(r.rank) });
    }
    const top = [...byId.values()].map((e) => ({ id: e.id, text: e.text, score: 0.7 * e.v + 0.3 * e.t })).sort((a, b) => b.score - a.score).slice(0, LIMIT);
    const td = now();
    return { top, kwMs: tb - ta, vecMs: tc - tb, mergeMs: td - tc, totalMs: td - ta };
  };
  for (const w of warmups.slice(0, 5)) baselineSearch(w.text, synth.embedOne(w.text));
  const bTotal: number[] = [];
  const bKw: number[] = [];
  const bVec: number[] = [];
  const bMerge: number[] = [];
  let baselineHits = 0;
  for (let j = 0; j < baselineQueries; j++) {
    const r = baselineSearch(queries[j]!.text, qvecs.subarray(j * DIMS, (j + 1) * DIMS));
    bTotal.push(r.totalMs);
    bKw.push(r.kwMs);
    bVec.push(r.vecMs);
    bMerge.push(r.mergeMs);
    if (r.top.some((x) => x.id === targetSeq[j])) baselineHits++;
  }
  bdb.pragma('wal_checkpoint(TRUNCATE)');
  bdb.close();
  const baselineBytes = dirSize(root).total - dirSize(home).total;
  const baseline: ScaleResult['baseline'] = {
    storeMs: baselineStoreMs,
    storePerSec: (entryCount / baselineStoreMs) * 1000,
    queries: baselineQueries,
    total: dist(bTotal),
    keyword: dist(bKw),
    vector: dist(bVec),
    merge: dist(bMerge),
    bytes: baselineBytes,
    bytesPerMemory: baselineBytes / n,
  };
  log(`${label}:   baseline p50/p95 ${pair(baseline.total)} (keyword ${pair(baseline.keyword)}, KNN ${pair(baseline.vector)})`);

  // 10. Disk: checkpoint the WAL, then everything under the home (db, wal, shm, index files).
  db.pragma('wal_checkpoint(TRUNCATE)');
  const size = dirSize(home);
  let tables: Record<string, number> = {};
  try {
    const rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all() as Array<{ name: string; bytes: number }>;
    tables = Object.fromEntries(rows.map((r) => [r.name, r.bytes]));
  } catch (err) {
    notes.push(`no per-table sizes (dbstat): ${(err as Error).message}`);
  }
  const layouts = compareVectorLayouts(join(home, 'cairn.db'));

  // 11. Probes of paths that scan: status(), and a single remember() with inline embedding.
  t0 = now();
  await store.vectorStats(synth.modelId);
  const vectorStatsMs = now() - t0;
  t0 = now();
  await store.entriesMissingVector(synth.modelId, 64, NAMESPACE);
  const entriesMissingVectorMs = now() - t0;
  t0 = now();
  await cairn.status();
  const statusMs = now() - t0;
  const rememberTimes: number[] = [];
  for (let j = 0; j < 5; j++) {
    const t = now();
    const r = await cairn.remember({ text: `Bench probe ${j}: ${corpus.generate(n + j).memory.text}` });
    rememberTimes.push(now() - t);
    if (!r.embedded) notes.push(`remember probe not embedded: ${r.warning ?? ''}`);
  }

  // 12. A fresh Cairn on the same home: the first search loads the saved index instead of building.
  await cairn.close();
  const reopened = await Cairn.open({ home, embedder: new SyntheticEmbedder({ lexicon: corpus.lexicon() }), config: {} });
  t0 = now();
  await reopened.search(queries[0]!.text, { mode: 'hybrid', limit: LIMIT });
  const reopenFirstSearchMs = now() - t0;
  await reopened.close();

  if (!keep) rmSync(root, { recursive: true, force: true });
  else notes.push(`kept ${root}`);
  const ls = lengthStats(corpus);
  const hybrid = search.hybrid;
  return {
    n,
    label,
    date: new Date().toISOString(),
    queries: queries.length,
    wallMs: now() - wall0,
    load: { start: load0, end: loadavg()[0]! },
    corpus: { medianWords: ls.median, p95Words: ls.p95, maxWords: ls.max, meanChars: ls.meanChars, duplicates, distinctWords: ls.distinctWords, topWords: ls.topWords },
    store: { ms: storeMs, perSec: (n / storeMs) * 1000 },
    placesLoadMs,
    placesCompiledMs,
    detectorLoadMs,
    synthEmbed: { ms: embedMs, perSec: (entryCount / embedMs) * 1000 },
    putVectors: { ms: putMs, perSec: (entryCount / putMs) * 1000 },
    annBuildMs,
    reopenFirstSearchMs,
    search,
    synthQueryEmbed: dist(synthTimes),
    stages: Object.fromEntries(Object.entries(stages).map(([name, v]) => [name, dist(v)])),
    useLite,
    baseline,
    ratio: { p50: baseline.total.p50 / hybrid.p50, p95: baseline.total.p95 / hybrid.p95 },
    recall,
    hitAt10: {
      bm25: hits.bm25 / queries.length,
      vector: hits.vector / queries.length,
      hybrid: hits.hybrid / queries.length,
      baseline: baselineHits / baselineQueries,
      exactVector: exactHit,
    },
    rss: { afterSearch: rssAfterSearch, afterUseLite: rssAfterUseLite, peak: process.resourceUsage().maxRSS * 1024, fileAfterSearch: rssFileAfterSearch },
    size: { homeBytes: size.total, perMemory: size.total / n, files: size.files, tables, layouts },
    probes: { remember: dist(rememberTimes), vectorStatsMs, entriesMissingVectorMs, statusMs },
    notes: [...new Set(notes)],
  };
}

// ---------------------------------------------------------------------------------------------
// Report

function hybridTarget(n: number): number | null {
  if (n <= 100_000) return TARGETS.hybridP95At100k;
  if (n <= 1_000_000) return TARGETS.hybridP95At1M;
  return null;
}

export function renderScale(r: ScaleResult): string {
  const target = hybridTarget(r.n);
  const lite = 'error' in r.useLite ? null : r.useLite;
  const rows: string[][] = [
    ['bulk store (Store.addMemories, 1,000/txn, excl. embedding)', `${int(r.store.perSec)} memories/s (${(r.store.ms / 1000).toFixed(1)} s)`, `≥ ${int(TARGETS.storePerSec)}/s`, mark(r.store.perSec >= TARGETS.storePerSec)],
    ...(r.placesCompiledMs === undefined ? [] : [['place gazetteer load, compiled file (once per process, before its first write)', `${int(r.placesCompiledMs)} ms`, '', '']]),
    ...(r.placesLoadMs === undefined ? [] : [['place gazetteer load from the data packages (no compiled file)', `${int(r.placesLoadMs)} ms`, '', '']]),
    ...(r.detectorLoadMs === undefined ? [] : [['language detection load (tinyld, function words; once per process, its first non-English-looking text)', `${int(r.detectorLoadMs)} ms`, '', '']]),
    ['putVectors (5,000/call)', `${int(r.putVectors.perSec)} vectors/s (${(r.putVectors.ms / 1000).toFixed(1)} s)`, '', ''],
    ['synthetic document embedding (bench stand-in)', `${int(r.synthEmbed.perSec)} texts/s`, '', ''],
    ['ANN index build (first search: catch-up + save)', `${(r.annBuildMs / 1000).toFixed(1)} s`, '', ''],
    ['first search in a fresh process (loads saved index)', `${r.reopenFirstSearchMs.toFixed(0)} ms`, '', ''],
    ['BM25 search p50 / p95 (the hybrid queries asked again)', pair(r.search.bm25), '', ''],
    ['vector search p50 / p95 (excl. query embedding; the hybrid queries asked again)', pair(r.search.vector), '', ''],
    ['**hybrid search p50 / p95 (excl. query embedding; queries new to the process)**', `**${pair(r.search.hybrid)}**`, target ? `p95 ≤ ${target} ms` : '', target ? mark(r.search.hybrid.p95 <= target) : '—'],
    ['(synthetic query embedding inside those, p50 / p95)', pair(r.synthQueryEmbed, 3), '', ''],
    ['query embedding, use-lite, p50 / p95', lite ? pair(lite.embed) : `n/a (${(r.useLite as { error: string }).error})`, `p95 ≤ ${TARGETS.embedP95} ms`, lite ? mark(lite.embed.p95 <= TARGETS.embedP95) : '—'],
    ['hybrid p95 + embedding p95', lite ? `${(r.search.hybrid.p95 + lite.embed.p95).toFixed(2)} ms` : 'n/a', '', ''],
    ['hybrid incl. real query embedding (measured) p50 / p95', lite ? pair(lite.hybridWithEmbed) : 'n/a', '', ''],
    [`OpenClaw-style baseline hybrid p50 / p95 (${r.baseline.queries} q)`, pair(r.baseline.total), '', ''],
    ['  baseline keyword (FTS5, OR of raw tokens) p50 / p95', pair(r.baseline.keyword), '', ''],
    ['  baseline vector (vec0 exact KNN) p50 / p95', pair(r.baseline.vector), '', ''],
    ['**ratio baseline / Cairn hybrid (p50, p95)**', `**${r.ratio.p50.toFixed(1)}× , ${r.ratio.p95.toFixed(1)}×**`, '', ''],
    ['HNSW (i8) recall@10 vs exact brute force', pct(r.recall.hnsw), '', ''],
    ['vector-mode recall@10 vs exact (end to end)', pct(r.recall.vectorMode), '', ''],
    ['target memory in top 10: bm25 / vector / hybrid / baseline / exact-vector', `${pct(r.hitAt10.bm25)} / ${pct(r.hitAt10.vector)} / ${pct(r.hitAt10.hybrid)} / ${pct(r.hitAt10.baseline)} / ${pct(r.hitAt10.exactVector)}`, '', ''],
    ['RSS after searches (before use-lite) / after use-lite / peak (peak includes the bench\'s own float copy of the vectors)', `${mb(r.rss.afterSearch)} / ${mb(r.rss.afterUseLite)} / ${mb(r.rss.peak)}`, '', ''],
    ...(r.rss.fileAfterSearch === undefined ? [] : [['  of it after searches: file pages mapped (SQLite\'s memory map, the ANN index; page cache the kernel can reclaim) / the rest', `${mb(r.rss.fileAfterSearch)} / ${mb(r.rss.afterSearch - r.rss.fileAfterSearch)}`, '', '']]),
    ['bytes per memory (home: db + wal + index, after checkpoint)', `${int(r.size.perMemory)} B (${mb(r.size.homeBytes)})`, '', ''],
    ['baseline bytes per memory', `${int(r.baseline.bytesPerMemory)} B`, '', ''],
    ['baseline bulk insert (FTS5 + vec0, excl. embedding)', `${int(r.baseline.storePerSec)} rows/s`, '', ''],
    ['single remember() incl. inline embed, p50 / max (5 calls)', `${r.probes.remember.p50.toFixed(1)} / ${r.probes.remember.max.toFixed(1)} ms`, '', ''],
    ['status() in-process', `${r.probes.statusMs.toFixed(0)} ms`, '', ''],
    ['Store.vectorStats / entriesMissingVector(64) with nothing missing', `${r.probes.vectorStatsMs.toFixed(1)} ms / ${r.probes.entriesMissingVectorMs.toFixed(1)} ms`, '', ''],
  ];
  const stageRows = Object.entries(r.stages).map(([name, d]) => [name, d.p50.toFixed(3), d.p95.toFixed(3)]);
  const perMem = (bytes: number) => `${int(bytes / r.n)} B`;
  const indexBytes = Object.entries(r.size.files).filter(([f]) => f.startsWith('index/')).reduce((a, [, b]) => a + b, 0);
  const breakdown = [
    `ANN index files ${perMem(indexBytes)}`,
    ...Object.entries(r.size.tables)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([name, bytes]) => `${name} ${perMem(bytes)}`),
  ].join(', ');
  return [
    `### ${r.label} memories (${r.queries} queries, limit ${LIMIT}; run ${r.date.slice(0, 16).replace('T', ' ')} UTC, wall ${(r.wallMs / 1000).toFixed(0)} s; load average ${r.load.start.toFixed(1)} → ${r.load.end.toFixed(1)} on ${cpus().length} cores)`,
    '',
    `Corpus: median ${r.corpus.medianWords} words, p95 ${r.corpus.p95Words}, max ${r.corpus.maxWords}, mean ${r.corpus.meanChars} chars; ${int(r.corpus.distinctWords)} distinct words in the first 10k; commonest content words in ${r.corpus.topWords.map((w) => `${pct(w.docShare)} ("${w.word}")`).join(', ')} of memories; ${r.corpus.duplicates} duplicates merged.`,
    '',
    table(['metric', 'value', 'target', ''], rows),
    '',
    `Bytes per memory by part: ${breakdown}.`,
    '',
    ...(r.size.layouts
      ? [
          `Database vacuumed, bytes per memory: ${int(r.size.layouts.current.bytes / r.n)} B (${describeParts(r.size.layouts.current.parts, r.n)}); ` +
            `the same rows in the vector layout up to schema V15 (float32 vectors, cache rows in overflow pages): ${int(r.size.layouts.legacy.bytes / r.n)} B (${describeParts(r.size.layouts.legacy.parts, r.n)}).`,
          '',
        ]
      : []),
    'Hybrid search, time per step (ms):',
    '',
    table(['step', 'p50', 'p95'], stageRows),
    ...(r.notes.length ? ['', ...r.notes.map((x) => `- note: ${x}`)] : []),
  ].join('\n');
}

function render(results: ScaleResult[], cold: ColdStartResult | null, meta: Record<string, unknown>, skipped: string[], transcripts: readonly TranscriptResult[] = []): string {
  const parts = [
    '# Cairn search bench',
    '',
    `Machine: ${meta.cpus} × ${meta.cpuModel}, ${meta.memGiB} GiB RAM, Node ${meta.node}. Last invocation ${meta.date} (wall ${meta.wallS} s); each section says when it ran.`,
    '',
    'Document vectors come from a synthetic 512-dim embedder (bench/synthetic-embedder.ts); "excl. query embedding"',
    'figures include its ~0.01 ms per query. The real model (use-lite, 512 dims) is timed on the same queries and',
    'also end to end inside a hybrid search. Baseline: a separate SQLite file with FTS5 (porter unicode61) and a',
    `sqlite-vec vec0 table (float[${DIMS}], cosine); per query FTS5 bm25 top-${BASELINE_CANDIDATES} (OpenClaw's buildFtsQuery:`,
    'raw tokens OR-ed) + vec0 exact KNN top-40, merged as 0.7·(1 − distance) + 0.3·1/(1 + max(0, rank)) (OpenClaw\'s',
    'bm25RankToScore; FTS5 ranks are ≤ 0 so every keyword hit scores 1), top 10, no min-score cut. Same query vectors.',
    '',
  ];
  for (const s of skipped) parts.push(`- skipped: ${s}`, '');
  for (const r of results) parts.push(renderScale(r), '');
  if (cold) parts.push(renderColdStart(cold, TARGETS.coldStartP95), '');
  if (transcripts.length) parts.push(renderTranscripts(transcripts));
  return parts.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Entry points

function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** Rough needs of one scale: RAM for vectors, index and SQLite; disk for two databases. */
function resourceCheck(n: number): string | null {
  const needRam = n * DIMS * 4 * 2.5 + 1.5 * 2 ** 30;
  const needDisk = n * (DIMS * 4 * 2 + 2500) + 2 ** 30;
  const avail = memAvailableBytes();
  if (avail !== null && avail < needRam) return `${scaleLabel(n)}: needs ~${mb(needRam)} RAM, ${mb(avail)} available`;
  const fs = statfsSync(tmpdir());
  const free = fs.bavail * fs.bsize;
  if (free < needDisk) return `${scaleLabel(n)}: needs ~${mb(needDisk)} disk in ${tmpdir()}, ${mb(free)} free`;
  return null;
}

function runChild(n: number, queries: number, seed: number, keep: boolean): Promise<ScaleResult> {
  const out = join(mkdtempSync(join(tmpdir(), 'cairn-bench-out-')), 'result.json');
  const args = ['--import', 'tsx', '--expose-gc', fileURLToPath(import.meta.url), '--child', String(n), '--queries', String(queries), '--seed', String(seed), '--out', out];
  if (keep) args.push('--keep');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`scale ${scaleLabel(n)} failed (exit ${code})`));
      try {
        resolve(JSON.parse(readFileSync(out, 'utf8')) as ScaleResult);
        rmSync(dirname(out), { recursive: true, force: true });
      } catch (err) {
        reject(err as Error);
      }
    });
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (argValue(args, '--backend') === 'postgres') {
    // SQLite and PostgreSQL side by side (bench/backend-bench.ts).
    await import('./backend-bench.js');
    return;
  }
  const seed = Number(argValue(args, '--seed') ?? 42);
  const queries = Number(argValue(args, '--queries') ?? 200);
  const keep = args.includes('--keep');
  const child = argValue(args, '--child');
  if (args.includes('--render')) {
    // Re-render latest.md from latest.json (after a change to the report layout).
    const prev = JSON.parse(readFileSync(join(RESULTS_DIR, 'latest.json'), 'utf8')) as { meta: Record<string, unknown>; skipped: string[]; scales: ScaleResult[]; coldStart: ColdStartResult | null; transcripts?: TranscriptResult[] };
    writeFileSync(join(RESULTS_DIR, 'latest.md'), render(prev.scales, prev.coldStart, prev.meta, prev.skipped, prev.transcripts) + '\n');
    return;
  }
  if (child !== undefined) {
    const result = await runScale(Number(child), queries, seed, keep);
    writeFileSync(argValue(args, '--out')!, JSON.stringify(result));
    return;
  }
  const wall0 = now();
  const only = args.includes('--cold-only') || args.includes('--transcripts-only');
  const scales = only ? [] : (argValue(args, '--scales') ?? '10k,100k').split(',').map(parseScale);
  const results: ScaleResult[] = [];
  const skipped: string[] = [];
  for (const n of scales) {
    const problem = resourceCheck(n);
    if (problem) {
      log(`skipping ${problem}`);
      skipped.push(problem);
      continue;
    }
    log(`=== scale ${scaleLabel(n)} ===`);
    const r = await runChild(n, queries, seed, keep);
    results.push(r);
    process.stdout.write('\n' + renderScale(r) + '\n\n');
  }
  let cold: ColdStartResult | null = null;
  if (!args.includes('--no-cold') && !args.includes('--transcripts-only')) {
    log('=== cold start ===');
    cold = await runColdStart({
      runs: Number(argValue(args, '--cold-runs') ?? 10),
      memories: parseScale(argValue(args, '--cold-memories') ?? '10k'),
      realMemories: parseScale(argValue(args, '--cold-real') ?? '2500'),
      seed,
      log,
      ...(argValue(args, '--cli') ? { cli: argValue(args, '--cli')! } : {}),
    });
    process.stdout.write('\n' + renderColdStart(cold, TARGETS.coldStartP95) + '\n\n');
  }
  let transcripts: TranscriptResult[] = [];
  if (!args.includes('--no-transcripts') && !args.includes('--cold-only')) {
    log('=== transcripts ===');
    transcripts = await runTranscriptBench({ queries, seed, locomo: argValue(args, '--locomo') });
    process.stdout.write('\n' + renderTranscripts(transcripts) + '\n');
  }
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memGiB: Math.round(totalmem() / 2 ** 30),
    wallS: Math.round((now() - wall0) / 1000),
    args,
    targets: TARGETS,
  };
  if (args.includes('--merge') && existsSync(join(RESULTS_DIR, 'latest.json'))) {
    // Keep what the previous run measured and this one did not (e.g. add 1M to a 10k/100k run).
    const prev = JSON.parse(readFileSync(join(RESULTS_DIR, 'latest.json'), 'utf8')) as { scales?: ScaleResult[]; coldStart?: ColdStartResult | null; transcripts?: TranscriptResult[] };
    for (const old of prev.scales ?? []) if (!results.some((r) => r.n === old.n)) results.push(old);
    results.sort((a, b) => a.n - b.n);
    cold ??= prev.coldStart ?? null;
    for (const old of prev.transcripts ?? []) if (!transcripts.some((t) => t.name === old.name)) transcripts.push(old);
  }
  const md = render(results, cold, meta, skipped, transcripts);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'latest.md'), md + '\n');
  writeFileSync(join(RESULTS_DIR, 'latest.json'), JSON.stringify({ meta, skipped, scales: results, coldStart: cold, transcripts }, null, 2) + '\n');
  log(`wrote ${join(RESULTS_DIR, 'latest.md')} and latest.json (total ${meta.wallS} s)`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
