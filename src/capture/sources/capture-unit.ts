// Captures one unit of a source and records how it went in the store: turns and checkpoints come
// from the format's ingest; a failure is written into the unit's checkpoint state (so `cairn
// status` shows it and other units carry on); a file renamed inside the source (OpenClaw's
// `.jsonl` → `.jsonl.reset.<ts>`) inherits its old checkpoint instead of being read again.
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import type { Source } from '../../core/types.js';
import type { Store } from '../../store/store.js';
import { isRecord } from '../formats/common.js';
import { fileKey, ingestFile } from '../ingest-file.js';
import { ingestOpenClawDb } from '../openclaw-db.js';
import { syncMarkdown } from '../markdown/sync.js';
import type { CaptureUnit } from './units.js';

export interface UnitResult {
  unit: CaptureUnit;
  turnsInserted: number;
  duplicates: number;
  /** Lines, rows or Markdown files read. */
  read: number;
  malformed: number;
  redactions: Record<string, number>;
  /** Ids of new turns, for the stages after capture (realtime view, embedding). */
  insertedIds: string[];
  /** A file still holds an unfinished turn: capture it again (final) once the file settles. */
  held: boolean;
  /** Markdown: chunks written. */
  documents?: number;
  error?: { code: string; message: string };
  /** The checkpoint this unit took over from a renamed file. */
  adoptedFrom?: string;
}

export interface UnitOptions {
  final?: boolean;
  batchLines?: number;
  signal?: AbortSignal;
}

function emptyResult(unit: CaptureUnit): UnitResult {
  return { unit, turnsInserted: 0, duplicates: 0, read: 0, malformed: 0, redactions: {}, insertedIds: [], held: false };
}

/** Captures one unit; never throws for a unit's own failure (it is recorded and returned). */
export async function captureUnit(store: Store, source: Source, unit: CaptureUnit, options: UnitOptions = {}): Promise<UnitResult> {
  const result = emptyResult(unit);
  try {
    if (unit.type === 'file') await captureFile(store, source, unit, options, result);
    else if (unit.type === 'db') await captureDb(store, source, unit, options, result);
    else await captureMarkdown(store, source, unit, result);
  } catch (err) {
    const code = err instanceof CairnError ? err.code : ERROR_CODES.INTERNAL;
    result.error = { code, message: (err as Error).message };
    await recordError(store, source.id, fileKey(unit.path), result.error);
  }
  return result;
}

async function captureFile(store: Store, source: Source, unit: Extract<CaptureUnit, { type: 'file' }>, options: UnitOptions, result: UnitResult): Promise<void> {
  await handOffReplaced(store, source.id, unit.path);
  const adopted = await adoptRenamed(store, source.id, unit.path);
  if (adopted) result.adoptedFrom = adopted;
  const report = await ingestFile(store, {
    path: unit.path, format: unit.format, namespace: unit.namespace, sourceId: source.id, final: options.final, batchLines: options.batchLines, signal: options.signal,
  });
  Object.assign(result, {
    turnsInserted: report.turnsInserted,
    duplicates: report.duplicates,
    read: report.linesRead,
    malformed: report.issues.length,
    redactions: report.redactions,
    insertedIds: report.insertedIds,
    held: report.held,
  });
}

async function captureDb(store: Store, source: Source, unit: Extract<CaptureUnit, { type: 'db' }>, options: UnitOptions, result: UnitResult): Promise<void> {
  const report = await ingestOpenClawDb(store, { path: unit.path, namespace: unit.namespace, sourceId: source.id, batchRows: options.batchLines, final: options.final, signal: options.signal });
  Object.assign(result, {
    turnsInserted: report.turnsInserted,
    duplicates: report.duplicates,
    read: report.rowsRead,
    malformed: report.issues.length,
    redactions: report.redactions,
    insertedIds: report.insertedIds,
  });
  await clearError(store, source.id, fileKey(unit.path));
}

