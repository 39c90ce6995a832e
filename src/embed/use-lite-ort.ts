// Runs USE lite on ONNX Runtime's native CPU kernels: the same token ids as the TF.js path and its
// weights with the matrices in int8 (vectors within ~0.998 cosine of TF.js's), ~15× TF.js's
// throughput on this machine (bench/results/capture.md). onnxruntime-node (288 MB: every
// platform's binaries) and onnx-proto (builds the graph) are optional peer dependencies that npm
// does not install; use-lite.ts falls back to TF.js when they cannot load.
import type * as Ort from 'onnxruntime-node';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { basename, dirname } from 'node:path';
import { cachedGraphNames, dropCachedGraph, dropOtherPrepacked, dropPrepackedGraph, findCachedGraph, findPrepackedGraph, graphKey, hostKey, PREPACKED_DATA, prepackedGraphWriter, saveCachedGraph } from './use-lite-graph-cache.js';
import { UseLiteTokenizer } from './use-lite-tokenizer.js';
import { loadUseLiteArtifacts, parseUseLiteVocabulary, readUseLiteFile, useLiteModelDir } from './use-lite-weights.js';
import { loadCachedVocabulary } from './use-lite-vocab-cache.js';
import { keepOnnxRuntimeOffline } from './onnxruntime-offline.js';
import { loadOnnxRuntime } from './onnxruntime-load.js';

export interface UseLiteOrtOptions {
  /** ONNX Runtime intra-op threads (default 1: callers that want more cores run more workers). */
  threads?: number;
  /** Where the built graph is kept between processes (the home's cache folder); none: rebuilt each time. */
  cacheDir?: string;
}

/** What a user runs to add the onnxruntime runtime (beside a global Cairn: with -g). */
export const ORT_INSTALL_HINT = 'ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node@1.30.0 onnx-proto@^8.0.1 (with -g beside a global install of Cairn)';

/** A failed import of an optional package: "not installed" names what to install. */
function importFailure(pkg: string, err: unknown): CairnError {
  const e = err as NodeJS.ErrnoException;
  const absent = (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'MODULE_NOT_FOUND') && e.message.includes(pkg);
  const message = absent
    ? `use-lite on onnxruntime needs the optional package ${pkg}, which is not installed; install it with: ${ORT_INSTALL_HINT}; or set embedder.runtime to "tfjs" (slower, always installed)`
    : `${pkg} is installed but cannot load (${e.message}); reinstall it with: ${ORT_INSTALL_HINT}`;
  return new CairnError(ERROR_CODES.EMBEDDER, message, undefined, { cause: err });
}

/**
 * Creates a session from a plain graph and, with a cache folder, has ONNX Runtime write the graph
 * it prepared (optimised, weights packed for this processor) into the cache as it does, for the
 * next process to map (use-lite-graph-cache.ts).
 */
async function createSaving(
  ort: typeof Ort,
  graph: string | Uint8Array,
  sessionOptions: Ort.InferenceSession.SessionOptions,
  cacheDir: string | undefined,
  key: string,
  maxTokens: number,
  host: string,
): Promise<Ort.InferenceSession> {
  const writer = cacheDir ? prepackedGraphWriter(cacheDir, key, maxTokens, host) : null;
  if (!writer) return typeof graph === 'string' ? ort.InferenceSession.create(graph, sessionOptions) : ort.InferenceSession.create(graph, sessionOptions);
  const saving: Ort.InferenceSession.SessionOptions = {
    ...sessionOptions,
    optimizedModelFilePath: writer.graphPath,
    // ONNX Runtime warns that the graph it writes may hold hardware-specific optimisations: it is
    // kept per processor and runtime version (hostKey) for that reason.
    logSeverityLevel: 3,
    extra: { session: { save_external_prepacked_constant_initializers: '1', optimized_model_external_initializers_file_name: PREPACKED_DATA } },
  };
  let session: Ort.InferenceSession;
  try {
    session = typeof graph === 'string' ? await ort.InferenceSession.create(graph, saving) : await ort.InferenceSession.create(graph, saving);
  } catch (err) {
    writer.discard();
    throw err;
  }
  writer.keep();
  return session;
}

export class UseLiteOrtRunner {
  private constructor(
    private readonly ort: typeof Ort,
    private readonly session: Ort.InferenceSession,
    private readonly tokenizer: UseLiteTokenizer,
    private readonly maxTokens: number,
  ) {}

