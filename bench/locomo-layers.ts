// Flat search against layer-first retrieval (search/layer-first.ts) on LoCoMo, side by side in one
// run. Each conversation goes through the real pipeline into a kept home (capture → judge →
// memory → index), is consolidated as of a week after its last session (its sessions carry
// dates, so every day, review, week, topic and MEMORY.md is due), and every question is asked
// once per strategy through the facade's search, limit 20, results taken in rank order until a
// token budget is spent (as `npm run eval:locomo` scores budgets).
// Usage: npm run bench:layers [-- --data PATH] [-- --conversations N] [-- --out FILE]
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { Cairn } from '../src/service/cairn.js';
import { loadTokenizer } from '../src/service/context.js';
import { BUDGETS, coveredIds, recallAtBudget, recallAtK, returnedTexts, withinBudget, type RankedResult } from './eval/metrics.js';
import { namespaceOf, writeTranscripts } from './eval/locomo/transcripts.js';
import type { SearchResult } from '../src/search/hybrid.js';
import { SEARCH_STRATEGIES, type SearchStrategy } from '../src/search/layer-first.js';
import { CATEGORY_LABELS, loadLocomo, type LocomoConversation } from './locomo.js';
import { digestCoverage } from './layer-coverage.js';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const dataPath = resolve(arg('data', '../shared/bench/data/locomo10.json'));
const out = resolve(arg('out', 'bench/results/locomo-layers.md'));
const LIMIT = 20;
/** Consolidated as of this long after a conversation's last turn: its last week's distill is due by then. */
const SETTLE_MS = 8 * 86_400_000;
/** Session dates are written as local times of no stated zone: read as UTC, so 1:56 pm is a day-window turn. */
const CONFIG = { timezone: 'UTC' };

const all = loadLocomo(dataPath);
if (!all) {
  console.log(`LoCoMo data not found at ${dataPath}: nothing to measure.`);
  process.exit(0);
}
const conversations = all.slice(0, Number(arg('conversations', String(all.length))));
const cacheDir = resolve('.bench-cache/locomo-layers');
const home = join(cacheDir, 'home');
mkdirSync(cacheDir, { recursive: true });
const seconds = (t0: number) => (performance.now() - t0) / 1000;

// Ingest and consolidate. Capture is exactly-once per file and consolidation skips unchanged
// material, so a second run reuses the home.
let t0 = performance.now();
const transcripts = writeTranscripts(join(cacheDir, 'transcripts'), conversations);
const building = await Cairn.open({ home, config: CONFIG, embedThreads: availableParallelism() });
const digests: Record<string, number> = {};
let consolidateSeconds = 0;
try {
  for (const conv of conversations) {
    const ns = namespaceOf(conv);
    await building.ingest([transcripts.get(ns)!], { format: 'jsonl', namespace: ns, final: true });
    const t1 = performance.now();
    const at = new Date(Date.parse(conv.turns.at(-1)!.timestamp) + SETTLE_MS).toISOString();
    await building.consolidate({ namespace: ns, at });
    consolidateSeconds += seconds(t1);
    // Digest sections are index entries like any other: they need their vectors before search.
    await building.embedPending({ namespace: ns });
    for (const d of await building.store.listDigests(ns)) digests[d.kind] = (digests[d.kind] ?? 0) + 1;
    console.log(`${ns}: ingested and consolidated (${seconds(t0).toFixed(0)} s so far)`);
  }
} finally {
  await building.close();
}
const buildSeconds = seconds(t0);

interface Asked {
  conversation: LocomoConversation;
  category: number;
  question: string;
  evidence: readonly string[];
  results: Record<SearchStrategy, RankedResult[]>;
  /** Evidence turns the digest sections of layer-first's answer cover on their own. */
  fromDigests: number;
  /** Layer-first's first result is a digest section. */
  digestFirst: boolean;
}

const sessionOf = (diaId: string) => diaId.slice(0, diaId.indexOf(':'));
/** Groups named by what a question asks, beside LoCoMo's categories (the dataset has no "summarise" or "in what order" wording). */
const GROUPS: Array<{ name: string; test: (q: Asked) => boolean }> = [
  { name: 'evidence in 2+ sessions', test: (q) => new Set(q.evidence.map(sessionOf)).size >= 2 },
  { name: 'lists and counts ("how many", "what activities/books/events…")', test: (q) => /\bhow many\b|\bwhat (activities|events|things|kinds|types|books|places)\b/i.test(q.question) },
  { name: 'order words ("first", "before", "after", "earlier", "later")', test: (q) => /\b(first|before|after|earlier|later)\b/i.test(q.question) },
];

