// Two transcript shapes through `cairn ingest` with embeddings on, each under the index's passage
// policies side by side in one run (bench:capture's "Ingest by corpus" table):
// - long agent messages (1–5k characters: prose, code blocks, paths, error messages and stack
//   traces, as a coding agent and its user write them), where passages cost the most;
// - chat turns (20–300 characters, a few speakers), where memories the judge makes of turns used
//   to cost a second embedded text each.
// Each row is a child process on a fresh home, the model, the gazetteer and every stage's modules
// loaded (by a warm-up ingest of a few messages of the same shape) before the clock starts. CPU time is the whole process's (worker threads included); "idle
// machine" divides it by the threads, as a machine with nothing else running would.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { Cairn } from '../src/service/cairn.js';
import { passagesOf, type PassagePolicy } from '../src/embed/passages.js';
import { Rng } from './corpus.js';
import { Texts, hex, logNormal } from './capture-gen.js';

export type CorpusName = 'long agent messages' | 'chat turns';

const DIRS = ['src', 'src/service', 'src/store/sqlite', 'test/helpers', 'bench', 'scripts', 'packages/api/lib'];
const ERRORS = ['TypeError: Cannot read properties of undefined', 'Error: SQLITE_BUSY: database is locked', 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal', 'Error: ENOENT: no such file or directory', 'RangeError: Maximum call stack size exceeded'];
const VERBS = ['load', 'parse', 'flush', 'render', 'resolve', 'index', 'merge', 'retry', 'encode', 'scan'];

function path(rng: Rng, texts: Texts): string {
  return `${rng.pick(DIRS)}/${texts.word(rng).toLowerCase()}-${texts.word(rng).toLowerCase()}.${rng.pick(['ts', 'py', 'json', 'sql', 'md'])}`;
}

function codeBlock(rng: Rng, texts: Texts): string {
  const name = `${rng.pick(VERBS)}${texts.word(rng).replace(/^./, (c) => c.toUpperCase())}`;
  const lines = [`\`\`\`ts`, `export async function ${name}(input: ${texts.word(rng)}Options): Promise<void> {`];
  for (let i = rng.range(3, 14); i > 0; i--) lines.push(`  const ${texts.word(rng).toLowerCase()} = await ${rng.pick(VERBS)}(input.${texts.word(rng).toLowerCase()}, ${rng.range(1, 999)}); // ${texts.word(rng)}`);
  lines.push('}', '```');
  return lines.join('\n');
}

function errorBlock(rng: Rng, texts: Texts): string {
  const frames = Array.from({ length: rng.range(3, 9) }, () => `    at ${rng.pick(VERBS)}${texts.word(rng)} (${path(rng, texts)}:${rng.range(1, 400)}:${rng.range(1, 60)})`);
  return [`${rng.pick(ERRORS)} (reading '${texts.word(rng).toLowerCase()}') in commit ${hex(rng, 7)}`, ...frames].join('\n');
}

/** One message of about `chars` characters: paragraphs of prose between code, paths and errors. */
function longMessage(rng: Rng, texts: Texts, chars: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const r = rng.next();
    const part = r < 0.5 ? texts.prose(rng.range(150, 600)) : r < 0.7 ? codeBlock(rng, texts) : r < 0.85 ? errorBlock(rng, texts) : Array.from({ length: rng.range(2, 6) }, () => `- ${path(rng, texts)}: ${texts.sentence()}`).join('\n');
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join('\n\n');
}

/** Generic JSONL lines of a corpus (deterministic for a seed). */
export function corpusLines(corpus: CorpusName, count: number, seed: number): string[] {
  const rng = new Rng(seed ^ 0x10a9);
  const texts = new Texts(seed);
  const speakers = ['Ana', 'Bruno', 'Chen'];
  let t = Date.UTC(2026, 3, 6, 9, 0, 0);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    t += rng.range(5_000, 300_000);
    const session = `s${Math.floor(i / 40)}`;
    const content = corpus === 'long agent messages'
      ? longMessage(rng, texts, logNormal(rng, 2200, 0.45, 1000, 5000))
      : rng.chance(0.1) ? rng.pick(['ok', 'thanks!', 'sounds good', 'sure', 'haha yes']) : texts.sentences(rng.range(1, 3)).slice(0, 300);
    const role = corpus === 'chat turns' ? 'user' : i % 2 ? 'assistant' : 'user';
    const rec: Record<string, unknown> = { role, content, id: `${corpus === 'chat turns' ? 'c' : 'a'}${i + 1}`, session, timestamp: new Date(t).toISOString() };
    if (corpus === 'chat turns') rec.speaker = speakers[rng.int(speakers.length)];
    out.push(JSON.stringify(rec));
  }
  return out;
}

