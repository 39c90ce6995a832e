// `npm run bench -- --backend postgres`: the same memories, vectors and queries through Cairn on
// the embedded SQLite store and on PostgreSQL, side by side in one run: bulk store throughput,
// vector writes, search p50/p95 (BM25 and hybrid; wall and CPU of this process — PostgreSQL's own
// CPU is another process, so its wall time is the figure to read), the target found in the top 10,
// and bytes on disk per memory (SQLite: the database files; PostgreSQL: every relation of the
// schema, indexes and TOAST included).
//
//   npm run bench -- --backend postgres [--scales 100k,1m] [--queries 200] [--database-url URL]
//                    [--backends sqlite,postgres] [--merge]   (--merge keeps the previous report's other rows)
//
// The server: --database-url, else CAIRN_DATABASE_URL, else the tests' own server on 127.0.0.1
// (test/helpers/postgres.ts starts it from the installed binaries). Each run uses a fresh schema,
// dropped afterwards. Each (scale, backend) runs in a child process. Results: printed, and written
// to bench/results/backends.{md,json}.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Cairn } from '../src/service/cairn.js';
import { Corpus, generateQueries } from './corpus.js';
import { SyntheticEmbedder } from './synthetic-embedder.js';
import { dist, int, mb, pair, parseScale, runPhase, scaleLabel, table, type Dist } from './stats.js';
import { dropSchema, freshSchemaName, testDatabaseUrl } from '../test/helpers/postgres.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_DIR = join(HERE, 'results');
const LIMIT = 10;
const STORE_BATCH = 1000;
const VECTOR_BATCH = 2000;
const WARMUP = 20;
const SEED = 42;

type Backend = 'sqlite' | 'postgres';

interface BackendResult {
  backend: Backend;
  n: number;
  store: { perSec: number; seconds: number };
  vectors: { perSec: number; seconds: number };
  firstSearchS: number;
  bm25: { wall: Dist; cpu: Dist; hit: number };
  hybrid: { wall: Dist; cpu: Dist; hit: number };
  bytes: number;
  load: [number, number];
}

const now = (): number => performance.now();
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const log = (m: string): void => void process.stderr.write(`[backends] ${m}\n`);

function dirBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    total += s.isDirectory() ? dirBytes(p) : s.size;
  }
  return total;
}

