// Stored vectors of a large namespace kept in memory as the store holds them (store/vector-codec.ts:
// int8 codes and a scale per block, 528 bytes for 512-d where decoded floats take 2,048). A search
// rescores ~250 (100k memories) to ~770 (50k chat turns) stored vectors; read from SQLite and
// decoded each time, that was a fifth of a search at 50k turns (an index lookup, a Buffer and a
// Float32Array per row). Rows are kept as searches read them, up to a byte budget, the oldest
// replaced first; a cosine from a kept row is the one from the store's copy, bit for bit.
import { holdsValues, quantisedBytes, quantisedDot } from '../store/vector-codec.js';

/** What one process keeps per namespace: ~63k rows of 512-d, all of a 50k-turn home. */
export const RESIDENT_BUDGET_BYTES = 32 * 1024 * 1024;

/** Rows per chunk: ~1 MiB at 512-d. Chunks are added, never grown and copied, as rows come. */
const CHUNK_ROWS = 2048;

interface Chunk {
  bytes: Uint8Array;
  codes: Int8Array;
  view: DataView;
}

/** One namespace's kept rows, all of one width, in chunks added up to its budget. */
export class ResidentRows {
  private readonly rowBytes: number;
  private readonly capacity: number;
  private readonly chunks: Chunk[] = [];
  /** Which seq each slot holds (slot → seq, -1 for none), in the order filled. */
  private readonly slots: number[] = [];
  private readonly rows = new Map<number, number>();
  /** The next slot to replace once the slab is full. */
  private next = 0;

  constructor(
    readonly dimensions: number,
    budgetBytes: number = RESIDENT_BUDGET_BYTES,
  ) {
    this.rowBytes = quantisedBytes(dimensions);
    this.capacity = Math.max(0, Math.floor(budgetBytes / this.rowBytes));
  }

  get size(): number {
    return this.rows.size;
  }

  /** Bytes the chunks take. */
  get bytes(): number {
    let total = 0;
    for (const c of this.chunks) total += c.bytes.byteLength;
    return total;
  }

  has(seq: number): boolean {
    return this.rows.has(seq);
  }

  /** The dot product of `query` with a kept row, or undefined when the seq is not kept or the widths differ. */
  dot(seq: number, query: Float32Array): number | undefined {
    const slot = this.rows.get(seq);
    if (slot === undefined || query.length !== this.dimensions) return undefined;
    const chunk = this.chunks[Math.floor(slot / CHUNK_ROWS)]!;
    return quantisedDot(query, chunk.codes, chunk.view, (slot % CHUNK_ROWS) * this.rowBytes);
  }

  /** Keeps a stored row (quantised bytes) as the row of `seq`, replacing what it held; a row of another width is not kept. */
  keep(seq: number, stored: Uint8Array): void {
    if (!holdsValues(stored.byteLength, this.dimensions) || this.capacity === 0) return;
    const slot = this.rows.get(seq) ?? this.freeSlot();
    this.chunks[Math.floor(slot / CHUNK_ROWS)]!.bytes.set(stored, (slot % CHUNK_ROWS) * this.rowBytes);
    this.rows.set(seq, slot);
    this.slots[slot] = seq;
  }

  /** Drops the row of `seq` (its entry was embedded again). */
  forget(seq: number): void {
    const slot = this.rows.get(seq);
    if (slot === undefined) return;
    this.rows.delete(seq);
    this.slots[slot] = -1;
  }

  private freeSlot(): number {
    const used = this.slots.length;
    if (used < this.capacity) {
      if (used === this.chunks.length * CHUNK_ROWS) this.addChunk(Math.min(CHUNK_ROWS, this.capacity - used));
      this.slots.push(-1);
      return used;
    }
    const slot = this.next;
    this.next = (this.next + 1) % this.capacity;
    const old = this.slots[slot]!;
    if (old >= 0) this.rows.delete(old);
    this.slots[slot] = -1;
    return slot;
  }

  private addChunk(rows: number): void {
    // The last chunk may be short (the budget's remainder); slots past it are never handed out.
    const bytes = new Uint8Array(rows * this.rowBytes);
    this.chunks.push({ bytes, codes: new Int8Array(bytes.buffer), view: new DataView(bytes.buffer) });
  }
}
