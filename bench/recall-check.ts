// Evidence recall@k on LoCoMo for the engine's retrievers (BM25, vector, hybrid at several fusion
// weights), through the real facade with every ranking technique off (the ablation's "plain
// hybrid", one hit per result): how the two retrievers and their fusion compare, before the
// techniques `npm run eval:locomo -- --compare` measures. Turns are written to the store the way
// capture writes them; vectors come from the bundled embedder and are cached in .bench-cache/.
// Usage: npm run bench:recall [-- --data PATH] [-- --weights 0.3,0.5,0.7]
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Cairn } from '../src/service/cairn.js';
import { loadTokenizer } from '../src/service/context.js';
import { coveredIds, returnedTexts } from './eval/metrics.js';
import { PLAIN } from './eval/variants.js';
import { CATEGORY_LABELS, loadLocomo, type LocomoConversation } from './locomo.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const dataPath = resolve(arg('data', '../shared/bench/data/locomo10.json'));
const weights = arg('weights', '0.3,0.4,0.5,0.6,0.7').split(',').map(Number);
const home = resolve(arg('home', '.bench-cache/locomo-home'));
const KS = [5, 10, 20];

function nsOf(conv: LocomoConversation): string {
  return conv.id.toLowerCase().replace(/[^a-z0-9._-]/g, '-');
}

async function ingest(conversations: LocomoConversation[]): Promise<void> {
  const cairn = await Cairn.open({ home, config: { embedder: { provider: 'use-lite' } } });
  try {
    for (const conv of conversations) {
      const ns = nsOf(conv);
      await cairn.store.addTurns(
        conv.turns.map((t) => ({
          namespace: ns,
          sessionId: t.sessionId,
          messageId: t.diaId,
          role: 'user',
          speaker: t.speaker,
          text: t.text,
          timestamp: t.timestamp,
          indexText: `${t.timestamp.slice(0, 10)} ${t.speaker}: ${t.text}`,
        })),
      );
    }
    const t0 = performance.now();
    const p = await cairn.embedPending({
      onProgress: (pr) => {
        if (pr.done % 640 === 0) process.stderr.write(`embedded ${pr.done}/${pr.total}\n`);
      },
    });
    process.stderr.write(`embedded ${p.done} (${p.cached} cached) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  } finally {
    await cairn.close();
  }
}

type Row = { label: string; at: Record<number, number>; byCat: Record<number, Record<number, number>>; tokens: Record<number, number> };

async function evaluate(conversations: LocomoConversation[], label: string, mode: 'bm25' | 'vector' | 'hybrid', w: number): Promise<Row> {
  const cairn = await Cairn.open({
    home,
    config: { embedder: { provider: 'use-lite' }, search: { ...PLAIN, bm25Weight: w, vectorWeight: 1 - w } },
  });
  const tokenizer = await loadTokenizer();
  const sums: Record<number, number> = { 5: 0, 10: 0, 20: 0 };
  const tokens: Record<number, number> = { 5: 0, 10: 0, 20: 0 };
  const byCat: Record<number, Record<number, number>> = {};
  const counts: Record<number, number> = {};
  let n = 0;
  try {
    for (const conv of conversations) {
      for (const q of conv.questions) {
        const res = await cairn.search(q.question, { namespace: nsOf(conv), limit: 20, mode });
        const ids = res.results.map((r) => coveredIds(r.provenance));
        const lens = res.results.map((r) => returnedTexts(r).reduce((n, t) => n + tokenizer.count(t), 0));
        for (const k of KS) {
          const top = new Set(ids.slice(0, k).flat());
          const recall = q.evidence.filter((e) => top.has(e)).length / q.evidence.length;
          sums[k]! += recall;
          tokens[k]! += lens.slice(0, k).reduce((a, b) => a + b, 0);
          byCat[q.category] ??= { 5: 0, 10: 0, 20: 0 };
          byCat[q.category]![k]! += recall;
        }
        counts[q.category] = (counts[q.category] ?? 0) + 1;
        n++;
      }
    }
  } finally {
    await cairn.close();
  }
  const at: Record<number, number> = {};
  for (const k of KS) {
    at[k] = sums[k]! / n;
    tokens[k] = tokens[k]! / n;
  }
  for (const c of Object.keys(byCat)) for (const k of KS) byCat[Number(c)]![k] = byCat[Number(c)]![k]! / counts[Number(c)]!;
  return { label, at, byCat, tokens };
}

async function main(): Promise<void> {
  const conversations = loadLocomo(dataPath);
  if (!conversations) {
    console.log(`LoCoMo data not found at ${dataPath}: skipping the recall check.`);
    return;
  }
  process.env.CAIRN_HOME = home;
  if (!existsSync(join(home, 'cairn.db'))) {
    mkdirSync(home, { recursive: true });
    await ingest(conversations);
  }
  const rows: Row[] = [];
  rows.push(await evaluate(conversations, 'BM25 only', 'bm25', 1));
  rows.push(await evaluate(conversations, 'vector only', 'vector', 0));
  for (const w of weights) rows.push(await evaluate(conversations, `hybrid ${w.toFixed(1)}·bm25 + ${(1 - w).toFixed(1)}·vector`, 'hybrid', w));
  console.log('| variant | @5 | @10 | @20 | ' + [1, 2, 3, 4].map((c) => `${c} ${CATEGORY_LABELS[c]} @10`).join(' | ') + ' | tokens @10 |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${r.at[5]!.toFixed(3)} | ${r.at[10]!.toFixed(3)} | ${r.at[20]!.toFixed(3)} | ` +
        [1, 2, 3, 4].map((c) => (r.byCat[c]?.[10] ?? 0).toFixed(3)).join(' | ') +
        ` | ${Math.round(r.tokens[10]!)} |`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
