// A long text's passages: runs of its sentences, each embedded on its own beside the whole text.
// The bundled model reads only a text's first 128 tokens, and one vector for a long message blurs
// what its parts say: without passages, the end of a long answer is invisible to vector search.
// Short texts have none: measured on LoCoMo's chat turns, sentence vectors for every multi-sentence
// text moved recall@10 by nothing and made long turns win more often (more tokens returned).

/**
 * Longest passage, and the length past which a text gets passages: about 100 of the bundled
 * model's 128 tokens of English, so a passage fits its window with room to spare.
 */
export const PASSAGE_CHARS = 400;
/** Most passages kept per text: a longer text's sentence runs are joined into this many. */
export const MAX_PASSAGES = 16;

/** The model id under which an entry's passage vectors are stored, beside its own vector. */
export function passageModelId(model: string): string {
  return `${model}#passages`;
}

export function isPassageModel(model: string): boolean {
  return model.endsWith('#passages');
}

/**
 * The passages of a text, in order: consecutive sentences joined up to PASSAGE_CHARS (a longer
 * sentence is a passage of its own). Empty for a text of PASSAGE_CHARS or less, or of one passage:
 * its own vector stands for it. Sentences end at . ! ? … before a capital, digit or quote, and at
 * line breaks.
 */
export function passagesOf(text: string): string[] {
  if (text.length <= PASSAGE_CHARS) return [];
  const sentences = text
    .split(/\n+|(?<=[.!?…])\s+(?=[\p{Lu}\p{N}"'“‘(\[])/u)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
  const runs: string[] = [];
  let run = '';
  for (const s of sentences) {
    if (run && run.length + 1 + s.length > PASSAGE_CHARS) {
      runs.push(run);
      run = s;
    } else run = run ? `${run} ${s}` : s;
  }
  if (run) runs.push(run);
  if (runs.length <= 1) return [];
  if (runs.length <= MAX_PASSAGES) return runs;
  const joined: string[] = [];
  for (let i = 0; i < MAX_PASSAGES; i++) {
    const from = Math.floor((i * runs.length) / MAX_PASSAGES);
    const to = Math.floor(((i + 1) * runs.length) / MAX_PASSAGES);
    joined.push(runs.slice(from, to).join(' '));
  }
  return joined;
}

/** Passage vectors packed end to end, as one stored row (an empty row: the text has none). */
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
