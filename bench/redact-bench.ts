// What redaction costs on realistic transcript text, and what the secretlint layer adds to it
// (issue 30 item 1). The input is 5 MB of generated OpenClaw transcript (bench/capture-gen.ts:
// prose, tool output, file contents, JSON) with a credential from the test corpora spliced in
// every ~8 KB. Each mode runs over the whole 5 MB at once (the worst case: one huge message) and
// over the same text cut into 2 KB turns (how capture calls it), three times; the median is shown.
//
//   npm run bench:redact            (5 MB)
//   npm run bench:redact -- 20      (20 MB)
import { performance } from 'node:perf_hooks';
import { redactWithLayers, type RedactionLayers } from '../src/capture/redact.js';
import { findLibrarySpans } from '../src/capture/redact-library.js';
import type { Span } from '../src/capture/redact-kinds.js';
import { openClawLines } from './capture-gen.js';
import { passwordCases, providerCases } from '../test/capture/fixtures/credential-shapes.js';
import { credentialCases } from '../test/capture/fixtures/redaction-corpus.js';

const MB = 1024 * 1024;
const SECRET_EVERY = 8 * 1024;
const TURN_CHARS = 2048;
const ROUNDS = 3;

function transcript(bytes: number): { text: string; secrets: number } {
  const cases = [...credentialCases(), ...providerCases(), ...passwordCases()];
  const parts: string[] = [];
  let size = 0;
  let nextSecret = SECRET_EVERY;
  let secrets = 0;
  for (const line of openClawLines({ lines: 1_000_000, seed: 30 })) {
    parts.push(line, '\n');
    size += line.length + 1;
    if (size >= nextSecret) {
      const c = cases[secrets % cases.length]!;
      parts.push(JSON.stringify({ type: 'message', message: { role: 'user', content: c.text } }), '\n');
      size += c.text.length + 60;
      secrets++;
      nextSecret += SECRET_EVERY;
    }
    if (size >= bytes) break;
  }
  return { text: parts.join(''), secrets };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timed(run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  return median(times);
}

function main(): void {
  const mb = Number(process.argv[2] ?? 5);
  const { text, secrets } = transcript(mb * MB);
  const turns: string[] = [];
  for (let i = 0; i < text.length; i += TURN_CHARS) turns.push(text.slice(i, i + TURN_CHARS));
  const sizeMb = text.length / MB;
  // Warm up the engines (and JIT) before any timing.
  redactWithLayers(text.slice(0, 256 * 1024), { library: true });

  const modes: Array<[string, RedactionLayers]> = [
    ['hand-written only', { library: false }],
    ['hand-written + secretlint', { library: true }],
  ];
  const rows: string[][] = [];
  for (const [name, layers] of modes) {
    let counted = 0;
    const whole = timed(() => {
      counted = Object.values(redactWithLayers(text, layers).counts).reduce((a, b) => a + b, 0);
    });
    const perTurn = timed(() => {
      for (const turn of turns) redactWithLayers(turn, layers);
    });
    rows.push([name, `${whole.toFixed(0)} ms`, `${(sizeMb / (whole / 1000)).toFixed(1)} MB/s`, `${perTurn.toFixed(0)} ms`, `${(sizeMb / (perTurn / 1000)).toFixed(1)} MB/s`, String(counted)]);
  }
  const libraryAlone = timed(() => {
    const out: Span[] = [];
    findLibrarySpans(text, out);
  });
  rows.push(['secretlint layer alone', `${libraryAlone.toFixed(0)} ms`, `${(sizeMb / (libraryAlone / 1000)).toFixed(1)} MB/s`, '', '', '']);

  console.log(`redaction of ${sizeMb.toFixed(2)} MB of transcript text with ${secrets} credentials spliced in (median of ${ROUNDS})\n`);
  console.log('| mode | one 5 MB text | throughput | 2 KB turns | throughput | secrets redacted |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

main();