t0 = performance.now();
const tokenizer = await loadTokenizer();
const asked: Asked[] = [];
const cairn = await Cairn.open({ home, config: CONFIG, embedThreads: 0 });
try {
  for (const conv of conversations) {
    const ns = namespaceOf(conv);
    const covers = digestCoverage(cairn.store, ns);
    for (const q of conv.questions) {
      const results = {} as Record<SearchStrategy, RankedResult[]>;
      let fromDigests = 0;
      let digestFirst = false;
      for (const strategy of SEARCH_STRATEGIES) {
        const res = await cairn.search(q.question, { namespace: ns, limit: LIMIT, strategy });
        results[strategy] = await Promise.all(
          res.results.map(async (r: SearchResult) => ({
            ids: r.kind === 'digest' ? await covers(r) : coveredIds(r.provenance),
            tokens: returnedTexts(r).reduce((n, t) => n + tokenizer.count(t), 0),
          })),
        );
        if (strategy === 'layers') {
          const shown = new Set((await Promise.all(res.results.filter((r) => r.kind === 'digest').map(covers))).flat());
          fromDigests = q.evidence.filter((e) => shown.has(e)).length;
          digestFirst = res.results[0]?.kind === 'digest';
        }
      }
      asked.push({ conversation: conv, category: q.category, question: q.question, evidence: q.evidence, results, fromDigests, digestFirst });
    }
    console.log(`${ns}: asked ${conv.questions.length} questions (${seconds(t0).toFixed(0)} s)`);
  }
} finally {
  await cairn.close();
}
const askSeconds = seconds(t0);

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const f3 = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(3));
const int = (x: number) => Math.round(x).toLocaleString('en-US');
const spent = (rs: readonly RankedResult[], b: number) => withinBudget(rs, b).reduce((n, r) => n + r.tokens, 0);

function row(label: string, qs: readonly Asked[]): string[] {
  return SEARCH_STRATEGIES.map((s) => {
    const cells = BUDGETS.flatMap((b) => [f3(mean(qs.map((q) => recallAtBudget(q.evidence, q.results[s], b)))), int(mean(qs.map((q) => spent(q.results[s], b))))]);
    const at = (k: number) => f3(mean(qs.map((q) => recallAtK(q.evidence, q.results[s], k))));
    return `| ${label} | ${qs.length} | ${s} | ${cells.join(' | ')} | ${at(10)} | ${at(20)} |`;
  });
}

const groups: Array<[string, Asked[]]> = [
  ['overall', asked],
  ...Object.entries(CATEGORY_LABELS).map(([c, l]): [string, Asked[]] => [`${c} ${l}`, asked.filter((q) => q.category === Number(c))]),
  ...GROUPS.map((g): [string, Asked[]] => [g.name, asked.filter(g.test)]),
];
const firstIsDigest = asked.filter((q) => q.digestFirst).length;
const anyFromDigests = asked.filter((q) => q.fromDigests > 0).length;
const delta = (b: number) => mean(asked.map((q) => recallAtBudget(q.evidence, q.results.layers, b))) - mean(asked.map((q) => recallAtBudget(q.evidence, q.results.flat, b)));

const lines = [
  '# LoCoMo: flat search against layer-first retrieval',
  '',
  `\`${['npm run bench:layers', ...(argv.length ? ['--', ...argv] : [])].join(' ')}\` (bench/locomo-layers.ts), ${new Date().toISOString().slice(0, 10)}, on ${cpus()[0]?.model.trim() ?? 'unknown CPU'} (${availableParallelism()} cores, shared), Node ${process.version}.`,
  `Data: ${relative(process.cwd(), dataPath) || dataPath}: ${conversations.length} conversations, ${asked.length} questions of categories 1–4. Default configuration (bundled use-lite embedder, heuristic judge, extractive digests), timezone UTC.`,
  `Build ${buildSeconds.toFixed(0)} s (ingest + consolidation + digest vectors; consolidation alone ${consolidateSeconds.toFixed(1)} s; near 0 when the kept home in .bench-cache/locomo-layers/ already holds it), questions ${askSeconds.toFixed(0)} s.`,
  `Digests: ${Object.entries(digests).map(([k, n]) => `${n} ${k}`).join(', ')}.`,
  '',
  'Both strategies search the same home with limit 20. **flat**: the default search, every layer in one ranking. **layers**: the best two digest sections of layers 1–2 (MEMORY.md, reviews, weeks, topics) first, cut to its lines citing a record the flat list of 20 holds (at most 5 lines; a section with none is not shown), then the flat results that stand for a record it cites, then the rest of the flat list (search/layer-first.ts).',
  'Recall @N tok: results taken in rank order while they fit N tokens (o200k), evidence turns found over evidence turns; "tok" is the mean of the tokens so taken. A turn or memory counts for the turns its provenance names (as in `npm run eval:locomo`); a digest section counts for the turns whose words it shows: a record it cites counts when six consecutive words of the record (or all of a shorter one) stand in the section, so a mood line citing six turns shows none of them. A section\'s tokens are all of its text, ids included. @10 and @20 are the top 10 and 20 of the limit-20 list.',
  '',
  '| group | questions | strategy | @500 tok | tok | @1000 tok | tok | @2000 tok | tok | @10 | @20 |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...groups.flatMap(([label, qs]) => row(label, qs)),
  '',
  `Layer-first put a digest section first for ${firstIsDigest} of ${asked.length} questions; for ${anyFromDigests} of them that section showed at least one evidence turn. Layers − flat, overall: ${BUDGETS.map((b) => `${b} tok ${delta(b) >= 0 ? '+' : ''}${delta(b).toFixed(3)}`).join(', ')}.`,
  '',
];
writeFileSync(out, lines.join('\n'));
console.log(lines.join('\n'));
