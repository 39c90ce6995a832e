// `cairn ingest PATH…`: the daemon's capture code run once over named files. A file inside a
// watched source of the same format and namespace shares that source's checkpoint, so a hook and
// the daemon never read the same lines twice; other files get a one-off source of their own.
// It also finishes what an earlier run left in those namespaces (killed mid-judging or
// mid-embedding), even when no line is new.
import { resolve as resolvePath } from 'node:path';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import type { Source } from '../core/types.js';
import { openTranscript } from '../capture/file-reader.js';
import { ingestFile, type IngestReport } from '../capture/ingest-file.js';
import { parseTranscriptFormat, type TranscriptFormat } from '../capture/formats/index.js';
import { unitForPath } from '../capture/sources/units.js';
import { runStages, type CaptureDeps } from './capture.js';
import { missingVectors } from './indexer.js';
import { watchedSources } from './sources.js';

export interface IngestOptions {
  format: TranscriptFormat | string;
  namespace?: string;
  /** The transcripts are complete: flush held turns (see IngestFileOptions.final). */
  final?: boolean;
  batchLines?: number;
  /** False: leave vectors to someone else (a hook leaves them to the daemon or embeds in slices itself). */
  embed?: boolean;
}

export interface IngestResponse {
  namespace: string;
  format: TranscriptFormat;
  /** One per path, in order: a report, or the error that stopped that file (others still ran). */
  files: Array<{ path: string; /** Where its turns went (a watched source's namespace when none was given). */ namespace?: string; report?: Omit<IngestReport, 'insertedIds' | 'held'>; error?: { code: string; message: string } }>;
  turnsInserted: number;
  /** Turns judged: the new ones and any an earlier run left unjudged in the same namespaces. */
  judged: number;
  /** Entries embedded, new and pending alike (0 without an embedder). */
  embedded: number;
  /**
   * Of those, the work pending before this run (a killed ingest or daemon, a hook's capture); in a
   * namespace with no new turns, every vector made (memories its judging made included).
   */
  backlog: { judged: number; embedded: number };
  warning?: string;
}

/** Per namespace, turns without a judgment and entries without a vector (model null: not counted). */
async function pendingWork(deps: CaptureDeps): Promise<Map<string, { judged: number; embedded: number }>> {
  const out = new Map<string, { judged: number; embedded: number }>();
  for (const s of await deps.store.judgeStats()) out.set(s.namespace, { judged: s.pending, embedded: 0 });
  if (deps.embed && deps.vectorModel) {
    for (const [ns, missing] of await missingVectors(deps.store, deps.vectorModel)) out.set(ns, { judged: out.get(ns)?.judged ?? 0, embedded: missing });
  }
  return out;
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
  const response: IngestResponse = { namespace: namespace.given ?? namespace.fallback, format, files: [], turnsInserted: 0, judged: 0, embedded: 0, backlog: { judged: 0, embedded: 0 } };
  const pending = await pendingWork(deps);
  const touched = new Set<string>();
  const reached = new Set<string>();
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
      reached.add(ns);
      if (report.turnsInserted > 0) touched.add(ns);
    } catch (err) {
      const code = err instanceof CairnError ? err.code : ERROR_CODES.INTERNAL;
      response.files.push({ path, error: { code, message: (err as Error).message } });
    }
  }
  // Every namespace a file was read into, new turns or not: what a killed run left there is
  // finished now (the realtime view follows its watermark, so it catches up as well).
  const after = await runStages(options.embed === false ? { ...deps, embed: null } : deps, { view: reached, judge: reached, embed: reached });
  response.judged = after.judged;
  response.embedded = after.embedded;
  for (const [ns, done] of after.byNamespace) {
    const before = pending.get(ns);
    response.backlog.judged += Math.min(before?.judged ?? 0, done.judged);
    // Without new turns, every vector made belongs to the backlog (memories its judging made too).
    response.backlog.embedded += touched.has(ns) ? Math.min(before?.embedded ?? 0, done.embedded) : done.embedded;
  }
  if (after.warning) response.warning = after.warning;
  return response;
}
