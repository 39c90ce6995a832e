// The record shapes `cairn import` reads and the memory each becomes: Cairn's own export records
// (kept as they are, so export → import is lossless), the minimal shape a person or script writes
// (`{"text": …}` plus optional fields), and mem0 items (`memory`, `id`, `created_at`, …). Memories
// that did not come from Cairn get an id derived from where they go and what they are, so
// importing the same file again finds them instead of doubling them, and a provenance entry naming
// the system, file, line and original id they came from.
import { z } from 'zod';
import { sha256, stripControl } from '../../core/text.js';
import { CATEGORIES, type Category, type Memory, type Provenance } from '../../core/types.js';
import { NAMESPACE_PATTERN } from '../../core/namespace.js';
import { isRecord, toIso } from '../../capture/formats/common.js';

const iso = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a date');

/** A line of `cairn export`: every field of a memory, history links included. */
export const exportRecordSchema = z.object({
  id: z.string().regex(/^[a-z]{1,4}_[A-Za-z0-9_-]{1,64}$/),
  namespace: z.string().regex(NAMESPACE_PATTERN),
  text: z.string().min(1),
  category: z.enum(CATEGORIES),
  importance: z.number().int().min(1).max(10),
  tags: z.array(z.string()),
  entities: z.array(z.string()),
  eventTime: iso.nullable(),
  createdAt: iso,
  updatedAt: iso,
  validFrom: iso,
  validTo: iso.nullable(),
  supersededBy: z.string().nullable(),
  supersedes: z.string().nullable(),
  mentions: z.number().int().min(1),
  provenance: z.array(z.record(z.string(), z.unknown())),
});

/** Fields only an export record has: a line with one of them is read as one (and checked as one). */
const EXPORT_ONLY = ['validFrom', 'validTo', 'supersededBy', 'supersedes', 'mentions'] as const;

/** A time as an ISO string or epoch seconds/milliseconds. */
const when = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const out = toIso(v);
  if (out === null) {
    ctx.addIssue({ code: 'custom', message: `not a date: ${JSON.stringify(v).slice(0, 40)}` });
    return z.NEVER;
  }
  return out;
});
const label = z.string().trim().min(1).max(64);

/** What a person or a script writes: text, and what they know about it. Unknown fields are errors. */
export const minimalRecordSchema = z.strictObject({
  text: z.string(),
  category: z.enum(CATEGORIES).optional(),
  importance: z.number().int().min(1).max(10).optional(),
  tags: z.array(label).max(32).optional(),
  entities: z.array(z.string().trim().min(1).max(200)).max(32).optional(),
  /** When it was noted (as createdAt); `eventTime` is when the thing itself happened. */
  time: when.optional(),
  createdAt: when.optional(),
  updatedAt: when.optional(),
  eventTime: when.nullable().optional(),
  namespace: z.string().regex(NAMESPACE_PATTERN).optional(),
  /** Its id in the system it comes from (kept in provenance). */
  id: z.union([z.string().min(1).max(200), z.number()]).optional(),
  /** The system it comes from (default `jsonl`). */
  source: z.string().trim().min(1).max(64).optional(),
});

/** One item of mem0's get_all/search output (OSS and platform); other fields are ignored. */
export const mem0ItemSchema = z.object({
  memory: z.string(),
  id: z.union([z.string().min(1).max(200), z.number()]).optional(),
  hash: z.string().optional().nullable(),
  created_at: when.optional().nullable(),
  updated_at: when.optional().nullable(),
  metadata: z.record(z.string(), z.unknown()).optional().nullable(),
  categories: z.array(z.string()).optional().nullable(),
  user_id: z.string().optional().nullable(),
  agent_id: z.string().optional().nullable(),
  run_id: z.string().optional().nullable(),
  app_id: z.string().optional().nullable(),
});

export type RecordShape = 'export' | 'minimal' | 'mem0';

/** Which shape a parsed JSONL line has. */
export function recordShape(value: unknown): RecordShape {
  if (isRecord(value)) {
    if (EXPORT_ONLY.some((k) => k in value)) return 'export';
    if (typeof value.memory === 'string' && !('text' in value)) return 'mem0';
  }
  return 'minimal';
}

/** Where memories go and how long they may be. */
export interface ImportTarget {
  /** Every memory goes here (`--into` / `-n`); else an export record's own namespace, else `fallback`. */
  into?: string;
  fallback: string;
  maxTextChars: number;
  /** The file read, for provenance (stdin: none). */
  path?: string;
}

export type Built = { memory: Memory } | { error: string };

function zodError(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.code === 'unrecognized_keys' ? `unknown field ${i.keys.map((k) => `"${k}"`).join(', ')}` : `${i.path.join('.') || '(record)'}: ${i.message}`))
    .join('; ');
}

