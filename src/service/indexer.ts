// Keeps vectors current: embeds index entries that have no vector for the active model, and
// their passages under the index's passage policy (embed/passages.ts), through the embedding cache
// (keyed by model + text hash) so unchanged text is never embedded twice. A memory is embedded by
// its own text (the store hands that out, not its index body with entity names and tags, which are
// for BM25), so a memory that states its turn's text word for word takes the turn's cached vector,
// and one that is its turn after the speaker's name ("Ana: …") is made from the turn's vector and
// the name's, with no model call of its own (spokenByName).
import { sha256 } from '../core/text.js';
import { normalize, type Embedder } from '../embed/embedder.js';
import { speakerPrefixed } from '../memory/from-turn.js';
import type { Store } from '../store/store.js';
import { DEFAULT_PASSAGE_POLICY, packVectors, passageModelId, passagesOf, type PassagePolicy } from '../embed/passages.js';

export interface IndexProgress {
  done: number;
  /** Entries that were missing a vector when this pass started. */
  total: number;
  cached: number;
}

export interface IndexerOptions {
  batchSize?: number;
  namespace?: string;
  /** Stop after about this many entries (a daemon interleaves embedding with capture). */
  limit?: number;
  onProgress?: (p: IndexProgress) => void;
  /** The index's passage policy (config `index.passages`). */
  passages?: PassagePolicy;
  /** Only entries up to this seq (the judge's frontier while it runs: runStages). */
  throughSeq?: number;
}

async function countMissing(store: Store, model: string, namespace?: string): Promise<number> {
  const stats = await store.vectorStats(model);
  return stats.filter((s) => namespace === undefined || s.namespace === namespace).reduce((n, s) => n + Math.max(0, s.missing), 0);
}

/**
 * Entries per namespace still waiting for a vector of `model` or for their passages' row: the
 * backlog a killed pass or a capture that did not embed (a hook) left. Index-only counts.
 */
export async function missingVectors(store: Store, model: string, policy: PassagePolicy = DEFAULT_PASSAGE_POLICY): Promise<Map<string, number>> {
  const [own, passages] = await Promise.all([store.vectorStats(model), policy === 'none' ? [] : store.vectorStats(passageModelId(model, policy))]);
  const out = new Map<string, number>();
  for (const s of [...own, ...passages]) out.set(s.namespace, Math.max(out.get(s.namespace) ?? 0, s.missing));
  return out;
}

/**
 * Vectors for texts, each embedded once: from the cache when known (a cache row, or a vector row
 * stored with the text's hash), else embedded. New vectors are cached when `cache` is set; an
 * entry's own text is not, since its vector row keeps its hash (putVectors) and serves as its cache row.
 */
async function embedCached(store: Store, embedder: Embedder, texts: readonly string[], cache: boolean): Promise<{ vectors: Float32Array[]; hashes: string[]; cached: number }> {
  const model = embedder.modelId;
  const hashes = texts.map((t) => sha256(t));
  const known = await store.cacheGet(model, [...new Set(hashes)]);
  const todo = [...new Set(hashes.filter((h) => !known.has(h)))];
  if (todo.length) {
    const textOf = new Map(texts.map((t, i) => [hashes[i]!, t]));
    const vectors = await embedder.embed(todo.map((h) => textOf.get(h)!));
    const fresh = todo.map((h, i) => ({ textHash: h, vector: vectors[i]! }));
    if (cache) await store.cachePut(model, fresh);
    for (const f of fresh) known.set(f.textHash, f.vector);
  }
  return { vectors: hashes.map((h) => known.get(h)!), hashes, cached: texts.length - todo.length };
}

type Batch = ReadonlyArray<{ seq: number; text: string }>;

/**
 * Stores each entry's passage vectors (an empty row for a text without passages). Under 'windows'
 * the first window is the text's start, which its own vector reads: the row holds only the
 * windows after it, and readers take the own vector for the first (search/pipeline/cosines.ts).
 */
async function embedPassages(store: Store, embedder: Embedder, batch: Batch, policy: PassagePolicy): Promise<void> {
  if (policy === 'none') return;
  const todo = batch.map((b) => {
    const passages = passagesOf(b.text, policy);
    return policy === 'windows' ? passages.slice(1) : passages;
  });
  const { vectors } = await embedCached(store, embedder, todo.flat(), true);
  let next = 0;
  await store.putVectors(passageModelId(embedder.modelId, policy), batch.map((b, i) => ({ seq: b.seq, vector: packVectors(vectors.slice(next, (next += todo[i]!.length))) })));
}

/**
 * Embeds the given entries (and their passages under `policy`) through the cache and stores the
 * vectors. Returns how many came from the cache (a memory's vector made from its turn's counts).
 * `fromTurns`: the batch is a backlog of captured entries, where "Name: text" is a memory made
 * from a named turn (spokenByName); a memory a caller stored is embedded as written.
 */
