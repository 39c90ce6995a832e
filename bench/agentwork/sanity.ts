// How hard the agent-work questions are, in one quick run: evidence recall in the top 10 results
// (and in the first result alone) for plain BM25 and for the default hybrid search, on a fresh
// home that captured the generated transcripts. A set that BM25 solves measures nothing.
//   node --import tsx bench/agentwork/sanity.ts [--bm25-only]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import type { DevSet } from '../eval/devset.js';
import { loadAgentWork } from './devset.js';

interface Score {
  /** Mean recall@10 per question category. */
  byCategory: Record<string, number>;
  recall: number;
  first: number;
  questions: number;
  cpuMs: number;
}

async function score(cairn: Cairn, set: DevSet, mode: 'bm25' | 'hybrid'): Promise<Score> {
  let recall = 0;
  let first = 0;
  let questions = 0;
  const cats = new Map<string, { sum: number; n: number }>();
  const cpu = process.cpuUsage();
  for (const c of set.conversations) {
    for (const q of c.questions) {
      const res = await cairn.search(q.question, { namespace: c.id, mode, limit: 10 });
      const ids = (r: (typeof res.results)[number]) => new Set(r.provenance.map((p) => p.messageId));
      const all = new Set(res.results.flatMap((r) => [...ids(r)]));
      const top = res.results[0] ? ids(res.results[0]) : new Set<string>();
      const r = q.evidence.filter((e) => all.has(e)).length / q.evidence.length;
      recall += r;
      const cat = cats.get(q.category) ?? { sum: 0, n: 0 };
      cats.set(q.category, { sum: cat.sum + r, n: cat.n + 1 });
      first += q.evidence.filter((e) => top.has(e)).length / q.evidence.length;
      questions++;
    }
  }
  const used = process.cpuUsage(cpu);
  const byCategory = Object.fromEntries([...cats].sort().map(([k, v]) => [k, v.sum / v.n]));
  return { byCategory, recall: recall / questions, first: first / questions, questions, cpuMs: (used.user + used.system) / 1000 / questions };
}

const line = (name: string, s: Score) =>
  `${name.padEnd(8)} recall@10 ${s.recall.toFixed(3)}  first-hit ${s.first.toFixed(3)}  (${s.questions} questions, ${s.cpuMs.toFixed(1)} ms CPU per search)\n` +
  `         ${Object.entries(s.byCategory).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(' · ')}`;

async function main(): Promise<void> {
  const set = loadAgentWork();
  const dir = mkdtempSync(join(tmpdir(), 'cairn-agentwork-sanity-'));
  const bm25Only = process.argv.includes('--bm25-only');
  const cairn = await Cairn.open({ home: join(dir, 'home'), config: { embedder: bm25Only ? { provider: 'none' } : { provider: 'use-lite' } } });
  try {
    console.log(`agentwork ${set.sha256.slice(0, 12)} (${set.source})`);
    const transcripts = set.writeTranscripts(join(dir, 'transcripts'));
    const wall = Date.now();
    for (const c of set.conversations) {
      const t = transcripts.get(c.id)!;
      await cairn.ingest([t.path], { format: t.format, namespace: c.id, final: true, embed: false });
    }
    console.log(`captured ${set.conversations.reduce((n, c) => n + c.turns.length, 0)} turns in ${((Date.now() - wall) / 1000).toFixed(1)} s`);
    console.log(line('bm25', await score(cairn, set, 'bm25')));
    if (bm25Only) return;
    const embedWall = Date.now();
    for (const c of set.conversations) await cairn.embedPending({ namespace: c.id });
    console.log(`embedded in ${((Date.now() - embedWall) / 1000).toFixed(0)} s`);
    console.log(line('hybrid', await score(cairn, set, 'hybrid')));
  } finally {
    await cairn.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
