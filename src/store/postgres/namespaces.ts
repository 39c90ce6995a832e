// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/namespaces.ts).
import { notPorted } from './not-ported.js';

export async function ensureNamespace(..._args: unknown[]): Promise<never> {
  throw notPorted('namespaces.ensureNamespace');
}
export async function namespaceStats(..._args: unknown[]): Promise<never> {
  throw notPorted('namespaces.namespaceStats');
}
export async function namespaceIds(..._args: unknown[]): Promise<never> {
  throw notPorted('namespaces.namespaceIds');
}
export async function renameNamespace(..._args: unknown[]): Promise<never> {
  throw notPorted('namespaces.renameNamespace');
}