export interface CorpusRow {
  corpus: CorpusName;
  passages: PassagePolicy;
  messages: number;
  chars: { mean: number; max: number };
  memories: number;
  wallMs: number;
  cpuMs: number;
  threads: number;
  /**
   * CPU time of the main thread alone (Linux: /proc; null elsewhere). The rest of cpuMs is the
   * model's threads and V8's helper threads (garbage collection). An idle machine's wall time
   * cannot go below it: the main thread's work is not shared out.
   */
  mainCpuMs: number | null;
  /** Texts that went through the model (cache misses). */
  modelTexts: number;
  /** Distinct passage texts among them (counted from the stored texts). */
  passageTexts: number;
  /** Texts the indexer before issue 29 would have embedded for the same entries: every entry's index body (memories with their tags and names) and every sentence run. */
  formerTexts: number;
}

/** CPU milliseconds of this process's main thread so far, from /proc (null off Linux). */
function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime (fields 14 and 15 of stat(5)), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * One corpus row. `src`: another tree's src/ folder to ingest with (bench/capture-ab.ts: the base
 * commit's), else this tree's.
 */
export async function phaseCorpus(p: { file: string; warmup: string; home: string; corpus: CorpusName; passages: PassagePolicy; src?: string }): Promise<CorpusRow> {
  const threads = cpus().length;
  const Open = p.src ? ((await import(pathToFileURL(join(p.src, 'service', 'cairn.ts')).href)) as { Cairn: typeof Cairn }).Cairn : Cairn;
  const cairn = await Open.open({ home: p.home, embedThreads: threads, config: { index: { passages: p.passages } } });
  await cairn.ingest([p.warmup], { format: 'jsonl', namespace: 'warmup', final: true }); // loads the model in every thread, and every stage
  // Every text through the model is kept once, by its hash: as an entry's vector row (schema V17)
  // or as a cache row (passages, texts whose rows are gone). The distinct hashes' growth counts them.
  const cacheRows = () => {
    const db = new Database(join(p.home, 'cairn.db'), { readonly: true, fileMustExist: true });
    try {
      return db.prepare('SELECT count(*) FROM (SELECT text_hash FROM vectors WHERE text_hash IS NOT NULL UNION SELECT text_hash FROM embed_cache)').pluck().get() as number;
    } finally {
      db.close();
    }
  };
  const before = cacheRows();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const m0 = mainThreadCpuMs();
  const res = await cairn.ingest([p.file], { format: 'jsonl', namespace: 'bench', final: true });
  const cpu = process.cpuUsage(c0);
  const m1 = mainThreadCpuMs();
  const wallMs = performance.now() - t0;
  await cairn.close();
  if (res.warning) throw new Error(`ingest warning: ${res.warning}`);
  const modelTexts = cacheRows() - before;
  const db = new Database(join(p.home, 'cairn.db'), { readonly: true, fileMustExist: true });
  try {
    const bodies = db.prepare("SELECT body FROM entries WHERE namespace = 'bench' AND embed = 1").pluck().all() as string[];
    const distinct = [...new Set(bodies)];
    const embedTexts = [...new Set(db.prepare(`SELECT CASE WHEN e.kind = 'memory' THEN m.text ELSE e.body END FROM entries e LEFT JOIN memories m ON e.kind = 'memory' AND m.id = e.ref_id WHERE e.namespace = 'bench' AND e.embed = 1`).pluck().all() as string[])];
    // Under 'windows' a text's first window is its own vector, not a model call.
    const passageTexts = new Set(embedTexts.flatMap((t) => passagesOf(t, p.passages).slice(p.passages === 'windows' ? 1 : 0))).size;
    const texts = db.prepare("SELECT text FROM turns WHERE namespace = 'bench'").pluck().all() as string[];
    return {
      corpus: p.corpus,
      passages: p.passages,
      messages: res.turnsInserted,
      chars: { mean: texts.reduce((n, x) => n + x.length, 0) / Math.max(1, texts.length), max: Math.max(0, ...texts.map((x) => x.length)) },
      memories: db.prepare("SELECT count(*) FROM memories WHERE namespace = 'bench'").pluck().get() as number,
      wallMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      mainCpuMs: m0 === null || m1 === null ? null : m1 - m0,
      threads,
      modelTexts,
      passageTexts,
      formerTexts: new Set([...distinct, ...distinct.flatMap((b) => passagesOf(b, 'sentences'))]).size,
    };
  } finally {
    db.close();
  }
}

