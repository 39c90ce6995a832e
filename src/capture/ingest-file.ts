// Captures one transcript file into the store, exactly once: read from the stored checkpoint,
// parse, redact, and commit each batch of turns together with the checkpoint that covers exactly
// the lines those turns came from (one transaction). A crash between batches re-reads at most one
// uncommitted batch, and the store's dedup by (namespace, session, message id) keeps that from
// doubling anything; a restart after rotation, truncation or a rewrite is safe for the same reason.
import { basename, resolve } from 'node:path';
import { invalidInput } from '../core/errors.js';
import type { NewTurn } from '../core/types.js';
import type { Store } from '../store/store.js';
import { MAX_LINE_BYTES, openTranscript, type FileCheckpoint, type FileLine, type RestartReason } from './file-reader.js';
import { createParser, parseTranscriptFormat, type TranscriptFormat } from './formats/index.js';
import type { TranscriptParser } from './formats/common.js';
import type { ParseIssue, TurnDraft } from './turn-draft.js';
import { draftToTurn } from './to-turn.js';
import { batchStats, mergeStats, readError, readStats, type CaptureStats } from './capture-stats.js';

/** Lines per committed batch by default: small transactions, few of them. */
export const DEFAULT_BATCH_LINES = 1000;

export interface IngestFileOptions {
  path: string;
  format: TranscriptFormat | string;
  namespace: string;
  /** The registered source (store.addSource) whose checkpoint this file uses. */
  sourceId: number;
  batchLines?: number;
  /**
   * The transcript is complete: flush turns the parser still holds (a Claude Code response whose
   * later parts could still arrive) and checkpoint past them. Without it they stay uncommitted and
   * the checkpoint stops at their first line, so the next run rebuilds them whole. Use it when the
   * session has ended (SessionEnd hook, a one-off import of old files).
   */
  final?: boolean;
  /** Line cap in bytes (default MAX_LINE_BYTES); longer lines are skipped as issues. */
  maxLineBytes?: number;
  /** Stop after the batch in progress is committed (a daemon shutting down). */
  signal?: AbortSignal;
  /** Called every few hundred lines: bytes read of the bytes this run has to read (a progress bar). */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
}

/** Lines between two progress calls. */
const PROGRESS_LINES = 256;

export interface IngestReport {
  path: string;
  /** Complete lines read in this run (held lines are read again next run). */
  linesRead: number;
  turnsInserted: number;
  /** Turns already stored (same namespace, session and message id). */
  duplicates: number;
  /** Records dropped on purpose by the parser (noise, empty turns). */
  skipped: number;
  /** Lines that could not be read as-is, with their 1-based line numbers. */
  issues: ParseIssue[];
  /** Secrets replaced, per kind. */
  redactions: Record<string, number>;
  /** Set when reading restarted from the top instead of the checkpoint, and why. */
  restarted?: RestartReason;
  /** Line the checkpoint now stands after. */
  checkpointLine: number;
  /** Ids of the turns inserted (for embedding or follow-up work). */
  insertedIds: string[];
  /** The parser still holds an unfinished turn (a response whose parts may still arrive). */
  held: boolean;
}

/** The checkpoint key of a file: its absolute path. */
export function fileKey(path: string): string {
  return resolve(path);
}

