// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/tokens.ts).
import { notPorted } from './not-ported.js';

export async function addApiToken(..._args: unknown[]): Promise<never> {
  throw notPorted('tokens.addApiToken');
}
export async function listApiTokens(..._args: unknown[]): Promise<never> {
  throw notPorted('tokens.listApiTokens');
}
export async function revokeApiToken(..._args: unknown[]): Promise<never> {
  throw notPorted('tokens.revokeApiToken');
}
export async function touchApiToken(..._args: unknown[]): Promise<never> {
  throw notPorted('tokens.touchApiToken');
}
export async function hasApiTokens(..._args: unknown[]): Promise<never> {
  throw notPorted('tokens.hasApiTokens');
}
