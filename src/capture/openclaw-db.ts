// Captures OpenClaw's SQLite transcript store (2026.8+, one `openclaw-agent.sqlite` per agent)
// into Cairn, exactly once per row. Each `transcript_events` row is one former JSONL line; each
// session has its own checkpoint (the last consumed seq), committed with the turns of the rows it
// covers in one transaction, so a crash re-reads at most one uncommitted page and the store's dedup
// by (namespace, session, message id) keeps that from doubling anything.
//
// The gateway is the only writer of that database: it is opened read-only with a busy timeout and
// read in pages of `seq > ? ORDER BY seq LIMIT n` (WAL readers never block the writer), never as a
// whole session.
import { statSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { newDatabase } from '../store/sqlite/driver.js';
import { Decompress } from 'fzstd';
import { CairnError, ERROR_CODES, invalidInput } from '../core/errors.js';
import type { NewTurn } from '../core/types.js';
import type { Store } from '../store/store.js';
import { batchStats, mergeStats, readError, readStats, type CaptureStats } from './capture-stats.js';
import { MAX_LINE_BYTES, unreadable } from './file-reader.js';
import { createParser } from './formats/index.js';
import { isRecord, toIso, type TranscriptParser } from './formats/common.js';
import { draftToTurn } from './to-turn.js';
import type { ParseIssue, TurnDraft } from './turn-draft.js';

/** Rows per page, and so per committed batch, by default. */
export const DEFAULT_BATCH_ROWS = 1000;
/** How long a read waits for a lock (a rollback-journal writer mid-commit) before failing. */
export const DB_BUSY_TIMEOUT_MS = 5000;

const TABLE = 'transcript_events';
const FORMAT = 'openclaw';

export interface IngestDbOptions {
  path: string;
  namespace: string;
  /** The registered source (store.addSource) whose checkpoints this database uses. */
  sourceId: number;
  batchRows?: number;
  /** Sessions are complete: flush what the parser still holds (see IngestFileOptions.final). */
  final?: boolean;
  /** Stop after the page in progress is committed (a daemon shutting down). */
  signal?: AbortSignal;
  /** Called as sessions are done: how many of how many (a progress bar). */
  onProgress?: (sessionsDone: number, sessionsTotal: number) => void;
}

export interface IngestDbReport {
  /** Absolute path of the database. */
  path: string;
  /** Sessions that had rows past their checkpoint (read in this run). */
  sessions: number;
  rowsRead: number;
  turnsInserted: number;
  /** Turns already stored (same namespace, session and message id). */
  duplicates: number;
  /** Records dropped on purpose by the parser (noise, empty turns). */
  skipped: number;
  /** Rows that could not be read as-is (undecodable, invalid JSON, …); never fatal. */
  issues: Array<{ session: string; seq: number; reason: string }>;
  /** Secrets replaced, per kind. */
  redactions: Record<string, number>;
  /** Ids of the turns inserted (for embedding or follow-up work). */
  insertedIds: string[];
}

/** The checkpoint key of one session of a database. */
export function dbCheckpointKey(path: string, sessionId: string): string {
  return `${resolve(path)}#${sessionId}`;
}

/**
 * Ingests what is new in every session of an OpenClaw transcript database since its checkpoint.
 * Throws a CairnError before touching the store when the file is missing, is not a SQLite
 * database or has no transcript table; rows that cannot be read are reported in `issues`.
 */
export async function ingestOpenClawDb(store: Store, options: IngestDbOptions): Promise<IngestDbReport> {
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS;
  if (!Number.isSafeInteger(batchRows) || batchRows < 1) throw invalidInput('batchRows must be a positive integer');
  const path = resolve(options.path);
  const db = TranscriptDb.open(path);
  try {
    const report: IngestDbReport = { path, sessions: 0, rowsRead: 0, turnsInserted: 0, duplicates: 0, skipped: 0, issues: [], redactions: {}, insertedIds: [] };
    const stored = new Map((await store.listCheckpoints(options.sourceId)).map((c) => [c.key, c.state]));
    const sessions = db.sessions();
    for (const [done, session] of sessions.entries()) {
      if (options.signal?.aborted) break;
      await ingestSession(store, db, { ...options, batchRows }, report, session, stored.get(dbCheckpointKey(path, session.id)) ?? null);
      options.onProgress?.(done + 1, sessions.length);
    }
    return report;
  } finally {
    db.close();
  }
}

/** Throws what ingestOpenClawDb would (missing, not SQLite, no transcript table), reading no row. */
export function probeOpenClawDb(path: string): void {
  TranscriptDb.open(resolve(path)).close();
}

interface SessionInfo {
  id: string;
  maxSeq: number;
}

/** One page of a session, or the session header on resume. */
interface EventRow {
  seq: number;
  event_json: unknown;
  event_zstd: unknown;
  created_at: unknown;
}

async function ingestSession(store: Store, db: TranscriptDb, options: IngestDbOptions & { batchRows: number }, report: IngestDbReport, session: SessionInfo, stored: unknown): Promise<void> {
  const done = storedSeq(stored);
  const staleError = readError(stored) !== null;
  if (done === session.maxSeq && !staleError) return;
  // A max below the checkpoint means the database was rebuilt: read the session again from the
  // top; the store's dedup keeps what was already captured from being doubled.
  const after = done !== null && done <= session.maxSeq ? done : null;
  const header = after === null ? undefined : db.firstRow(session.id);
  const run = new SessionRun(store, options, report, session.id, after, stored, header, db.mtime);
  if (after === null || after < session.maxSeq) report.sessions++;
  let from = after;
  for (;;) {
    const rows = db.page(session.id, from, options.batchRows);
    for (const row of rows) run.read(row);
    if (rows.length > 0) from = rows[rows.length - 1]!.seq;
    await run.commit();
    if (rows.length < options.batchRows || options.signal?.aborted) break;
  }
  if (options.final && !options.signal?.aborted) {
    run.flush();
    await run.commit();
  }
}

/** The last consumed seq of a stored checkpoint, or null (none, or malformed: read from the top). */
function storedSeq(state: unknown): number | null {
  if (!isRecord(state)) return null;
  return typeof state.seq === 'number' && Number.isSafeInteger(state.seq) ? state.seq : null;
}

/** The database, opened read-only, with the statements capture needs. */
class TranscriptDb {
  private constructor(
    private readonly db: Database.Database,
    private readonly path: string,
    private readonly sessionsStmt: Database.Statement,
    private readonly pageStmt: Database.Statement,
    private readonly firstStmt: Database.Statement,
    /** File modification time: the fallback time of a session whose first row has no created_at. */
    readonly mtime: string,
  ) {}

  static open(path: string): TranscriptDb {
    const mtime = statDbFile(path);
    let db: Database.Database;
    try {
      db = newDatabase(path, { readonly: true, fileMustExist: true, timeout: DB_BUSY_TIMEOUT_MS });
    } catch (err) {
      throw dbError(path, err);
    }
    try {
      const columns = tableColumns(db, path);
      // Columns a schema lacks read as NULL, so one set of statements serves every version.
      const col = (name: string) => (columns.has(name) ? name : 'NULL');
      const select = `SELECT seq, ${col('event_json')} AS event_json, ${col('event_zstd')} AS event_zstd, ${col('created_at')} AS created_at FROM ${TABLE}`;
      // Only integer seqs: what paging by `seq > ?` and the checkpoint can rely on.
      const where = `session_id = ? AND typeof(seq) = 'integer'`;
      return new TranscriptDb(
        db,
        path,
        db.prepare(`SELECT session_id AS id, MAX(seq) AS maxSeq FROM ${TABLE} WHERE session_id IS NOT NULL AND typeof(seq) = 'integer' GROUP BY session_id ORDER BY session_id`),
        db.prepare(`${select} WHERE ${where} AND seq > ? ORDER BY seq LIMIT ?`),
        db.prepare(`${select} WHERE ${where} ORDER BY seq LIMIT 1`),
        mtime,
      );
    } catch (err) {
      db.close();
      throw dbError(path, err);
    }
  }

  sessions(): SessionInfo[] {
    const rows = this.guard(() => this.sessionsStmt.all() as Array<{ id: unknown; maxSeq: number }>);
    return rows.map((r) => ({ id: String(r.id), maxSeq: r.maxSeq }));
  }

  /** Up to `limit` rows after `after` (null: from the first), in seq order. */
  page(session: string, after: number | null, limit: number): EventRow[] {
    return this.guard(() => this.pageStmt.all(session, after ?? Number.MIN_SAFE_INTEGER, limit) as EventRow[]);
  }

  firstRow(session: string): EventRow | undefined {
    return this.guard(() => this.firstStmt.get(session) as EventRow | undefined);
  }

  close(): void {
    this.db.close();
  }

  private guard<T>(read: () => T): T {
    try {
      return read();
    } catch (err) {
      throw dbError(this.path, err);
    }
  }
}

/** Checks the path is a readable regular file; its mtime (ISO) when it is. */
function statDbFile(path: string): string {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    throw unreadable(path, err);
  }
  if (st.isDirectory()) throw unreadable(path, Object.assign(new Error('is a directory'), { code: 'EISDIR' }));
  if (!st.isFile()) throw unreadable(path, Object.assign(new Error('not a regular file'), { code: 'ENOTFILE' }));
  return st.mtime.toISOString();
}