  /** Throws CairnError(EMBEDDER) when onnxruntime-node is missing or refuses the graph. */
  static async load(options: UseLiteOrtOptions = {}): Promise<UseLiteOrtRunner> {
    let ort: typeof Ort;
    keepOnnxRuntimeOffline();
    try {
      ort = loadOnnxRuntime();
    } catch (err) {
      throw importFailure('onnxruntime-node', err);
    }
    const dir = useLiteModelDir();
    // Both files read synchronously, as bytes: model.json only names the graph (a CRC of them), and
    // the vocabulary comes from the home's cache when it holds it. With an async read, a decode
    // and a JSON.parse of each, these lines took a fresh thread 30 ms wall (25 CPU), now 14 (13).
    const key = graphKey(readUseLiteFile('model.json', dir));
    const tokenizer = new UseLiteTokenizer(loadCachedVocabulary(readUseLiteFile('vocab.json', dir), options.cacheDir, (source) => parseUseLiteVocabulary(source, dir)));
    const host = hostKey(ort.env.versions.node ?? ort.env.versions.common ?? 'unknown');
    const sessionOptions: Ort.InferenceSession.SessionOptions = {
      intraOpNumThreads: Math.max(1, options.threads ?? 1),
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      executionMode: 'sequential',
    };
    let session: Ort.InferenceSession | null = null;
    let maxTokens = 0;
    // Fastest first: the graph as ONNX Runtime prepared it for this processor (already optimised).
    const prepacked = options.cacheDir ? findPrepackedGraph(options.cacheDir, key, host) : null;
    if (prepacked) {
      try {
        session = await ort.InferenceSession.create(prepacked.path, { ...sessionOptions, graphOptimizationLevel: 'disabled' });
        maxTokens = prepacked.maxTokens;
        if (prepacked.others) dropOtherPrepacked(options.cacheDir!, basename(dirname(prepacked.path)));
      } catch {
        dropPrepackedGraph(prepacked); // damaged: written again below
      }
    }
    if (session) return new UseLiteOrtRunner(ort, session, tokenizer, maxTokens);
    const cached = options.cacheDir ? findCachedGraph(options.cacheDir, key) : null;
    if (cached) {
      session = await createSaving(ort, cached.path, sessionOptions, options.cacheDir, key, cached.maxTokens, host).catch(() => {
        dropCachedGraph(cached); // damaged or from an incompatible runtime: rebuilt below
        return null;
      });
      maxTokens = cached.maxTokens;
    }
    if (!session) {
      // onnx-proto writes the graph; a cached graph loads without it.
      const [{ buildUseLiteGraph }, { externalizeWeights }] = await Promise.all([import('./use-lite-onnx.js'), import('./onnx-model.js')]).catch((err: unknown) => {
        throw importFailure('onnx-proto', err);
      });
      const built = buildUseLiteGraph(await loadUseLiteArtifacts(dir));
      try {
        session = await createSaving(ort, built.model, sessionOptions, options.cacheDir, key, built.maxTokens, host);
      } catch (err) {
        throw new CairnError(ERROR_CODES.EMBEDDER, `onnxruntime-node cannot run the use-lite graph: ${(err as Error).message}`, undefined, { cause: err });
      }
      maxTokens = built.maxTokens;
      if (options.cacheDir) saveCachedGraph(options.cacheDir, key, maxTokens, externalizeWeights(built.model, cachedGraphNames(key, maxTokens).weights));
    }
    return new UseLiteOrtRunner(ort, session, tokenizer, maxTokens);
  }

  /**
   * One vector (512 floats, unit length) per text; every text must yield at least one token. Each
   * text is a run of its own: the graph quantises a matmul's input with one scale for the whole
   * run (use-lite-onnx.ts), so texts run together would move each other's vectors (cosine ~0.999),
   * and a text alone is no slower per text than in a padded batch (0.93 against 1.08 ms CPU for a
   * LoCoMo turn in runs of 8).
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const text of texts) out.push(await this.embedOne(text));
    return out;
  }

  private async embedOne(text: string): Promise<Float32Array> {
    const tokens = this.tokenizer.encode(text).slice(0, this.maxTokens);
    const width = Math.max(1, tokens.length);
    const ids = new BigInt64Array(width);
    const mask = new Float32Array(width);
    for (let j = 0; j < tokens.length; j++) {
      ids[j] = BigInt(tokens[j]!);
      mask[j] = 1;
    }
    const shape = [1, width];
    const out = await this.session.run({ ids: new this.ort.Tensor('int64', ids, shape), mask: new this.ort.Tensor('float32', mask, shape) });
    return (out.embedding!.data as Float32Array).slice();
  }

  async dispose(): Promise<void> {
    await this.session.release();
  }
}
