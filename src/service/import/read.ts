// What `cairn import` reads, in the format it is in: JSONL (Cairn export records, minimal
// `{"text": …}` records and mem0 items, told apart line by line), a JSON document (mem0's
// get_all output: `{"results": […]}` or a bare array), or an OpenClaw workspace (a folder with
// MEMORY.md and memory/, or one of its Markdown files). Each record becomes a memory or an error
// naming its line; nothing here writes to the store.
import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { CairnError, ERROR_CODES, invalidInput } from '../../core/errors.js';
import type { Memory } from '../../core/types.js';
import { isRecord } from '../../capture/formats/common.js';
import { isMarkdownPath, listMarkdownFiles } from '../../capture/markdown/walk.js';
import { IMPORT_FORMATS, type ImportFormat } from './format-names.js';
import { boundedLines, type ImportLine } from './lines.js';
import { readWorkspaceFile } from './markdown.js';
import { foreignMemory, fromExportRecord, fromMem0Item, fromMinimalRecord, recordShape, type Built, type ImportTarget } from './records.js';

export { IMPORT_FORMATS, type ImportFormat } from './format-names.js';

/** Longest JSONL line read; longer lines are reported and skipped as they stream past. */
export const MAX_LINE_CHARS = 1_000_000;
/** Largest JSON document (a mem0 export) read whole; JSONL has no such limit. */
export const MAX_DOCUMENT_CHARS = 64 * 1024 * 1024;

/** One record read: the memory it makes, or why it makes none. `line` 0: no line (a document item without an id found). */
export type ImportItem = { line: number; item?: number; path?: string } & ({ memory: Memory } | { error: string });

export function parseImportFormat(name: unknown): ImportFormat {
  if (typeof name === 'string' && (IMPORT_FORMATS as readonly string[]).includes(name)) return name as ImportFormat;
  throw invalidInput(`Unknown import format "${String(name).slice(0, 40)}": use one of ${IMPORT_FORMATS.join(', ')}`);
}

/** Counted while reading: lines of the input (of every Markdown file, for a workspace). */
export interface ImportStats {
  lines: number;
}

export interface ImportSource {
  /** A file or folder, or a stream (stdin). */
  path?: string;
  stream?: Readable;
  format?: ImportFormat;
}

/** The records of `source`, in order. Throws a CairnError when the source itself cannot be read. */
export async function* readImport(source: ImportSource, target: Omit<ImportTarget, 'path'>, now: string, stats: ImportStats): AsyncGenerator<ImportItem> {
  if (source.path !== undefined) {
    let info;
    try {
      info = await stat(source.path);
    } catch (err) {
      throw cannotRead(source.path, err);
    }
    // Provenance names the file by its absolute path, whatever the working directory was.
    const path = resolve(source.path);
    const markdown = info.isDirectory() || isMarkdownPath(path);
    if (source.format === 'openclaw' || (source.format === undefined && markdown)) {
      yield* readWorkspace(path, info.isDirectory(), { ...target, path }, now, stats);
      return;
    }
    if (info.isDirectory()) throw invalidInput(`${source.path} is a directory, not a JSONL file (nor an OpenClaw workspace: give --format openclaw for one)`);
    let file;
    try {
      file = await open(path, 'r');
    } catch (err) {
      throw cannotRead(source.path, err);
    }
    yield* readRecords(file.createReadStream(), source.format, { ...target, path }, now, stats);
    return;
  }
  if (source.format === 'openclaw') throw invalidInput('An OpenClaw workspace is read from its folder, not from stdin');
  yield* readRecords(source.stream!, source.format, target, now, stats);
}

function cannotRead(path: string, err: unknown): CairnError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new CairnError(ERROR_CODES.NOT_FOUND, `No such file: ${path}`, { path }, { cause: err });
  return new CairnError(ERROR_CODES.INVALID_INPUT, `Cannot read ${path}: ${code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (err as Error).message}`, { path }, { cause: err });
}

async function* readWorkspace(path: string, isDir: boolean, target: ImportTarget, now: string, stats: ImportStats): AsyncGenerator<ImportItem> {
  const listing = await listMarkdownFiles(path, isDir ? 'openclaw-workspace' : 'tree');
  if (isDir && listing.files.length === 0 && listing.errors.length === 0) {
    throw invalidInput(`${path} is a directory, not a JSONL file nor an OpenClaw workspace (no MEMORY.md or memory/*.md)`);
  }
  for (const e of listing.errors) yield { line: 0, path: e.path, error: `cannot read: ${e.message}` };
  for (const file of listing.files) {
    let read;
    try {
      read = await readWorkspaceFile(file, isDir ? path : file);
    } catch (err) {
      yield { line: 0, path: file, error: `cannot read: ${(err as Error).message}` };
      continue;
    }
    stats.lines += read.lines;
    for (const item of read.items) {
      const built = foreignMemory({
        text: item.text,
        // The heading trail stays findable beside the text (tags are indexed with it).
        tags: item.headings.filter(Boolean).map((h) => h.slice(0, 64)),
        createdAt: read.writtenAt,
        key: `file:${read.name}`,
        provenance: { source: 'import', system: 'openclaw', path: file, line: item.startLine, endLine: item.endLine, ...(item.headings.some(Boolean) ? { heading: item.headings.filter(Boolean).join(' > ') } : {}) },
      }, { ...target, path: file }, now);
      yield { line: item.startLine, path: file, ...built };
    }
  }
}

