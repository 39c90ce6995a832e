// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/purge-log.ts).
import { notPorted } from './not-ported.js';

export async function dropCachedVectors(..._args: unknown[]): Promise<never> {
  throw notPorted('purge-log.dropCachedVectors');
}
export async function scrub(..._args: unknown[]): Promise<never> {
  throw notPorted('purge-log.scrub');
}
export async function startPurge(..._args: unknown[]): Promise<never> {
  throw notPorted('purge-log.startPurge');
}
export async function finishPurge(..._args: unknown[]): Promise<never> {
  throw notPorted('purge-log.finishPurge');
}
export async function listPurges(..._args: unknown[]): Promise<never> {
  throw notPorted('purge-log.listPurges');
}
export async function lastPurgeId(..._args: unknown[]): Promise<never> {
  throw notPorted('purge-log.lastPurgeId');
}
