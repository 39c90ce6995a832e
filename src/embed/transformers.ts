// Embeddings from an ONNX sentence-embedding model run by transformers.js (@huggingface/transformers,
// an optional dependency of ~470 MB). Models are read from a local folder; with allowRemote they are
// downloaded once into that same folder, so the next start needs no network.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EmbedderConfig } from '../core/config.js';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { normalize, type Embedder, type EmbedderInfo } from './embedder.js';
import { keepOnnxRuntimeOffline } from './onnxruntime-offline.js';

export type TransformersEmbedderConfig = Extract<EmbedderConfig, { provider: 'transformers' }>;

const PACKAGE = '@huggingface/transformers';
const INSTALL_HINT = `ONNXRUNTIME_NODE_INSTALL=skip npm install ${PACKAGE}@^4.3`;

/** The slice of transformers.js this file uses (typed here: the package may be absent at build time). */
interface TensorLike {
  dims: number[];
  data: ArrayLike<number>;
}
interface FeatureExtractor {
  (texts: string[], options: { pooling: 'mean' | 'cls'; normalize: boolean }): Promise<TensorLike>;
  dispose(): Promise<void>;
}
interface TransformersEnv {
  allowLocalModels: boolean;
  allowRemoteModels: boolean;
  localModelPath: string;
  cacheDir: string | null;
  remoteHost: string;
  logLevel: number;
}
export interface TransformersModule {
  env: TransformersEnv;
  pipeline(task: 'feature-extraction', model: string, options: Record<string, unknown>): Promise<FeatureExtractor>;
}

/** transformers.js LogLevel.ERROR: its "not found locally, downloading" warnings are expected noise. */
const LOG_LEVEL_ERROR = 40;
let defaultRemoteHost: string | undefined;

/**
 * The modelId recorded with every vector: `transformers:<model>`, plus `:q8` for the quantized
 * weights and `:cls` for CLS pooling, since either changes the vectors.
 */
export function transformersModelId(config: Pick<TransformersEmbedderConfig, 'model' | 'dtype' | 'pooling'>): string {
  return `transformers:${config.model}${config.dtype === 'q8' ? ':q8' : ''}${config.pooling === 'cls' ? ':cls' : ''}`;
}

export interface TransformersEmbedderOptions {
  /** Texts per model call (default 16; transformers.js pads a batch to its longest text). */
  batchSize?: number;
  /** Loads the package; tests replace it to simulate an absent optional dependency. */
  importModule?: () => Promise<TransformersModule>;
}

/**
 * A transformers.js feature-extraction pipeline. transformers.js keeps its settings in one
 * process-wide `env`, set from this config right before the model loads.
 */
export class TransformersEmbedder implements Embedder {
  readonly modelId: string;
  private readonly batchSize: number;
  private loading: Promise<{ extractor: FeatureExtractor; dimensions: number }> | undefined;

  constructor(
    private readonly config: TransformersEmbedderConfig,
    private readonly options: TransformersEmbedderOptions = {},
  ) {
    this.modelId = transformersModelId(config);
    this.batchSize = Math.max(1, options.batchSize ?? 16);
  }

