// PostgreSQL keyword search and vectors at scale, beside SQLite in the same run:
//   node --import tsx bench/pg-entries.ts [entries=100000] [vectors=50000] [dim=384] [vectors-only]
// A synthetic corpus (Zipf-distributed words, 10–60 per entry) in one namespace plus a tenth as
// many in another; keywordSearch p50/p95 wall and CPU (this process, and the PostgreSQL backend
// read from /proc: the server must run on this machine, as test/helpers/postgres.ts starts it);
// the cost of the per-query BM25 statistics; putVectors throughput without and with the HNSW
// index; the index build; nearestVectors latency and recall@10 against exact search.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { INDEX_TEXT_FUNCTION } from '../src/store/sqlite/fts-text.js';
import { decodeVector, encodeVector } from '../src/store/vector-codec.js';
import { buildAnnIndex } from '../src/store/postgres/vectors.js';
import type { NewTurn } from '../src/core/types.js';
import { freshPgStore } from '../test/helpers/postgres.js';
import { tempDir } from '../test/helpers/store-fixtures.js';

const ENTRIES = Number(process.argv[2] ?? 100_000);
const VECTORS = Number(process.argv[3] ?? 50_000);
const DIM = Number(process.argv[4] ?? 384);
const QUERIES = 100;

let seed = 42;
const rand = (): number => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'to', 'sa', 'vel', 'dor', 'an', 'is', 'ur', 'pe', 'gal', 'min', 'os', 'tri'];
const VOCAB = Array.from({ length: 8000 }, (_, i) => {
  let w = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / 16)) w += SYLLABLES[n % 16];
  return w;
});
/** Zipf(1.07) over the vocabulary by inverse CDF on precomputed weights. */
const CDF = (() => {
  const w = VOCAB.map((_, i) => 1 / (i + 1) ** 1.07);
  const total = w.reduce((a, b) => a + b, 0);
  let acc = 0;
  return w.map((x) => (acc += x / total));
})();
function word(): string {
  const r = rand();
  let lo = 0;
  let hi = CDF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CDF[mid]! < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCAB[lo]!;
}
const text = (): string => Array.from({ length: 10 + Math.floor(rand() * 50) }, word).join(' ');

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
const TICK_MS = 10; // USER_HZ = 100 on Linux
function backendCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const fmt = (x: number): string => x.toFixed(2);

