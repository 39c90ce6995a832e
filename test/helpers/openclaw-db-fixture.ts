// Builds OpenClaw-shaped transcript databases (2026.8+ `openclaw-agent.sqlite`) for capture tests:
// the `transcript_events` table with or without the newer `event_zstd` column, rows stored as JSON
// text, zstd-compressed (by the system `zstd` binary, so the test does not trust the decoder it
// tests), or deliberately broken; plus builders for pi v3 records.
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';

export interface OpenClawDbOptions {
  /** Newer schema with the `event_zstd` BLOB column (default true). */
  zstdColumn?: boolean;
  /** WAL journal, as the gateway runs it (default true). */
  wal?: boolean;
}

/** How a row stores its event: JSON text, compressed, or raw column values (for broken rows). */
export type StoredEvent =
  | { json: unknown }
  | { zstd: unknown }
  | { raw: { event_json: string | Buffer | null; event_zstd: Buffer | null } };

/** zstd-compresses `text` with the system binary; fails loudly when it is not installed. */
export function zstd(text: string): Buffer {
  const input = Buffer.from(text, 'utf8');
  try {
    // --stream-size records the content size in the frame header, as one-shot compressors do.
    return execFileSync('zstd', ['-q', '-c', `--stream-size=${input.length}`], { input, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('The `zstd` binary is needed to build compressed test rows but was not found on PATH: install it (apt-get install zstd).');
    }
    throw err;
  }
}

const asText = (event: unknown): string => (typeof event === 'string' ? event : JSON.stringify(event));

/** A writable OpenClaw agent database: the test plays the gateway (the only writer). */
export class OpenClawDb {
  readonly db: Database.Database;
  private readonly zstdColumn: boolean;
  private readonly insertStmt: Database.Statement;

  constructor(readonly path: string, options: OpenClawDbOptions = {}) {
    this.zstdColumn = options.zstdColumn ?? true;
    this.db = new Database(path);
    if (options.wal ?? true) this.db.pragma('journal_mode = WAL');
    const zstdCol = this.zstdColumn ? ', event_zstd BLOB' : '';
    this.db.exec(`CREATE TABLE IF NOT EXISTS transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT, created_at TEXT NOT NULL${zstdCol}, PRIMARY KEY (session_id, seq))`);
    this.insertStmt = this.zstdColumn
      ? this.db.prepare('INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd) VALUES (?, ?, ?, ?, ?)')
      : this.db.prepare('INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)');
  }

  /** Inserts one row; a plain value is stored as JSON text. */
  insert(session: string, seq: number, event: StoredEvent | Record<string, unknown> | string, createdAt = '2026-08-10T10:00:00.000Z'): void {
    const { json, blob } = columns(event);
    if (this.zstdColumn) this.insertStmt.run(session, seq, json, createdAt, blob);
    else if (blob !== null) throw new Error('this database has no event_zstd column');
    else this.insertStmt.run(session, seq, json, createdAt);
  }

  /** Appends `events` to a session, numbering from `firstSeq`, in one transaction. */
  append(session: string, firstSeq: number, events: ReadonlyArray<StoredEvent | Record<string, unknown> | string>): void {
    this.db.transaction(() => events.forEach((e, i) => this.insert(session, firstSeq + i, e)))();
  }

  close(): void {
    this.db.close();
  }
}

function columns(event: StoredEvent | Record<string, unknown> | string): { json: string | Buffer | null; blob: Buffer | null } {
  if (typeof event === 'object' && event !== null) {
    if ('raw' in event && isRaw(event.raw)) return { json: event.raw.event_json, blob: event.raw.event_zstd };
    if ('zstd' in event && Object.keys(event).length === 1) return { json: null, blob: zstd(asText(event.zstd)) };
    if ('json' in event && Object.keys(event).length === 1) return { json: asText(event.json), blob: null };
  }
  return { json: asText(event), blob: null };
}

function isRaw(value: unknown): value is { event_json: string | Buffer | null; event_zstd: Buffer | null } {
  return typeof value === 'object' && value !== null && 'event_json' in value && 'event_zstd' in value;
}

// pi v3 records, as OpenClaw writes them.

const at = (minute: number): string => new Date(Date.UTC(2026, 7, 10, 10, minute)).toISOString();

export function header(id: string, cwd = '/home/ana/.openclaw/workspace'): Record<string, unknown> {
  return { type: 'session', version: 3, id, timestamp: at(0), cwd };
}

export function user(id: string, text: string, minute = 1): Record<string, unknown> {
  return { type: 'message', id, parentId: null, timestamp: at(minute), message: { role: 'user', content: [{ type: 'text', text }], timestamp: Date.parse(at(minute)) } };
}

export function assistant(id: string, text: string, minute = 2): Record<string, unknown> {
  return {
    type: 'message', id, parentId: null, timestamp: at(minute),
    message: { role: 'assistant', content: [{ type: 'text', text }], provider: 'anthropic', model: 'claude-sonnet-4-6', stopReason: 'stop', timestamp: Date.parse(at(minute)) },
  };
}

export function noise(id: string): Record<string, unknown> {
  return { type: 'model_change', id, parentId: null, timestamp: at(0), provider: 'anthropic', modelId: 'claude-sonnet-4-6' };
}

/** A session of `count` rows: the header, then user and assistant messages alternating. */
export function conversation(sessionId: string, count: number): Array<Record<string, unknown>> {
  const rows = [header(sessionId)];
  for (let i = 1; i < count; i++) rows.push(i % 2 === 1 ? user(msgId(i), `question number ${i}`, i % 60) : assistant(msgId(i), `answer number ${i}`, i % 60));
  return rows;
}

/** The message id `conversation` gives row `i` (8 hex chars, like OpenClaw's). */
export function msgId(i: number): string {
  return i.toString(16).padStart(8, '0');
}
