// Embeddings from a local Ollama server through its native POST /api/embed, for users who already
// run Ollama and want its (often stronger) embedding models instead of the bundled one.
import { z } from 'zod';
import type { EmbedderConfig } from '../core/config.js';
import type { Embedder, EmbedderInfo } from './embedder.js';
import { joinUrl, postJson, toUnitVectors, type HttpEmbedderOptions } from './http-json.js';

export type OllamaEmbedderConfig = Extract<EmbedderConfig, { provider: 'ollama' }>;

const embedResponse = z.object({ embeddings: z.array(z.array(z.number())) });

/** The modelId recorded with every vector this embedder makes. */
export function ollamaModelId(model: string): string {
  return `ollama:${model}`;
}

/** Ollama's /api/embed (`{model, input: string[]}` → `{embeddings: number[][]}`). */
export class OllamaEmbedder implements Embedder {
  readonly modelId: string;
  private readonly url: string;
  private initPromise: Promise<EmbedderInfo> | undefined;

  constructor(
    private readonly config: OllamaEmbedderConfig,
    private readonly options: HttpEmbedderOptions = {},
  ) {
    this.modelId = ollamaModelId(config.model);
    this.url = joinUrl(config.baseUrl, 'api/embed');
  }

  /** Embeds a probe string once to learn the dimensions (and to fail early if Ollama is down). */
  init(): Promise<EmbedderInfo> {
    this.initPromise ??= this.request(['dimension probe']).then(
      ([vec]) => ({ modelId: this.modelId, dimensions: vec!.length }),
      (err: unknown) => {
        this.initPromise = undefined;
        throw err;
      },
    );
    return this.initPromise;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const { dimensions } = await this.init();
    const size = this.options.batchSize ?? 64;
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += size) {
      out.push(...(await this.request(texts.slice(i, i + size), dimensions)));
    }
    return out;
  }

  async close(): Promise<void> {
    // Nothing to release: fetch's connection pool is process-wide.
  }

  private async request(texts: readonly string[], dimensions?: number): Promise<Float32Array[]> {
    const res = await postJson({
      service: 'Ollama',
      url: this.url,
      body: { model: this.config.model, input: texts },
      timeoutMs: this.config.timeoutMs,
      schema: embedResponse,
      ...(this.options.retry ? { retry: this.options.retry } : {}),
    });
    return toUnitVectors(`Ollama (${this.config.model})`, res.embeddings, texts.length, dimensions);
  }
}
