// Embeddings from a local Ollama server through its native POST /api/embed, for users who already
// run Ollama and want its (often stronger) embedding models instead of the bundled one.
import { z } from 'zod';
import type { EmbedderConfig } from '../core/config.js';
import { BatchedHttpEmbedder } from './batched-http-embedder.js';
import { joinUrl, postJson, toUnitVectors, type HttpEmbedderOptions } from './http-json.js';

export type OllamaEmbedderConfig = Extract<EmbedderConfig, { provider: 'ollama' }>;

const embedResponse = z.lazy(() => z.object({ embeddings: z.array(z.array(z.number())) }));

/** The modelId recorded with every vector this embedder makes. */
export function ollamaModelId(model: string): string {
  return `ollama:${model}`;
}

/** Ollama's /api/embed (`{model, input: string[]}` → `{embeddings: number[][]}`). */
export class OllamaEmbedder extends BatchedHttpEmbedder {
  readonly modelId: string;
  private readonly url: string;

  constructor(
    private readonly config: OllamaEmbedderConfig,
    private readonly options: HttpEmbedderOptions = {},
  ) {
    super(options.batchSize);
    this.modelId = ollamaModelId(config.model);
    this.url = joinUrl(config.baseUrl, 'api/embed');
  }

  protected async request(texts: readonly string[], dimensions?: number): Promise<Float32Array[]> {
    const res = await postJson({
      service: 'Ollama',
      url: this.url,
      body: { model: this.config.model, input: texts },
      timeoutMs: this.config.timeoutMs,
      schema: embedResponse,
      ...(this.options.retry ? { retry: this.options.retry } : {}),
      ...(this.options.sleep ? { sleep: this.options.sleep } : {}),
    });
    return toUnitVectors(`Ollama (${this.config.model})`, res.embeddings, texts.length, dimensions);
  }
}
