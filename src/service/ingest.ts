// `cairn ingest PATH…`: the daemon's capture code run once over named files, OpenClaw SQLite
// stores and transcript folders (see ingest-targets.ts for what each path stands for and how its
// format is told). A file inside a watched source of the same format and namespace shares that
// source's checkpoint, so a hook and the daemon never read the same lines twice; other files get
// a one-off source of their own. It also finishes what an earlier run left in those namespaces
// (killed mid-judging or mid-embedding), even when no line is new.
import { resolve as resolvePath } from 'node:path';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { ingestFile, type IngestReport } from '../capture/ingest-file.js';
import { parseTranscriptFormat, type TranscriptFormat } from '../capture/formats/index.js';
import { ingestOpenClawDb } from '../capture/openclaw-db.js';
import { runStages, type CaptureDeps } from './capture.js';
import { missingVectors } from './indexer.js';
import { expandPath, prepareTarget, type IngestTarget, type NamespaceChoice, type PendingTarget } from './ingest-targets.js';
import { watchedSources } from './sources.js';

export interface IngestOptions {
  /** Omitted: told per path (a watched source's format, else the file's content). */
  format?: TranscriptFormat | string;
  namespace?: string;
  /** The transcripts are complete: flush held turns (see IngestFileOptions.final). */
  final?: boolean;
  batchLines?: number;
  /** False: leave vectors to someone else (a hook leaves them to the daemon or embeds in slices itself). */
  embed?: boolean;
  /** Progress of a long run, phase by phase (capture: targets done, fractions included). */
  onProgress?: (progress: IngestProgress) => void;
}

export interface IngestProgress {
  phase: 'capture' | 'judge' | 'embed';
  done: number;
  total: number;
}

/** What one file or database gave (a database counts rows as lines, and its sessions). */
export type IngestFileReport = Omit<IngestReport, 'insertedIds' | 'held' | 'checkpointLine'> & { checkpointLine?: number; sessions?: number };

export interface IngestResponse {
  namespace: string;
  /** The format given by the caller; each file says the one it was read in. */
  format?: TranscriptFormat;
  /** One per file or database, in order: a report, or the error that stopped it (others still ran). */
  files: Array<{
    path: string;
    /** Where its turns went (a watched source's namespace when none was given). */
    namespace?: string;
    /** How it was read: a transcript format, or `openclaw-db` for OpenClaw's SQLite store. */
    format?: TranscriptFormat | 'openclaw-db';
    report?: IngestFileReport;
    error?: { code: string; message: string };
  }>;
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
    for (const [ns, missing] of await missingVectors(deps.store, deps.vectorModel, deps.passages)) out.set(ns, { judged: out.get(ns)?.judged ?? 0, embedded: missing });
  }
  return out;
}

type Entry = { target: PendingTarget } | { path: string; error: { code: string; message: string } };

function errorOf(err: unknown): { code: string; message: string } {
  return { code: err instanceof CairnError ? err.code : ERROR_CODES.INTERNAL, message: (err as Error).message };
}

/**
 * Captures what is new in each path since its checkpoint, then runs the stages after capture.
 * A path that cannot be read (missing, a FIFO, permission denied, a symlink loop, binary, of no
 * format that can be told) gets an `error` entry with a clear message and the other paths still
 * run: one bad path must not hold back the rest of a batch (the CLI exits non-zero when any failed).
 */
