// Stored vectors of a large namespace kept in memory as the store holds them (store/vector-codec.ts:
// int8 codes and a scale per block, 528 bytes for 512-d where decoded floats take 2,048). A search
// rescores ~250 (100k memories) to ~770 (50k chat turns) stored vectors; read from SQLite and
// decoded each time, that was a fifth of a search at 50k turns (an index lookup, a Buffer and a
// Float32Array per row). Rows are kept as searches read them, up to a byte budget, the oldest
// replaced first; a cosine from a kept row is the one from the store's copy, bit for bit.
import { holdsValues, quantisedBytes, quantisedDot } from '../store/vector-codec.js';

/** What one process keeps per namespace: ~63k rows of 512-d, all of a 50k-turn home. */
export const RESIDENT_BUDGET_BYTES = 32 * 1024 * 1024;

/** One namespace's kept rows, all of one width, in a slab that grows up to its budget. */
export class ResidentRows {
  private readonly rowBytes: number;
  private readonly capacity: number;
  private bytesHeld = new Uint8Array(0);
  private codes = new Int8Array(0);
  private view = new DataView(new ArrayBuffer(0));
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

  /** Bytes the slab takes. */
  get bytes(): number {
    return this.bytesHeld.byteLength;
  }

  has(seq: number): boolean {
    return this.rows.has(seq);
  }

  /** The dot product of `query` with a kept row, or undefined when the seq is not kept or the widths differ. */
  dot(seq: number, query: Float32Array): number | undefined {
    const slot = this.rows.get(seq);
    if (slot === undefined || query.length !== this.dimensions) return undefined;
    return quantisedDot(query, this.codes, this.view, slot * this.rowBytes);
  }

  /** Keeps a stored row (quantised bytes) as the row of `seq`, replacing what it held; a row of another width is not kept. */
  keep(seq: number, stored: Uint8Array): void {
    if (!holdsValues(stored.byteLength, this.dimensions) || this.capacity === 0) return;
    const slot = this.rows.get(seq) ?? this.freeSlot();
    this.bytesHeld.set(stored, slot * this.rowBytes);
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
      if ((used + 1) * this.rowBytes > this.bytesHeld.byteLength) this.grow(Math.min(this.capacity, Math.max(256, Math.ceil(used * 1.5))));
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

  private grow(rows: number): void {
    const grown = new Uint8Array(rows * this.rowBytes);
    grown.set(this.bytesHeld);
    this.bytesHeld = grown;
    this.codes = new Int8Array(grown.buffer);
    this.view = new DataView(grown.buffer);
  }
}
