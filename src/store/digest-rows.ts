// Digest rows ↔ records and the checks a digest must pass before it is stored, shared by the SQLite
// and PostgreSQL backends, so both refuse and read back exactly the same digests.
import { DIGEST_KINDS, type Digest, type DigestSection, type NewDigest, type Provenance } from '../core/types.js';
import { invalidInput } from '../core/errors.js';
import type { DigestSectionDetail } from './entry-rows.js';

export interface DigestRow {
  id: string;
  namespace: string;
  kind: Digest['kind'];
  layer: 1 | 2 | 3;
  path: string;
  period_start: string;
  period_end: string;
  text: string;
  sections: string;
  inputs_hash: string;
  generator: string;
  created_at: string;
  updated_at: string;
}

/** Longest digest path accepted: far beyond `topics/<slug>.md`, short of anything a file system refuses. */
const MAX_PATH_CHARS = 512;

export function digestFromRow(r: DigestRow): Digest {
  return {
    id: r.id, namespace: r.namespace, kind: r.kind, layer: r.layer, path: r.path,
    periodStart: r.period_start, periodEnd: r.period_end, text: r.text,
    sections: JSON.parse(r.sections) as DigestSection[],
    inputsHash: r.inputs_hash, generator: r.generator, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

/** Canonical UTC ISO (`…T…Z` with milliseconds): periods are compared as strings. */
function isIsoInstant(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;
}

/**
 * The path is where the service writes (and, after a purge, deletes) the rendered file under the
 * namespace folder: only a plain relative path with `/` can never name a file outside it.
 */
function checkPath(path: unknown): void {
  if (typeof path !== 'string' || path.length === 0 || path.length > MAX_PATH_CHARS) {
    throw invalidInput(`A digest path must be 1–${MAX_PATH_CHARS} characters`);
  }
  const bad = /[\0\\:]/.test(path) || path.split('/').some((seg) => seg === '' || seg === '.' || seg === '..');
  if (bad) throw invalidInput(`Digest path ${JSON.stringify(path)} is not a plain relative path (segments joined by "/", no "..", "\\" or ":")`);
}

function checkSections(sections: unknown): asserts sections is DigestSection[] {
  if (!Array.isArray(sections)) throw invalidInput('Digest sections must be an array');
  for (const [i, s] of sections.entries()) {
    const sec = s as Partial<DigestSection> | null;
    if (!sec || typeof sec.heading !== 'string' || typeof sec.text !== 'string' || !Array.isArray(sec.sources)) {
      throw invalidInput(`Digest section ${i} needs a heading, a text and a list of sources`);
    }
    for (const src of sec.sources) {
      const ok = src && (src.kind === 'memory' || src.kind === 'turn') && typeof src.id === 'string' && src.id !== '' && typeof src.time === 'string';
      if (!ok) throw invalidInput(`Digest section ${i} cites a source that is not { kind: memory|turn, id, time }`);
    }
  }
}

export function checkDigest(input: NewDigest): void {
  if (!DIGEST_KINDS.includes(input.kind)) throw invalidInput(`Unknown digest kind ${JSON.stringify(input.kind)} (one of ${DIGEST_KINDS.join(', ')})`);
  checkPath(input.path);
  if (!isIsoInstant(input.periodStart) || !isIsoInstant(input.periodEnd)) {
    throw invalidInput('A digest period must be given as UTC ISO instants (YYYY-MM-DDTHH:MM:SS.sssZ)');
  }
  if (input.periodEnd < input.periodStart) throw invalidInput(`Digest period ends (${input.periodEnd}) before it starts (${input.periodStart})`);
  if (typeof input.text !== 'string') throw invalidInput('A digest needs a text');
  checkSections(input.sections);
  if (typeof input.inputsHash !== 'string' || input.inputsHash === '') throw invalidInput('A digest needs an inputs hash');
  if (typeof input.generator !== 'string' || input.generator === '') throw invalidInput('A digest needs a generator');
}

/** The digest a section entry's ref_id (`<digest id>#<index>`) belongs to. */
export const digestIdOfRef = (ref: string): string => ref.slice(0, ref.indexOf('#'));

/**
 * What search shows of each digest section entry (by ref_id) from the digests they belong to:
 * each digest's sections are parsed once however many of its sections were hit.
 */
export function sectionDetailsOf(
  rows: ReadonlyArray<Pick<DigestRow, 'id' | 'path' | 'layer' | 'sections' | 'created_at'>>,
  refIds: readonly string[],
): Map<string, DigestSectionDetail> {
  const out = new Map<string, DigestSectionDetail>();
  const digests = new Map(rows.map((r) => [r.id, { ...r, parsed: JSON.parse(r.sections) as DigestSection[] }]));
  for (const ref of refIds) {
    const d = digests.get(digestIdOfRef(ref));
    const s = d?.parsed[Number(ref.slice(ref.indexOf('#') + 1))];
    if (!d || !s) continue;
    const prov: Provenance = { source: 'cairn', path: d.path };
    if (s.heading) prov.heading = s.heading;
    prov.turnIds = s.sources.filter((x) => x.kind === 'turn').map((x) => x.id);
    prov.memoryIds = s.sources.filter((x) => x.kind === 'memory').map((x) => x.id);
    // A section's indexed body: its heading trail, then its text (as a document chunk's).
    out.set(ref, { text: s.heading ? `${s.heading}\n${s.text}` : s.text, layer: d.layer, createdAt: d.created_at, provenance: [prov] });
  }
  return out;
}

/** A digest section's index entry as stored. */
export interface SectionEntry {
  seq: number;
  ref_id: string;
  body: string;
}

/** What to do with a digest's section entries (both backends apply it with their own SQL). */
export interface SectionEntryPlan {
  /** Entries kept: seq → the ref_id it ends with. */
  claimed: Map<number, string>;
  /** Kept entries whose ref_id changes (the section moved). */
  moves: SectionEntry[];
  /** Entries no section wants any more. */
  dropped: number[];
  /** Sections with no entry to reuse: new entries. */
  unmatched: Array<{ ref: string; body: string }>;
}

/**
 * Brings a digest's section entries in line with its sections' bodies: an entry whose body is
 * wanted again is kept (moved to its new ref_id if the section moved: same place first, then any
 * place), the rest are dropped, and new bodies get new entries. Empty sections get none: there is
 * nothing to find. `existing` in ref_id byte order, so of two equal sections the same entry is kept.
 */
export function planSectionEntries(id: string, existing: readonly SectionEntry[], bodies: readonly string[]): SectionEntryPlan {
  const wanted = bodies.map((body, i) => ({ ref: `${id}#${i}`, body })).filter((w) => w.body.trim() !== '');
  const claimed = new Map<number, string>();
  const unmatched: SectionEntryPlan['unmatched'] = [];
  for (const w of wanted) {
    const same = existing.find((e) => e.ref_id === w.ref && e.body === w.body && !claimed.has(e.seq));
    if (same) claimed.set(same.seq, w.ref);
  }
  const kept = new Set(claimed.values());
  for (const w of wanted.filter((x) => !kept.has(x.ref))) {
    const moved = existing.find((e) => e.body === w.body && !claimed.has(e.seq));
    if (moved) claimed.set(moved.seq, w.ref);
    else unmatched.push(w);
  }
  return {
    claimed,
    moves: existing.filter((e) => claimed.has(e.seq) && claimed.get(e.seq) !== e.ref_id),
    dropped: existing.filter((e) => !claimed.has(e.seq)).map((e) => e.seq),
    unmatched,
  };
}
