// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/purge-records.ts).
import { notPorted } from './not-ported.js';

export async function purgeRecords(..._args: unknown[]): Promise<never> {
  throw notPorted('purge-records.purgeRecords');
}
