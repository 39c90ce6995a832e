// Offline entity extraction, measured: precision, recall and F1 against 100 LoCoMo turns labelled
// by hand (bench/data/entities-locomo-labels.json: names only, keyed by sample id and dia_id; the
// turns are a seeded sample, seed 25), then extraction speed over 100k generated memories.
// A name matches a label when their alias keys are equal. The speaker is not passed: the bench
// measures what the text gives.
// Usage: npm run bench:entities [-- --data PATH] [-- --texts 100000] [-- --show]
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { aliasKey, extractEntities } from '../src/memory/knowledge/entities/index.js';
import { gazetteer } from '../src/memory/places/gazetteer.js';
import { Corpus, Rng } from './corpus.js';
import { loadLocomo } from './locomo.js';
import { dist, int, mb, pct } from './stats.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const dataPath = resolve(arg('data', '../shared/bench/data/locomo10.json'));
const texts = Number(arg('texts', '100000'));
const show = args.includes('--show');
const labelsPath = resolve('bench/data/entities-locomo-labels.json');

interface LabelFile { seed: number; labels: Record<string, string[]> }

/** The sample the labels were written for: `seed` picks 100 turns among all, in file order. */
function sampleKeys(all: readonly string[], seed: number, n: number): string[] {
  const rng = new Rng(seed);
  const picked = new Set<number>();
  while (picked.size < Math.min(n, all.length)) picked.add(rng.int(all.length));
  return [...picked].sort((a, b) => a - b).map((i) => all[i]!);
}

function accuracy(): void {
  const conversations = loadLocomo(dataPath);
  if (!conversations) {
    console.log(`LoCoMo not found at ${dataPath}: precision/recall skipped (see ../shared/bench/README.md).`);
    return;
  }
  const file = JSON.parse(readFileSync(labelsPath, 'utf8')) as LabelFile;
  const turns = new Map<string, { text: string; time: string }>();
  for (const c of conversations) for (const t of c.turns) turns.set(`${c.id} ${t.diaId}`, { text: t.text, time: t.timestamp });
  const expected = sampleKeys([...turns.keys()], file.seed, 100);
  const labelled = Object.keys(file.labels);
  if (expected.join('|') !== labelled.join('|')) console.log('warning: the labels are not the seeded sample of this data file');
  let tp = 0;
  let predicted = 0;
  let gold = 0;
  const misses: string[] = [];
  const extras: string[] = [];
  for (const key of labelled) {
    const turn = turns.get(key);
    if (!turn) continue;
    const want = new Set(file.labels[key]!.map(aliasKey));
    const got = new Set(extractEntities(turn.text, { time: turn.time }).map((m) => aliasKey(m.name)));
    gold += want.size;
    predicted += got.size;
    for (const k of got) if (want.has(k)) tp++;
    else extras.push(`${key}: ${k}`);
    for (const k of want) if (!got.has(k)) misses.push(`${key}: ${k}`);
  }
  const p = predicted ? tp / predicted : 1;
  const r = gold ? tp / gold : 1;
  const f1 = p + r ? (2 * p * r) / (p + r) : 0;
  console.log(`LoCoMo entities, ${labelled.length} turns hand-labelled (${gold} names): precision ${pct(p)} (${tp}/${predicted}), recall ${pct(r)} (${tp}/${gold}), F1 ${pct(f1)}`);
  if (show) {
    console.log(`missed: ${misses.join('; ') || 'none'}`);
    console.log(`extra:  ${extras.join('; ') || 'none'}`);
  }
}

function speed(): void {
  const corpus = new Corpus({ seed: 25 });
  const batch: string[] = [];
  for (let i = 0; i < texts; i++) batch.push(corpus.generate(i).memory.text);
  const t0 = performance.now();
  gazetteer();
  const loadMs = performance.now() - t0;
  const ctx = { time: '2026-01-01T00:00:00Z' };
  const times: number[] = new Array(batch.length);
  let mentions = 0;
  const start = performance.now();
  for (let i = 0; i < batch.length; i++) {
    const s = performance.now();
    mentions += extractEntities(batch[i]!, ctx).length;
    times[i] = performance.now() - s;
  }
  const total = performance.now() - start;
  const d = dist(times);
  console.log(
    `speed over ${int(batch.length)} generated memories: p50 ${d.p50.toFixed(3)} ms, p95 ${d.p95.toFixed(3)} ms per text, ` +
      `${int((batch.length / total) * 1000)} texts/s, ${int(mentions)} mentions, RSS ${mb(process.memoryUsage().rss)} (place names loaded in ${Math.round(loadMs)} ms)`,
  );
}

accuracy();
speed();
