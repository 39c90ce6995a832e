// Row ↔ record mapping shared by the SQLite and PostgreSQL backends (same columns): JSON columns parsed in one place.
import type { Category, Memory, Provenance, Source, Turn } from '../core/types.js';
import type { DocumentChunk } from './store.js';

export interface MemoryRow {
  seq: number;
  id: string;
  namespace: string;
  text: string;
  dedup_key: string;
  category: string;
  importance: number;
  tags: string;
  entities: string;
  event_time: string | null;
  created_at: string;
  updated_at: string;
  valid_from: string;
  valid_to: string | null;
  superseded_by: string | null;
  supersedes: string | null;
  mentions: number;
  provenance: string;
}

export interface TurnRow {
  seq: number;
  id: string;
  namespace: string;
  source_id: number | null;
  session_id: string;
  message_id: string;
  role: string;
  speaker: string | null;
  text: string;
  ts: string;
  line: number | null;
  meta: string;
  created_at: string;
}

export interface SourceRow {
  id: number;
  namespace: string;
  kind: string;
  path: string;
  options: string;
  created_at: string;
}

export interface DocumentRow {
  id: string;
  namespace: string;
  source_id: number | null;
  path: string;
  chunk: number;
  heading: string;
  text: string;
  start_line: number;
  end_line: number;
  file_hash: string;
  time: string;
  created_at: string;
}

export function memoryFromRow(row: MemoryRow): Memory {
  return {
    id: row.id,
    namespace: row.namespace,
    text: row.text,
    category: row.category as Category,
    importance: row.importance,
    tags: JSON.parse(row.tags) as string[],
    entities: JSON.parse(row.entities) as string[],
    eventTime: row.event_time,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    supersededBy: row.superseded_by,
    supersedes: row.supersedes,
    mentions: row.mentions,
    provenance: JSON.parse(row.provenance) as Provenance[],
  };
}

export function turnFromRow(row: TurnRow): Turn {
  return {
    id: row.id,
    namespace: row.namespace,
    sourceId: row.source_id,
    sessionId: row.session_id,
    messageId: row.message_id,
    role: row.role,
    speaker: row.speaker,
    text: row.text,
    timestamp: row.ts,
    line: row.line,
    createdAt: row.created_at,
    meta: JSON.parse(row.meta) as Record<string, unknown>,
  };
}

export function sourceFromRow(row: SourceRow): Source {
  return {
    id: row.id,
    namespace: row.namespace,
    kind: row.kind,
    path: row.path,
    options: JSON.parse(row.options) as Record<string, unknown>,
    createdAt: row.created_at,
  };
}

export function documentFromRow(row: DocumentRow): DocumentChunk {
  return {
    id: row.id,
    namespace: row.namespace,
    sourceId: row.source_id,
    path: row.path,
    chunk: row.chunk,
    heading: row.heading,
    text: row.text,
    startLine: row.start_line,
    endLine: row.end_line,
    fileHash: row.file_hash,
    time: row.time,
    createdAt: row.created_at,
  };
}
