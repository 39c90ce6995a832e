// Incremental reading of one append-only transcript file. A checkpoint says where the last read
// stopped (which file by device+inode, byte offset, line number, and a hash of the last line before
// the offset); reading resumes there, or restarts from the top when the file was replaced,
// truncated or rewritten. Reading streams in fixed chunks (constant memory whatever the file
// size), yields only complete lines, and never reads a trailing line that has no newline yet.
import type { Hash } from 'node:crypto';
import { createHash } from '../core/lazy-crypto.js';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { CairnError, ERROR_CODES, invalidInput } from '../core/errors.js';
import { isRecord } from './formats/common.js';

/** Longest line kept (bytes, newline excluded); longer lines are skipped and reported. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** Read size: large enough for throughput, small enough to keep memory flat. */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * Where reading of one file stopped: just after line `lineNo`, at byte `offset`. `lastLineHash` and
 * `lastLineLength` (bytes, newline included) describe that line, so a rewrite before the offset is
 * detected. `dev`/`ino` are decimal strings (inode numbers can exceed 2^53).
 */
export interface FileCheckpoint {
  dev: string;
  ino: string;
  /** File size when the checkpoint was taken (informational). */
  size: number;
  offset: number;
  lineNo: number;
  lastLineHash: string | null;
  lastLineLength: number;
}

/** Why reading started again from byte 0 instead of the checkpoint. */
export type RestartReason = 'replaced' | 'truncated' | 'rewritten' | 'invalid-checkpoint';

/** One complete line. `text` is null when the line was longer than the cap (skipped). */
export interface FileLine {
  lineNo: number;
  text: string | null;
  /** Byte offset just after this line's newline. */
  offset: number;
  /** sha256 (hex) of the line's bytes, newline included. */
  hash: string;
  /** The line's length in bytes, newline included. */
  length: number;
}

export interface ReaderOptions {
  maxLineBytes?: number;
  chunkBytes?: number;
}

export interface TranscriptReader {
  readonly path: string;
  readonly dev: string;
  readonly ino: string;
  readonly size: number;
  /** Modification time (ISO) when opened: the fallback time for records without one. */
  readonly mtime: string;
  /** Where reading starts: the checkpoint, or the top of the file after a restart. */
  readonly start: FileCheckpoint;
  readonly restarted?: RestartReason;
  /** Complete lines from `start`, in order, up to the last newline in the file. */
  lines(): AsyncGenerator<FileLine>;
  /** The checkpoint that resumes just after `line` (or `start` for null). */
  checkpointAfter(line: FileLine | null): FileCheckpoint;
  close(): Promise<void>;
}

/** A stored checkpoint state as a FileCheckpoint, or null when it is missing or malformed. */
export function parseFileCheckpoint(state: unknown): FileCheckpoint | null {
  if (!isRecord(state)) return null;
  const { dev, ino, size, offset, lineNo, lastLineHash, lastLineLength } = state;
  const count = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  if (typeof dev !== 'string' || typeof ino !== 'string') return null;
  if (!count(size) || !count(offset) || !count(lineNo) || !count(lastLineLength)) return null;
  if (lastLineHash !== null && typeof lastLineHash !== 'string') return null;
  if (offset > 0 && (lastLineHash === null || lastLineLength === 0 || lastLineLength > offset || lineNo === 0)) return null;
  return { dev, ino, size, offset, lineNo, lastLineHash, lastLineLength };
}

/** A clear CairnError for a file that cannot be read (missing, forbidden, a directory, …). */
export function unreadable(path: string, err: unknown): CairnError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'ENOENT' ? 'no such file'
    : code === 'EACCES' || code === 'EPERM' ? 'permission denied'
    : code === 'EISDIR' ? 'is a directory, not a file'
    : code === 'ENOTFILE' ? 'not a regular file'
    : (err as Error | undefined)?.message ?? 'unreadable';
  const errorCode = code === 'ENOENT' ? ERROR_CODES.NOT_FOUND : ERROR_CODES.INVALID_INPUT;
  return new CairnError(errorCode, `Cannot read transcript ${path}: ${why}`, { path, ...(code ? { errno: code } : {}) }, { cause: err });
}

/**
 * Opens `path` and decides where to read from. `checkpoint` is the stored state (any shape; a
 * malformed one restarts from 0). An unreadable path throws a CairnError (NOT_FOUND for a missing
 * file, INVALID_INPUT otherwise).
 */
