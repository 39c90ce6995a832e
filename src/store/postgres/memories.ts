// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/memories.ts).
import { notPorted } from './not-ported.js';

export async function getMemory(..._args: unknown[]): Promise<never> {
  throw notPorted('memories.getMemory');
}
export async function listMemories(..._args: unknown[]): Promise<never> {
  throw notPorted('memories.listMemories');
}
export async function memoryHistory(..._args: unknown[]): Promise<never> {
  throw notPorted('memories.memoryHistory');
}
// eslint-disable-next-line require-yield
export async function* exportMemories(..._args: unknown[]): AsyncGenerator<never> {
  throw notPorted('memories.exportMemories');
}
