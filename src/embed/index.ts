// Public surface of the embedding layer.
export { normalize, type Embedder, type EmbedderInfo } from './embedder.js';
export { createEmbedder, embedderModelId } from './factory.js';
export { UseLiteEmbedder, USE_LITE_MODEL_ID, USE_LITE_DIMENSIONS, type UseLiteOptions, type UseLiteRuntime } from './use-lite.js';
export {
  TransformersEmbedder,
  transformersModelId,
  type TransformersEmbedderConfig,
  type TransformersEmbedderOptions,
} from './transformers.js';
export { OllamaEmbedder, ollamaModelId, type OllamaEmbedderConfig } from './ollama.js';
export { OpenAIEmbedder, openAIModelId, type OpenAIEmbedderConfig, type OpenAIEmbedderOptions } from './openai-compatible.js';
export { DEFAULT_RETRY, type HttpEmbedderOptions, type RetryPolicy } from './http-json.js';