export async function ingestPaths(deps: CaptureDeps, paths: readonly string[], namespace: NamespaceChoice, options: IngestOptions): Promise<IngestResponse> {
  const format = options.format === undefined ? undefined : parseTranscriptFormat(options.format);
  if (paths.length === 0) throw new CairnError(ERROR_CODES.INVALID_INPUT, 'No transcript paths given');
  const entries: Entry[] = [];
  for (const path of paths.map((p) => resolvePath(p))) {
    try {
      const { targets, errors } = await expandPath(path, format, namespace);
      entries.push(...targets.map((target) => ({ target })));
      entries.push(...errors.map((e) => ({ path: e.path, error: { code: ERROR_CODES.INVALID_INPUT, message: `Cannot list ${e.path}: ${e.message}` } })));
    } catch (err) {
      entries.push({ path, error: errorOf(err) });
    }
  }
  const watched = await watchedSources(deps.store);
  const response: IngestResponse = { namespace: namespace.given ?? namespace.fallback, ...(format ? { format } : {}), files: [], turnsInserted: 0, judged: 0, embedded: 0, backlog: { judged: 0, embedded: 0 } };
  const pending = await pendingWork(deps);
  const touched = new Set<string>();
  const reached = new Set<string>();
  const total = entries.filter((e) => 'target' in e).length;
  let done = 0;
  const progress = (fraction: number) => options.onProgress?.({ phase: 'capture', done: done + Math.min(1, fraction), total });
  for (const entry of entries) {
    if (!('target' in entry)) {
      response.files.push(entry);
      continue;
    }
    try {
      const target = await prepareTarget(deps.store, entry.target, watched);
      const report = await captureTarget(deps, target, options, progress);
      response.files.push({ path: target.path, namespace: target.namespace, format: target.type === 'db' ? 'openclaw-db' : target.format, report });
      response.turnsInserted += report.turnsInserted;
      reached.add(target.namespace);
      if (report.turnsInserted > 0) touched.add(target.namespace);
    } catch (err) {
      response.files.push({ path: entry.target.path, error: errorOf(err) });
    }
    done++; // a target that failed is done too
    progress(0);
  }
  // Every namespace a file was read into, new turns or not: what a killed run left there is
  // finished now (the realtime view follows its watermark, so it catches up as well).
  const stageDeps = withProgress(options.embed === false ? { ...deps, embed: null } : deps, options, [...reached]);
  const after = await runStages(stageDeps, { view: reached, judge: reached, embed: reached });
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

async function captureTarget(deps: CaptureDeps, target: IngestTarget, options: IngestOptions, progress: (fraction: number) => void): Promise<IngestFileReport> {
  if (target.type === 'db') {
    const { insertedIds: _ids, rowsRead, issues, ...db } = await ingestOpenClawDb(deps.store, {
      path: target.path, namespace: target.namespace, sourceId: target.source.id, final: options.final, batchRows: options.batchLines,
      onProgress: (sessions, of) => progress(of === 0 ? 1 : sessions / of),
    });
    return { ...db, linesRead: rowsRead, issues: issues.map((i) => ({ line: i.seq, reason: `session ${i.session}: ${i.reason}` })) };
  }
  const { insertedIds: _ids, held: _held, ...report } = await ingestFile(deps.store, {
    path: target.path, format: target.format, namespace: target.namespace, sourceId: target.source.id, final: options.final, batchLines: options.batchLines,
    onProgress: (bytes, of) => progress(of === 0 ? 1 : bytes / of),
  });
  return report;
}

/** The judge and embedder of `deps`, reporting their progress over the namespaces captured into. */
function withProgress(deps: CaptureDeps, options: IngestOptions, namespaces: string[]): CaptureDeps {
  const report = options.onProgress;
  if (!report) return deps;
  const { judge, embed } = deps;
  let judgeTotal: Promise<number> | null = null;
  let judged = 0;
  let embedded = 0;
  let embedTotal = 0;
  return {
    ...deps,
    judge: judge && (async (ns, _onProgress, onJudged) => {
      judgeTotal ??= deps.store.judgeStats().then((all) => all.filter((s) => namespaces.includes(s.namespace)).reduce((n, s) => n + s.pending, 0));
      const total = await judgeTotal;
      const base = judged;
      const n = await judge(ns, (d) => report({ phase: 'judge', done: base + d, total: Math.max(total, base + d) }), onJudged);
      judged += n;
      return n;
    }),
    embed: embed && (async (ns, _onProgress, throughSeq) => {
      const base = { done: embedded, total: embedTotal };
      let seen = 0;
      const n = await embed(ns, (p) => {
        seen = Math.max(p.total, p.done);
        report({ phase: 'embed', done: base.done + p.done, total: base.total + seen });
      }, throughSeq);
      embedded += n;
      embedTotal += Math.max(seen, n);
      return n;
    }),
  };
}