/** The transcript table's column names; throws when the table or a needed column is missing. */
function tableColumns(db: Database.Database, path: string): Set<string> {
  const columns = new Set((db.prepare('SELECT name FROM pragma_table_info(?)').all(TABLE) as Array<{ name: string }>).map((c) => c.name));
  if (columns.size === 0) throw invalidInput(`${path} has no ${TABLE} table: not an OpenClaw agent database (2026.8 or later)`, { path });
  const missing = ['session_id', 'seq'].filter((c) => !columns.has(c));
  if (!columns.has('event_json') && !columns.has('event_zstd')) missing.push('event_json or event_zstd');
  if (missing.length > 0) throw invalidInput(`${path}: table ${TABLE} has no ${missing.join(', ')} column; unknown OpenClaw schema`, { path });
  return columns;
}

/** A SQLite failure as a CairnError that says which file and what to do. */
function dbError(path: string, err: unknown): CairnError {
  if (err instanceof CairnError) return err;
  const code = String((err as { code?: unknown } | undefined)?.code ?? '');
  const details = { path, ...(code ? { sqlite: code } : {}) };
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new CairnError(ERROR_CODES.STORE_LOCKED, `OpenClaw transcript database ${path} stayed locked for ${DB_BUSY_TIMEOUT_MS} ms; retry later`, details, { cause: err });
  }
  const why = code === 'SQLITE_NOTADB' ? 'not a SQLite database' : code.startsWith('SQLITE_CORRUPT') ? 'the database is corrupt' : (err as Error | undefined)?.message ?? 'unreadable';
  return new CairnError(ERROR_CODES.INVALID_INPUT, `Cannot read OpenClaw transcript database ${path}: ${why}`, details, { cause: err });
}