/** An export record as it was, moved (with fresh ids that keep its links) when `into` is another namespace. */
export function fromExportRecord(value: unknown, target: ImportTarget): Built {
  const result = exportRecordSchema.safeParse(value);
  if (!result.success) return { error: zodError(result.error) };
  const rec = result.data;
  if (rec.text.length > target.maxTextChars) return { error: `text longer than ${target.maxTextChars} characters` };
  // The new id is derived from the target namespace and the old id, so importing the same file
  // there again finds it ('exists') instead of doubling the history.
  const mapId = (id: string): string => (!target.into || target.into === rec.namespace ? id : `m_${sha256(`${target.into}\0${rec.namespace}\0${id}`).slice(0, 26)}`);
  return {
    memory: {
      ...rec,
      namespace: target.into ?? rec.namespace,
      id: mapId(rec.id),
      supersededBy: rec.supersededBy === null ? null : mapId(rec.supersededBy),
      supersedes: rec.supersedes === null ? null : mapId(rec.supersedes),
      provenance: rec.provenance as Memory['provenance'],
    },
  };
}

/** What a memory from elsewhere is made of, before it gets its id and namespace. */
export interface Foreign {
  text: string;
  category?: Category;
  importance?: number;
  tags?: string[];
  entities?: string[];
  createdAt?: string;
  updatedAt?: string;
  eventTime?: string | null;
  namespace?: string;
  /** How to tell it apart on a later import of the same source: its original id, or its place. */
  key: string;
  provenance: Provenance;
}

/** A memory from another system, with an id stable across imports of the same source. */
export function foreignMemory(item: Foreign, target: ImportTarget, now: string): Built {
  const text = stripControl(item.text).trim();
  if (text === '') return { error: 'text is empty' };
  if (text.length > target.maxTextChars) return { error: `text longer than ${target.maxTextChars} characters` };
  const namespace = target.into ?? item.namespace ?? target.fallback;
  const created = item.createdAt ?? now;
  const id = `m_${sha256(`${namespace}\0${item.provenance.system ?? ''}\0${item.key}\0${text}`).slice(0, 26)}`;
  return {
    memory: {
      id, namespace, text,
      category: item.category ?? 'note',
      importance: item.importance ?? 5,
      tags: [...new Set(item.tags ?? [])],
      entities: [...new Set(item.entities ?? [])],
      eventTime: item.eventTime ?? null,
      createdAt: created,
      updatedAt: item.updatedAt ?? created,
      validFrom: created,
      validTo: null,
      supersededBy: null,
      supersedes: null,
      mentions: 1,
      provenance: [item.provenance],
    },
  };
}

/** Provenance of a record read from a file: the path and line when known. */
function place(target: ImportTarget, system: string, line: number | undefined, originalId: string | number | undefined): Provenance {
  return {
    source: 'import',
    system,
    ...(target.path ? { path: target.path } : {}),
    ...(line ? { line } : {}),
    ...(originalId !== undefined ? { originalId: String(originalId) } : {}),
  };
}

/** A `{"text": …}` line. */
export function fromMinimalRecord(value: unknown, line: number, target: ImportTarget, now: string): Built {
  const result = minimalRecordSchema.safeParse(value);
  if (!result.success) return { error: zodError(result.error) };
  const r = result.data;
  return foreignMemory({
    text: r.text, category: r.category, importance: r.importance, tags: r.tags, entities: r.entities,
    createdAt: r.time ?? r.createdAt, updatedAt: r.updatedAt, eventTime: r.eventTime, namespace: r.namespace,
    key: r.id === undefined ? '' : `id:${r.id}`,
    provenance: place(target, r.source ?? 'jsonl', line, r.id),
  }, target, now);
}

/** Metadata kept in provenance is capped: it is context, not content. */
const MAX_METADATA_CHARS = 2000;

/** A mem0 item: its categories, user and agent become tags; its metadata stays in provenance. */
export function fromMem0Item(value: unknown, line: number | undefined, target: ImportTarget, now: string): Built {
  const result = mem0ItemSchema.safeParse(value);
  if (!result.success) return { error: zodError(result.error) };
  const r = result.data;
  const tags = [
    ...(r.categories ?? []),
    ...(r.user_id ? [`user:${r.user_id}`] : []),
    ...(r.agent_id ? [`agent:${r.agent_id}`] : []),
  ].map((t) => t.trim().slice(0, 64)).filter(Boolean);
  const provenance: Provenance = place(target, 'mem0', line, r.id);
  if (r.metadata && Object.keys(r.metadata).length > 0) {
    const json = JSON.stringify(r.metadata);
    provenance.metadata = json.length <= MAX_METADATA_CHARS ? r.metadata : { truncated: json.slice(0, MAX_METADATA_CHARS) };
  }
  return foreignMemory({
    text: r.memory, tags,
    createdAt: r.created_at ?? undefined, updatedAt: r.updated_at ?? undefined,
    key: r.id === undefined ? '' : `id:${r.id}`,
    provenance,
  }, target, now);
}
