// An index entry as the stores read it: the entry row with the details of the record it stands
// for (a memory, a turn, a document chunk or a digest section) joined in. Shared by both backends,
// whose queries return these same columns.
import type { Kind, Provenance } from '../core/types.js';
import type { IndexEntry } from './records.js';

/** What search shows of one digest section entry: its text, its layer, and where it comes from. */
export interface DigestSectionDetail {
  text: string;
  layer: 1 | 2 | 3;
  createdAt: string;
  provenance: Provenance[];
}

export interface EntryRow {
  seq: number;
  namespace: string;
  kind: Kind;
  ref_id: string;
  time: string;
  category: string | null;
  importance: number | null;
  current: number;
  valid_to: string | null;
  m_text: string | null;
  m_created: string | null;
  m_valid_to: string | null;
  m_prov: string | null;
  t_text: string | null;
  t_created: string | null;
  t_session: string | null;
  t_message: string | null;
  t_role: string | null;
  t_speaker: string | null;
  t_line: number | null;
  t_source_kind: string | null;
  t_source_path: string | null;
  t_meta_path: string | null;
  d_text: string | null;
  d_created: string | null;
  d_path: string | null;
  d_heading: string | null;
  d_start: number | null;
  d_end: number | null;
  /** The section a digest entry stands for (digests.ts), or null. */
  g: DigestSectionDetail | null;
  body: string;
}

function documentProvenance(r: EntryRow): Provenance[] {
  if (r.d_path === null || r.d_start === null || r.d_end === null) return [];
  const prov: Provenance = { source: 'markdown', path: r.d_path, line: r.d_start, endLine: r.d_end };
  if (r.d_heading) prov.heading = r.d_heading;
  return [prov];
}

export function entryFromRow(r: EntryRow): IndexEntry {
  if (r.kind === 'digest') {
    return {
      seq: r.seq, namespace: r.namespace, kind: r.kind, refId: r.ref_id, text: r.g?.text ?? r.body, time: r.time,
      createdAt: r.g?.createdAt ?? r.time, category: r.category, importance: r.importance, current: r.current === 1,
      validTo: null, provenance: r.g?.provenance ?? [], indexedChars: r.body.length, layer: r.g?.layer ?? 3,
    };
  }
  if (r.kind === 'document') {
    return {
      seq: r.seq, namespace: r.namespace, kind: r.kind, refId: r.ref_id, text: r.d_text ?? r.body, time: r.time,
      createdAt: r.d_created ?? r.time, category: r.category, importance: r.importance, current: r.current === 1,
      validTo: null, provenance: documentProvenance(r), indexedChars: r.body.length, layer: 3,
    };
  }
  if (r.kind === 'memory') {
    return {
      seq: r.seq, namespace: r.namespace, kind: r.kind, refId: r.ref_id, text: r.m_text ?? r.body, time: r.time,
      createdAt: r.m_created ?? r.time, category: r.category, importance: r.importance, current: r.current === 1,
      validTo: r.m_valid_to, provenance: r.m_prov ? (JSON.parse(r.m_prov) as Provenance[]) : [], indexedChars: r.body.length, layer: 3,
    };
  }
  const prov: Provenance = {
    source: r.t_source_kind ?? undefined,
    // The transcript file (or database) the turn came from; older turns only know their source root.
    path: r.t_meta_path ?? r.t_source_path ?? undefined,
    sessionId: r.t_session ?? undefined,
    messageId: r.t_message ?? undefined,
    line: r.t_line ?? undefined,
    role: r.t_role ?? undefined,
    speaker: r.t_speaker ?? undefined,
    timestamp: r.time,
  };
  for (const k of Object.keys(prov) as Array<keyof Provenance>) if (prov[k] === undefined) delete prov[k];
  return {
    seq: r.seq, namespace: r.namespace, kind: r.kind, refId: r.ref_id, text: r.t_text ?? r.body, time: r.time,
    createdAt: r.t_created ?? r.time, category: r.category, importance: r.importance, current: r.current === 1,
    validTo: r.valid_to, provenance: r.kind === 'turn' ? [prov] : [], indexedChars: r.body.length, layer: 4,
  };
}
