// What each path given to `cairn ingest` stands for: transcript files and OpenClaw SQLite stores,
// each with the format it is read in and the source whose checkpoint it uses. A format given by
// the caller wins; else a watched source that captures the file says it; else the file's content
// does. A folder is read as `watch` reads a source of its kind (an OpenClaw state directory, a
// Claude Code projects folder). Binary files are refused before any of their bytes are parsed.
import { stat } from 'node:fs/promises';
import { CairnError, ERROR_CODES, invalidInput } from '../core/errors.js';
import type { Source } from '../core/types.js';
import { openTranscript, unreadable } from '../capture/file-reader.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../capture/formats/index.js';
import { probeOpenClawDb } from '../capture/openclaw-db.js';
import { SNIFF_BYTES, SNIFF_KNOWN_BYTES, detectFolderKind, sniffFile } from '../capture/sources/detect.js';
import { defaultNamespaceFrom } from '../capture/sources/kinds.js';
import { listUnits, unitForPath } from '../capture/sources/units.js';
import type { Store } from '../store/store.js';

export interface NamespaceChoice {
  /** The namespace the caller named (every turn goes there). */
  given?: string;
  /** Where turns go otherwise (the default namespace; an agent's or project's inside a folder). */
  fallback: string;
}

/** A path to capture, before its content has been checked. */
export interface PendingTarget {
  path: string;
  /** Known when the caller gave it or the folder's kind implies it; `db` for a transcript database. */
  format?: TranscriptFormat | 'db';
  namespace: NamespaceChoice;
}

/** A path ready to capture: what it is, and the source whose checkpoint it uses. */
export interface IngestTarget {
  path: string;
  type: 'file' | 'db';
  format: TranscriptFormat;
  source: Source;
  namespace: string;
}

const FORMATS_HINT = `give the format (--format ${TRANSCRIPT_FORMATS.join('|')})`;

/**
 * The capture targets a path stands for: itself, or (a folder) the transcripts and databases
 * under it. Throws a CairnError for a path that cannot be read or is a folder of no known kind;
 * `errors` lists subfolders that could not be listed (the rest are still captured).
 */
export async function expandPath(path: string, format: TranscriptFormat | undefined, namespace: NamespaceChoice): Promise<{ targets: PendingTarget[]; errors: Array<{ path: string; message: string }> }> {
  let isDir: boolean;
  try {
    isDir = (await stat(path)).isDirectory();
  } catch (err) {
    throw unreadable(path, err);
  }
  if (!isDir) return { targets: [{ path, format, namespace }], errors: [] };
  const kind = format ?? (await detectFolderKind(path));
  if (kind !== 'openclaw' && kind !== 'claude-code') {
    throw invalidInput(`Cannot read transcript ${path}: is a directory; give transcript files, or an OpenClaw state directory or Claude Code projects folder (found by their content, or with --format openclaw|claude-code)`, { path });
  }
  // As `watch` reads a source of this kind: each OpenClaw agent and Claude Code project to its
  // own namespace, unless the caller named one.
  const folder: Source = {
    id: 0, kind, path, createdAt: '',
    namespace: namespace.given ?? namespace.fallback,
    options: { namespaceFrom: namespace.given !== undefined ? 'fixed' : defaultNamespaceFrom(kind) },
  };
  const { units, errors } = await listUnits(folder);
  if (units.length === 0 && errors.length === 0) throw new CairnError(ERROR_CODES.NOT_FOUND, `No ${kind} transcripts under ${path}`, { path });
  const targets: PendingTarget[] = [];
  for (const unit of units) {
    if (unit.type === 'markdown') continue;
    targets.push({ path: unit.path, format: unit.type === 'db' ? 'db' : unit.format, namespace: { given: namespace.given, fallback: unit.namespace } });
  }
  return { targets, errors };
}

/**
 * Checks a target's content and registers (or finds) its source. Throws a CairnError, leaving no
 * source behind, for a file that is unreadable, binary, a database that is not OpenClaw's, or text
 * whose format cannot be told.
 */
export async function prepareTarget(store: Store, target: PendingTarget, watched: readonly Source[]): Promise<IngestTarget> {
  const { path } = target;
  // Readable and a regular file first (a FIFO would block the read below).
  await (await openTranscript(path, null)).close();
  const sniff = await sniffFile(path, target.format === undefined ? SNIFF_BYTES : SNIFF_KNOWN_BYTES);
  if (sniff.kind === 'utf16') {
    throw invalidInput(`${path} is UTF-16 text; transcripts are read as UTF-8: convert it first (iconv -f UTF-16 -t UTF-8)`, { path });
  }
  if (sniff.kind === 'binary') {
    throw invalidInput(`${path} is a binary file, not a transcript (JSONL text or an OpenClaw SQLite store); nothing was read`, { path });
  }
  if (sniff.kind === 'sqlite' || target.format === 'db') {
    if (target.format !== undefined && target.format !== 'db' && target.format !== 'openclaw') {
      throw invalidInput(`${path} is a SQLite database, not a ${target.format} transcript; an OpenClaw store is read with --format openclaw or without --format`, { path });
    }
    probeOpenClawDb(path);
    return { path, type: 'db', format: 'openclaw', ...(await sourceFor(store, path, 'db', 'openclaw', target.namespace, watched)) };
  }
  const format = target.format ?? watchedFormat(path, target.namespace, watched) ?? (sniff.kind === 'text' ? sniff.format : null);
  if (!format) {
    throw invalidInput(
      sniff.kind === 'empty'
        ? `${path} is empty, so its format cannot be told; ${FORMATS_HINT}`
        : `Cannot tell the format of ${path}: no line reads as an OpenClaw, Claude Code or generic JSONL chat record; ${FORMATS_HINT}`,
      { path },
    );
  }
  return { path, type: 'file', format, ...(await sourceFor(store, path, 'file', format, target.namespace, watched)) };
}

/** The format a watched source captures this file in (for the namespace asked for). */
function watchedFormat(path: string, namespace: NamespaceChoice, watched: readonly Source[]): TranscriptFormat | undefined {
  for (const source of watched) {
    const unit = unitForPath(source, path);
    if (unit?.type === 'file' && (namespace.given === undefined || unit.namespace === namespace.given)) return unit.format;
  }
  return undefined;
}

/**
 * The source whose checkpoint a target uses, and the namespace its turns go to: a watched source
 * that captures it the same way (in the namespace given, or in its own when none was given), so a
 * hook and the daemon never read the same lines twice; else a one-off source of the path.
 */
async function sourceFor(store: Store, path: string, type: 'file' | 'db', format: TranscriptFormat, namespace: NamespaceChoice, watched: readonly Source[]): Promise<{ source: Source; namespace: string }> {
  for (const source of watched) {
    const unit = unitForPath(source, path);
    const same = unit?.type === type && (unit.type === 'db' || (unit.type === 'file' && unit.format === format));
    if (unit && same && (namespace.given === undefined || unit.namespace === namespace.given)) return { source, namespace: unit.namespace };
  }
  const ns = namespace.given ?? namespace.fallback;
  const existing = (await store.listSources(ns)).find((s) => s.kind === format && s.path === path);
  return { source: existing ?? (await store.addSource(ns, format, path)), namespace: ns };
}
