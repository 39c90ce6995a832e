// A variant's answers kept beside its per-question results (runs/<split>-<variant>.jsonl), with the
// key of everything they depend on: the ingested home, the variant's full config and search call,
// the limits asked, the conversations, and the code that searched (every file under src/). With
// `--reuse` a run takes answers whose key matches instead of asking again, so an ablation can be
// asked by several processes (`--variants` each) and one last run assembles the report of all of
// them in seconds. Any change to the product's code, config or data asks again.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QuestionOutcome } from './metrics.js';
import { hashOf } from './variants.js';

export interface Asked {
  outcomes: QuestionOutcome[];
  seconds: number;
  degraded: string[];
}

interface AnswersMeta {
  key: string;
  seconds: number;
  degraded: string[];
  askedAt: string;
}

const SRC = new URL('../../src/', import.meta.url).pathname;
let sourceHash: string | null = null;

/** sha256 over every file under src/ (path and content), computed once per process. */
export function codeHash(): string {
  if (sourceHash) return sourceHash;
  const h = createHash('sha256');
  const walk = (dir: string, rel: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, `${rel}${entry.name}/`);
      else if (entry.isFile()) h.update(`${rel}${entry.name}\0`).update(readFileSync(path)).update('\0');
    }
  };
  walk(SRC, '');
  return (sourceHash = h.digest('hex'));
}

/** The key answers are kept under: equal only when the same search would be asked again. */
export function answersKey(parts: { home: string; resolved: unknown; search: unknown; limits: readonly number[]; namespaces: readonly string[] }): string {
  return hashOf({ ...parts, code: codeHash() });
}

const metaPath = (jsonl: string) => jsonl.replace(/\.jsonl$/, '.meta.json');

/** Writes the per-question results and, beside them, the key they were asked under. */
export function keepAnswers(jsonl: string, key: string, asked: Asked): void {
  writeFileSync(jsonl, asked.outcomes.map((q) => JSON.stringify(q)).join('\n') + '\n');
  const meta: AnswersMeta = { key, seconds: asked.seconds, degraded: asked.degraded, askedAt: new Date().toISOString() };
  writeFileSync(metaPath(jsonl), JSON.stringify(meta, null, 2) + '\n');
}

/** The answers kept under exactly this key, or null (absent, another key, unreadable). */
export function keptAnswers(jsonl: string, key: string): Asked | null {
  if (!existsSync(jsonl) || !existsSync(metaPath(jsonl))) return null;
  try {
    const meta = JSON.parse(readFileSync(metaPath(jsonl), 'utf8')) as AnswersMeta;
    if (meta.key !== key) return null;
    const outcomes = readFileSync(jsonl, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as QuestionOutcome);
    return { outcomes, seconds: meta.seconds, degraded: meta.degraded };
  } catch {
    return null;
  }
}
