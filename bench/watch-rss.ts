// `npm run bench:watch-rss`: resident memory of a real `cairn watch` serving a large home after
// searches. The home (default 100k memories) has synthetic vectors recorded under use-lite's model
// id (as bench/cold-start.ts does; no passage rows: passages are off by default) and its knowledge pass done, so the daemon
// starts with no backlog: what it holds is what serving searches costs. What a home that has lived
// a while already did once is done in the seeding too: its HNSW index built and saved (a daemon
// saves it every 1,000 added vectors) and use-lite's ONNX graph built into the home's cache; and
// before each start consolidation is marked caught up (otherwise the daemon consolidates every day
// of the generated corpus, 270 of them). The built CLI
// (dist/interfaces/cli/main.js) runs `cairn watch`; `cairn search` processes ask it over its socket.
// Printed: RSS split into anonymous and file-backed pages (/proc/<pid>/status), the file-backed
// pages by file (/proc/<pid>/smaps), the daemon's threads, and its CPU time per search.
//
//   npm run bench:watch-rss -- [--memories 100k] [--searches 100] [--home <dir>] [--keep]
// --home reuses a home an earlier run kept (--keep), skipping the seeding.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Cairn } from '../src/service/cairn.js';
import type { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { USE_LITE_MODEL_ID, UseLiteEmbedder } from '../src/embed/use-lite.js';
import { Corpus, generateQueries } from './corpus.js';
import { SyntheticEmbedder } from './synthetic-embedder.js';
import { int, mb, parseScale, scaleLabel, table } from './stats.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(REPO, 'dist/interfaces/cli/main.js');
const NAMESPACE = 'default';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const log = (msg: string): void => void process.stderr.write(`[watch-rss ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

async function seedHome(n: number, corpus: Corpus): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), `cairn-rss-${scaleLabel(n)}-`));
  const synth = new SyntheticEmbedder({ modelId: USE_LITE_MODEL_ID, lexicon: corpus.lexicon() });
  const cairn = await Cairn.open({ home, embedder: synth, config: {} });
  for (let from = 0; from < n; from += 1000) await cairn.store.addMemories(corpus.batch(from, Math.min(n, from + 1000)));
  const db = (cairn.store as SqliteStore).db;
  const page = db.prepare('SELECT seq, body FROM entries WHERE seq > ? ORDER BY seq LIMIT ?');
  for (let after = 0; ; ) {
    const rows = page.all(after, 5000) as Array<{ seq: number; body: string }>;
    if (rows.length === 0) break;
    await cairn.store.putVectors(USE_LITE_MODEL_ID, rows.map((r) => ({ seq: r.seq, vector: synth.embedOne(r.body) })));
    after = rows[rows.length - 1]!.seq;
  }
  // The knowledge pass has taken every memory in (a home of this size had months to).
  db.prepare('INSERT INTO knowledge_state (namespace, cursor) VALUES (?, (SELECT MAX(seq) FROM memories)) ON CONFLICT (namespace) DO UPDATE SET cursor = excluded.cursor').run(NAMESPACE);
  db.pragma('wal_checkpoint(TRUNCATE)');
  // One search builds the namespace's HNSW index; close() saves it into <home>/index.
  await cairn.search([...corpus.lexicon().keys()][0] ?? 'memory');
  await cairn.close();
  // The graph a daemon's first model load writes into the home's cache.
  const model = new UseLiteEmbedder({ runtime: 'onnxruntime', cacheDir: cairn.paths.cacheDir });
  await model.init();
  await model.close();
  return home;
}

/**
 * Marks consolidation as caught up just now. Written before every start, a kept home included: a
 * scheduled firing missed since the last mark (the day's 10:00 sync, say) would make the daemon
 * consolidate every day of the generated corpus and embed the thousands of notes it writes.
 */
function markConsolidated(home: string): void {
  mkdirSync(join(home, 'run'), { recursive: true });
  writeFileSync(join(home, 'run', 'consolidation.json'), JSON.stringify({ lastRunAt: new Date().toISOString(), trigger: 'catch-up' }) + '\n');
}

function env(home: string): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: home };
  delete e.NODE_OPTIONS;
  delete e.CAIRN_TEST;
  delete e.NODE_TEST_CONTEXT;
  return e;
}

interface Memory {
  rss: number;
  anon: number;
  file: number;
  threads: number;
  /** Resident bytes per mapped file (basename), largest first; anonymous mappings as "[anon]". */
  byMapping: Array<[string, number]>;
  cpuMs: number;
}

function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  const byMapping = new Map<string, number>();
  let current = '[anon]';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const path = head[1]!.trim();
      current = path === '' ? '[anon]' : path.startsWith('[') ? path : basename(path);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) byMapping.set(current, (byMapping.get(current) ?? 0) + Number(rss[1]) * 1024);
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]); // utime + stime, fields 14 and 15
  return {
    rss: kb('VmRSS'),
    anon: kb('RssAnon'),
    file: kb('RssFile') + kb('RssShmem'),
    threads: Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 0),
    byMapping: [...byMapping.entries()].sort((a, b) => b[1] - a[1]),
    cpuMs: (ticks * 1000) / 100,
  };
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`no built CLI at ${CLI}: run npm run build`);
  const n = parseScale(arg('memories') ?? '100k');
  const searches = Number(arg('searches') ?? 100);
  const corpus = new Corpus({ seed: 42 });
  let home = arg('home');
  const seeded = !home;
  if (!home) {
    log(`seeding a home of ${int(n)} memories…`);
    const t0 = performance.now();
    home = await seedHome(n, corpus);
    log(`seeded ${home} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const queries = generateQueries(corpus, searches, n, 7).map((q) => q.text);
  markConsolidated(home);
  const child = spawn(process.execPath, [CLI, 'watch', '--quiet'], { env: env(home), stdio: 'ignore' });
  const exited = new Promise<void>((r) => child.on('close', () => r()));
  try {
    const until = Date.now() + 600_000; // a home of an earlier schema migrates first
    while (!existsSync(join(home, 'cairn.sock'))) {
      if (Date.now() > until || child.exitCode !== null) throw new Error('cairn watch did not open its search socket within 600 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    const started = memoryOf(child.pid!);
    let answered = 0;
    for (const q of queries) {
      const r = spawnSync(process.execPath, [CLI, 'search', q, '--json'], { env: { ...env(home), CAIRN_DEBUG: '1' }, encoding: 'utf8' });
      if (r.status === 0 && /answered by the running daemon/.test(r.stderr)) answered++;
    }
    await new Promise((r) => setTimeout(r, 1000));
    const after = memoryOf(child.pid!);
    const cpuPerSearch = (after.cpuMs - started.cpuMs) / Math.max(1, answered);
    // A daemon loads the brief's tokenizer only when asked for a brief (`cairn context`): its cost, apart.
    const brief = spawnSync(process.execPath, [CLI, 'context', '--json'], { env: { ...env(home), CAIRN_DEBUG: '1' }, encoding: 'utf8' });
    const briefAnswered = brief.status === 0 && /answered by the running daemon/.test(brief.stderr);
    await new Promise((r) => setTimeout(r, 1000));
    const afterBrief = memoryOf(child.pid!);
    const rows = [
      ['RSS after start (socket open)', `${mb(started.rss)} (anonymous ${mb(started.anon)}, file-backed ${mb(started.file)})`],
      [`**RSS after ${answered} of ${searches} searches answered by the daemon**`, `**${mb(after.rss)}** (anonymous ${mb(after.anon)}, file-backed ${mb(after.file)})`],
      [`RSS after one brief as well (\`cairn context\`${briefAnswered ? '' : ', not answered by the daemon'}: loads the brief's tokenizer)`, `${mb(afterBrief.rss)} (anonymous ${mb(afterBrief.anon)})`],
      ['threads', String(after.threads)],
      ['daemon CPU per search (whole process)', `${cpuPerSearch.toFixed(1)} ms`],
      ['resident by mapping (largest)', after.byMapping.slice(0, 8).map(([name, bytes]) => `${name} ${mb(bytes)}`).join(', ')],
    ];
    const indexFiles = existsSync(join(home, 'index')) ? readdirSync(join(home, 'index'), { recursive: true }).length : 0;
    process.stdout.write(`\`cairn watch\` on a ${scaleLabel(n)} home (${indexFiles} index files), ${searches} searches through \`cairn search --json\`.\n\n${table(['metric', 'value'], rows)}\n`);
  } finally {
    child.kill('SIGTERM');
    await exited;
    if (seeded && !process.argv.includes('--keep')) rmSync(home, { recursive: true, force: true });
    else log(`kept ${home}`);
  }
}

await main();
