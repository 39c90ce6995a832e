// Cold `cairn search` of this build against another, fresh processes alternating run by run (the
// order flips every round), each build on its own copy of one home: a change of the machine's
// speed during the run lands on both columns, which the cold-start bench's sequential rows cannot
// promise (its rows for one build run one after the other). Every query is new (a random word of
// letters: a digit would load the date parser), so no vector comes from the embedding cache. The
// last line gives the per-round differences (this build less the baseline), which a drift of the
// machine's speed moves far less than either column.
//
//   node --import tsx bench/cold-ab.ts --baseline <another build's dist/bin/cairn.js> --home <a home>
//     [--runs 20] [--mode hybrid|bm25] [--month: the query names a month]
//
// --home: a home to copy, e.g. the cold-start bench's cached 10k home
// (<tmp>/cairn-bench-cache/synthetic-10k-…; `npm run bench:cold` makes it).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Column {
  label: string;
  cli: string;
  home: string;
  wall: number[];
}

const args = process.argv.slice(2);
const value = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

/** A word no query asked before: letters only. */
const freshWord = (): string => Array.from({ length: 7 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

function main(): void {
  const baseline = value('--baseline');
  const template = value('--home');
  if (!baseline || !existsSync(baseline)) throw new Error('--baseline <path of another build of dist/bin/cairn.js> is required');
  if (!template || !existsSync(template)) throw new Error('--home <a home to copy> is required (npm run bench:cold keeps one in the temporary folder)');
  const runs = Number(value('--runs') ?? 20);
  const mode = value('--mode') ?? 'hybrid';
  const env = { ...process.env };
  // As the cold-start bench runs them: a test runner's preload or extra certificates are not a user's.
  delete env.NODE_OPTIONS;
  delete env.NODE_EXTRA_CA_CERTS;
  const scratch = mkdtempSync(join(tmpdir(), 'cairn-cold-ab-'));
  const columns: Column[] = [
    { label: 'this build', cli: join(REPO, 'dist', 'bin', 'cairn.js') },
    { label: `baseline ${baseline}`, cli: resolve(baseline) },
  ].map((c, i) => {
    const home = join(scratch, `home-${i}`);
    cpSync(template, home, { recursive: true });
    return { ...c, home, wall: [] };
  });
  const query = () => `what did we decide ${args.includes('--month') ? 'in June ' : ''}about the ${freshWord()} pipeline`;
  /** One cold search; its wall time, process start to exit. */
  const once = (c: Column): number => {
    const started = performance.now();
    const res = spawnSync(process.execPath, [c.cli, 'search', query(), '--json', '--mode', mode, '--home', c.home], { env, encoding: 'utf8' });
    const wall = performance.now() - started;
    if (res.status !== 0) throw new Error(`${c.label}: exit ${res.status}: ${res.stderr.slice(-1000)}`);
    return wall;
  };
  try {
    // Each home's caches (code cache, model graph) are written by its first runs.
    for (const c of columns) for (let i = 0; i < 2; i++) once(c);
    for (let r = 0; r < runs; r++) {
      for (const c of r % 2 ? columns : [...columns].reverse()) {
        c.wall.push(once(c));
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!.toFixed(0);
  process.stdout.write(`Cold \`cairn search --mode ${mode}\`${args.includes('--month') ? ' (a month named)' : ''}, ${runs} runs each, alternating\n\n| build | wall p25 | wall p50 | wall p75 |\n|---|---|---|---|\n`);
  for (const c of columns) process.stdout.write(`| ${c.label} | ${pct(c.wall, 0.25)} ms | ${pct(c.wall, 0.5)} ms | ${pct(c.wall, 0.75)} ms |\n`);
  // The machine's speed drifts within a run (a p50 moves by tens of ms between hours here): each
  // round's two runs are back to back, so their difference holds still where the columns do not.
  const [current, base] = columns as [Column, Column];
  const differences = current.wall.map((w, r) => w - base.wall[r]!);
  process.stdout.write(`\nThis build less the baseline, round by round: p25 ${pct(differences, 0.25)} ms, p50 ${pct(differences, 0.5)} ms, p75 ${pct(differences, 0.75)} ms\n`);
}

main();
