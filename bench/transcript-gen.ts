// Transcript-shaped corpora for the search bench, seeded: sessions of short chat turns among two
// to four people who do not take strict turns, and agent work (a person's short requests, an
// assistant's long answers with code, paths and error messages, tool output in between). Turn i's
// own words are memory i of bench/corpus.ts, so generateQueries() there writes queries about it.
import type { NewTurn } from '../src/core/types.js';
import { Corpus, Rng } from './corpus.js';

export interface TranscriptCorpus {
  turns: NewTurn[];
  /** Corpus index → position in `turns` of the turn that carries its words. */
  carrier: Map<number, number>;
  sessions: number;
}

const START = Date.UTC(2025, 0, 6, 9, 0, 0);
const MINUTE = 60_000;

/** `count` chat turns in sessions of 8–40 turns, one of 2–4 speakers each (the same may speak twice running). */
export function chatTranscript(corpus: Corpus, count: number, namespace: string, seed: number): TranscriptCorpus {
  const rng = new Rng(seed);
  const names = corpus.vocab.names;
  const turns: NewTurn[] = [];
  const carrier = new Map<number, number>();
  let sessions = 0;
  let t = START;
  for (let i = 0; i < count; ) {
    const size = rng.range(8, 40);
    const people = Array.from({ length: rng.range(2, 4) }, () => rng.pick(names));
    const session = `chat-${sessions++}`;
    let speaker = rng.pick(people);
    for (let k = 0; k < size && i < count; k++, i++) {
      if (rng.chance(0.75)) speaker = rng.pick(people.filter((p) => p !== speaker).concat(people.length === 1 ? [speaker] : []));
      carrier.set(i, turns.length);
      turns.push({ namespace, sessionId: session, messageId: `c${i}`, role: 'user', speaker, text: corpus.generate(i).memory.text, timestamp: new Date((t += rng.range(1, 5) * MINUTE)).toISOString(), meta: {} });
    }
    t += rng.range(1, 72) * 60 * MINUTE;
  }
  return { turns, carrier, sessions };
}

const ERRORS = [
  "TypeError: Cannot read properties of undefined (reading 'map')",
  'Error: ENOENT: no such file or directory, open',
  'SqliteError: database is locked',
  'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal',
  'error TS2345: Argument of type string is not assignable to parameter of type number',
  'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
];
const DIRS = ['src/service', 'src/search', 'src/store/sqlite', 'test/store', 'bench', 'src/capture', 'scripts'];

function codeBlock(rng: Rng, words: readonly string[]): string {
  const fn = `${rng.pick(words)}${rng.pick(words).replace(/^./, (c) => c.toUpperCase())}`;
  const lines = [`export function ${fn}(input: string[]): number {`, `  const seen = new Map<string, number>();`];
  for (let k = rng.range(2, 12); k > 0; k--) lines.push(`  if (input.includes('${rng.pick(words)}')) seen.set('${rng.pick(words)}', ${rng.int(1000)});`);
  lines.push('  return seen.size;', '}');
  return ['```ts', ...lines, '```'].join('\n');
}

/**
 * `count` agent messages in sessions of 6–30: a person's short request (corpus text), then the
 * assistant's answer of 1–5k characters (its corpus text first, then more prose, code, a path and
 * an error), with a tool result between them one time in three.
 */
export function agentTranscript(corpus: Corpus, count: number, namespace: string, seed: number): TranscriptCorpus {
  const rng = new Rng(seed);
  const words = corpus.vocab.content.slice(0, 3000);
  const turns: NewTurn[] = [];
  const carrier = new Map<number, number>();
  let sessions = 0;
  let t = START;
  let filler = count;
  for (let i = 0; i < count; ) {
    const size = rng.range(6, 30);
    const session = `agent-${sessions++}`;
    for (let k = 0; k < size && i < count; k++, i++) {
      const at = () => new Date((t += rng.range(5, 90) * 1000)).toISOString();
      const own = corpus.generate(i).memory.text;
      carrier.set(i, turns.length);
      if (k % 2 === 0) {
        turns.push({ namespace, sessionId: session, messageId: `a${i}`, role: 'user', speaker: null, text: own, timestamp: at(), meta: {} });
        if (rng.chance(1 / 3)) {
          const path = `${rng.pick(DIRS)}/${rng.pick(words)}.ts`;
          turns.push({ namespace, sessionId: session, messageId: `a${i}-tool`, role: 'tool', speaker: null, text: `$ grep -n ${rng.pick(words)} ${path}\n${path}:${rng.int(400)}: ${corpus.generate(filler++).memory.text}`, timestamp: at(), meta: { kind: 'tool' } });
        }
        continue;
      }
      const target = rng.range(1000, 5000);
      const parts = [own];
      let length = own.length;
      while (length < target) {
        const r = rng.next();
        const part = r < 0.6 ? corpus.generate(filler++).memory.text : r < 0.8 ? codeBlock(rng, words) : r < 0.9 ? `See ${rng.pick(DIRS)}/${rng.pick(words)}.ts:${rng.int(400)}.` : `${rng.pick(ERRORS)} ${rng.pick(words)}`;
        parts.push(part);
        length += part.length + 2;
      }
      turns.push({ namespace, sessionId: session, messageId: `a${i}`, role: 'assistant', speaker: null, text: parts.join('\n\n').slice(0, 5000), timestamp: at(), meta: {} });
    }
    t += rng.range(1, 48) * 60 * MINUTE;
  }
  return { turns, carrier, sessions };
}
