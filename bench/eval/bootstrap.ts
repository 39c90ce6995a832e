// How much a figure would move on another draw of questions: percentile bootstrap over questions,
// seeded so a report regenerates to the same digits. The paired form resamples the same questions
// for both variants, so a difference is judged against the noise of the difference itself (two
// variants' own intervals overlap far more often than their difference crosses zero).

export interface Interval {
  /** The figure on the questions as asked (not the mean of the resamples). */
  mean: number;
  /** 2.5th and 97.5th percentiles of the resampled means. */
  low: number;
  high: number;
}

export interface BootstrapOptions {
  /** Resamples; at least 1,000 (default 2,000). */
  resamples?: number;
  seed?: number;
}

export const BOOTSTRAP_DEFAULTS = { resamples: 2000, seed: 29 } as const;

/** mulberry32: a small seeded generator with a full 2^32 period, enough for resampling indices. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Linear-interpolated quantile of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** The 95 % interval of the mean of `values`; NaN bounds for no values. */
export function bootstrapMean(values: readonly number[], options: BootstrapOptions = {}): Interval {
  const { resamples, seed } = { ...BOOTSTRAP_DEFAULTS, ...options };
  if (!Number.isInteger(resamples) || resamples < 1000) throw new RangeError(`a bootstrap needs at least 1,000 resamples (got ${resamples})`);
  const n = values.length;
  if (n === 0) return { mean: NaN, low: NaN, high: NaN };
  const random = seededRandom(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)]!;
    means[r] = sum / n;
  }
  const sorted = [...means].sort((a, b) => a - b);
  return { mean: mean(values), low: quantile(sorted, 0.025), high: quantile(sorted, 0.975) };
}

/**
 * The 95 % interval of mean(a − b) where a[i] and b[i] are the same question under two variants:
 * resampling the per-question differences resamples both sides with the same questions.
 */
export function pairedBootstrap(a: readonly number[], b: readonly number[], options: BootstrapOptions = {}): Interval {
  if (a.length !== b.length) throw new RangeError(`paired bootstrap: ${a.length} against ${b.length} questions`);
  return bootstrapMean(a.map((x, i) => x - b[i]!), options);
}

/** Whether an interval excludes zero: a difference beyond the set's noise. */
export function beyondNoise(i: Interval): boolean {
  return i.low > 0 || i.high < 0;
}
