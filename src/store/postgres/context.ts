// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/context.ts).
import { notPorted } from './not-ported.js';

export async function speakers(..._args: unknown[]): Promise<never> {
  throw notPorted('context.speakers');
}
export async function turnNeighbours(..._args: unknown[]): Promise<never> {
  throw notPorted('context.turnNeighbours');
}
