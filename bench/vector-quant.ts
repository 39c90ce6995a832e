// `npm run bench:vector-quant`: what storing vectors in fewer bytes costs search, measured on real
// model vectors. Every LoCoMo turn and question is embedded with the bundled use-lite model; each
// on-disk encoding is decoded back and searched exactly (per conversation, cosine) and through a
// usearch HNSW graph built the way src/search/vector-index.ts builds it (i8, M32/96/256):
//   float32 (the layout up to schema V15), f16, int8 with one scale per vector, and int8 with a
//   scale per 128 values (what src/store/sqlite/vector-codec.ts stores since V15).
// Printed: bytes per 512-d vector, cosine with the float32 vector (min / mean), evidence turn in
// the top 10 (question → turns), overlap of the top 10 with float32's, HNSW recall@10 against
// float32's exact top 10.
//
//   npm run bench:vector-quant -- [--data ../shared/bench/data/locomo10.json] [--conversations 10]
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { UseLiteEmbedder } from '../src/embed/use-lite.js';
import { decodeVector, encodeVector } from '../src/store/vector-codec.js';
import { table } from './stats.js';

type UsearchModule = typeof import('usearch');
const require = createRequire(import.meta.url);

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

interface Conversation {
  turns: Array<{ id: string; text: string }>;
  questions: Array<{ text: string; evidence: string[] }>;
}

/** Turns and questions (categories 1–4, with evidence) of the LoCoMo file, read directly. */
function readConversations(path: string, limit: number): Conversation[] {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Array<{
    conversation: Record<string, unknown>;
    qa: Array<{ question: string; evidence?: string[]; category: number }>;
  }>;
  return raw.slice(0, limit).map((c) => {
    const turns: Conversation['turns'] = [];
    for (const [key, value] of Object.entries(c.conversation)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue;
      for (const t of value as Array<{ dia_id: string; text: string; speaker: string }>) turns.push({ id: t.dia_id, text: `${t.speaker}: ${t.text}` });
    }
    const known = new Set(turns.map((t) => t.id));
    const questions = c.qa
      .filter((q) => q.category >= 1 && q.category <= 4)
      .map((q) => ({ text: q.question, evidence: (q.evidence ?? []).filter((e) => known.has(e)) }))
      .filter((q) => q.evidence.length > 0);
    return { turns, questions };
  });
}

// f16 by hand (Node 20 has no Float16Array): round to nearest, subnormals kept.
function toHalf(x: number): number {
  const f = new Float32Array([x]);
  const b = new Uint32Array(f.buffer)[0]!;
  const sign = (b >>> 16) & 0x8000;
  const exp = ((b >>> 23) & 0xff) - 127 + 15;
  const mant = b & 0x7fffff;
  if (exp <= 0) return sign | Math.round((mant | 0x800000) / 2 ** (14 - exp));
  if (exp >= 31) return sign | 0x7c00;
  return sign | ((exp << 10) + Math.round(mant / 8192)); // a mantissa rounding up carries into the exponent
}
function fromHalf(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

interface Encoding {
  name: string;
  bytes: (dim: number) => number;
  roundTrip: (v: Float32Array) => Float32Array;
}

const ENCODINGS: Encoding[] = [
  { name: 'float32 (≤ V15)', bytes: (d) => 4 * d, roundTrip: (v) => v },
  { name: 'f16', bytes: (d) => 2 * d, roundTrip: (v) => Float32Array.from(v, (x) => fromHalf(toHalf(x))) },
  {
    name: 'int8, one scale per vector',
    bytes: (d) => d + 4,
    roundTrip: (v) => {
      const scale = Math.max(...v.map(Math.abs)) / 127 || 1;
      return Float32Array.from(v, (x) => Math.round(x / scale) * scale);
    },
  },
  { name: 'int8, a scale per 128 (V15)', bytes: (d) => encodeVector(new Float32Array(d)).byteLength, roundTrip: (v) => decodeVector(encodeVector(v)) },
];

const dot = (a: Float32Array, b: Float32Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};
const cosine = (a: Float32Array, b: Float32Array): number => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));

/** Exact cosine top k of each query (usearch's brute force), as row numbers. */
function topK(usearch: UsearchModule, queries: readonly Float32Array[], vectors: readonly Float32Array[], k: number): number[][] {
  const dim = vectors[0]!.length;
  const flat = (list: readonly Float32Array[]): Float32Array => {
    const out = new Float32Array(list.length * dim);
    list.forEach((v, i) => out.set(v, i * dim));
    return out;
  };
  const found = usearch.exactSearch(flat(vectors), flat(queries), dim, k, usearch.MetricKind.Cos, 0) as InstanceType<UsearchModule['BatchMatches']>;
  return queries.map((_, j) => Array.from(found.get(j).keys, Number));
}