async function main(): Promise<void> {
  const made = await freshPgStore({ max: 1 });
  const store = made.store;
  const pool = store.pool;
  const texts = Array.from({ length: ENTRIES }, text);
  const others = Array.from({ length: Math.ceil(ENTRIES / 10) }, text);
  const queries = Array.from({ length: QUERIES }, () => Array.from({ length: 1 + Math.floor(rand() * 4) }, word));
  console.log(`corpus: ${ENTRIES} entries in "big", ${others.length} in "other"; ${QUERIES} queries of 1–4 words`);

  // The synthetic words are already index forms (lower-case ASCII, one lexeme each): both
  // backends index them as they are (PostgreSQL's 'simple' parser gives entry-terms.ts's tsvector
  // for such text, SQLite's index function is the identity here), so loading takes seconds and
  // both hold the same tokens.
  let t = performance.now();
  await pool.query("INSERT INTO namespaces (id, created_at) VALUES ('big', 'x'), ('other', 'x')");
  const load = async (ns: string, list: string[]) => {
    for (let i = 0; i < list.length; i += 5000) {
      await pool.query(
        `INSERT INTO entries (namespace, kind, ref_id, body, time, terms, terms_len)
         SELECT $1, 'turn', $1 || '-' || (r.n + $3), r.body, '2026-01-01T00:00:00.000Z', to_tsvector('simple', r.body), array_length(string_to_array(r.body, ' '), 1)
         FROM unnest($2::text[]) WITH ORDINALITY AS r(body, n)`,
        [ns, list.slice(i, i + 5000), i],
      );
    }
  };
  await load('big', texts);
  await load('other', others);
  await pool.query('VACUUM ANALYZE entries');
  console.log(`postgres load: ${fmt((performance.now() - t) / 1000)} s`);

  const vectorsOnly = process.argv[5] === 'vectors-only';
  const dir = tempDir('cairn-pg-bench-');
  const sqlite = new SqliteStore(join(dir.dir, 'cairn.db'));
  sqlite.db.function(INDEX_TEXT_FUNCTION, { deterministic: true, varargs: true }, (x: unknown) => (typeof x === 'string' ? x : ''));
  t = performance.now();
  const turns = (ns: string, list: string[], from: number): NewTurn[] => list.map((x, i) => ({ namespace: ns, sessionId: 's', messageId: `m${from + i}`, role: 'user', text: x, timestamp: '2026-01-01T00:00:00.000Z' }));
  for (let i = 0; i < (vectorsOnly ? 0 : texts.length); i += 5000) await sqlite.addTurns(turns('big', texts.slice(i, i + 5000), i));
  await sqlite.addTurns(turns('other', others, 0));
  console.log(`sqlite load: ${fmt((performance.now() - t) / 1000)} s`);

  // The pool's one connection (it is replaced after 30 s idle: looked up again before each phase).
  let backend = 0;
  const findBackend = async () => {
    backend = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  };
  await findBackend();

  const statsMs: number[] = [];
  for (let i = 0; i < 30; i++) {
    const s = performance.now();
    await pool.query("SELECT count(*), avg(terms_len) FROM entries WHERE namespace = 'big'");
    statsMs.push(performance.now() - s);
  }
  console.log(`per-query BM25 statistics (count, avg length of "big"): p50 ${fmt(percentile(statsMs, 50))} ms, p95 ${fmt(percentile(statsMs, 95))} ms`);

  await findBackend();
  for (const [label, filter] of vectorsOnly ? [] : ([['OR', undefined], ['AND', { allTerms: true }]] as const)) {
    for (const backendName of ['sqlite', 'postgres'] as const) {
      const wall: number[] = [];
      const cpu0 = cpuMs();
      const server0 = backendName === 'postgres' ? backendCpuMs(backend) : 0;
      let hits = 0;
      for (const q of queries) {
        const s = performance.now();
        const got = backendName === 'postgres' ? await store.keywordSearch('big', q, 20, filter) : await sqlite.keywordSearch('big', q, 20, filter);
        wall.push(performance.now() - s);
        hits += got.length;
      }
      const client = (cpuMs() - cpu0) / QUERIES;
      const server = backendName === 'postgres' ? (backendCpuMs(backend) - server0) / QUERIES : 0;
      console.log(
        `keywordSearch ${label} ${backendName}: p50 ${fmt(percentile(wall, 50))} ms, p95 ${fmt(percentile(wall, 95))} ms, CPU/query ${fmt(client)} ms client` +
          (backendName === 'postgres' ? ` + ${fmt(server)} ms server` : '') + `, ${fmt(hits / QUERIES)} hits/query`,
      );
    }
  }
  await sqlite.close();
  dir.cleanup();

  // Vectors: the first VECTORS entries of "big".
  const seqs = (await pool.query<{ seq: number }>("SELECT seq FROM entries WHERE namespace = 'big' ORDER BY seq LIMIT $1", [VECTORS])).rows.map((r) => r.seq);
  const vec = (i: number): Float32Array => {
    let s = (i * 2654435761) >>> 0 || 1;
    const v = new Float32Array(DIM);
    for (let d = 0; d < DIM; d++) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      v[d] = s / 2 ** 32 - 0.5;
    }
    return v;
  };
  const BATCH = 256;
  const put = async (from: number, to: number, label: string) => {
    await findBackend();
    const s = performance.now();
    const c0 = cpuMs();
    const srv0 = backendCpuMs(backend);
    for (let i = from; i < to; i += BATCH) {
      await store.putVectors('bench', seqs.slice(i, Math.min(to, i + BATCH)).map((seq, j) => ({ seq, vector: vec(i + j) })));
    }
    const secs = (performance.now() - s) / 1000;
    console.log(`putVectors ${label}: ${to - from} vectors of ${DIM} d in batches of ${BATCH}: ${fmt((to - from) / secs)} vectors/s wall, CPU ${fmt((cpuMs() - c0) / (to - from))} ms client per vector (backend of the pool's one connection: ${fmt((backendCpuMs(backend) - srv0) / (to - from))} ms)`);
  };
  const before = Math.floor(VECTORS * 0.8);
  await put(0, before, 'without an HNSW index');
  const query = vec(10_000_000);
  let s = performance.now();
  await store.nearestVectors('big', 'bench', query, 10);
  console.log(`first nearestVectors (exact, the index build starts): ${fmt(performance.now() - s)} ms`);
  s = performance.now();
  await buildAnnIndex(pool, 'bench', DIM);
  console.log(`HNSW build over ${before} vectors: ${fmt((performance.now() - s) / 1000)} s`);
  await put(before, VECTORS, 'with the HNSW index');
  const plan = (await pool.query(
    `EXPLAIN SELECT entry_seq FROM vectors WHERE model = 'bench' AND dim = ${DIM} AND namespace = 'big' ORDER BY embedding::halfvec(${DIM}) <=> $1::halfvec(${DIM}) LIMIT 10`,
    [`[${Array.from(query).join(',')}]`],
  )).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join(' | ');
  console.log(`plan: ${plan.slice(0, 200)}`);
  const all = (await pool.query<{ seq: number; vector: Buffer }>("SELECT entry_seq AS seq, vector FROM vectors WHERE model = 'bench'")).rows.map((r) => ({ seq: r.seq, v: decodeVector(r.vector) }));
  const wall: number[] = [];
  let found = 0;
  const c0 = cpuMs();
  for (let q = 0; q < 50; q++) {
    const qv = decodeVector(encodeVector(vec(20_000_000 + q)));
    s = performance.now();
    const ann = await store.nearestVectors('big', 'bench', qv, 10);
    wall.push(performance.now() - s);
    const norm = Math.hypot(...qv);
    const exact = all
      .map((r) => {
        let dot = 0;
        let n = 0;
        for (let d = 0; d < DIM; d++) {
          dot += r.v[d]! * qv[d]!;
          n += r.v[d]! * r.v[d]!;
        }
        return { seq: r.seq, d: 1 - dot / Math.sqrt(n) / norm };
      })
      .sort((a, b) => a.d - b.d)
      .slice(0, 10);
    const got = new Set(ann.map((h) => h.seq));
    found += exact.filter((e) => got.has(e.seq)).length;
  }
  console.log(`nearestVectors k=10 over ${VECTORS}: p50 ${fmt(percentile(wall, 50))} ms, p95 ${fmt(percentile(wall, 95))} ms, recall@10 ${fmt(found / 500)} (client CPU incl. exact check ${fmt((cpuMs() - c0) / 50)} ms/query)`);
  const size = (await pool.query<{ table: string; indexes: string }>("SELECT pg_size_pretty(pg_table_size('vectors')) AS table, pg_size_pretty(pg_indexes_size('vectors')) AS indexes")).rows[0]!;
  console.log(`vectors table ${size.table}, its indexes ${size.indexes}`);
  await store.close();
  await made.cleanup();
}

await main();
