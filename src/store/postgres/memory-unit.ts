// NOT PORTED YET (see sqlite/memory-unit.ts).
import type { MemoryUnit } from '../memory-unit.js';
import type { Db } from './connect.js';
import { notPorted } from './not-ported.js';

export async function runMemoryUnit<T>(_db: Db, _fn: (unit: MemoryUnit) => Promise<T>): Promise<T> {
  throw notPorted('memory-unit.runMemoryUnit');
}
