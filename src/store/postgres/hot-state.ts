// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/hot-state.ts).
import { notPorted } from './not-ported.js';

export async function getHotState(..._args: unknown[]): Promise<never> {
  throw notPorted('hot-state.getHotState');
}
export async function mergeHotState(..._args: unknown[]): Promise<never> {
  throw notPorted('hot-state.mergeHotState');
}
