// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/entries.ts).
import { notPorted } from './not-ported.js';

export async function keywordSearch(..._args: unknown[]): Promise<never> {
  throw notPorted('entries.keywordSearch');
}
export async function getEntries(..._args: unknown[]): Promise<never> {
  throw notPorted('entries.getEntries');
}
export async function filterEntries(..._args: unknown[]): Promise<never> {
  throw notPorted('entries.filterEntries');
}
export async function entriesMissingVector(..._args: unknown[]): Promise<never> {
  throw notPorted('entries.entriesMissingVector');
}
export async function entryFor(..._args: unknown[]): Promise<never> {
  throw notPorted('entries.entryFor');
}
export async function putVectors(..._args: unknown[]): Promise<never> {
  throw notPorted('entries.putVectors');
}
export async function vectorsAfter(..._args: unknown[]): Promise<never> {
  throw notPorted('entries.vectorsAfter');
}
export async function getVectors(..._args: unknown[]): Promise<never> {
  throw notPorted('entries.getVectors');
}
export async function vectorStats(..._args: unknown[]): Promise<never> {
  throw notPorted('entries.vectorStats');
}
export async function vectorModels(..._args: unknown[]): Promise<never> {
  throw notPorted('entries.vectorModels');
}
export async function dropVectorsExcept(..._args: unknown[]): Promise<never> {
  throw notPorted('entries.dropVectorsExcept');
}
export async function cacheGet(..._args: unknown[]): Promise<never> {
  throw notPorted('entries.cacheGet');
}
export async function cachePut(..._args: unknown[]): Promise<never> {
  throw notPorted('entries.cachePut');
}
