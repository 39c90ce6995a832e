// Embeddings from any OpenAI-compatible POST /embeddings endpoint (OpenAI, LM Studio, vLLM,
// llama.cpp server). The API key is read from an environment variable named in config, never
// stored in config itself.
import { z } from 'zod';
import type { EmbedderConfig } from '../core/config.js';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { BatchedHttpEmbedder } from './batched-http-embedder.js';
import { joinUrl, postJson, toUnitVectors, type HttpEmbedderOptions } from './http-json.js';

export type OpenAIEmbedderConfig = Extract<EmbedderConfig, { provider: 'openai' }>;

const embeddingsResponse = z.lazy(() =>
  z.object({
    data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
  }),
);

/** The modelId recorded with every vector: `openai:<model>`, plus `@<dims>` when dimensions are set. */
export function openAIModelId(model: string, dimensions?: number): string {
  return `openai:${model}${dimensions === undefined ? '' : `@${dimensions}`}`;
}

export interface OpenAIEmbedderOptions extends HttpEmbedderOptions {
  /** Where the API key variable is looked up (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/** OpenAI's embeddings wire format (`{model, input, dimensions?}` → `{data: [{index, embedding}]}`). */
export class OpenAIEmbedder extends BatchedHttpEmbedder {
  readonly modelId: string;
  private readonly url: string;

  constructor(
    private readonly config: OpenAIEmbedderConfig,
    private readonly options: OpenAIEmbedderOptions = {},
  ) {
    super(options.batchSize, config.dimensions);
    this.modelId = openAIModelId(config.model, config.dimensions);
    this.url = joinUrl(config.baseUrl, 'embeddings');
  }

  private authHeaders(): Record<string, string> {
    const name = this.config.apiKeyEnv;
    if (name === undefined) return {};
    const key = (this.options.env ?? process.env)[name];
    if (!key) {
      throw new CairnError(
        ERROR_CODES.EMBEDDER,
        `The embedder's API key variable ${name} is not set (embedder.apiKeyEnv in config); export ${name}=<key> or remove apiKeyEnv for an endpoint without auth`,
        { apiKeyEnv: name },
      );
    }
    return { authorization: `Bearer ${key}` };
  }

  protected async request(texts: readonly string[], dimensions?: number): Promise<Float32Array[]> {
    const service = `OpenAI-compatible endpoint (${this.config.model})`;
    const res = await postJson({
      service,
      url: this.url,
      headers: this.authHeaders(),
      body: {
        model: this.config.model,
        input: texts,
        ...(this.config.dimensions === undefined ? {} : { dimensions: this.config.dimensions }),
      },
      timeoutMs: this.config.timeoutMs,
      schema: embeddingsResponse,
      ...(this.options.retry ? { retry: this.options.retry } : {}),
      ...(this.options.sleep ? { sleep: this.options.sleep } : {}),
    });
    const sorted = [...res.data].sort((a, b) => a.index - b.index);
    sorted.forEach((item, i) => {
      if (item.index !== i) {
        throw new CairnError(
          ERROR_CODES.EMBEDDER,
          `${service} returned embedding indexes ${sorted.map((d) => d.index).join(',')} for ${texts.length} inputs`,
        );
      }
    });
    return toUnitVectors(service, sorted.map((d) => d.embedding), texts.length, dimensions);
  }
}
