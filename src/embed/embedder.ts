// The seam between Cairn and whatever turns text into vectors. Every vector stored records the
// embedder's modelId and dimensions, so vectors from different models never mix.

export interface EmbedderInfo {
  /** Stable identifier of the model, e.g. `use-lite@1`, `ollama:nomic-embed-text`. */
  readonly modelId: string;
  readonly dimensions: number;
  /** What runs a local model, when there is a choice (use-lite: "onnxruntime" or "tfjs"). */
  readonly runtime?: string;
}

export interface Embedder {
  /** Known before init(); the same string is recorded with every vector this embedder makes. */
  readonly modelId: string;
  /** Loads the model (or probes the endpoint) once; returns the dimensions. Idempotent. */
  init(): Promise<EmbedderInfo>;
  /**
   * Embeds a batch. Returns one unit-length Float32Array per input, in input order.
   * Throws CairnError(EMBEDDER) with a clear message when the model or endpoint fails.
   */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Releases workers, sockets or native sessions. */
  close(): Promise<void>;
}

/** Scales a vector to unit length in place (cosine similarity then equals the dot product). */
export function normalize(vec: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vec.length; i++) sum += vec[i]! * vec[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vec.length; i++) vec[i] = vec[i]! / norm;
  return vec;
}
