// The first `remember` on a large home, in a fresh process (issue 29): a home seeded through
// Store.addMemories has every memory after the knowledge cursor, and the facade's remember used
// to run the whole knowledge pass over that backlog before answering (minutes at 100k memories).
// Seeds one home (no embedder: the cliff is in the knowledge pass, not in vectors), then, for each
// build given, copies the home and times one `Cairn.remember` in a new node process: wall and CPU
// (process.cpuUsage) of the call alone, and how many memories were still behind the cursor after.
//   npx tsx bench/remember-first.ts [--memories 20000] [--baseline <other build's dist dir>]
// The current build is ./dist (npm run build first); --baseline is e.g. a built copy of the
// integration branch before the change, measured in the same run on a copy of the same home.
// Measured 2026-11-27 on the loaded 2-core machine, 10k memories: baseline (integration branch)
// 54.3 s CPU / 200 s wall, the whole backlog taken in; this build 1.8 s CPU / 7.4 s wall, one page
// (200) taken in and 9,801 left to the pages that follow.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Cairn } from '../src/service/cairn.js';
import { Corpus } from './corpus.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const n = Number(arg('memories') ?? 20_000);
const builds: Array<[string, string]> = [];
const baseline = arg('baseline');
if (baseline) builds.push(['baseline', resolve(baseline)]);
builds.push(['this build', resolve('dist')]);

// Runs in the child: opens the home, times one remember, counts the memories the pass left behind.
const CHILD = `
const [dist, home] = process.argv.slice(1);
const { Cairn } = await import(dist + '/service/cairn.js');
const cairn = await Cairn.open({ home, embedder: null, onNotice: () => {} });
const c0 = process.cpuUsage(); const t0 = performance.now();
const out = await cairn.remember({ text: 'Ana moved the staging database to port 6543 on Tuesday', importance: 7 });
const cpu = process.cpuUsage(c0); const wall = performance.now() - t0;
const pending = (await cairn.store.memoriesAfter('default', await cairn.store.knowledgeCursor('default'), 1e9)).length;
console.log(JSON.stringify({ wallMs: wall, cpuMs: (cpu.user + cpu.system) / 1000, pending, duplicate: out.duplicate }));
await cairn.close();
`;

const seedHome = mkdtempSync(join(tmpdir(), 'cairn-remember-first-'));
const t0 = Date.now();
const cairn = await Cairn.open({ home: seedHome, embedder: null, config: {} });
const corpus = new Corpus({ seed: 11 });
for (let from = 0; from < n; from += 1000) await cairn.store.addMemories(corpus.batch(from, Math.min(n, from + 1000)));
await cairn.close();
console.log(`seeded ${n.toLocaleString('en')} memories through Store.addMemories in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log('| build | first remember, wall | CPU | memories still behind the knowledge cursor after it |');
console.log('|---|---|---|---|');
try {
  for (const [label, dist] of builds) {
    const home = mkdtempSync(join(tmpdir(), 'cairn-remember-run-'));
    cpSync(seedHome, home, { recursive: true });
    try {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD, dist, home], { encoding: 'utf8', maxBuffer: 1 << 24 });
      if (r.status !== 0) throw new Error(`${label}: ${r.stderr}`);
      const m = JSON.parse(r.stdout.trim().split('\n').pop()!) as { wallMs: number; cpuMs: number; pending: number };
      console.log(`| ${label} | ${m.wallMs.toFixed(0)} ms | ${m.cpuMs.toFixed(0)} ms | ${m.pending.toLocaleString('en')} |`);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(seedHome, { recursive: true, force: true });
}