/** The session id a file name implies: `<id>.jsonl`, `<id>.jsonl.reset.<ts>` → `<id>`. */
export function sessionFromFileName(path: string): string {
  const name = basename(path);
  const at = name.indexOf('.jsonl');
  if (at > 0) return name.slice(0, at);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * Ingests what is new in one file since its checkpoint. Throws a CairnError (NOT_FOUND or
 * INVALID_INPUT) before touching the store when the file cannot be read; malformed lines are
 * skipped and reported in `issues`, never thrown.
 */
export async function ingestFile(store: Store, options: IngestFileOptions): Promise<IngestReport> {
  parseTranscriptFormat(options.format);
  const batchLines = options.batchLines ?? DEFAULT_BATCH_LINES;
  if (!Number.isSafeInteger(batchLines) || batchLines < 1) throw invalidInput('batchLines must be a positive integer');
  const path = fileKey(options.path);
  const stored = await store.getCheckpoint(options.sourceId, path);
  const reader = await openTranscript(path, stored, { maxLineBytes: options.maxLineBytes });
  try {
    const parser = createParser(options.format, { sessionId: sessionFromFileName(path), fallbackTimestamp: reader.mtime });
    const run = new IngestRun(store, options, parser, reader.start, (line) => reader.checkpointAfter(line), path, stored);
    const toRead = Math.max(0, reader.size - reader.start.offset);
    for await (const line of reader.lines()) {
      run.read(line);
      if (options.onProgress && line.lineNo % PROGRESS_LINES === 0) options.onProgress(Math.min(toRead, line.offset - reader.start.offset), toRead);
      if (run.linesSinceCommit >= batchLines) {
        await run.commit();
        if (options.signal?.aborted) break;
      }
    }
    if (options.final && !options.signal?.aborted) parser.flush();
    await run.commit();
    options.onProgress?.(toRead, toRead);
    return { ...run.report(reader.restarted), held: parser.pendingFrom() !== null };
  } finally {
    await reader.close();
  }
}

/** The state of one ingest: the open batch, the positions of uncommitted lines, the totals. */
class IngestRun {
  private batch: NewTurn[] = [];
  /** Lines read since the last commit, by line number: where a checkpoint could stand. */
  private readonly positions = new Map<number, FileLine>();
  private committed: FileCheckpoint;
  private lastLine: FileLine | null = null;
  linesSinceCommit = 0;
  private readonly totals = { linesRead: 0, turnsInserted: 0, duplicates: 0, skipped: 0 };
  private readonly issues: ParseIssue[] = [];
  /** Issues not yet covered by a committed checkpoint (their lines may be read again). */
  private openIssues: ParseIssue[] = [];
  private readonly redactions: Record<string, number> = {};
  /** Redactions and skips since the last commit, for the stored stats. */
  private pendingRedactions: Record<string, number> = {};
  private pendingSkipped = 0;
  private readonly insertedIds: string[] = [];
  /** Cumulative stats as committed (stored with every checkpoint). */
  private stats: CaptureStats;
  /** The stored state carries an error that the next write must clear. */
  private staleError: boolean;

  constructor(
    private readonly store: Store,
    private readonly options: IngestFileOptions,
    private readonly parser: TranscriptParser,
    start: FileCheckpoint,
    private readonly checkpointAfter: (line: FileLine | null) => FileCheckpoint,
    private readonly key: string,
    stored: unknown,
  ) {
    this.committed = start;
    this.stats = readStats(stored);
    this.staleError = readError(stored) !== null;
  }

  read(line: FileLine): void {
    this.totals.linesRead++;
    this.linesSinceCommit++;
    this.positions.set(line.lineNo, line);
    this.lastLine = line;
    if (line.text === null) this.addIssue({ line: line.lineNo, reason: `line of ${line.length} bytes exceeds the ${this.options.maxLineBytes ?? MAX_LINE_BYTES}-byte limit; skipped` });
    else this.parser.push(line.text, line.lineNo);
    this.collect();
  }

  private addIssue(issue: ParseIssue): void {
    this.issues.push(issue);
    this.openIssues.push(issue);
  }

  private collect(): void {
    const { turns, issues, skipped } = this.parser.take();
    for (const issue of issues) this.addIssue(issue);
    this.totals.skipped += skipped;
    this.pendingSkipped += skipped;
    for (const draft of turns) this.batch.push(this.toTurn(draft));
  }

  private toTurn(draft: TurnDraft): NewTurn {
    const counts: Record<string, number> = {};
    const turn = draftToTurn(draft, { namespace: this.options.namespace, sourceId: this.options.sourceId, source: this.options.format, path: this.key }, counts);
    for (const into of [this.redactions, this.pendingRedactions]) for (const [k, n] of Object.entries(counts)) into[k] = (into[k] ?? 0) + n;
    return turn;
  }

  /**
   * Commits the batch with the checkpoint after the last line whose turns are all out of the
   * parser: just before `pendingFrom()` while a merge is held, else after the last line read.
   */
  async commit(): Promise<void> {
    this.collect();
    const pending = this.parser.pendingFrom();
    const target = pending === null ? this.lastLine : this.positions.get(pending - 1) ?? null;
    const checkpoint = target === null ? this.committed : this.checkpointAfter(target);
    const moved = checkpoint.offset !== this.committed.offset || checkpoint.ino !== this.committed.ino || checkpoint.lineNo !== this.committed.lineNo;
    // Nothing to write. (A restart with no complete line yet is not recorded: the next run
    // detects the same replacement or truncation and restarts again, which is harmless.)
    if (this.batch.length === 0 && !moved && !this.staleError) return this.reset();
    let consumed = 0;
    for (const lineNo of this.positions.keys()) if (lineNo <= checkpoint.lineNo) consumed++;
    const covered = this.openIssues.filter((i) => i.line <= checkpoint.lineNo);
    // The stats go in with the turns they count, in the same transaction; they count the turns
    // stored, not those handed over (a re-read file hands over duplicates).
    let next = this.stats;
    const state = ({ inserted }: { inserted: number }) => {
      next = mergeStats(this.stats, batchStats({ linesRead: consumed, turns: inserted, skipped: this.pendingSkipped, issues: covered, redactions: this.pendingRedactions }));
      return { ...checkpoint, stats: next };
    };
    const result = await this.store.addTurns(this.batch, { sourceId: this.options.sourceId, key: this.key, state });
    this.totals.turnsInserted += result.inserted.length;
    this.totals.duplicates += result.duplicates;
    for (const turn of result.inserted) this.insertedIds.push(turn.id);
    this.committed = checkpoint;
    this.stats = next;
    this.staleError = false;
    this.openIssues = this.openIssues.filter((i) => i.line > checkpoint.lineNo);
    this.pendingRedactions = {};
    this.pendingSkipped = 0;
    for (const lineNo of this.positions.keys()) if (lineNo <= checkpoint.lineNo) this.positions.delete(lineNo);
    this.reset();
  }

  private reset(): void {
    this.batch = [];
    this.linesSinceCommit = 0;
  }

  report(restarted: RestartReason | undefined): Omit<IngestReport, 'held'> {
    return {
      path: this.key,
      ...this.totals,
      issues: this.issues,
      redactions: this.redactions,
      ...(restarted ? { restarted } : {}),
      checkpointLine: this.committed.lineNo,
      insertedIds: this.insertedIds,
    };
  }
}
