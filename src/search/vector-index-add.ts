// A namespace's index in memory: the HNSW graph's settings, and adding vectors, as rows of the
// exactly searched set or points of a graph. A re-embedded entry replaces what it had, in both.

export type UsearchIndex = InstanceType<typeof import('usearch')['Index']>;

/**
 * Candidates a graph search keeps while it walks (expansion_search; asking for more keeps as many).
 * Hybrid search, with BM25's candidates beside them, 1,000 queries each: 128 instead of 256 found
 * the query's memory in the top ten as often at 100k memories (0.807) and its turn at 50k chat
 * turns (0.840), in half the graph's time (1.2 → 0.6 ms standalone at 100k). Vector mode alone
 * lost with it (0.686 → 0.646 at 100k), so it still walks 256 (VECTOR_ONLY_EXPANSION,
 * VectorIndex.search's `explore`).
 */
const GRAPH_EXPANSION = 128;
export const VECTOR_ONLY_EXPANSION = 256;

/** An empty graph of `dimensions`-d vectors, cosine, i8-quantised, as every saved one was built. */
export function newGraph(usearch: typeof import('usearch'), dimensions: number): UsearchIndex {
  const { Index, MetricKind, ScalarKind } = usearch;
  return new Index({
    dimensions,
    metric: MetricKind.Cos,
    quantization: ScalarKind.I8,
    // Measured at 100k synthetic 512-d vectors (exact top-10 found among the 100 candidates that
    // search rescores): M16/64/128 79 % → M32/96/256 92.7 %, for +0.8 ms p95 and 1.8× build time.
    connectivity: 32,
    expansion_add: 96,
    expansion_search: GRAPH_EXPANSION,
    multi: false,
  });
}

/** A namespace's vectors row by row, searched exactly. */
export interface Flat {
  data: Float32Array;
  seqs: number[];
  /** seq → row, so a re-embedded entry replaces its row. */
  rows: Map<number, number>;
}

/** Appends vectors (a re-embedded entry's replaces its row), growing the buffer by doubling. */
export function addFlat(flat: Flat, vectors: ReadonlyArray<{ seq: number; vector: Float32Array }>, dims: number): void {
  for (const v of vectors) {
    let row = flat.rows.get(v.seq);
    if (row === undefined) {
      row = flat.seqs.length;
      if ((row + 1) * dims > flat.data.length) {
        const grown = new Float32Array(Math.max(64, (row + 1) * 2) * dims);
        grown.set(flat.data);
        flat.data = grown;
      }
      flat.seqs.push(v.seq);
      flat.rows.set(v.seq, row);
    }
    flat.data.set(v.vector, row * dims);
  }
}

export function addToGraph(index: UsearchIndex, vectors: ReadonlyArray<{ seq: number; vector: Float32Array }>, dims: number): void {
  // An entry re-embedded twice within one page keeps its newest vector (the graph holds one per key).
  const newest = new Map(vectors.map((v) => [v.seq, v.vector]));
  if (newest.size === 0) return;
  const keys = new BigUint64Array(newest.size);
  const data = new Float32Array(newest.size * dims);
  let i = 0;
  for (const [seq, vector] of newest) {
    const key = BigInt(seq);
    // A re-embedded entry arrives with a new row id: replace its old point.
    if (index.contains(key)) index.remove(key);
    keys[i] = key;
    data.set(vector, i * dims);
    i++;
  }
  index.add(keys, data, 0);
}