  /** Loads (or downloads, when allowed) the model and embeds a probe string to learn the dimensions. */
  async init(): Promise<EmbedderInfo> {
    const { dimensions } = await this.load();
    return { modelId: this.modelId, dimensions };
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const { extractor, dimensions } = await this.load();
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      out.push(...(await this.run(extractor, texts.slice(i, i + this.batchSize), dimensions)));
    }
    return out;
  }

  async close(): Promise<void> {
    const pending = this.loading;
    this.loading = undefined;
    if (!pending) return;
    const loaded = await pending.catch(() => undefined); // a failed load has nothing to release
    await loaded?.extractor.dispose();
  }

  private load(): Promise<{ extractor: FeatureExtractor; dimensions: number }> {
    this.loading ??= this.open().catch((err: unknown) => {
      this.loading = undefined;
      throw err;
    });
    return this.loading;
  }

  private async open(): Promise<{ extractor: FeatureExtractor; dimensions: number }> {
    const cfg = this.config;
    const root = resolve(cfg.path);
    const modelDir = join(root, cfg.model);
    const onnxFile = cfg.dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
    if (!cfg.allowRemote) {
      const missing = ['config.json', 'tokenizer.json', onnxFile].filter((f) => !existsSync(join(modelDir, f)));
      if (missing.length > 0) {
        throw new CairnError(
          ERROR_CODES.EMBEDDER,
          `Transformers model "${cfg.model}" is not in ${modelDir} (missing ${missing.join(', ')}); put the model files there or set "allowRemote": true in the embedder config to download them`,
          { modelDir, missing },
        );
      }
    }

    const mod = await loadTransformers(this.options.importModule);
    const { env } = mod;
    defaultRemoteHost ??= env.remoteHost;
    env.allowLocalModels = true;
    env.allowRemoteModels = cfg.allowRemote;
    env.localModelPath = root;
    env.cacheDir = root; // downloads are cached as <path>/<model>/<file>: the local layout
    env.remoteHost = cfg.remoteHost ?? defaultRemoteHost;
    env.logLevel = LOG_LEVEL_ERROR;

    let extractor: FeatureExtractor;
    try {
      extractor = await mod.pipeline('feature-extraction', cfg.model, { dtype: cfg.dtype, device: 'cpu', cache_dir: root });
    } catch (err) {
      const from = cfg.allowRemote ? `${modelDir} or ${env.remoteHost}` : modelDir;
      throw new CairnError(
        ERROR_CODES.EMBEDDER,
        `Cannot load transformers model "${cfg.model}" (${cfg.dtype}) from ${from}: ${describe(err)}`,
        { modelDir },
        { cause: err },
      );
    }
    const [probe] = await this.run(extractor, ['dimension probe']);
    return { extractor, dimensions: probe!.length };
  }

  private async run(extractor: FeatureExtractor, texts: readonly string[], dimensions?: number): Promise<Float32Array[]> {
    let tensor: TensorLike;
    try {
      tensor = await extractor([...texts], { pooling: this.config.pooling, normalize: true });
    } catch (err) {
      throw new CairnError(ERROR_CODES.EMBEDDER, `Transformers model "${this.config.model}" failed to embed: ${(err as Error).message}`, undefined, {
        cause: err,
      });
    }
    const [rows, dims] = tensor.dims;
    if (tensor.dims.length !== 2 || rows !== texts.length || !dims || (dimensions !== undefined && dims !== dimensions)) {
      throw new CairnError(
        ERROR_CODES.EMBEDDER,
        `Transformers model "${this.config.model}" returned a tensor of shape [${tensor.dims.join(', ')}] for ${texts.length} texts; is it a feature-extraction model?`,
      );
    }
    const out: Float32Array[] = [];
    for (let r = 0; r < rows; r++) {
      const vec = Float32Array.from({ length: dims }, (_, j) => tensor.data[r * dims + j]!);
      if (!vec.every(Number.isFinite)) {
        throw new CairnError(ERROR_CODES.EMBEDDER, `Transformers model "${this.config.model}" produced a non-finite vector`);
      }
      out.push(normalize(vec));
    }
    return out;
  }
}

/** An error's message plus its cause's (fetch hides ECONNREFUSED and friends in `cause`). */
function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error ? `${message} (${cause.message})` : message;
}

async function loadTransformers(importModule?: () => Promise<TransformersModule>): Promise<TransformersModule> {
  keepOnnxRuntimeOffline(); // transformers.js runs onnxruntime-node
  try {
    // A variable specifier keeps tsc from requiring the optional package at build time.
    const spec: string = PACKAGE;
    return importModule ? await importModule() : ((await import(spec)) as TransformersModule);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const absent = e.code === 'ERR_MODULE_NOT_FOUND' && e.message.includes(PACKAGE);
    throw new CairnError(
      ERROR_CODES.EMBEDDER,
      absent
        ? `The transformers embedder needs the optional package ${PACKAGE}, which is not installed; install it with: ${INSTALL_HINT}`
        : `Cannot load ${PACKAGE}: ${e.message}; reinstall it with: ${INSTALL_HINT}`,
      undefined,
      { cause: err },
    );
  }
}
