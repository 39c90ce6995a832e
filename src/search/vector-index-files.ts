// Saved vector indexes (vector-index.ts) on disk: one folder per model, one file per namespace,
// written temp-then-rename with the watermark and size in the name, so concurrent savers can never
// pair an index with the wrong watermark and a truncated file is never loaded. Also what a purge
// needs: every saved file of some namespaces removed, since a saved HNSW file holds (quantised)
// vectors of every entry it was built from.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/private-files.js';

/**
 * Saved file name: `<namespace>.<dims>d.<watermark>.<bytes>b.usearch`. usearch crashes the process
 * (segfault, heap corruption) on a truncated or garbled file instead of throwing, so a file is
 * loaded only when its size is the one written and its layout checks out (see savedRows()).
 */
export const FILE_PATTERN = /^(.+)\.(\d+)d\.(\d+)\.(\d+)b\.usearch$/;
/** Files of earlier versions, saved without their size: never loaded, removed when seen. */
export const LEGACY_PATTERN = /^(.+)\.(\d+)d\.(\d+)\.usearch$/;
/** A save in progress (or abandoned by a writer that died): `<namespace>.<dims>d.<watermark>.tmp-<pid>`. */
const TEMP_FILE = /^(.+)\.\d+d\.\d+\.tmp-\d+$/;
const STALE_TEMP_MS = 10 * 60_000;
/** What usearch writes after the stored vectors, before the graph. */
const USEARCH_MAGIC = 'usearch';

export interface SavedFile {
  path: string;
  watermark: number;
  dimensions: number;
  bytes: number;
}

/** The folder of one model's saved indexes under the index directory. */
export function modelDirOf(dir: string, model: string): string {
  return join(dir, model.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100));
}

/** Newest saved file for a namespace; legacy files of the namespace are removed on the way. */
export function newestSavedFile(dir: string, namespace: string): SavedFile | null {
  if (!existsSync(dir)) return null;
  let best: SavedFile | null = null;
  for (const name of readdirSync(dir)) {
    const m = FILE_PATTERN.exec(name);
    if (!m) {
      if (LEGACY_PATTERN.exec(name)?.[1] === namespace) removeQuietly(join(dir, name));
      continue;
    }
    if (m[1] !== namespace) continue;
    const watermark = Number(m[3]);
    if (!best || watermark > best.watermark) best = { path: join(dir, name), watermark, dimensions: Number(m[2]), bytes: Number(m[4]) };
  }
  return best;
}

/**
 * Writes a namespace's index through `save` (given a temp path), names it with its size and
 * watermark, then removes older saves of the namespace and temp files writers abandoned.
 */
export function writeSavedFile(dir: string, namespace: string, dimensions: number, watermark: number, save: (path: string) => void): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const tmp = join(dir, `${namespace}.${dimensions}d.${watermark}.tmp-${process.pid}`);
  save(tmp);
  // usearch writes with the process umask.
  chmodSync(tmp, PRIVATE_FILE_MODE);
  const finalPath = join(dir, `${namespace}.${dimensions}d.${watermark}.${statSync(tmp).size}b.usearch`);
  renameSync(tmp, finalPath);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const m = FILE_PATTERN.exec(name);
    // Older saves go; so does another save of the same watermark (only one is ever loaded).
    if (m && m[1] === namespace && path !== finalPath && Number(m[3]) <= watermark) rmSync(path, { force: true });
    // A temp file a writer left when it died mid-save, long enough ago that no writer still owns it.
    else if (TEMP_FILE.test(name) && ageMs(path) > STALE_TEMP_MS) rmSync(path, { force: true });
  }
}

/**
 * The vectors a saved file holds, or null when it is not whole: the size it was written with, then
 * usearch's layout of it (row count and bytes per row of the i8 vectors, which fill the file up
 * to the index's magic word).
 */
export function savedRows(file: SavedFile): number | null {
  let fd: number | null = null;
  try {
    if (statSync(file.path).size !== file.bytes) return null;
    fd = openSync(file.path, 'r');
    const head = Buffer.alloc(8);
    if (readSync(fd, head, 0, 8, 0) !== 8) return null;
    const rows = head.readUInt32LE(0);
    const rowBytes = head.readUInt32LE(4);
    if (rowBytes !== file.dimensions) return null;
    const at = 8 + rows * rowBytes;
    const magic = Buffer.alloc(USEARCH_MAGIC.length);
    if (at + magic.length > file.bytes || readSync(fd, magic, 0, magic.length, at) !== magic.length) return null;
    return magic.toString('latin1') === USEARCH_MAGIC ? rows : null;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Removes the saved indexes of every model but `keepModel` (after a re-embed). */
export function removeModelDirsExcept(dir: string, keepModel: string): void {
  if (!existsSync(dir)) return;
  const keep = modelDirOf(dir, keepModel);
  for (const name of readdirSync(dir)) if (join(dir, name) !== keep) rmSync(join(dir, name), { recursive: true, force: true });
}

/** Removes every saved index (any model) of these namespaces; returns the files, relative to `dir`. */
export function removeSavedIndexes(dir: string, namespaces: readonly string[]): string[] {
  const removed: string[] = [];
  if (!existsSync(dir)) return removed;
  const wanted = new Set(namespaces);
  for (const model of readdirSync(dir)) {
    const modelDir = join(dir, model);
    if (!statSync(modelDir).isDirectory()) continue;
    for (const name of readdirSync(modelDir)) {
      const m = FILE_PATTERN.exec(name) ?? LEGACY_PATTERN.exec(name) ?? TEMP_FILE.exec(name);
      if (m && wanted.has(m[1]!)) {
        rmSync(join(modelDir, name), { force: true });
        removed.push(join(model, name));
      }
    }
  }
  return removed;
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Removing derived files is housekeeping: a search in a read-only home goes on without it. */
export function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // left for a process that may write here
  }
}
