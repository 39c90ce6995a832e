// memory_get by path (OpenClaw's `memory_get {path, from?, lines?}`): a window of lines from a file
// Cairn may show for a namespace — its own folder (<home>/<ns>/: MEMORY.md, SESSION-STATE.md,
// raw/…) and the Markdown files indexed as that namespace's documents — and nothing else. Every
// refusal (outside, traversal, symlink escape, another namespace, missing) is the same NOT_FOUND,
// so the answer never tells whether a file exists.
import { createReadStream, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { namespaceDir, type HomePaths } from '../core/home.js';
import { RECORD_ID_PATTERN } from '../core/ids.js';
import type { Namespace } from '../core/namespace.js';
import type { Store } from '../store/store.js';
import { parseInput } from './inputs.js';
import { gateText } from './redaction-gate.js';

export const READ_LIMITS = { maxBytes: 2 * 1024 * 1024, maxLines: 2000, maxPathChars: 4096 } as const;
const DOCUMENT_EXTENSIONS = /\.(md|markdown|mdx|txt)$/i;
/** `memory:<id>` and `turn:<id>` paths (what toOpenClawResults gives) read the record's stored, redacted text. */
const MEMORY_PATH = /^memory:(.+)$/;
const TURN_PATH = /^turn:(.+)$/;

export interface ReadFileInput {
  path: string;
  /** First line to return, 1-based (default 1). */
  from?: number;
  /** How many lines (default and maximum 2000). */
  lines?: number;
}

export type ReadFileResult = {
  /** The path as Cairn names it: relative to the namespace folder when inside it, else absolute. */
  path: string;
  text: string;
  from: number;
  /** Lines returned. */
  lines: number;
  totalLines: number;
};

const readFileSchema = z.strictObject({
  path: z
    .string()
    .refine((p) => !p.includes('\0'), 'path contains a NUL character')
    .refine((p) => p.trim().length > 0, 'path is empty')
    .refine((p) => p.length <= READ_LIMITS.maxPathChars, `path is longer than ${READ_LIMITS.maxPathChars} characters`),
  from: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  lines: z.number().int().min(1).max(READ_LIMITS.maxLines).optional(),
});

function notFound(shown: string, ns: string): CairnError {
  const p = shown.length > 200 ? shown.slice(0, 200) + '…' : shown;
  return new CairnError(ERROR_CODES.NOT_FOUND, `No readable file ${JSON.stringify(p)} in namespace ${ns}`);
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel);
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** Resolves a requested path to a real, regular, allowed file, or null (never says why). */
async function resolveAllowed(store: Store, paths: HomePaths, ns: string, requested: string): Promise<{ real: string; shown: string } | null> {
  const nsDir = namespaceDir(paths, ns as Namespace);
  const candidate = isAbsolute(requested) ? resolve(requested) : resolve(nsDir, requested);
  const real = realOrNull(candidate);
  if (real === null) return null;
  let stat;
  try {
    stat = statSync(real);
  } catch {
    return null;
  }
  if (!stat.isFile()) return null;
  // 1. Inside the namespace folder, lexically and after following every link.
  const realDir = realOrNull(nsDir);
  if (realDir !== null && inside(nsDir, candidate) && inside(realDir, real)) {
    return { real, shown: relative(nsDir, candidate).split(sep).join('/') };
  }
  // 2. A Markdown file indexed as a document of this namespace (its stored absolute path), whose
  // real target is still Markdown (a document swapped for a link to /etc/passwd is refused).
  if (!isAbsolute(requested) && !inside(nsDir, candidate)) {
    // A relative path that climbs out of the folder is traversal, whatever it lands on.
    return null;
  }
  if (DOCUMENT_EXTENSIONS.test(real)) {
    const files = await store.documentFiles(ns);
    if (files.some((f) => resolve(f.path) === candidate)) return { real, shown: candidate };
  }
  return null;
}

/** Reads the window [from, from + lines) of a text, counting every line. */
function windowOf(lines: string[], from: number, count: number): { text: string; lines: number } {
  const picked: string[] = [];
  let bytes = 0;
  for (let i = from - 1; i < lines.length && picked.length < count; i++) {
    let line = lines[i]!;
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (bytes + size > READ_LIMITS.maxBytes) {
      if (picked.length > 0) break;
      // One huge line: cut it at the byte cap (on a character boundary).
      line = Buffer.from(line, 'utf8').subarray(0, READ_LIMITS.maxBytes).toString('utf8').replace(/\uFFFD$/, '');
    }
    picked.push(line);
    bytes += size;
  }
  return { text: picked.join('\n'), lines: picked.length };
}

async function streamWindow(path: string, from: number, count: number): Promise<{ text: string; lines: number; totalLines: number }> {
  const picked: string[] = [];
  let bytes = 0;
  let lineNo = 0;
  let full = false;
  let partial = '';
  let endsWithNewline = true;
  const take = (line: string) => {
    lineNo++;
    if (full || lineNo < from) return;
    if (picked.length >= count) {
      full = true;
      return;
    }
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (bytes + size > READ_LIMITS.maxBytes) {
      if (picked.length > 0) {
        full = true;
        return;
      }
      line = Buffer.from(line, 'utf8').subarray(0, READ_LIMITS.maxBytes).toString('utf8').replace(/\uFFFD$/, '');
    }
    picked.push(line);
    bytes += size;
  };
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  for await (const chunk of stream as AsyncIterable<string>) {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    // Keep a pathological single line from growing without bound past what could be shown.
    if (partial.length > READ_LIMITS.maxBytes * 2) partial = partial.slice(0, READ_LIMITS.maxBytes * 2);
    for (const p of parts) take(p.endsWith('\r') ? p.slice(0, -1) : p);
    endsWithNewline = chunk.endsWith('\n');
  }
  if (partial.length > 0 || !endsWithNewline) take(partial.endsWith('\r') ? partial.slice(0, -1) : partial);
  return { text: picked.join('\n'), lines: picked.length, totalLines: lineNo };
}

/**
 * A window of a file the namespace may show, through the redaction gate: a user's note is indexed
 * redacted, and reading the file itself must not show what search hid.
 */
export async function readNamespaceFile(store: Store, paths: HomePaths, ns: string, input: unknown): Promise<ReadFileResult> {
  const read = await readWindow(store, paths, ns, input);
  return { ...read, text: gateText(read.text) };
}

async function readWindow(store: Store, paths: HomePaths, ns: string, input: unknown): Promise<ReadFileResult> {
  const data = parseInput(readFileSchema, input, 'file request');
  const from = data.from ?? 1;
  const count = data.lines ?? READ_LIMITS.maxLines;
  const memory = MEMORY_PATH.exec(data.path);
  if (memory) {
    const id = memory[1]!;
    const found = RECORD_ID_PATTERN.test(id) ? await store.getMemory(ns, id) : null;
    if (!found) throw notFound(data.path, ns);
    const all = found.text.split('\n');
    return { path: data.path, from, ...windowOf(all, from, count), totalLines: all.length };
  }
  const turn = TURN_PATH.exec(data.path);
  if (turn) {
    const id = turn[1]!;
    const found = RECORD_ID_PATTERN.test(id) ? await store.getTurn(ns, id) : null;
    if (!found) throw notFound(data.path, ns);
    const all = found.text.split('\n');
    return { path: data.path, from, ...windowOf(all, from, count), totalLines: all.length };
  }
  const allowed = await resolveAllowed(store, paths, ns, data.path);
  if (!allowed) throw notFound(data.path, ns);
  let out;
  try {
    out = await streamWindow(allowed.real, from, count);
  } catch {
    throw notFound(data.path, ns);
  }
  return { path: allowed.shown, from, ...out };
}
