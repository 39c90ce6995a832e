// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/turns.ts).
import { notPorted } from './not-ported.js';

export async function addTurns(..._args: unknown[]): Promise<never> {
  throw notPorted('turns.addTurns');
}
export async function turnsAfter(..._args: unknown[]): Promise<never> {
  throw notPorted('turns.turnsAfter');
}
export async function sourceTurnCounts(..._args: unknown[]): Promise<never> {
  throw notPorted('turns.sourceTurnCounts');
}
export async function getTurn(..._args: unknown[]): Promise<never> {
  throw notPorted('turns.getTurn');
}
export async function addSource(..._args: unknown[]): Promise<never> {
  throw notPorted('turns.addSource');
}
export async function listSources(..._args: unknown[]): Promise<never> {
  throw notPorted('turns.listSources');
}
export async function removeSource(..._args: unknown[]): Promise<never> {
  throw notPorted('turns.removeSource');
}
export async function getCheckpoint(..._args: unknown[]): Promise<never> {
  throw notPorted('turns.getCheckpoint');
}
export async function listCheckpoints(..._args: unknown[]): Promise<never> {
  throw notPorted('turns.listCheckpoints');
}
export async function putCheckpoint(..._args: unknown[]): Promise<never> {
  throw notPorted('turns.putCheckpoint');
}
