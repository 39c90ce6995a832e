// What search shows of a digest section entry on PostgreSQL (sqlite/digests.ts
// digestSectionDetails): its text, layer and provenance, read from the digest rows in one query.
import { digestIdOfRef, sectionDetailsOf } from '../digest-rows.js';
import type { DigestSectionDetail } from '../entry-rows.js';
import type { Db } from './connect.js';

/** Section details by ref_id (`<digest id>#<index>`); each digest's sections are parsed once. */
export async function digestSectionDetails(db: Db, refIds: readonly string[]): Promise<Map<string, DigestSectionDetail>> {
  if (refIds.length === 0) return new Map();
  const rows = (await db.query<{ id: string; path: string; layer: 1 | 2 | 3; sections: string; created_at: string }>(
    'SELECT id, path, layer, sections, created_at FROM digests WHERE id = ANY($1::text[])',
    [[...new Set(refIds.map(digestIdOfRef))]],
  )).rows;
  return sectionDetailsOf(rows, refIds);
}