/** A row's event text, or why it cannot be read. */
function rowText(row: Pick<EventRow, 'event_json' | 'event_zstd'>): { text: string } | { reason: string } {
  const { event_json: json, event_zstd: zstd } = row;
  let text: string;
  if (json !== null && json !== undefined) text = Buffer.isBuffer(json) ? json.toString('utf8') : String(json);
  else if (zstd === null || zstd === undefined) return { reason: 'row has neither event_json nor event_zstd; skipped' };
  else if (!(zstd instanceof Uint8Array)) return { reason: `event_zstd is ${typeof zstd}, not a BLOB; skipped` };
  else {
    try {
      text = inflate(zstd);
    } catch (err) {
      return { reason: `event_zstd does not decompress (${(err as Error).message}); skipped` };
    }
  }
  const bytes = Buffer.byteLength(text);
  return bytes > MAX_LINE_BYTES ? { reason: `event of ${bytes} bytes exceeds the ${MAX_LINE_BYTES}-byte limit; skipped` } : { text };
}

/**
 * Decompresses a zstd blob as UTF-8. Streamed with a cap rather than fzstd's one-shot
 * `decompress`, which allocates whatever size the frame header claims: a small corrupt or hostile
 * blob must not be able to ask for gigabytes.
 */
function inflate(blob: Uint8Array): string {
  if (blob.length === 0) throw new Error('empty blob');
  const chunks: Uint8Array[] = [];
  let size = 0;
  const stream = new Decompress((chunk) => {
    size += chunk.length;
    if (size > MAX_LINE_BYTES) throw new Error(`more than ${MAX_LINE_BYTES} bytes`);
    chunks.push(chunk);
  });
  stream.push(blob, true);
  return Buffer.concat(chunks, size).toString('utf8');
}

/** True when `text` is an OpenClaw session header line. */
function isHeader(text: string): boolean {
  try {
    const rec: unknown = JSON.parse(text);
    return isRecord(rec) && rec.type === 'session';
  } catch {
    return false;
  }
}

/** The state of one session's ingest: the open batch, the uncommitted seqs, the stats. */
class SessionRun {
  private parser: TranscriptParser | null = null;
  private batch: NewTurn[] = [];
  /** Seqs read since the last commit, ascending: where a checkpoint could stand. */
  private uncommitted: number[] = [];
  private committed: number | null;
  /** Issues not yet covered by a committed checkpoint (their rows may be read again). */
  private openIssues: ParseIssue[] = [];
  private pendingRedactions: Record<string, number> = {};
  private pendingSkipped = 0;
  private stats: CaptureStats;
  /** The stored state carries an error, or a seq past a rebuilt session's rows: the next commit must replace it. */
  private stale: boolean;
  private readonly key: string;

