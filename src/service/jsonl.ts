// JSONL export and import of memories: one memory record per line, superseded history included,
// so export → import is a lossless round trip. Import reports bad lines with their numbers and
// keeps going; nothing already stored is touched except re-mention counts on duplicates.
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import { boundedLines } from '../core/bounded-input.js';
import { sha256 } from '../core/text.js';
import { CATEGORIES, type Memory } from '../core/types.js';
import { NAMESPACE_PATTERN } from '../core/namespace.js';
import type { Store } from '../store/store.js';

const iso = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a date');

const memoryRecordSchema = z.object({
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

/** Longest line accepted on import; longer lines are reported, and never held whole in memory. */
const MAX_LINE_CHARS = 1_000_000;

export interface ImportReport {
  lines: number;
  imported: number;
  existing: number;
  merged: number;
  errors: Array<{ line: number; message: string }>;
}

/**
 * Writes the namespace's memories to `out`; returns how many were written. Stops early when `out`
 * is destroyed (its reader went away, e.g. `cairn export | head`): no more can be written there.
 */
export async function exportJsonl(store: Store, namespace: string, out: Writable): Promise<number> {
  let count = 0;
  for await (const memory of store.exportMemories(namespace)) {
    if (out.destroyed) break;
    const line = JSON.stringify(memory) + '\n';
    if (!out.write(line)) await drainedOrClosed(out);
    count++;
  }
  return count;
}

/** Resolves when `out` can take more, or can never take any (a destroyed stream emits no 'drain'). */
function drainedOrClosed(out: Writable): Promise<void> {
  if (out.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

export async function importJsonl(
  store: Store,
  input: Readable,
  options: { namespace?: string; maxTextChars: number; onLine?: (n: number) => void },
): Promise<ImportReport> {
  const report: ImportReport = { lines: 0, imported: 0, existing: 0, merged: 0, errors: [] };
  // Importing into another namespace gets other ids (ids are unique across the store); links
  // between records of the same file are remapped consistently. The new id is derived from the
  // target namespace and the old id, so importing the same file there again finds it ('exists')
  // instead of doubling the history.
  const mapId = (id: string, from: string): string => {
    if (!options.namespace || options.namespace === from) return id;
    return `m_${sha256(`${options.namespace}\0${from}\0${id}`).slice(0, 26)}`;
  };
  // A UTF-8 character takes at most 3 bytes per UTF-16 unit: no line within the limit is cut.
  for await (const next of boundedLines(input, MAX_LINE_CHARS * 3)) {
    report.lines++;
    options.onLine?.(report.lines);
    const line = 'text' in next ? next.text.trim() : null;
    if (line === '') continue;
    if (line === null || line.length > MAX_LINE_CHARS) {
      report.errors.push({ line: report.lines, message: `line longer than ${MAX_LINE_CHARS} characters` });
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (err) {
      report.errors.push({ line: report.lines, message: `invalid JSON: ${(err as Error).message}` });
      continue;
    }
    const result = memoryRecordSchema.safeParse(parsed);
    if (!result.success) {
      const msg = result.error.issues.map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`).join('; ');
      report.errors.push({ line: report.lines, message: msg });
      continue;
    }
    const rec = result.data;
    if (rec.text.length > options.maxTextChars) {
      report.errors.push({ line: report.lines, message: `text longer than ${options.maxTextChars} characters` });
      continue;
    }
    const memory: Memory = {
      ...rec,
      namespace: options.namespace ?? rec.namespace,
      id: mapId(rec.id, rec.namespace),
      supersededBy: rec.supersededBy === null ? null : mapId(rec.supersededBy, rec.namespace),
      supersedes: rec.supersedes === null ? null : mapId(rec.supersedes, rec.namespace),
      provenance: rec.provenance as Memory['provenance'],
    };
    const outcome = await store.importMemory(memory);
    if (outcome === 'imported') report.imported++;
    else if (outcome === 'exists') report.existing++;
    else report.merged++;
  }
  return report;
}
