// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/digests.ts).
import { notPorted } from './not-ported.js';

export async function putDigest(..._args: unknown[]): Promise<never> {
  throw notPorted('digests.putDigest');
}
export async function getDigest(..._args: unknown[]): Promise<never> {
  throw notPorted('digests.getDigest');
}
export async function listDigests(..._args: unknown[]): Promise<never> {
  throw notPorted('digests.listDigests');
}
export async function deleteDigest(..._args: unknown[]): Promise<never> {
  throw notPorted('digests.deleteDigest');
}
export async function entryChangesAfter(..._args: unknown[]): Promise<never> {
  throw notPorted('digests.entryChangesAfter');
}
export async function getConsolidationState(..._args: unknown[]): Promise<never> {
  throw notPorted('digests.getConsolidationState');
}
export async function putConsolidationState(..._args: unknown[]): Promise<never> {
  throw notPorted('digests.putConsolidationState');
}