  constructor(
    private readonly store: Store,
    private readonly options: IngestDbOptions,
    private readonly report: IngestDbReport,
    private readonly session: string,
    after: number | null,
    stored: unknown,
    /** The session's first row, when resuming past it: it may be the header the parser needs. */
    private readonly header: EventRow | undefined,
    private readonly fallbackTime: string,
  ) {
    this.committed = after;
    this.key = dbCheckpointKey(options.path, session);
    this.stats = readStats(stored);
    this.stale = readError(stored) !== null || storedSeq(stored) !== after;
  }

  read(row: EventRow): void {
    const parser = this.parser ?? this.startParser(row);
    this.report.rowsRead++;
    this.uncommitted.push(row.seq);
    const decoded = rowText(row);
    if ('reason' in decoded) this.addIssue({ line: row.seq, reason: decoded.reason });
    else parser.push(decoded.text, row.seq);
    this.collect();
  }

  flush(): void {
    this.parser?.flush();
  }

  /**
   * The parser takes the session id and cwd from the header row. On resume that row was consumed
   * in an earlier run, so it is read again, and what it yields is dropped: it was counted then.
   * The fallback time is the first row's creation time, closer to the truth than the file's mtime.
   */
  private startParser(first: EventRow): TranscriptParser {
    const parser = createParser(FORMAT, { sessionId: this.session, fallbackTimestamp: toIso(first.created_at) ?? this.fallbackTime });
    const header = this.header === undefined ? null : rowText(this.header);
    if (header && 'text' in header && isHeader(header.text)) {
      parser.push(header.text, this.header!.seq);
      parser.take();
    }
    this.parser = parser;
    return parser;
  }

  private addIssue(issue: ParseIssue): void {
    this.report.issues.push({ session: this.session, seq: issue.line, reason: issue.reason });
    this.openIssues.push(issue);
  }

  private collect(): void {
    if (!this.parser) return;
    const { turns, issues, skipped } = this.parser.take();
    for (const issue of issues) this.addIssue(issue);
    this.report.skipped += skipped;
    this.pendingSkipped += skipped;
    for (const draft of turns) this.batch.push(this.toTurn(draft));
  }

  private toTurn(draft: TurnDraft): NewTurn {
    const counts: Record<string, number> = {};
    const turn = draftToTurn(draft, { namespace: this.options.namespace, sourceId: this.options.sourceId, source: FORMAT, path: this.report.path }, counts);
    for (const into of [this.report.redactions, this.pendingRedactions]) for (const [k, n] of Object.entries(counts)) into[k] = (into[k] ?? 0) + n;
    return turn;
  }

  /** Where the checkpoint can stand: after the last row read, but never past a held row. */
  private target(): number | null {
    const pending = this.parser?.pendingFrom() ?? null;
    const eligible = pending === null ? this.uncommitted : this.uncommitted.filter((seq) => seq < pending);
    return eligible.length > 0 ? eligible[eligible.length - 1]! : this.committed;
  }

  /** Commits the batch with the checkpoint covering exactly the rows its turns came from. */
  async commit(): Promise<void> {
    this.collect();
    const seq = this.target();
    if (this.batch.length === 0 && seq === this.committed && !this.stale) return;
    const covers = (s: number) => seq !== null && s <= seq;
    const covered = this.openIssues.filter((i) => covers(i.line));
    const consumed = this.uncommitted.filter(covers).length;
    // Stats go in with the turns they count (stored ones, not re-read duplicates), in the same
    // transaction; a stored error is dropped.
    let next = this.stats;
    const state = ({ inserted }: { inserted: number }) => {
      next = mergeStats(this.stats, batchStats({ linesRead: consumed, turns: inserted, skipped: this.pendingSkipped, issues: covered, redactions: this.pendingRedactions }));
      return { seq, stats: next };
    };
    const result = await this.store.addTurns(this.batch, { sourceId: this.options.sourceId, key: this.key, state });
    this.report.turnsInserted += result.inserted.length;
    this.report.duplicates += result.duplicates;
    for (const turn of result.inserted) this.report.insertedIds.push(turn.id);
    this.committed = seq;
    this.stats = next;
    this.stale = false;
    this.openIssues = this.openIssues.filter((i) => !covers(i.line));
    this.uncommitted = this.uncommitted.filter((s) => !covers(s));
    this.pendingRedactions = {};
    this.pendingSkipped = 0;
    this.batch = [];
  }
}
