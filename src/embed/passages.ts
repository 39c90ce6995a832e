// A long text's passages, each embedded on its own beside the whole text. The bundled model reads
// only a text's first 128 tokens (≈ 340–450 characters of English), so without passages the end of
// a long message is invisible to vector search (BM25 still reads all of it). Short texts have none:
// measured on LoCoMo's chat turns, sentence vectors for every multi-sentence text moved recall@10
// by nothing and made long turns win more often (more tokens returned).
//
// How many passages a text gets is the index's passage policy (config `index.passages`):
// - 'windows' (default): up to MAX_WINDOWS windows of about the model's reach, spread over the text
//   (its start, its end, evenly between). The first window is what the whole text's vector already
//   reads, so that vector stands for it: the stored row holds only the later windows (readers take
//   the own vector as window 0), and a long text costs at most MAX_WINDOWS model calls whatever its length.
// - 'sentences': every run of sentences up to PASSAGE_CHARS, up to MAX_PASSAGES (a longer text's
//   runs joined into that many, past what the model reads). The policy before windows: on long
//   agent messages about 11 model calls per message.
// - 'none': one vector per text; BM25 covers the rest.
// Each policy's rows are stored under their own model id, so a home can hold several (a bench
// compares them) and a changed policy fills its own rows in on the next pass.

import { DEFAULT_PASSAGE_POLICY_NAME, PASSAGE_POLICY_NAMES, type CairnConfig } from '../core/config.js';

/** The index's passage policy (config `index.passages`). */
export type PassagePolicy = CairnConfig['index']['passages'];
export const PASSAGE_POLICIES: readonly PassagePolicy[] = PASSAGE_POLICY_NAMES;
export const DEFAULT_PASSAGE_POLICY: PassagePolicy = DEFAULT_PASSAGE_POLICY_NAME;

/**
 * Longest passage, and the length past which a text gets passages: about 100 of the bundled
 * model's 128 tokens of English, so a passage fits its window with room to spare.
 */
export const PASSAGE_CHARS = 400;
/** Most passages kept per text under 'sentences': a longer text's sentence runs are joined into this many. */
export const MAX_PASSAGES = 16;
/** Most windows per text under 'windows', the first included (its vector is the whole text's). */
export const MAX_WINDOWS = 3;

const SUFFIX: Record<PassagePolicy, string> = { sentences: '#passages', windows: '#windows', none: '#no-passages' };

/**
 * The model id under which an entry's passage vectors are stored, beside its own vector. The
 * 'sentences' rows keep the id they always had; 'none' names rows that never exist.
 */
export function passageModelId(model: string, policy: PassagePolicy = DEFAULT_PASSAGE_POLICY): string {
  return `${model}${SUFFIX[policy]}`;
}

export function isPassageModel(model: string): boolean {
  return /#(passages|windows|no-passages)$/.test(model);
}

/** The policy a passage model id (passageModelId) was made with; the default for any other id. */
export function passagePolicyOf(passageModel: string): PassagePolicy {
  for (const policy of PASSAGE_POLICIES) if (passageModel.endsWith(SUFFIX[policy])) return policy;
  return DEFAULT_PASSAGE_POLICY;
}

/** Pieces of at most `max` chars, cut at the last space before the limit (or at the limit in a run without one). */
function pieces(s: string, max: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (rest.length > max) {
    const space = rest.lastIndexOf(' ', max);
    const cut = space > max / 2 ? space : max;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

/**
 * Consecutive sentences joined up to PASSAGE_CHARS, in order. Sentences end at . ! ? … before a
 * capital, digit or quote, and at line breaks. With `cut`, a sentence longer than PASSAGE_CHARS
 * is cut into pieces that fit (else it is a run of its own).
 */
function sentenceRuns(text: string, cut: boolean): string[] {
  const sentences = text
    .split(/\n+|(?<=[.!?…])\s+(?=[\p{Lu}\p{N}"'“‘(\[])/u)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s))
    .flatMap((s) => (cut ? pieces(s, PASSAGE_CHARS) : [s]));
  const runs: string[] = [];
  let run = '';
  for (const s of sentences) {
    if (run && run.length + 1 + s.length > PASSAGE_CHARS) {
      runs.push(run);
      run = s;
    } else run = run ? `${run} ${s}` : s;
  }
  if (run) runs.push(run);
  return runs;
}

/**
 * The passages of a text under a policy, in order. Empty for a text of PASSAGE_CHARS or less, of
 * one passage (its own vector stands for it), or under 'none'. Under 'windows' the first passage
 * is the text's start: the indexer stores the whole text's vector for it.
 */
export function passagesOf(text: string, policy: PassagePolicy = DEFAULT_PASSAGE_POLICY): string[] {
  if (policy === 'none' || text.length <= PASSAGE_CHARS) return [];
  const runs = sentenceRuns(text, policy === 'windows');
  if (runs.length <= 1) return [];
  if (policy === 'windows') {
    if (runs.length <= MAX_WINDOWS) return runs;
    // Start and end always, the rest evenly between: what a long message says last (a conclusion,
    // an error at the end of a log) is as likely asked about as what it says first.
    const picked = new Set(Array.from({ length: MAX_WINDOWS }, (_, i) => Math.round((i * (runs.length - 1)) / (MAX_WINDOWS - 1))));
    return [...picked].map((i) => runs[i]!);
  }
  if (runs.length <= MAX_PASSAGES) return runs;
  const joined: string[] = [];
  for (let i = 0; i < MAX_PASSAGES; i++) {
    const from = Math.floor((i * runs.length) / MAX_PASSAGES);
    const to = Math.floor(((i + 1) * runs.length) / MAX_PASSAGES);
    joined.push(runs.slice(from, to).join(' '));
  }
  return joined;
}

/** Passage vectors packed end to end, as one stored row (an empty row: the text has none, or under 'windows' none after the first). */
export function packVectors(vectors: readonly Float32Array[]): Float32Array {
  const dim = vectors[0]?.length ?? 0;
  const out = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => out.set(v, i * dim));
  return out;
}

/** The passage of a packed row closest to `query` (by dot product) and that product; null for an empty or malformed row. */
export function bestPassage(query: Float32Array, packed: Float32Array): { index: number; score: number } | null {
  const dim = query.length;
  if (packed.length === 0 || packed.length % dim !== 0) return null;
  let best = { index: 0, score: -Infinity };
  for (let off = 0; off < packed.length; off += dim) {
    let s = 0;
    for (let i = 0; i < dim; i++) s += query[i]! * packed[off + i]!;
    if (s > best.score) best = { index: off / dim, score: s };
  }
  return best;
}
