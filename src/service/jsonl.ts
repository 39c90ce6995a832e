// Export and import of memories. Export writes one memory record per line, superseded history
// included, so export → import is a lossless round trip. Import reads those records and the
// formats people leave other systems with (see import/read.ts), reports bad records with their
// line numbers and keeps going; nothing already stored is touched except re-mention counts on
// duplicates.
import type { Readable, Writable } from 'node:stream';
import type { Store } from '../store/store.js';
import { readImport, type ImportFormat } from './import/read.js';

export interface ImportReport {
  /** Lines read (of every Markdown file, for an OpenClaw workspace). */
  lines: number;
  imported: number;
  existing: number;
  merged: number;
  /** Bad records: the line (0 when none is known), the item of a JSON document, the file of a workspace. */
  errors: Array<{ line: number; message: string; item?: number; path?: string }>;
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

export interface ImportOptions {
  /** Every memory goes here; else an export record keeps its own namespace and others go to `fallback`. */
  namespace?: string;
  fallback: string;
  maxTextChars: number;
  format?: ImportFormat;
  /** Called after each record with the lines read so far. */
  onLine?: (n: number) => void;
}

/** Imports from a file, a folder (an OpenClaw workspace) or a stream. */
export async function importMemories(store: Store, input: { path: string } | { stream: Readable }, options: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = { lines: 0, imported: 0, existing: 0, merged: 0, errors: [] };
  const target = { into: options.namespace, fallback: options.fallback, maxTextChars: options.maxTextChars };
  const source = 'path' in input ? { path: input.path, format: options.format } : { stream: input.stream, format: options.format };
  for await (const item of readImport(source, target, new Date().toISOString(), report)) {
    options.onLine?.(report.lines);
    if ('error' in item) {
      report.errors.push({ line: item.line, message: item.error, ...(item.item ? { item: item.item } : {}), ...(item.path ? { path: item.path } : {}) });
      continue;
    }
    const outcome = await store.importMemory(item.memory);
    if (outcome === 'imported') report.imported++;
    else if (outcome === 'exists') report.existing++;
    else report.merged++;
  }
  return report;
}
