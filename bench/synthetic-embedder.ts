// A stand-in for a sentence-embedding model, so seeding 100k–1M memories takes seconds instead of
// hours. Each word stem gets a seeded random unit vector (mixed with its concept's vector when a
// lexicon of synonyms is given); a text is the weighted sum of its words' vectors plus a little
// seeded noise, normalised. Texts sharing words or synonyms are therefore near each other, and the
// vectors are clustered by topic like real embeddings. The real model's cost is measured separately.
import { normalize, type Embedder, type EmbedderInfo } from '../src/embed/embedder.js';
import { isStopWord } from '../src/search/query-terms.js';
import { hashString, Rng } from './corpus.js';

export const SYNTH_MODEL_ID = 'bench-synth@512';
export const SYNTH_DIMENSIONS = 512;

export interface SyntheticEmbedderOptions {
  /** modelId recorded with the vectors (default bench-synth@512). */
  modelId?: string;
  dimensions?: number;
  /** word → concept id: synonyms share most of their direction. */
  lexicon?: ReadonlyMap<string, number>;
  /** Noise magnitude relative to one word vector (default 0.15). */
  noise?: number;
  seed?: number;
}

const WORD_RE = /[\p{L}\p{N}]+/gu;
const MAX_CACHE = 60_000;

/** Crude stemmer: enough to put "deploys", "deployed" and "deploying" on one vector. */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('es')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function axpy(acc: Float64Array, v: Float32Array, w: number, dims: number): void {
  for (let i = 0; i < dims; i++) acc[i]! += w * v[i]!;
}

/** Adds uniform noise in [-amp/2, amp/2) from an inline xorshift32 (no object, no calls). */
function addNoise(acc: Float64Array, seed: number, amp: number, dims: number): void {
  let x = seed | 1;
  for (let i = 0; i < dims; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    acc[i]! += amp * ((x >>> 0) / 4294967296 - 0.5);
  }
}

export class SyntheticEmbedder implements Embedder {
  readonly modelId: string;
  readonly dimensions: number;
  private readonly lexicon: ReadonlyMap<string, number> | undefined;
  private readonly noise: number;
  private readonly seed: number;
  private readonly cache = new Map<string, Float32Array>();
  private readonly conceptCache = new Map<number, Float32Array>();
  private readonly scratch: Float64Array;

  constructor(options: SyntheticEmbedderOptions = {}) {
    this.modelId = options.modelId ?? SYNTH_MODEL_ID;
    this.dimensions = options.dimensions ?? SYNTH_DIMENSIONS;
    this.lexicon = options.lexicon;
    this.noise = options.noise ?? 0.15;
    this.seed = options.seed ?? 1234;
    this.scratch = new Float64Array(this.dimensions);
  }

  async init(): Promise<EmbedderInfo> {
    return { modelId: this.modelId, dimensions: this.dimensions };
  }

  private randomUnit(seed: number): Float32Array {
    const rng = new Rng(seed);
    const v = new Float32Array(this.dimensions);
    // Uniform components: as good as Gaussian in 512 dimensions for this purpose, and much cheaper.
    for (let i = 0; i < v.length; i++) v[i] = rng.next() - 0.5;
    return normalize(v);
  }

  private conceptVector(id: number): Float32Array {
    let v = this.conceptCache.get(id);
    if (!v) this.conceptCache.set(id, (v = this.randomUnit(this.seed * 31 + id * 7919 + 17)));
    return v;
  }

  private wordVector(word: string): Float32Array {
    let v = this.cache.get(word);
    if (v) return v;
    v = this.randomUnit(hashString(stem(word), this.seed));
    const concept = this.lexicon?.get(word);
    if (concept !== undefined) {
      // Synonyms: 80% shared concept direction, 20% their own.
      const c = this.conceptVector(concept);
      for (let i = 0; i < v.length; i++) v[i] = 0.2 * v[i]! + 0.8 * c[i]!;
      normalize(v);
    }
    // Numbers and ids are unbounded: the cache stops growing at MAX_CACHE words (~120 MB).
    if (this.cache.size < MAX_CACHE) this.cache.set(word, v);
    return v;
  }

  /** Synchronous core (the bench calls it in tight loops). */
  embedOne(text: string): Float32Array {
    const dims = this.dimensions;
    const acc = this.scratch;
    acc.fill(0);
    const words = text.toLowerCase().match(WORD_RE) ?? [];
    let total = 0;
    for (const w of words) {
      // Function words carry little meaning (and skipping them halves the cost of seeding).
      if (isStopWord(w)) continue;
      axpy(acc, this.wordVector(w), 1, dims);
      total += 1;
    }
    const amp = (this.noise * Math.sqrt(Math.max(1, total)) * 1.732 * 2) / Math.sqrt(dims);
    addNoise(acc, hashString(text, this.seed ^ 0xabc), amp, dims);
    const out = new Float32Array(dims);
    let sum = 0;
    for (let i = 0; i < dims; i++) sum += acc[i]! * acc[i]!;
    const inv = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    for (let i = 0; i < dims; i++) out[i] = acc[i]! * inv;
    return out;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }

  /** Drops the word-vector cache (the bench calls this before measuring memory). */
  clearCache(): void {
    this.cache.clear();
    this.conceptCache.clear();
  }

  async close(): Promise<void> {
    this.clearCache();
  }
}

/**
 * An embedder whose query path can be switched at run time: the bench opens one Cairn with it,
 * searches with synthetic query vectors (embedding cost ≈ 0), then switches to the real model to
 * measure search including query embedding. modelId stays that of the stored vectors.
 */
export class SwitchableEmbedder implements Embedder {
  readonly modelId: string;
  private active: Embedder;
  constructor(
    private readonly base: Embedder,
    private readonly dims: number,
  ) {
    this.modelId = base.modelId;
    this.active = base;
  }
  use(embedder: Embedder | null): void {
    this.active = embedder ?? this.base;
  }
  async init(): Promise<EmbedderInfo> {
    await this.active.init();
    return { modelId: this.modelId, dimensions: this.dims };
  }
  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return this.active.embed(texts);
  }
  async close(): Promise<void> {
    await this.base.close();
  }
}
