// Turns the validated embedder config into an Embedder, and names the model without loading it
// (the store needs the modelId to tell whether stored vectors match the configured model).
import type { EmbedderConfig } from '../core/config.js';
import type { Embedder } from './embedder.js';
import { OllamaEmbedder, ollamaModelId } from './ollama.js';
import { OpenAIEmbedder, openAIModelId } from './openai-compatible.js';
import { TransformersEmbedder, transformersModelId } from './transformers.js';
import { USE_LITE_MODEL_ID, UseLiteEmbedder } from './use-lite.js';
import { WorkerEmbedder } from './worker-embedder.js';

export interface LocalModelOptions {
  /** A folder for files derived from a local model (the home's cache folder). */
  cacheDir?: string;
}

/**
 * Builds the configured embedder; null for provider "none" (BM25-only search).
 * Loads nothing: models load, and endpoints are first contacted, in `init()`.
 */
export function createEmbedder(config: EmbedderConfig, options: LocalModelOptions = {}): Embedder | null {
  switch (config.provider) {
    case 'use-lite':
      return new UseLiteEmbedder({ runtime: config.runtime, cacheDir: options.cacheDir });
    case 'transformers':
      return new TransformersEmbedder(config);
    case 'ollama':
      return new OllamaEmbedder(config);
    case 'openai':
      return new OpenAIEmbedder(config);
    case 'none':
      return null;
  }
}

/**
 * Like createEmbedder, but runs CPU-bound local models (use-lite, transformers) in `threads`
 * worker threads that start loading at once. HTTP embedders stay in-process: they only wait.
 */
export function createThreadedEmbedder(config: EmbedderConfig, threads: number, options: LocalModelOptions = {}): Embedder | null {
  if (threads < 1 || (config.provider !== 'use-lite' && config.provider !== 'transformers')) return createEmbedder(config, options);
  return new WorkerEmbedder(embedderModelId(config)!, config, threads, options);
}

/** The modelId the configured embedder records with its vectors; null for provider "none". */
export function embedderModelId(config: EmbedderConfig): string | null {
  switch (config.provider) {
    case 'use-lite':
      return USE_LITE_MODEL_ID;
    case 'transformers':
      return transformersModelId(config);
    case 'ollama':
      return ollamaModelId(config.model);
    case 'openai':
      return openAIModelId(config.model, config.dimensions);
    case 'none':
      return null;
  }
}
