// Adding vectors to a namespace's index in memory: rows of the exactly searched set, points of an
// HNSW graph. A re-embedded entry replaces what it had, in both.

export type UsearchIndex = InstanceType<typeof import('usearch')['Index']>;

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