async function schemaBytes(url: string, schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CHECKPOINT').catch(() => undefined);
    const row = (await client.query(
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c
       JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = $1 AND c.relkind IN ('r', 'm')`,
      [schema],
    )).rows[0] as { bytes: string };
    return Number(row.bytes);
  } finally {
    await client.end();
  }
}

/** Waits until the schema's pgvector HNSW index on vectors is built and valid. */
async function annIndexReady(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (;;) {
      const row = (await client.query(
        `SELECT bool_and(i.indisvalid) AS valid, count(*)::int AS n FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = $1 AND c.relname LIKE 'vectors_ann%'`,
        [schema],
      )).rows[0] as { valid: boolean | null; n: number };
      if (row.n > 0 && row.valid) return;
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await client.end();
  }
}

async function runBackend(params: { backend: Backend; n: number; queries: number; url: string | null }): Promise<BackendResult> {
  const { backend, n } = params;
  const load0 = loadavg()[0]!;
  const root = mkdtempSync(join(tmpdir(), `cairn-backends-${backend}-`));
  const schema = backend === 'postgres' ? freshSchemaName().replace(/^t_/, 'bench_') : null;
  const corpus = new Corpus({ seed: SEED });
  const synth = new SyntheticEmbedder({ lexicon: corpus.lexicon() });
  const queries = generateQueries(corpus, params.queries, n, SEED + 1);
  const warmups = generateQueries(corpus, WARMUP, n, SEED + 2);
  const config = backend === 'postgres' ? { store: { backend: 'postgres' as const, url: params.url!, schema: schema! } } : {};
  const cairn = await Cairn.open({ home: join(root, 'home'), embedder: synth, config, onNotice: () => undefined });
  try {
    const store = cairn.store;
    log(`${scaleLabel(n)} ${backend}: storing`);
    const targets = new Map<number, string>();
    const wanted = new Set(queries.map((q) => q.target));
    let t0 = now();
    for (let from = 0; from < n; from += STORE_BATCH) {
      const res = await store.addMemories(corpus.batch(from, Math.min(n, from + STORE_BATCH)));
      res.forEach((r, k) => wanted.has(from + k) && targets.set(from + k, r.memory.id));
    }
    const storeS = (now() - t0) / 1000;
    log(`${scaleLabel(n)} ${backend}: ${int(n / storeS)} memories/s; vectors`);
    t0 = now();
    let vectors = 0;
    for (let after = 0; ; ) {
      const page = await store.entriesMissingVector(synth.modelId, VECTOR_BATCH, 'default', after);
      if (page.length === 0) break;
      await store.putVectors(synth.modelId, page.map((e) => ({ seq: e.seq, vector: synth.embedOne(e.text) })));
      vectors += page.length;
      after = page.at(-1)!.seq;
    }
    const vectorS = (now() - t0) / 1000;
    t0 = now();
    await cairn.search(warmups[0]!.text, { mode: 'hybrid', limit: LIMIT });
    // PostgreSQL builds its HNSW index in the background (CREATE INDEX CONCURRENTLY) and answers
    // exactly meanwhile; SQLite's first search builds the in-process graph before it answers. Both
    // are measured once their index is there.
    if (backend === 'postgres') await annIndexReady(params.url!, schema!);
    const firstSearchS = (now() - t0) / 1000;
    const measure = async (mode: 'bm25' | 'hybrid') => {
      for (const w of warmups) await cairn.search(w.text, { mode, limit: LIMIT });
      const wall: number[] = [];
      const cpu: number[] = [];
      let hit = 0;
      for (const q of queries) {
        const c = cpuMs();
        const t = now();
        const res = await cairn.search(q.text, { mode, limit: LIMIT });
        wall.push(now() - t);
        cpu.push(cpuMs() - c);
        if (res.results.some((r) => r.id === targets.get(q.target))) hit++;
      }
      return { wall: dist(wall), cpu: dist(cpu), hit: hit / queries.length };
    };
    const bm25 = await measure('bm25');
    const hybrid = await measure('hybrid');
    log(`${scaleLabel(n)} ${backend}: hybrid p50/p95 ${pair(hybrid.wall)}`);
    await cairn.close();
    const bytes = backend === 'postgres' ? await schemaBytes(params.url!, schema!) : dirBytes(join(root, 'home'));
    return { backend, n, store: { perSec: n / storeS, seconds: storeS }, vectors: { perSec: vectors / vectorS, seconds: vectorS }, firstSearchS, bm25, hybrid, bytes, load: [load0, loadavg()[0]!] };
  } finally {
    await cairn.close().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
    if (schema) await dropSchema(params.url!, schema);
  }
}

function render(results: BackendResult[], meta: Record<string, unknown>): string {
  const rows = results.map((r) => [
    scaleLabel(r.n),
    r.backend,
    `${int(r.store.perSec)}/s`,
    `${int(r.vectors.perSec)}/s`,
    `${r.firstSearchS.toFixed(1)} s`,
    pair(r.bm25.wall),
    pair(r.hybrid.wall),
    pair(r.hybrid.cpu),
    `${(100 * r.hybrid.hit).toFixed(1)} %`,
    `${int(r.bytes / r.n)} B (${mb(r.bytes)})`,
    `${r.load[0].toFixed(1)}→${r.load[1].toFixed(1)}`,
  ]);
  return [
    '# Backends: SQLite and PostgreSQL side by side',
    '',
    `Regenerated by \`npm run bench -- --backend postgres ${(meta.args as string[]).join(' ')}\` on ${meta.date} (${meta.cpus} × ${meta.cpuModel}, ${meta.memGiB} GiB, Node ${meta.node}). Synthetic 512-d vectors (bench/synthetic-embedder.ts); queries from bench/corpus.ts; top 10.`,
    'Wall times include the round trips to PostgreSQL on 127.0.0.1; CPU is this process only.',
    '',
    table(['scale', 'backend', 'bulk store', 'vector writes', 'first search (index build)', 'BM25 p50 / p95', 'hybrid p50 / p95 (wall)', 'hybrid p50 / p95 (CPU)', 'target in top 10', 'bytes per memory', 'load'], rows),
  ].join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (flag: string): string | undefined => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (value('--phase') === 'run') {
    const result = await runBackend(JSON.parse(value('--params')!) as Parameters<typeof runBackend>[0]);
    writeFileSync(value('--out')!, JSON.stringify(result));
    return;
  }
  const scales = (value('--scales') ?? '100k').split(',').map(parseScale);
  const queries = Number(value('--queries') ?? 200);
  const url = value('--database-url') ?? process.env.CAIRN_DATABASE_URL ?? (await testDatabaseUrl());
  const started = now();
  const backends = (value('--backends') ?? 'sqlite,postgres').split(',') as Backend[];
  const results: BackendResult[] = [];
  for (const n of scales) {
    for (const backend of backends) {
      results.push(await runPhase<BackendResult>(fileURLToPath(import.meta.url), 'run', { backend, n, queries, url }));
    }
  }
  if (args.includes('--merge') && existsSync(join(RESULTS_DIR, 'backends.json'))) {
    // Keep the rows of the previous report this run did not measure (e.g. --backends postgres).
    const prev = JSON.parse(readFileSync(join(RESULTS_DIR, 'backends.json'), 'utf8')) as { results: BackendResult[] };
    for (const old of prev.results) if (!results.some((r) => r.n === old.n && r.backend === old.backend)) results.push(old);
    results.sort((a, b) => a.n - b.n || a.backend.localeCompare(b.backend));
  }
  const shown = args.filter((a, i) => a !== '--backend' && args[i - 1] !== '--backend' && a !== '--database-url' && args[i - 1] !== '--database-url');
  const meta = { date: new Date().toISOString(), node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memGiB: Math.round(totalmem() / 2 ** 30), wallS: Math.round((now() - started) / 1000), args: shown };
  const md = render(results, meta);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'backends.md'), md + '\n');
  writeFileSync(join(RESULTS_DIR, 'backends.json'), JSON.stringify({ meta, results }, null, 2) + '\n');
  process.stdout.write(md + '\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`backend bench failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