/**
 * JSONL, or one JSON document (pretty-printed mem0 output) when the first line that is not blank
 * opens one without closing it. A document that does not parse whole, or is over the size cap,
 * is read line by line after all, so each line still gets its own verdict.
 */
async function* readRecords(input: Readable, format: ImportFormat | undefined, target: ImportTarget, now: string, stats: ImportStats): AsyncGenerator<ImportItem> {
  // Pulled by hand: leaving a for-await loop early would close the line reader.
  const reader = boundedLines(input, MAX_LINE_CHARS);
  const next = async (): Promise<ImportLine | null> => {
    const r = await reader.next();
    if (r.done) return null;
    stats.lines = r.value.lineNo;
    return r.value;
  };
  const held: ImportLine[] = [];
  let opensDocument = false;
  for (let line = await next(); line; line = await next()) {
    held.push(line);
    if (line.text === null) break;
    const text = clean(line.text);
    if (text === '') continue;
    opensDocument = /^[[{]/.test(text) && parseJson(text) === undefined;
    break;
  }
  let hint = '';
  if (opensDocument) {
    let size = held.reduce((n, l) => n + l.length + 1, 0);
    let whole = true;
    for (let line = await next(); line; line = await next()) {
      held.push(line);
      size += line.length + 1;
      if (line.text === null || size > MAX_DOCUMENT_CHARS) {
        whole = false;
        break;
      }
    }
    if (whole) {
      const text = held.map((l) => l.text).join('\n');
      const value = parseJson(text);
      if (value !== undefined) {
        yield* documentItems(value, text, 1, format, target, now);
        return;
      }
    } else hint = ` (if the input is one JSON document, it is over ${MAX_DOCUMENT_CHARS / 1024 / 1024} MiB: give it as JSONL, one record per line)`;
  }
  let first = true;
  const each = function* (line: ImportLine): Generator<ImportItem> {
    if (line.text === null) {
      yield { line: line.lineNo, error: `line longer than ${MAX_LINE_CHARS} characters` };
      return;
    }
    const text = clean(line.text);
    if (text === '') return;
    const isFirst = first;
    first = false;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      yield { line: line.lineNo, error: `invalid JSON: ${(err as Error).message.slice(0, 200)}${isFirst ? hint : ''}` };
      return;
    }
    // A one-line document (a bare array, or mem0's {"results": [...]}) only as the first record.
    if (isFirst && ((Array.isArray(value) && value.length > 0) || (isRecord(value) && Array.isArray(value.results) && !('text' in value)))) {
      yield* documentItems(value, text, line.lineNo, format, target, now);
      return;
    }
    yield { line: line.lineNo, ...buildRecord(value, line.lineNo, format, target, now) };
  };
  for (const line of held) yield* each(line);
  for (let line = await next(); line; line = await next()) yield* each(line);
}

const clean = (text: string): string => text.replace(/^\uFEFF/, '').trim();

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function buildRecord(value: unknown, line: number | undefined, format: ImportFormat | undefined, target: ImportTarget, now: string): Built {
  if (!isRecord(value)) return { error: `not a JSON object (${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value})` };
  const shape = format === 'mem0' ? 'mem0' : recordShape(value);
  if (shape === 'export') return fromExportRecord(value, target);
  if (shape === 'mem0' && format !== 'cairn') return fromMem0Item(value, line, target, now);
  return fromMinimalRecord(value, line ?? 0, target, now);
}

/**
 * The items of a mem0 get_all/search document (`{"results": […]}`, paginated or not, or a bare
 * array). Each item's line is the line of its id, found in order in the text.
 */
function* documentItems(value: unknown, text: string, firstLineNo: number, format: ImportFormat | undefined, target: ImportTarget, now: string): Generator<ImportItem> {
  const items = Array.isArray(value) ? value : isRecord(value) && Array.isArray(value.results) ? value.results : null;
  if (!items) {
    // One record written over several lines.
    yield { line: firstLineNo, ...buildRecord(value, firstLineNo, format, target, now) };
    return;
  }
  let from = 0;
  for (const [index, item] of items.entries()) {
    let line = 0;
    const id = isRecord(item) ? item.id : undefined;
    if (typeof id === 'string' || typeof id === 'number') {
      const at = text.indexOf(JSON.stringify(id), from);
      if (at !== -1) {
        line = firstLineNo + countNewlines(text, at);
        from = at;
      }
    }
    const built = buildRecord(item, line || undefined, format, target, now);
    yield { line, item: index + 1, ...built };
  }
}

function countNewlines(text: string, until: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < until; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
