// What a path given to `cairn ingest` holds, told from its content: an OpenClaw SQLite store, a
// binary file (refused before a byte of it is parsed), or JSONL text whose first recognisable
// record names the format. A folder is an OpenClaw state directory or a Claude Code projects
// folder when the transcripts `watch` would read under it say so.
import { open } from 'node:fs/promises';
import type { Source } from '../../core/types.js';
import { isRecord, type JsonRecord } from '../formats/common.js';
import type { TranscriptFormat } from '../formats/names.js';
import { unreadable } from '../file-reader.js';
import { listUnits } from './units.js';

/** Bytes read from the top of a file to tell its format (a first line can be long). */
export const SNIFF_BYTES = 1024 * 1024;
/** Enough to tell binary from text when the format is known already. */
export const SNIFF_KNOWN_BYTES = 64 * 1024;
/** The part of the head whose bytes are weighed for binary content. */
const BINARY_PROBE_BYTES = 8192;
/** Share of odd bytes (control characters, invalid UTF-8) above which a file is binary. */
const BINARY_ODD_SHARE = 0.1;
/** Transcripts sniffed in a folder before giving up on telling its kind. */
const MAX_SNIFFED_FILES = 20;
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

export type FileSniff =
  | { kind: 'sqlite' }
  /** Text in UTF-16 (a byte-order mark), as Windows shells write redirected output. */
  | { kind: 'utf16' }
  /** Not text: many control bytes or invalid UTF-8, and no line that reads as a JSON record. */
  | { kind: 'binary' }
  /** Nothing but whitespace so far. */
  | { kind: 'empty' }
  /** Text; `format` is null when no line reads as a record of a known format. */
  | { kind: 'text'; format: TranscriptFormat | null };

const OPENCLAW_TYPES = new Set(['session', 'message', 'model_change', 'thinking_level_change', 'compaction', 'branch_summary', 'custom', 'custom_message', 'label', 'session_info']);
const CLAUDE_CODE_TYPES = new Set(['user', 'assistant', 'system', 'summary', 'progress', 'file-history-snapshot', 'queue-operation', 'attachment']);

/** The format one record is written in, or null when it does not say. */
export function recordFormat(rec: JsonRecord): TranscriptFormat | null {
  const type = rec.type;
  if (typeof type === 'string') {
    // Claude Code lines carry a session id or a uuid; pi (OpenClaw) records an 8-hex id and parentId.
    const claude = 'sessionId' in rec || 'uuid' in rec || 'leafUuid' in rec || 'parentUuid' in rec;
    if (CLAUDE_CODE_TYPES.has(type) && claude) return 'claude-code';
    if (type === 'session' && ('version' in rec || 'cwd' in rec)) return 'openclaw';
    if (OPENCLAW_TYPES.has(type) && !claude && ('parentId' in rec || (type === 'message' && isRecord(rec.message)))) return 'openclaw';
  }
  if (typeof rec.role === 'string' && 'content' in rec) return 'jsonl';
  return null;
}

function parseRecord(line: string): JsonRecord | null {
  const text = line.replace(/^\uFEFF/, '').trim();
  if (!text.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/** Reads the head of a file (`bytes` of it) and says what it holds. Errors are CairnErrors naming the path. */
export async function sniffFile(path: string, bytes = SNIFF_BYTES): Promise<FileSniff> {
  let head: Buffer;
  try {
    const fh = await open(path, 'r');
    try {
      const buf = Buffer.alloc(bytes);
      const { bytesRead } = await fh.read(buf, 0, bytes, 0);
      head = buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch (err) {
    throw unreadable(path, err);
  }
  return sniffHead(head, head.length === bytes);
}

/** What a file's first bytes say it is; `cut` when the file goes on past them. */
export function sniffHead(head: Buffer, cut: boolean): FileSniff {
  if (head.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) return { kind: 'sqlite' };
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return { kind: 'utf16' };
  // Only complete lines: the head may end inside one (and inside a UTF-8 sequence).
  const end = cut ? head.lastIndexOf(10) + 1 : head.length;
  const text = head.subarray(0, end);
  const lines = text.toString('utf8').split('\n');
  const records = lines.map(parseRecord).filter((r): r is JsonRecord => r !== null);
  // A transcript with corrupt lines (even all of them) is still mostly text: binary means no
  // record at all and a tenth of the bytes odd, as images, archives and executables are.
  if (records.length === 0 && oddShare(head.subarray(0, BINARY_PROBE_BYTES)) > BINARY_ODD_SHARE) return { kind: 'binary' };
  if (records.length === 0 && !cut && lines.every((l) => l.replace(/^\uFEFF/, '').trim() === '')) return { kind: 'empty' };
  for (const rec of records) {
    const format = recordFormat(rec);
    if (format) return { kind: 'text', format };
  }
  return { kind: 'text', format: null };
}

/** The share of bytes that text does not have: control characters other than \b\t\n\v\f\r, and bytes of invalid UTF-8. */
export function oddShare(sample: Buffer): number {
  let odd = 0;
  let i = 0;
  while (i < sample.length) {
    const b = sample[i]!;
    if (b < 0x80) {
      if (b < 7 || (b > 13 && b < 32) || b === 127) odd++;
      i++;
      continue;
    }
    const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len > 0 && i + len > sample.length) break; // a sequence cut by the end of the sample
    let valid = len > 0;
    for (let k = 1; valid && k < len; k++) valid = (sample[i + k]! & 0xc0) === 0x80;
    if (valid) i += len;
    else {
      odd++;
      i++;
    }
  }
  return sample.length === 0 ? 0 : odd / sample.length;
}

/**
 * The kind of transcript folder `dir` is, as `watch` would read it: `openclaw` when it holds an
 * OpenClaw SQLite store or OpenClaw transcripts, `claude-code` when its transcripts are Claude
 * Code's; null otherwise (plain JSONL, or nothing readable).
 */
export async function detectFolderKind(dir: string): Promise<'openclaw' | 'claude-code' | null> {
  // Every *.jsonl (archives included) and transcript database up to four levels down.
  const probe: Source = { id: 0, namespace: 'default', kind: 'openclaw', path: dir, options: {}, createdAt: '' };
  const { units } = await listUnits(probe);
  if (units.some((u) => u.type === 'db')) return 'openclaw';
  let sniffed = 0;
  for (const unit of units) {
    if (sniffed++ >= MAX_SNIFFED_FILES) break;
    let sniff: FileSniff;
    try {
      sniff = await sniffFile(unit.path);
    } catch {
      continue; // unreadable here; the folder's other transcripts can still tell
    }
    if (sniff.kind !== 'text' || sniff.format === null) continue;
    return sniff.format === 'jsonl' ? null : sniff.format;
  }
  return null;
}