/** Embeds once per data file: later runs read the vectors back from the temp folder. */
async function embedAll(embedder: UseLiteEmbedder, dataPath: string, conversations: Conversation[]): Promise<{ turns: Float32Array[][]; questions: Float32Array[][] }> {
  const st = statSync(dataPath);
  const cache = join(tmpdir(), `cairn-vector-quant-${st.size}-${Math.round(st.mtimeMs)}-${conversations.length}.json`);
  if (existsSync(cache)) {
    const raw = JSON.parse(readFileSync(cache, 'utf8')) as { turns: number[][][]; questions: number[][][] };
    const back = (l: number[][][]): Float32Array[][] => l.map((c) => c.map((v) => Float32Array.from(v)));
    return { turns: back(raw.turns), questions: back(raw.questions) };
  }
  const turns: Float32Array[][] = [];
  const questions: Float32Array[][] = [];
  for (const c of conversations) {
    turns.push(await embedder.embed(c.turns.map((t) => t.text)));
    questions.push(await embedder.embed(c.questions.map((q) => q.text)));
  }
  const plain = (l: Float32Array[][]): number[][][] => l.map((c) => c.map((v) => Array.from(v)));
  writeFileSync(cache, JSON.stringify({ turns: plain(turns), questions: plain(questions) }));
  return { turns, questions };
}

async function main(): Promise<void> {
  const dataPath = resolve(arg('data', '../shared/bench/data/locomo10.json'));
  const conversations = readConversations(dataPath, Number(arg('conversations', '10')));
  const embedder = new UseLiteEmbedder();
  await embedder.init();
  const t0 = performance.now();
  const { turns: turnVectors, questions: questionVectors } = await embedAll(embedder, dataPath, conversations);
  const turns = turnVectors.flat().length;
  const questions = questionVectors.flat().length;
  process.stderr.write(`vectors of ${turns} turns and ${questions} questions in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  const dim = turnVectors[0]![0]!.length;

  const usearch = require('usearch') as UsearchModule;
  const allFloat = turnVectors.flat();
  const floatTop = topK(usearch, questionVectors.flat(), allFloat, 10);
  const rows: string[][] = [];
  let floatPerConversation: number[][][] | null = null;
  for (const enc of ENCODINGS) {
    let minCos = 1;
    let sumCos = 0;
    const decoded = turnVectors.map((vs) => vs.map((v) => {
      const back = enc.roundTrip(v);
      const c = cosine(v, back);
      minCos = Math.min(minCos, c);
      sumCos += c;
      return back;
    }));
    // Exact search per conversation, as search does over a namespace of a person's size.
    let hits = 0;
    let overlap = 0;
    const perConversation = conversations.map((_, ci) => topK(usearch, questionVectors[ci]!, decoded[ci]!, 10));
    floatPerConversation ??= perConversation;
    conversations.forEach((c, ci) => {
      c.questions.forEach((q, qi) => {
        const top = perConversation[ci]![qi]!;
        if (top.some((i) => q.evidence.includes(c.turns[i]!.id))) hits++;
        const ref = new Set(floatPerConversation![ci]![qi]!);
        overlap += top.filter((i) => ref.has(i)).length / 10;
      });
    });
    // HNSW over every turn of every conversation, against float32's exact top 10.
    const index = new usearch.Index({ dimensions: dim, metric: usearch.MetricKind.Cos, quantization: usearch.ScalarKind.I8, connectivity: 32, expansion_add: 96, expansion_search: 256, multi: false });
    decoded.flat().forEach((v, i) => index.add(BigInt(i), v));
    let found = 0;
    questionVectors.flat().forEach((q, j) => {
      const keys = Array.from(index.search(q, 10, 0).keys, Number);
      const ref = new Set(floatTop[j]!);
      found += keys.filter((k) => ref.has(k)).length;
    });
    rows.push([
      enc.name,
      String(enc.bytes(dim)),
      `${minCos.toFixed(5)} / ${(sumCos / turns).toFixed(6)}`,
      `${((100 * hits) / questions).toFixed(1)}%`,
      `${((100 * overlap) / questions).toFixed(1)}%`,
      `${((100 * found) / (questions * 10)).toFixed(1)}%`,
    ]);
  }
  const out = [
    `LoCoMo ${conversations.length} conversations: ${turns} turns, ${questions} questions; use-lite ${dim}-d on ${embedder.runtime}.`,
    '',
    table(['encoding', `bytes per ${dim}-d vector`, 'cosine with float32 min / mean', 'evidence in exact top 10', 'top 10 shared with float32', 'HNSW recall@10 vs float32 exact'], rows),
  ].join('\n');
  process.stdout.write(`${out}\n`);
  await embedder.close();
}

await main();
