// What the default install's embedding runtime costs: use-lite on TF.js (always installed) against
// onnxruntime-node (an optional peer dependency since issue 29), in this process, one after the
// other: model load, one short query (what a cold `cairn search` pays) and steady throughput on
// chat-length texts. CPU time (process.cpuUsage, all threads) beside wall time: the machine is shared.
//
// Run alone: node --import tsx bench/embed-runtimes.ts [--texts 256]
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UseLiteEmbedder, type UseLiteRuntime } from '../src/embed/use-lite.js';
import { table } from './stats.js';

export interface RuntimeCost {
  runtime: string;
  loadMs: { wall: number; cpu: number };
  queryMs: { wall: number; cpu: number };
  texts: number;
  perSecWall: number;
  perCpuSec: number;
}

const WORDS = 'the deploy failed again because staging ran out of disk so we moved the database to the new volume and restarted the workers after lunch yesterday'.split(' ');

/** Chat-length texts (8–40 words), deterministic. */
function chatTexts(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const len = 8 + ((i * 7) % 33);
    return Array.from({ length: len }, (_, j) => WORDS[(i * 3 + j * 5) % WORDS.length]).join(' ') + ` #${i}`;
  });
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const c = process.cpuUsage(c0);
  return { value, wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
}

export async function measureRuntime(runtime: Exclude<UseLiteRuntime, 'auto'>, texts: number): Promise<RuntimeCost> {
  // No graph cache: both load from the model package as a first run does.
  const embedder = new UseLiteEmbedder({ runtime });
  try {
    const load = await timed(() => embedder.init());
    const query = await timed(() => embedder.embed(['which port is the staging database on']));
    const input = chatTexts(texts);
    const bulk = await timed(() => embedder.embed(input));
    return {
      runtime,
      loadMs: { wall: load.wall, cpu: load.cpu },
      queryMs: { wall: query.wall, cpu: query.cpu },
      texts,
      perSecWall: (texts / bulk.wall) * 1000,
      perCpuSec: (texts / bulk.cpu) * 1000,
    };
  } finally {
    await embedder.close();
  }
}

export function renderRuntimes(costs: readonly RuntimeCost[]): string {
  const rows = costs.map((c) => [
    c.runtime,
    `${c.loadMs.wall.toFixed(0)} / ${c.loadMs.cpu.toFixed(0)}`,
    `${c.queryMs.wall.toFixed(1)} / ${c.queryMs.cpu.toFixed(1)}`,
    `${c.perSecWall.toFixed(0)}`,
    `${c.perCpuSec.toFixed(0)}`,
  ]);
  return [
    `use-lite on each runtime, in one process (${costs[0]?.texts ?? 0} chat-length texts, batches of 32):`,
    '',
    table(['runtime', 'model load ms (wall / CPU)', 'first query ms (wall / CPU)', 'texts/s wall', 'texts per CPU-s'], rows),
  ].join('\n');
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const at = process.argv.indexOf('--texts');
  const n = at >= 0 ? Number(process.argv[at + 1]) : 256;
  const costs: RuntimeCost[] = [];
  for (const runtime of ['tfjs', 'onnxruntime'] as const) costs.push(await measureRuntime(runtime, n));
  process.stdout.write(renderRuntimes(costs) + '\n');
}
