// What search shows of a digest section entry on PostgreSQL (sqlite/digests.ts
// digestSectionDetails): its text, layer and provenance, read from the digest rows in one query.
import type { DigestSection, Provenance } from '../../core/types.js';
import type { DigestSectionDetail } from '../entry-rows.js';
import type { Db } from './connect.js';

/** A section's indexed body: its heading trail, then its text (as a document chunk's, documents.ts). */
function sectionBody(section: Pick<DigestSection, 'heading' | 'text'>): string {
  return section.heading ? `${section.heading}\n${section.text}` : section.text;
}

/** Section details by ref_id (`<digest id>#<index>`); each digest's sections are parsed once. */
export async function digestSectionDetails(db: Db, refIds: readonly string[]): Promise<Map<string, DigestSectionDetail>> {
  const out = new Map<string, DigestSectionDetail>();
  if (refIds.length === 0) return out;
  const idOf = (ref: string) => ref.slice(0, ref.indexOf('#'));
  const rows = (await db.query<{ id: string; path: string; layer: 1 | 2 | 3; sections: string; created_at: string }>(
    'SELECT id, path, layer, sections, created_at FROM digests WHERE id = ANY($1::text[])',
    [[...new Set(refIds.map(idOf))]],
  )).rows;
  const digests = new Map(rows.map((r) => [r.id, { ...r, parsed: JSON.parse(r.sections) as DigestSection[] }]));
  for (const ref of refIds) {
    const d = digests.get(idOf(ref));
    const s = d?.parsed[Number(ref.slice(ref.indexOf('#') + 1))];
    if (!d || !s) continue;
    const prov: Provenance = { source: 'cairn', path: d.path };
    if (s.heading) prov.heading = s.heading;
    prov.turnIds = s.sources.filter((x) => x.kind === 'turn').map((x) => x.id);
    prov.memoryIds = s.sources.filter((x) => x.kind === 'memory').map((x) => x.id);
    out.set(ref, { text: sectionBody(s), layer: d.layer, createdAt: d.created_at, provenance: [prov] });
  }
  return out;
}
