// Append → searchable: a real `cairn watch` process (default config: bundled embedder, default
// debounce) watches an OpenClaw-layout folder; we append one message at a time and time how long
// until a search through the library finds it (BM25 sees a turn the moment its batch commits;
// the vector follows in the daemon's next embedding slice). Also times the same for a vector hit
// (the turn's own vector stored) so both halves of hybrid search are measured.
// Usage: node --import tsx bench/capture-latency.ts [--appends 20]
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Cairn } from '../src/service/cairn.js';
import { dist } from './stats.js';

const APPENDS = Number(process.argv[process.argv.indexOf('--appends') + 1] ?? 20) || 20;
const CLI = resolve('dist/interfaces/cli/main.js');
const WORDS = 'amber basalt cobalt dune ember fjord garnet harbor indigo juniper kelp lagoon'.split(' ');

function run(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((res, rej) => {
    const c = spawn(process.execPath, [CLI, ...args], { env, stdio: 'inherit' });
    c.on('close', (code) => (code === 0 ? res() : rej(new Error(`cairn ${args.join(' ')} exited ${code}`))));
  });
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'cairn-latency-'));
  const home = join(root, 'home');
  const oc = join(root, '.openclaw');
  const sessions = join(oc, 'agents', 'bench', 'sessions');
  mkdirSync(sessions, { recursive: true });
  const file = join(sessions, 'live.jsonl');
  writeFileSync(file, JSON.stringify({ type: 'session', version: 3, id: 'live', timestamp: new Date().toISOString(), cwd: root }) + '\n');
  const env = { ...process.env, CAIRN_HOME: home, OPENCLAW_STATE_DIR: oc };
  await run(['sources', 'add', 'openclaw'], env);
  const daemon = spawn(process.execPath, [CLI, 'watch', '--quiet'], { env, stdio: 'ignore' });
  const cairn = await Cairn.open({ home, embedder: null });
  const db = new Database(join(home, 'cairn.db'), { readonly: true });
  // Done when the turn has its vector, or was judged not to need one (noise, tool activity).
  const vectorOf = db.prepare("SELECT COUNT(*) AS n FROM entries e WHERE e.kind = 'turn' AND e.body LIKE ? AND (e.embed = 0 OR EXISTS (SELECT 1 FROM vectors v WHERE v.entry_seq = e.seq))");
  try {
    // Let the daemon start and load its model before timing.
    await new Promise((r) => setTimeout(r, 4000));
    const bm25: number[] = [];
    const vector: number[] = [];
    for (let i = 0; i < APPENDS; i++) {
      const token = `${WORDS[i % WORDS.length]}${i}zq`;
      const line = { type: 'message', id: `a${i.toString(16).padStart(7, '0')}`, parentId: null, timestamp: new Date().toISOString(), message: { role: 'user', content: `We decided to move the ${token} staging database to port ${5400 + i} on Friday`, timestamp: Date.now() } };
      const t0 = performance.now();
      appendFileSync(file, JSON.stringify(line) + '\n');
      let found = false;
      let vectored = false;
      while (!found || !vectored) {
        if (!found && (await cairn.search(token, { namespace: 'bench', mode: 'bm25', limit: 1 })).results.length > 0) {
          found = true;
          bm25.push(performance.now() - t0);
        }
        if (found && !vectored && (vectorOf.get(`%${token}%`) as { n: number }).n > 0) {
          vectored = true;
          vector.push(performance.now() - t0);
        }
        if (performance.now() - t0 > 30_000) throw new Error(`append ${i} not searchable after 30 s`);
        await new Promise((r) => setTimeout(r, 10));
      }
      await new Promise((r) => setTimeout(r, 300));
    }
    const b = dist(bm25);
    const v = dist(vector);
    console.log(`append → found by cairn search (BM25): p50 ${b.p50.toFixed(0)} ms, p95 ${b.p95.toFixed(0)} ms, max ${b.max.toFixed(0)} ms (n=${b.n})`);
    console.log(`append → vector stored (hybrid complete): p50 ${v.p50.toFixed(0)} ms, p95 ${v.p95.toFixed(0)} ms, max ${v.max.toFixed(0)} ms (n=${v.n})`);
    console.log(JSON.stringify({ appendToSearchableMs: b, appendToVectorMs: v }));
    const ms = (d: typeof b) => `${d.p50.toFixed(0)} / ${d.p95.toFixed(0)} / ${d.max.toFixed(0)} ms`;
    writeFileSync(
      new URL('./results/capture-latency.md', import.meta.url),
      [
        '# Append → searchable',
        '',
        `Run ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}. Command: \`node --import tsx bench/capture-latency.ts --appends ${APPENDS}\`.`,
        'A real `cairn watch` (default config, bundled embedder) follows an OpenClaw sessions folder; one message is appended at a time.',
        '',
        '| from an appended line until | p50 / p95 / max | target |',
        '| --- | --- | --- |',
        `| \`cairn search\` (BM25) finds it | ${ms(b)} | ≤ 5 s ${b.max <= 5000 ? '✓' : '✗'} |`,
        `| its vector is stored (hybrid complete) | ${ms(v)} | |`,
        '',
      ].join('\n'),
    );
  } finally {
    db.close();
    await cairn.close();
    daemon.kill('SIGTERM');
    await new Promise((r) => daemon.on('close', r));
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
