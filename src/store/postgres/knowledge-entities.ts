// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/knowledge-entities.ts).
import { notPorted } from './not-ported.js';

export async function entitiesByAliasKeys(..._args: unknown[]): Promise<never> {
  throw notPorted('knowledge-entities.entitiesByAliasKeys');
}
export async function listEntities(..._args: unknown[]): Promise<never> {
  throw notPorted('knowledge-entities.listEntities');
}
export async function getEntity(..._args: unknown[]): Promise<never> {
  throw notPorted('knowledge-entities.getEntity');
}
export async function entityMemoryIds(..._args: unknown[]): Promise<never> {
  throw notPorted('knowledge-entities.entityMemoryIds');
}
export async function listFacts(..._args: unknown[]): Promise<never> {
  throw notPorted('knowledge-entities.listFacts');
}
export async function editEntities(..._args: unknown[]): Promise<never> {
  throw notPorted('knowledge-entities.editEntities');
}
