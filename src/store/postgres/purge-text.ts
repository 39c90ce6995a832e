// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/purge-text.ts).
import { notPorted } from './not-ported.js';

export async function rewriteTexts(..._args: unknown[]): Promise<never> {
  throw notPorted('purge-text.rewriteTexts');
}
