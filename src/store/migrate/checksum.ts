// A table's checksum, computed the same way on both backends: SHA-256 over its rows in key order,
// each serialised canonically from the JavaScript values both drivers return (numbers, strings,
// null, bytes as hex), so equal checksums mean equal rows, vectors bit for bit.
import { createHash } from '../../core/lazy-crypto.js';
import type { StoreEnd } from './end.js';
import type { TableShape } from './tables.js';

const BATCH = 2000;

function canonical(value: unknown): unknown {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return { bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex') };
  if (typeof value === 'bigint') return { int: value.toString() };
  // -0 and 0 are different doubles; JSON would print both as 0.
  if (typeof value === 'number' && Object.is(value, -0)) return { double: '-0' };
  return value ?? null;
}

export function serialiseRow(row: readonly unknown[]): string {
  return JSON.stringify(row.map(canonical));
}

export interface TableSum {
  rows: number;
  sha256: string;
}

export async function tableChecksum(end: StoreEnd, shape: TableShape, skip?: (row: readonly unknown[]) => boolean): Promise<TableSum> {
  const hash = createHash('sha256');
  let rows = 0;
  for await (const batch of end.read(shape, null, BATCH)) {
    for (const row of batch) {
      if (skip?.(row)) continue;
      hash.update(serialiseRow(row));
      hash.update('\n');
      rows++;
    }
  }
  return { rows, sha256: hash.digest('hex') };
}
