// What every HTTP embedder shares: probe the dimensions once, then embed in batches. Providers
// supply only their request (wire format); the probe and batching logic lives here once.
import type { Embedder, EmbedderInfo } from './embedder.js';
import { onceUntilFailure } from './once.js';

export abstract class BatchedHttpEmbedder implements Embedder {
  abstract readonly modelId: string;

  constructor(
    private readonly batchSize = 64,
    /** Dimensions to request during the probe, when the provider lets the caller choose. */
    private readonly probeDimensions?: number,
  ) {}

  /** One request for the provider's wire format; `dimensions` is checked against every vector. */
  protected abstract request(texts: readonly string[], dimensions?: number): Promise<Float32Array[]>;

  /** Embeds a probe string once to learn the dimensions (and to fail early if the service is down). */
  readonly init = onceUntilFailure(async (): Promise<EmbedderInfo> => {
    const [vec] = await this.request(['dimension probe'], this.probeDimensions);
    return { modelId: this.modelId, dimensions: vec!.length };
  });

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const { dimensions } = await this.init();
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      out.push(...(await this.request(texts.slice(i, i + this.batchSize), dimensions)));
    }
    return out;
  }

  async close(): Promise<void> {
    // Nothing to release: fetch's connection pool is process-wide.
  }
}
