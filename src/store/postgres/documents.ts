// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/documents.ts).
import { notPorted } from './not-ported.js';

export async function replaceDocument(..._args: unknown[]): Promise<never> {
  throw notPorted('documents.replaceDocument');
}
export async function removeDocument(..._args: unknown[]): Promise<never> {
  throw notPorted('documents.removeDocument');
}
export async function documentFiles(..._args: unknown[]): Promise<never> {
  throw notPorted('documents.documentFiles');
}
export async function getDocumentChunk(..._args: unknown[]): Promise<never> {
  throw notPorted('documents.getDocumentChunk');
}
