// Keeps vectors current: embeds index entries that have no vector for the active model, through
// the embedding cache (keyed by model + text hash) so unchanged text is never embedded twice.
import { sha256 } from '../core/text.js';
import type { Embedder } from '../embed/embedder.js';
import type { Store } from '../store/store.js';

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
}

async function countMissing(store: Store, model: string, namespace?: string): Promise<number> {
  const stats = await store.vectorStats(model);
  return stats.filter((s) => namespace === undefined || s.namespace === namespace).reduce((n, s) => n + Math.max(0, s.missing), 0);
}

/** Embeds the given entries through the cache and stores their vectors. Returns how many came from the cache. */
export async function embedEntries(store: Store, embedder: Embedder, batch: ReadonlyArray<{ seq: number; text: string }>): Promise<number> {
  if (batch.length === 0) return 0;
  const model = embedder.modelId;
  const hashes = batch.map((b) => sha256(b.text));
  const cached = await store.cacheGet(model, [...new Set(hashes)]);
  const todo = [...new Set(hashes.filter((h) => !cached.has(h)))];
  if (todo.length) {
    const textOf = new Map(batch.map((b, i) => [hashes[i]!, b.text]));
    const vectors = await embedder.embed(todo.map((h) => textOf.get(h)!));
    const fresh = todo.map((h, i) => ({ textHash: h, vector: vectors[i]! }));
    await store.cachePut(model, fresh);
    for (const f of fresh) cached.set(f.textHash, f.vector);
  }
  await store.putVectors(model, batch.map((b, i) => ({ seq: b.seq, vector: cached.get(hashes[i]!)! })));
  return batch.length - todo.length;
}

/** Embeds missing vectors until none are left. */
export async function embedPending(store: Store, embedder: Embedder, options: IndexerOptions = {}): Promise<IndexProgress> {
  // Large calls let the embedder sort by length across more texts (less padding per batch).
  const batchSize = Math.min(options.batchSize ?? 256, options.limit ?? Infinity);
  // Index-only counts: with nothing missing, skip the scan for missing vectors altogether.
  const total = await countMissing(store, embedder.modelId, options.namespace);
  const progress: IndexProgress = { done: 0, total, cached: 0 };
  if (total === 0) return progress;
  let cursor = 0;
  for (;;) {
    const batch = await store.entriesMissingVector(embedder.modelId, batchSize, options.namespace, cursor);
    if (batch.length === 0) break;
    cursor = batch[batch.length - 1]!.seq;
    progress.cached += await embedEntries(store, embedder, batch);
    progress.done += batch.length;
    options.onProgress?.({ ...progress, total: Math.max(progress.total, progress.done) });
    if (options.limit !== undefined && progress.done >= options.limit) break;
  }
  return progress;
}