export async function openTranscript(path: string, checkpoint: unknown, options: ReaderOptions = {}): Promise<TranscriptReader> {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  if (!(maxLineBytes > 0) || !(chunkBytes > 0)) throw invalidInput('maxLineBytes and chunkBytes must be positive');
  let fh: FileHandle;
  try {
    // Checked before opening: opening a FIFO for reading would block until a writer appears.
    const kind = await stat(path);
    if (kind.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (!kind.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'ENOTFILE' });
    fh = await open(path, 'r');
  } catch (err) {
    throw unreadable(path, err);
  }
  try {
    const st = await fh.stat({ bigint: true });
    if (st.isDirectory()) throw unreadable(path, Object.assign(new Error('is a directory'), { code: 'EISDIR' }));
    if (!st.isFile()) throw unreadable(path, Object.assign(new Error('not a regular file'), { code: 'ENOTFILE' }));
    const file = { dev: st.dev.toString(), ino: st.ino.toString(), size: Number(st.size) };
    const top: FileCheckpoint = { ...file, offset: 0, lineNo: 0, lastLineHash: null, lastLineLength: 0 };
    let start = top;
    let restarted: RestartReason | undefined;
    if (!isBookkeepingOnly(checkpoint)) {
      const cp = parseFileCheckpoint(checkpoint);
      if (!cp) restarted = 'invalid-checkpoint';
      else if (cp.dev !== file.dev || cp.ino !== file.ino) restarted = 'replaced';
      else if (file.size < cp.offset) restarted = 'truncated';
      else if (cp.offset > 0 && (await hashRange(fh, cp.offset - cp.lastLineLength, cp.offset, chunkBytes)) !== cp.lastLineHash) restarted = 'rewritten';
      else start = { ...cp, size: file.size };
    }
    return new FileReader(path, fh, file, new Date(Number(st.mtimeMs)).toISOString(), start, restarted, maxLineBytes, chunkBytes);
  } catch (err) {
    await fh.close();
    if (err instanceof CairnError) throw err;
    throw unreadable(path, err);
  }
}

/**
 * No position stored yet: nothing, or only capture bookkeeping (an error recorded before the
 * file could ever be read, running stats). Reading starts at the top without calling it a restart.
 */
function isBookkeepingOnly(checkpoint: unknown): boolean {
  if (checkpoint === null || checkpoint === undefined) return true;
  return isRecord(checkpoint) && Object.keys(checkpoint).every((k) => k === 'error' || k === 'stats');
}

async function hashRange(fh: FileHandle, from: number, to: number, chunkBytes: number): Promise<string> {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(1, to - from)));
  let pos = from;
  while (pos < to) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, to - pos), pos);
    if (bytesRead === 0) break; // shrank meanwhile: the hash will not match
    hash.update(buf.subarray(0, bytesRead));
    pos += bytesRead;
  }
  return hash.digest('hex');
}

class FileReader implements TranscriptReader {
  constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    private readonly file: { dev: string; ino: string; size: number },
    readonly mtime: string,
    readonly start: FileCheckpoint,
    readonly restarted: RestartReason | undefined,
    private readonly maxLineBytes: number,
    private readonly chunkBytes: number,
  ) {}

  get dev(): string {
    return this.file.dev;
  }
  get ino(): string {
    return this.file.ino;
  }
  get size(): number {
    return this.file.size;
  }

  checkpointAfter(line: FileLine | null): FileCheckpoint {
    if (line === null) return this.start;
    return {
      dev: this.file.dev,
      ino: this.file.ino,
      size: Math.max(this.file.size, line.offset),
      offset: line.offset,
      lineNo: line.lineNo,
      lastLineHash: line.hash,
      lastLineLength: line.length,
    };
  }

  async *lines(): AsyncGenerator<FileLine> {
    const buf = Buffer.allocUnsafe(this.chunkBytes);
    let pos = this.start.offset;
    let lineNo = this.start.lineNo;
    // The line being assembled across chunks.
    let pieces: Buffer[] = [];
    let lineBytes = 0;
    let oversize = false;
    let hash: Hash = createHash('sha256');
    for (;;) {
      const { bytesRead } = await this.fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) return; // end of file: an unterminated last line waits for its newline
      const chunk = buf.subarray(0, bytesRead);
      let from = 0;
      while (from < bytesRead) {
        const nl = chunk.indexOf(10, from);
        const end = nl === -1 ? bytesRead : nl + 1;
        const piece = chunk.subarray(from, end);
        hash.update(piece);
        lineBytes += piece.length;
        const contentBytes = lineBytes - (nl === -1 ? 0 : 1);
        let text: string | null = null;
        if (!oversize && contentBytes > this.maxLineBytes) {
          oversize = true;
          pieces = [];
        }
        if (nl === -1) {
          if (!oversize) pieces.push(Buffer.from(piece)); // copy: buf is reused for the next chunk
        } else if (!oversize) {
          text = pieces.length === 0 ? chunk.toString('utf8', from, nl) : Buffer.concat([...pieces, piece.subarray(0, piece.length - 1)]).toString('utf8');
          if (text.endsWith('\r')) text = text.slice(0, -1);
        }
        if (nl !== -1) {
          lineNo++;
          yield { lineNo, text, offset: pos + end, hash: hash.digest('hex'), length: lineBytes };
          pieces = [];
          lineBytes = 0;
          oversize = false;
          hash = createHash('sha256');
        }
        from = end;
      }
      pos += bytesRead;
    }
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}
