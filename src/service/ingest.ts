// `cairn ingest PATH…`: the daemon's capture code run once over named files. A file inside a
// watched source of the same format and namespace shares that source's checkpoint, so a hook and
// the daemon never read the same lines twice; other files get a one-off source of their own.
import { resolve as resolvePath } from 'node:path';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import type { Source } from '../core/types.js';
import { openTranscript } from '../capture/file-reader.js';
import { ingestFile, type IngestReport } from '../capture/ingest-file.js';
import { parseTranscriptFormat, type TranscriptFormat } from '../capture/formats/index.js';
import { unitForPath } from '../capture/sources/units.js';
import { afterCapture, type CaptureDeps } from './capture.js';
import { watchedSources } from './sources.js';

export interface IngestOptions {
  format: TranscriptFormat | string;
  namespace?: string;
  /** The transcripts are complete: flush held turns (see IngestFileOptions.final). */
  final?: boolean;
  batchLines?: number;
}

export interface IngestResponse {
  namespace: string;
  format: TranscriptFormat;
  /** One per path, in order: a report, or the error that stopped that file (others still ran). */
  files: Array<{ path: string; /** Where its turns went (a watched source's namespace when none was given). */ namespace?: string; report?: Omit<IngestReport, 'insertedIds' | 'held'>; error?: { code: string; message: string } }>;
  turnsInserted: number;
  /** Vectors made for the new turns (0 without an embedder). */
  embedded: number;
  warning?: string;
}

/**
 * The source whose checkpoint a file uses, and the namespace its turns go to: a watched source
 * that captures the file (in the namespace given, or in its own when none was given), else a
 * one-off source of the file in the given or default namespace.
 */
async function sourceFor(deps: CaptureDeps, path: string, format: TranscriptFormat, namespace: { given?: string; fallback: string }, watched: Source[]): Promise<{ source: Source; namespace: string }> {
  for (const source of watched) {
    const unit = unitForPath(source, path);
    if (unit?.type === 'file' && unit.format === format && (namespace.given === undefined || unit.namespace === namespace.given)) return { source, namespace: unit.namespace };
  }
  const ns = namespace.given ?? namespace.fallback;
  const existing = (await deps.store.listSources(ns)).find((s) => s.kind === format && s.path === path);
  return { source: existing ?? (await deps.store.addSource(ns, format, path)), namespace: ns };
}

/**
 * Captures what is new in each file since its checkpoint, then runs the stages after capture.
 * A path that cannot be read (missing, a directory, a FIFO, permission denied, a symlink loop)
 * gets an `error` entry with a clear message and the other paths still run: one bad path must
 * not hold back the rest of a batch (the CLI exits non-zero when any path failed).
 */
export async function ingestPaths(deps: CaptureDeps, paths: readonly string[], namespace: { given?: string; fallback: string }, options: IngestOptions): Promise<IngestResponse> {
  const format = parseTranscriptFormat(options.format);
  if (paths.length === 0) throw new CairnError(ERROR_CODES.INVALID_INPUT, 'No transcript paths given');
  const absolute = paths.map((p) => resolvePath(p));
  const watched = await watchedSources(deps.store);
  const response: IngestResponse = { namespace: namespace.given ?? namespace.fallback, format, files: [], turnsInserted: 0, embedded: 0 };
  const touched = new Set<string>();
  for (const path of absolute) {
    try {
      // Readable first: a path that is not gets its error without leaving a source behind.
      await (await openTranscript(path, null)).close();
      const { source, namespace: ns } = await sourceFor(deps, path, format, namespace, watched);
      const { insertedIds: _ids, held: _held, ...report } = await ingestFile(deps.store, {
        path, format, namespace: ns, sourceId: source.id, final: options.final, batchLines: options.batchLines,
      });
      response.files.push({ path, namespace: ns, report });
      response.turnsInserted += report.turnsInserted;
      if (report.turnsInserted > 0) touched.add(ns);
    } catch (err) {
      const code = err instanceof CairnError ? err.code : ERROR_CODES.INTERNAL;
      response.files.push({ path, error: { code, message: (err as Error).message } });
    }
  }
  if (touched.size > 0) {
    const after = await afterCapture(deps, [...touched].map((ns) => ({ unit: { type: 'file' as const, path: '', format, namespace: ns }, turnsInserted: 1, duplicates: 0, read: 0, malformed: 0, redactions: {}, insertedIds: [], held: false })));
    response.embedded = after.embedded;
    if (after.warning) response.warning = after.warning;
  }
  return response;
}
