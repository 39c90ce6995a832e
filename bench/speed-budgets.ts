// `npm run bench:budgets`: the speed properties the tests used to assert with wall-clock bounds,
// measured here instead (a test must pass on a busy machine; a benchmark runs on a quiet one).
// Each case runs a few times and its median is compared with its budget, a few times what it
// takes on an idle 2-core machine: a super-linear pattern or a slow path blows through it, a
// normal machine does not. Exits 1 when a median is over its budget.
//
//   - the heuristic judge: a 100 KB turn with 1 MB of context (median of 15), a 1 MB turn
//   - redaction of hostile and huge inputs (test/capture/fixtures/redaction-hostile.ts), a 1 MB
//     credential-word salad, a 5 MB transcript with secrets throughout
//   - removeTagged over 200,000 unclosed tags
//   - parsing a 5 MB line in every transcript format
//
// Run: npm run bench:budgets [-- --runs 3]. Capture latency (a line searchable within seconds of
// being written) has its own benchmark: bench/capture-latency.ts.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { judgeHeuristic, type JudgeInput } from '../src/judge/heuristic.js';
import { redact } from '../src/capture/redact.js';
import { removeTagged } from '../src/capture/clean.js';
import { parseLines, TRANSCRIPT_FORMATS } from '../src/capture/formats/index.js';
import { credentialWordSalad, hostileInputs, transcriptWithSecrets } from '../test/capture/fixtures/redaction-hostile.js';
import { table } from './stats.js';

interface Case {
  name: string;
  budgetMs: number;
  runs?: number;
  run: () => unknown;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function cases(): Case[] {
  const out: Case[] = [];
  const sentence = 'We decided to move the staging DB to port 5433 on Friday because the old one kept failing. ';
  const text100k = sentence.repeat(Math.ceil(100_000 / sentence.length)).slice(0, 100_000);
  const text1m = text100k.repeat(10);
  const turn = (text: string, extra: Partial<JudgeInput> = {}): JudgeInput => ({ text, role: 'user', speaker: null, timestamp: '2026-03-02T10:00:00.000Z', ...extra });
  const withContext = turn(text100k, { context: [{ role: 'user', speaker: null, text: text1m }] });
  out.push({ name: 'heuristic judge: 100 KB turn, 1 MB context', budgetMs: 25, runs: 15, run: () => judgeHeuristic(withContext) });
  out.push({ name: 'heuristic judge: 1 MB turn', budgetMs: 100, run: () => judgeHeuristic(turn(text1m)) });

  for (const h of hostileInputs()) out.push({ name: `redact: ${h.name}`, budgetMs: h.budgetMs, run: () => redact(h.text) });
  const salad = credentialWordSalad();
  out.push({ name: 'redact: 1 MB credential-word salad', budgetMs: 1000, run: () => redact(salad) });
  const transcript = transcriptWithSecrets().text;
  out.push({ name: 'redact: 5 MB transcript with secrets', budgetMs: 1000, run: () => redact(transcript) });

  const tags = '<x>'.repeat(200_000);
  out.push({ name: 'removeTagged: 200,000 unclosed tags', budgetMs: 250, run: () => removeTagged(tags, '<x>', '</x>') });

  const big = `${'All work and no play. '.repeat(240_000)}THE END`;
  const lineOf: Record<string, (text: string) => string> = {
    openclaw: (text) => JSON.stringify({ type: 'message', id: 'g1', timestamp: '2026-03-02T09:00:00Z', message: { role: 'user', content: text } }),
    'claude-code': (text) => JSON.stringify({ type: 'user', uuid: 'g1', sessionId: 's', timestamp: '2026-03-02T09:00:00Z', message: { role: 'user', content: text } }),
    jsonl: (text) => JSON.stringify({ role: 'user', id: 'g1', content: text, timestamp: '2026-03-02T09:00:00Z' }),
  };
  for (const format of TRANSCRIPT_FORMATS) {
    const line = lineOf[format]?.(big);
    if (line) out.push({ name: `parse a 5 MB line: ${format}`, budgetMs: 1500, run: () => parseLines(format, [line], { sessionId: 's' }) });
  }
  return out;
}

function main(): void {
  const runs = arg('runs', 3);
  const [load1] = loadavg();
  const cores = cpus().length;
  console.log(`speed budgets: ${cores} cores, load average ${load1!.toFixed(2)}${load1! > cores ? ' (busy: medians may exceed budgets that an idle machine meets)' : ''}`);
  const rows: string[][] = [];
  let over = 0;
  for (const c of cases()) {
    c.run(); // warm-up: compiled patterns, JIT
    const times: number[] = [];
    for (let i = 0; i < (c.runs ?? runs); i++) {
      const t0 = performance.now();
      c.run();
      times.push(performance.now() - t0);
    }
    const m = median(times);
    const ok = m <= c.budgetMs;
    if (!ok) over++;
    rows.push([c.name, m.toFixed(1), String(c.budgetMs), ok ? 'ok' : 'OVER']);
  }
  console.log(table(['case', 'median ms', 'budget ms', ''], rows));
  if (over > 0) {
    console.error(`${over} case(s) over budget`);
    process.exitCode = 1;
  }
}

main();