export async function embedEntries(store: Store, embedder: Embedder, batch: Batch, policy: PassagePolicy = DEFAULT_PASSAGE_POLICY, fromTurns = false): Promise<number> {
  if (batch.length === 0) return 0;
  const spoken = fromTurns ? await spokenByName(store, embedder.modelId, batch.map((b) => b.text)) : batch.map(() => null);
  const { vectors, hashes, cached } = await embedCached(store, embedder, batch.map((b, i) => spoken[i]?.text ?? b.text), false);
  const speakers = [...new Set(spoken.flatMap((s) => (s ? [s.speaker] : [])))];
  // A name is embedded once, as "Name:" (closer to what the prefix adds than the bare name), and
  // cached: every memory of that speaker takes it from there.
  const named = speakers.length ? (await embedCached(store, embedder, speakers.map((s) => `${s}:`), true)).vectors : [];
  const nameVector = new Map(speakers.map((s, i) => [s, named[i]!]));
  await store.putVectors(
    embedder.modelId,
    batch.map((b, i) => {
      const s = spoken[i];
      // A blend is no model's output for its text, so it keeps no text hash: it never serves as
      // that text's cached vector (a query of the same words is still embedded by the model).
      return s ? { seq: b.seq, vector: withSpeaker(vectors[i]!, nameVector.get(s.speaker)!) } : { seq: b.seq, vector: vectors[i]!, textHash: hashes[i]! };
    }),
  );
  await embedPassages(store, embedder, batch, policy);
  return cached;
}

/**
 * How much of a memory's vector is its speaker's name (the rest is its turn's vector). Chosen on
 * LoCoMo conversations 0–4 against the model's own "Name: …" vector: recall@10 within 0.002 of it
 * at 0.25, 0.40 and 0.55; 0.40 lost least first-hit and added fewest tokens (docs/BENCHMARKS.md).
 */
export const SPEAKER_WEIGHT = 0.4;

/**
 * For each text that reads "Name: <a text with a vector>" (a memory made from a named turn,
 * memory/from-turn.ts, whose turn was embedded before it or is in this batch): the name and that
 * text. Such a memory's vector is made from its turn's vector and its name's instead of a second
 * model call on nearly the same words (a chat turn cost 1.7 model texts; it now costs about one).
 */
async function spokenByName(store: Store, model: string, texts: readonly string[]): Promise<Array<{ speaker: string; text: string } | null>> {
  const split = texts.map((t) => speakerPrefixed(t));
  const restHash = split.map((s) => (s ? sha256(s.text) : null));
  if (!restHash.some((h) => h !== null)) return split;
  const inBatch = new Set(texts.map((t) => sha256(t)));
  const known = await store.cacheGet(model, [...new Set(restHash.filter((h): h is string => h !== null && !inBatch.has(h)))]);
  return split.map((s, i) => (s && (inBatch.has(restHash[i]!) || known.has(restHash[i]!)) ? s : null));
}

/** The turn's vector moved toward its speaker's name: (1 − w)·turn + w·name, at unit length. */
function withSpeaker(turn: Float32Array, name: Float32Array): Float32Array {
  const out = new Float32Array(turn.length);
  for (let i = 0; i < out.length; i++) out[i] = (1 - SPEAKER_WEIGHT) * turn[i]! + SPEAKER_WEIGHT * name[i]!;
  return normalize(out);
}

/**
 * Embeds missing vectors until none are left: entries with no vector get theirs and their
 * passages'; then entries embedded before passages existed get their passages.
 */
export async function embedPending(store: Store, embedder: Embedder, options: IndexerOptions = {}): Promise<IndexProgress> {
  // Large calls let the embedder sort by length across more texts (less padding per batch).
  const batchSize = Math.min(options.batchSize ?? 256, options.limit ?? Infinity);
  // An entry without its own vector has no passage row either, so the larger count is every entry
  // with anything missing. Index-only counts: with nothing missing, no scan at all.
  const policy = options.passages ?? DEFAULT_PASSAGE_POLICY;
  const passageModel = policy === 'none' ? null : passageModelId(embedder.modelId, policy);
  const missing = await Promise.all([countMissing(store, embedder.modelId, options.namespace), passageModel ? countMissing(store, passageModel, options.namespace) : 0]);
  const total = Math.max(...missing);
  const progress: IndexProgress = { done: 0, total, cached: 0 };
  if (total === 0) return progress;
  const passes: Array<{ model: string; run: (batch: Batch) => Promise<number> }> = [{ model: embedder.modelId, run: (batch) => embedEntries(store, embedder, batch, policy, true) }];
  // Entries embedded before this policy's rows existed.
  if (passageModel) passes.push({ model: passageModel, run: async (batch) => (await embedPassages(store, embedder, batch, policy), 0) });
  for (const pass of passes) {
    let cursor = 0;
    for (;;) {
      if (options.limit !== undefined && progress.done >= options.limit) return progress;
      const page = await store.entriesMissingVector(pass.model, batchSize, options.namespace, cursor);
      const through = options.throughSeq;
      const batch = through === undefined ? page : page.filter((b) => b.seq <= through);
      if (batch.length === 0) break;
      cursor = batch[batch.length - 1]!.seq;
      progress.cached += await pass.run(batch);
      progress.done += batch.length;
      options.onProgress?.({ ...progress, total: Math.max(progress.total, progress.done) });
      if (batch.length < page.length) break; // the rest is past the bound
    }
  }
  return progress;
}

/**
 * Why a search of a namespace with no vector for `model` is keyword-only, with advice that fits:
 * `cairn reembed` only when entries wait for a vector. An empty namespace (often a mistyped name)
 * or one holding only what is never embedded (tool activity, noise) has nothing to reembed.
 */
export async function noVectorsNote(store: Store, model: string, namespace: string): Promise<string> {
  const missing = await countMissing(store, model, namespace);
  if (missing > 0) return `no vectors for ${model} in ${namespace} yet: ${missing} entries wait for one; BM25 only until then (run "cairn reembed", or let "cairn watch" embed them)`;
  const stats = (await store.namespaceStats()).find((s) => s.namespace === namespace);
  if (!stats || stats.memories + stats.turns + stats.documents === 0) return `namespace ${namespace} is empty: nothing stored there yet`;
  return `nothing in ${namespace} is searched by meaning (only tool activity or noise): BM25 only`;
}