/** The rows to run: every policy on long messages (the old one is the baseline), the default on chat turns (no passages under any policy). */
export function corpusPlan(quick: boolean): Array<{ corpus: CorpusName; count: number; passages: PassagePolicy }> {
  const long = quick ? 60 : 300;
  const chat = quick ? 400 : 2000;
  return [
    { corpus: 'long agent messages', count: long, passages: 'sentences' },
    { corpus: 'long agent messages', count: long, passages: 'windows' },
    { corpus: 'long agent messages', count: long, passages: 'none' },
    { corpus: 'chat turns', count: chat, passages: 'none' },
  ];
}

export function writeCorpus(file: string, corpus: CorpusName, count: number, seed: number): void {
  writeFileSync(file, corpusLines(corpus, count, seed).join('\n') + '\n');
}

/** CPU ms per message, all threads (the main thread's in brackets when known). */
export function cpuPerMessage(r: CorpusRow): string {
  const main = r.mainCpuMs ?? null;
  return `${(r.cpuMs / r.messages).toFixed(1)}${main === null ? '' : ` (${(main / r.messages).toFixed(1)})`}`;
}

export function renderCorpora(rows: readonly CorpusRow[]): string {
  const f1 = (v: number) => v.toFixed(1);
  const out = [
    '## Ingest by corpus (embeddings on, passage policies side by side)',
    '',
    '`cairn ingest` of a generated generic-JSONL transcript into a fresh home, use-lite on onnxruntime in one worker thread per core, the model and every stage warmed up (8 messages of the same shape) before the clock starts; judge (heuristic) and knowledge pass included. "per CPU s": messages per second of the process\'s CPU time (threads included); "idle machine": CPU time divided by the threads; "CPU ms / msg": all threads, and in brackets the main thread\'s (the rest is the model\'s threads and V8\'s garbage collection threads; an idle machine\'s wall time cannot go below the main thread\'s). "model texts": texts through the model per message (cache misses: own texts, memories\' texts, passages); "before": what the indexer before issue 29 embedded for the same entries (each entry\'s index body, a memory\'s tags and names included, plus every sentence run), counted, not timed. Passage policy `sentences` is that indexer\'s policy; `none` is the default (`windows` until 2026-11-27). Chat turns (300 characters at most) have no passages under any policy.',
    '',
    '| corpus | passages | messages | chars mean / max | memories | msgs/s wall | per CPU s | idle machine | CPU ms / msg (main) | model texts / msg | of which passages | before / msg |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const perCpu = r.messages / (r.cpuMs / 1000);
    out.push(`| ${r.corpus} | ${r.passages} | ${r.messages} | ${Math.round(r.chars.mean)} / ${r.chars.max} | ${r.memories} | ${f1(r.messages / (r.wallMs / 1000))} | ${f1(perCpu)} | ${f1(perCpu * r.threads)} | ${cpuPerMessage(r)} | ${(r.modelTexts / r.messages).toFixed(2)} | ${(r.passageTexts / r.messages).toFixed(2)} | ${(r.formerTexts / r.messages).toFixed(2)} |`);
  }
  return out.join('\n');
}
