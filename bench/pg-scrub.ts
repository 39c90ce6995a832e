// What PostgreSQL's scrub costs (src/store/postgres/purge-log.ts): a home of N index entries (half
// memories, half turns, each with a 384-dimension vector and the HNSW index over them), one memory
// purged, then
//   baseline: plain VACUUM (ANALYZE) of the same tables (blocks nothing, but leaves the text in the files),
//   scrub:    VACUUM (FULL, ANALYZE) of each table (ACCESS EXCLUSIVE per table while it is copied),
// wall time per table and in all, and the server's CPU (this process only waits). Run:
//   node --import tsx bench/pg-scrub.ts [--entries 50000]
// against CAIRN_TEST_DATABASE_URL or the test server of test/helpers/postgres.ts.
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freshPgStore } from '../test/helpers/postgres.js';
import { entryTerms } from '../src/store/postgres/entry-terms.js';
import { SCRUBBED_TABLES } from '../src/store/postgres/purge-log.js';
import { nearestVectors, putVectors } from '../src/store/postgres/vectors.js';
import { dedupKey } from '../src/core/text.js';

const { values } = parseArgs({ options: { entries: { type: 'string', default: '50000' } } });
const N = Number(values.entries);
const AT = '2026-01-10T12:00:00.000Z';
const WORDS = 'heron kestrel vault deploy friday staging release budget garden plant water river stone cloud lamp'.split(' ');

function sentence(i: number): string {
  return Array.from({ length: 12 + (i % 20) }, (_, k) => WORDS[(i * 31 + k * 7) % WORDS.length]).join(' ') + ` item ${i}`;
}

function vector(i: number): Float32Array {
  return Float32Array.from({ length: 384 }, (_, k) => Math.sin(i * 0.37 + k));
}

async function seed(pool: pg.Pool): Promise<void> {
  await pool.query('INSERT INTO namespaces (id, created_at) VALUES ($1, $2)', ['alpha', AT]);
  const half = Math.floor(N / 2);
  for (let from = 0; from < half; from += 1000) {
    const ids = Array.from({ length: Math.min(1000, half - from) }, (_, k) => from + k);
    const texts = ids.map(sentence);
    await pool.query(
      `INSERT INTO memories (id, namespace, text, dedup_key, category, importance, created_at, updated_at, valid_from)
       SELECT 'm_' || i, 'alpha', t, k, 'fact', 5, $4, $4, $4 FROM unnest($1::int[], $2::text[], $3::text[]) AS u(i, t, k)`,
      [ids, texts, texts.map(dedupKey), AT],
    );
    await pool.query(
      `INSERT INTO turns (id, namespace, session_id, message_id, role, speaker, text, ts, created_at)
       SELECT 't_' || i, 'alpha', 's1', 'msg' || i, 'user', 'Ana', t, $3, $3 FROM unnest($1::int[], $2::text[]) AS u(i, t)`,
      [ids, texts, AT],
    );
    for (const kind of ['memory', 'turn'] as const) {
      const refs = ids.map((i) => `${kind === 'memory' ? 'm' : 't'}_${i}`);
      const terms = texts.map((t) => entryTerms(t, ''));
      const seqs = (await pool.query<{ seq: number }>(
        `INSERT INTO entries (namespace, kind, ref_id, body, time, terms, terms_len)
         SELECT 'alpha', $1, r, b, $5, t::tsvector, l FROM unnest($2::text[], $3::text[], $4::text[], $6::int[]) AS u(r, b, t, l) RETURNING seq`,
        [kind, refs, texts, terms.map((t) => t.terms), AT, terms.map((t) => t.length)],
      )).rows.map((r) => r.seq);
      // Through the store: the int8 bytes and the halfvec embedding its HNSW index is built over.
      await putVectors(pool, 'bench', seqs.map((seq, k) => ({ seq, vector: vector(ids[k]!) })));
    }
  }
}

async function timed(client: pg.PoolClient, sql: string): Promise<number> {
  const t = process.hrtime.bigint();
  await client.query(sql);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** The server's CPU seconds so far (this backend), from /proc when the server is local. */
async function serverCpu(client: pg.PoolClient): Promise<number | null> {
  const pid = (await client.query<{ p: number }>('SELECT pg_backend_pid() AS p')).rows[0]!.p;
  try {
    const { readFileSync } = await import('node:fs');
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return null;
  }
}

async function pass(pool: pg.Pool, label: string, statement: (table: string) => string): Promise<void> {
  const client = await pool.connect();
  try {
    const cpu0 = await serverCpu(client);
    const own = process.cpuUsage();
    const rows: string[] = [];
    let total = 0;
    for (const table of SCRUBBED_TABLES) {
      const ms = await timed(client, statement(table));
      total += ms;
      if (ms >= 50) rows.push(`${table} ${ms.toFixed(0)} ms`);
    }
    const cpu1 = await serverCpu(client);
    const mine = process.cpuUsage(own);
    console.log(`${label}: ${total.toFixed(0)} ms wall, server CPU ${cpu0 === null || cpu1 === null ? 'n/a' : `${(cpu1 - cpu0).toFixed(2)} s`}, this process ${((mine.user + mine.system) / 1000).toFixed(0)} ms CPU`);
    console.log(`  tables over 50 ms: ${rows.join(', ') || 'none'}`);
  } finally {
    client.release(true);
  }
}

const made = await freshPgStore();
try {
  const t0 = Date.now();
  await seed(made.store.pool);
  await nearestVectors(made.store.pool, 'alpha', 'bench', vector(1), 10); // builds the model's HNSW index
  const size = (await made.store.pool.query<{ s: string }>("SELECT pg_size_pretty(sum(pg_total_relation_size(c.oid))) AS s FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'")).rows[0]!.s;
  console.log(`${N} entries (${N / 2} memories, ${N / 2} turns, ${N} vectors of 384 dims with their HNSW index): seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${size} with indexes`);
  await made.store.purgeRecords('alpha', ['m_7']);
  await pass(made.store.pool, 'baseline, plain VACUUM (ANALYZE)', (t) => `VACUUM (ANALYZE) ${t}`);
  await made.store.purgeRecords('alpha', ['m_8']);
  const t1 = Date.now();
  const own = process.cpuUsage();
  const result = await made.store.scrub();
  const mine = process.cpuUsage(own);
  console.log(`store.scrub(): ${Date.now() - t1} ms wall, complete ${result.complete}, this process ${((mine.user + mine.system) / 1000).toFixed(0)} ms CPU`);
  await pass(made.store.pool, 'scrub per table, VACUUM (FULL, ANALYZE)', (t) => `VACUUM (FULL, ANALYZE) ${t}`);
} finally {
  await made.store.close();
  await made.cleanup();
}