async function captureMarkdown(store: Store, source: Source, unit: Extract<CaptureUnit, { type: 'markdown' }>, result: UnitResult): Promise<void> {
  const report = await syncMarkdown(store, { root: unit.path, namespace: unit.namespace, sourceId: source.id, layout: unit.layout });
  Object.assign(result, { read: report.files, redactions: report.redactions, documents: report.chunks });
  const key = fileKey(unit.path);
  const first = report.errors[0];
  const state: Record<string, unknown> = {
    stats: { linesRead: report.files, turns: 0, skipped: 0, malformed: report.errors.length, redactions: report.redactions, lastCaptureAt: new Date().toISOString(), recentIssues: report.errors.slice(-5).map((e: { path: string; message: string }) => ({ line: 0, reason: `${e.path}: ${e.message}` })) },
  };
  if (first) {
    result.error = { code: ERROR_CODES.INVALID_INPUT, message: `${report.errors.length} file(s) could not be indexed; first: ${first.path}: ${first.message}` };
    state.error = { at: new Date().toISOString(), ...result.error };
  }
  await store.putCheckpoint({ sourceId: source.id, key, state });
}

/**
 * A file with no checkpoint of its own whose device+inode matches another key's checkpoint is
 * that file renamed: copy the checkpoint so reading resumes where it stood. A reused inode of an
 * unrelated file is caught by the reader's last-line hash and restarts from the top.
 */
async function adoptRenamed(store: Store, sourceId: number, path: string): Promise<string | undefined> {
  // Only archives are renamed into existence (OpenClaw's reset/deleted); other new files skip the lookup.
  if (!ARCHIVE.test(path)) return undefined;
  const key = fileKey(path);
  const own = await store.getCheckpoint(sourceId, key);
  if (own && 'dev' in own) return undefined;
  let st;
  try {
    st = await stat(path, { bigint: true });
  } catch {
    return undefined; // the ingest reports the unreadable file
  }
  const dev = st.dev.toString();
  const ino = st.ino.toString();
  for (const cp of await store.listCheckpoints(sourceId)) {
    if (cp.key === key || cp.state.dev !== dev || cp.state.ino !== ino) continue;
    // The position moves to the new name; the running stats stay with the old key, so the
    // source's totals (summed over keys) do not count those lines twice.
    const { error: _error, stats: _stats, ...state } = cp.state;
    await store.putCheckpoint({ sourceId, key, state });
    return cp.key;
  }
  return undefined;
}

/** OpenClaw's archive of a transcript: `<name>.jsonl.reset.<ts>` or `<name>.jsonl.deleted.<ts>`. */
const ARCHIVE = /\.(reset|deleted)\.[^/\\]+$/;

/**
 * The other order of a rename: the new live file is captured before the archive its old inode
 * became. Its checkpoint is about to be overwritten with the new file's, so an uncaptured archive
 * beside it holding the checkpoint's inode is handed the position first (as adoptRenamed would
 * have done) and is not read again, whichever of the two the daemon sees first.
 */
async function handOffReplaced(store: Store, sourceId: number, path: string): Promise<void> {
  if (ARCHIVE.test(path)) return;
  const own = await store.getCheckpoint(sourceId, fileKey(path));
  if (!own || typeof own.dev !== 'string' || typeof own.ino !== 'string') return;
  let names: string[];
  try {
    const st = await stat(path, { bigint: true });
    if (st.dev.toString() === own.dev && st.ino.toString() === own.ino) return; // not replaced
    names = await readdir(dirname(path));
  } catch {
    return; // the ingest reports the unreadable file
  }
  const prefix = `${basename(path)}.`;
  for (const name of names.sort()) {
    if (!name.startsWith(prefix) || !ARCHIVE.test(name)) continue;
    const archive = join(dirname(path), name);
    const theirs = await store.getCheckpoint(sourceId, fileKey(archive));
    if (theirs && 'dev' in theirs) continue;
    try {
      const st = await stat(archive, { bigint: true });
      if (st.dev.toString() !== own.dev || st.ino.toString() !== own.ino) continue;
    } catch {
      continue;
    }
    const { error: _error, stats: _stats, ...state } = own;
    await store.putCheckpoint({ sourceId, key: fileKey(archive), state });
    return;
  }
}

async function recordError(store: Store, sourceId: number, key: string, error: { code: string; message: string }): Promise<void> {
  const state = (await store.getCheckpoint(sourceId, key)) ?? {};
  await store.putCheckpoint({ sourceId, key, state: { ...state, error: { at: new Date().toISOString(), ...error } } });
}

async function clearError(store: Store, sourceId: number, key: string): Promise<void> {
  const state = await store.getCheckpoint(sourceId, key);
  if (!isRecord(state) || !('error' in state)) return;
  const { error: _error, ...rest } = state;
  await store.putCheckpoint({ sourceId, key, state: rest });
}
