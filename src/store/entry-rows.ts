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

/** The columns of an entry's own row. */
export type EntryBase = Pick<EntryRow, 'seq' | 'namespace' | 'kind' | 'ref_id' | 'time' | 'category' | 'importance' | 'current' | 'valid_to' | 'body'>;
/** What a memory entry takes from its memory's row (all null when that row is missing). */
export type MemoryDetails = Pick<EntryRow, 'm_text' | 'm_created' | 'm_valid_to' | 'm_prov'>;

/**
 * A memory's entry from its entry row and its memory's details. The store's read builds memory
 * entries with this directly: through entryFromRow each took a 30-field row object first (250
 * entries a search at 100k memories).
 */
export function memoryEntry(b: EntryBase, m: MemoryDetails): IndexEntry {
  return {
    seq: b.seq, namespace: b.namespace, kind: b.kind, refId: b.ref_id, text: m.m_text ?? b.body, time: b.time,
    createdAt: m.m_created ?? b.time, category: b.category, importance: b.importance, current: b.current === 1,
    validTo: m.m_valid_to, provenance: m.m_prov ? (JSON.parse(m.m_prov) as Provenance[]) : [], indexedChars: b.body.length, layer: 3,
  };
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
  if (r.kind === 'memory') return memoryEntry(r, r);
  // Only the fields the turn has (null, or undefined from a row without the column: none), added
  // in this order: deleting the missing ones afterwards left each provenance a slow
  // dictionary-mode object, for every turn a search reads and copies.
  const prov: Provenance = {};
  if (r.t_source_kind != null) prov.source = r.t_source_kind;
  // The transcript file (or database) the turn came from; older turns only know their source root.
  const path = r.t_meta_path ?? r.t_source_path;
  if (path != null) prov.path = path;
  if (r.t_session != null) prov.sessionId = r.t_session;
  if (r.t_message != null) prov.messageId = r.t_message;
  if (r.t_line != null) prov.line = r.t_line;
  if (r.t_role != null) prov.role = r.t_role;
  if (r.t_speaker != null) prov.speaker = r.t_speaker;
  prov.timestamp = r.time;
  return {
    seq: r.seq, namespace: r.namespace, kind: r.kind, refId: r.ref_id, text: r.t_text ?? r.body, time: r.time,
    createdAt: r.t_created ?? r.time, category: r.category, importance: r.importance, current: r.current === 1,
    validTo: r.valid_to, provenance: r.kind === 'turn' ? [prov] : [], indexedChars: r.body.length, layer: 4,
  };
}
