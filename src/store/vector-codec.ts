// Vectors on disk: int8, one scale per block of QUANT_BLOCK values (schema V15). A 512-d float
// vector takes 528 bytes instead of 2,048, small enough to sit inside a b-tree page beside other
// rows, where a float32 one spilled into an overflow page of its own. Blocks rather than one scale
// per vector because a stored row can hold several vectors end to end (an entry's passages,
// embed/passages.ts) and the store does not know where one ends; 128 divides the width of nearly
// every embedding model (384, 512, 768, 1024, 1536, 3072), so a block rarely straddles two vectors.
// Measured on use-lite LoCoMo vectors (bench/vector-quant.ts, results/vector-quant.md): cosine with
// float32 ≥ 0.99999, the same evidence in the exact top 10, HNSW recall 95.3 % against 95.4 %.
//
// Layout: per block a float32 scale (max |value| / 127), then the int8 values of every block.
// The length of the values follows from the blob's length alone (blocks = ceil(length / 132)).

export const QUANT_BLOCK = 128;
const SCALE_BYTES = 4;

function blockCount(values: number): number {
  return Math.ceil(values / QUANT_BLOCK);
}

/** Bytes a vector of `values` floats takes on disk. */
export function quantisedBytes(values: number): number {
  return values + SCALE_BYTES * blockCount(values);
}

/** How many values a blob of `bytes` holds (the inverse of quantisedBytes). */
function valuesIn(bytes: number): number {
  const blocks = Math.ceil(bytes / (QUANT_BLOCK + SCALE_BYTES));
  return bytes - SCALE_BYTES * blocks;
}

export function encodeVector(vector: Float32Array): Buffer {
  const n = vector.length;
  const blocks = blockCount(n);
  const out = Buffer.alloc(quantisedBytes(n));
  const codes = new Int8Array(out.buffer, out.byteOffset + SCALE_BYTES * blocks, n);
  for (let b = 0; b < blocks; b++) {
    const from = b * QUANT_BLOCK;
    const to = Math.min(n, from + QUANT_BLOCK);
    let max = 0;
    for (let i = from; i < to; i++) {
      const a = Math.abs(vector[i]!);
      if (a > max) max = a;
    }
    // A value that is not finite has no faithful code: the block is stored as zeros.
    const scale = Number.isFinite(max) && max > 0 ? max / 127 : 0;
    out.writeFloatLE(scale, b * SCALE_BYTES);
    if (scale === 0) continue;
    for (let i = from; i < to; i++) codes[i] = Math.max(-127, Math.min(127, Math.round(vector[i]! / scale)));
  }
  return out;
}

export function decodeVector(blob: Uint8Array): Float32Array {
  const n = valuesIn(blob.byteLength);
  if (n < 0 || quantisedBytes(n) !== blob.byteLength) throw new Error(`not a quantised vector: ${blob.byteLength} bytes`);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const blocks = blockCount(n);
  const codes = new Int8Array(blob.buffer, blob.byteOffset + SCALE_BYTES * blocks, n);
  const out = new Float32Array(n);
  for (let b = 0; b < blocks; b++) {
    const scale = view.getFloat32(b * SCALE_BYTES, true);
    const to = Math.min(n, (b + 1) * QUANT_BLOCK);
    for (let i = b * QUANT_BLOCK; i < to; i++) out[i] = codes[i]! * scale;
  }
  return out;
}

/**
 * A stored row of vectors of `dim` values end to end without its first vector, cut byte for byte
 * (the rest decodes to exactly the values it did): `dim` must be whole blocks. A row holding no
 * more than one vector, or not a whole number of them, gives an empty row.
 */
export function withoutFirstVector(blob: Uint8Array, dim: number): Buffer {
  if (!Number.isInteger(dim) || dim <= 0 || dim % QUANT_BLOCK !== 0) throw new Error(`vectors of ${dim} values do not split into whole blocks`);
  const n = valuesIn(blob.byteLength);
  if (n <= dim || n % dim !== 0 || quantisedBytes(n) !== blob.byteLength) return Buffer.alloc(0);
  const blocks = blockCount(n);
  return Buffer.concat([blob.subarray(SCALE_BYTES * (dim / QUANT_BLOCK), SCALE_BYTES * blocks), blob.subarray(SCALE_BYTES * blocks + dim)]);
}

/** Whether `bytes` is a quantised vector of exactly `values` floats. */
export function holdsValues(bytes: number, values: number): boolean {
  return quantisedBytes(values) === bytes;
}

/**
 * The dot product of `query` with the vector quantised at byte `at` of a buffer (`codes` and
 * `view` over the same bytes), its length the query's: the same number, bit for bit, as
 * dot(query, decodeVector(…)) in search/pipeline/cosines.ts, since each value is rounded to
 * float32 as decodeVector stores it and the products are added in index order. Rescoring from
 * the stored bytes spares a Float32Array per vector.
 */
export function quantisedDot(query: Float32Array, codes: Int8Array, view: DataView, at: number): number {
  const n = query.length;
  const blocks = blockCount(n);
  const first = at + SCALE_BYTES * blocks;
  let s = 0;
  for (let b = 0; b < blocks; b++) {
    const scale = view.getFloat32(at + b * SCALE_BYTES, true);
    const to = Math.min(n, (b + 1) * QUANT_BLOCK);
    for (let i = b * QUANT_BLOCK; i < to; i++) s += query[i]! * Math.fround(codes[first + i]! * scale);
  }
  return s;
}

/** quantisedDot of one stored blob; null when it is not a vector of the query's length. */
export function quantisedBlobDot(query: Float32Array, blob: Uint8Array): number | null {
  if (!holdsValues(blob.byteLength, query.length)) return null;
  return quantisedDot(query, new Int8Array(blob.buffer, blob.byteOffset, blob.byteLength), new DataView(blob.buffer, blob.byteOffset, blob.byteLength), 0);
}

/** A float32 blob as schema V14 and earlier stored it (read once, by the V15 migration). */
export function float32BlobToVector(blob: Uint8Array): Float32Array {
  const out = new Float32Array(Math.floor(blob.byteLength / 4));
  new Uint8Array(out.buffer).set(blob.subarray(0, out.byteLength));
  return out;
}
