// The files a purge must also clean: what Cairn wrote under a namespace's folder (raw logs,
// SESSION-STATE.md, MEMORY.md and any other Markdown), its logs, and the saved vector indexes.
// The person's own files (transcripts, notes indexed read-only) are never edited: a purge names
// the ones that still hold what it removed.
import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { namespaceDir, type HomePaths } from '../core/home.js';
import type { Namespace } from '../core/namespace.js';
import type { DigestKind, Turn } from '../core/types.js';
import { renderTurn, rewriteRealtimeView } from '../consolidate/realtime-view.js';
import type { RemovedDigest, Store } from '../store/store.js';
import { getState, renderStateFile, stateFilePath, writeFileAtomic } from './hot-state.js';

/** Text files Cairn writes (or a person keeps) in a namespace's folder. */
const TEXT_FILE = /\.(md|markdown|txt|json|jsonl)$/i;
/** Past this a file is not Cairn's (its views are daily files); it is named in the report instead. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;

export interface FileOutcome {
  /** Files rewritten, relative to the home. */
  rewritten: string[];
  warnings: string[];
}

/** Regular text files under `dir` (no symlinks followed), skipping the raw view (rewritten under its lock). */
function textFiles(dir: string, skip: (path: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (skip(path)) continue;
      const st = lstatSync(path);
      if (st.isDirectory()) walk(path);
      else if (st.isFile() && TEXT_FILE.test(name) && st.size <= MAX_FILE_BYTES) out.push(path);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/**
 * Applies `edit` to a file's text; writes only when it changed. In place (truncate and write) for
 * logs, whose writers keep them open for appending; atomically (rename) for everything else.
 */
function editFile(path: string, edit: (text: string) => string, inPlace: boolean, dryRun: boolean): boolean {
  const text = readFileSync(path, 'utf8');
  const next = edit(text);
  if (next === text) return false;
  if (dryRun) return true;
  if (inPlace) writeFileSync(path, next);
  else {
    // The rewritten file keeps the mode the original had (a private file stays private).
    const mode = statSync(path).mode & 0o777;
    writeFileAtomic(path, next);
    chmodSync(path, mode);
  }
  return true;
}

/**
 * Cleans one namespace's folder: the raw daily views (under their lock, `editRaw`), then every
 * other text file (`edit`), then SESSION-STATE.md rendered again from the (purged) store.
 */
export async function purgeNamespaceFiles(
  store: Store,
  paths: HomePaths,
  namespace: string,
  edits: { raw: (text: string) => string; other: (text: string) => string },
  outcome: FileOutcome,
  dryRun: boolean,
): Promise<void> {
  const dir = namespaceDir(paths, namespace as Namespace);
  if (!existsSync(dir)) return;
  const rawDir = join(dir, 'raw');
  if (dryRun) {
    for (const file of textFiles(rawDir, () => false)) if (editFile(file, edits.raw, false, true)) outcome.rewritten.push(relative(paths.root, file));
  } else {
    const raw = await rewriteRealtimeView(paths, namespace as Namespace, edits.raw);
    if (raw === null) outcome.warnings.push(`the raw log of ${namespace} was busy (another process appending): run the purge again to clean it`);
    else outcome.rewritten.push(...raw.map((f) => relative(paths.root, f)));
  }
  const stateFile = stateFilePath(paths, namespace);
  for (const file of textFiles(dir, (p) => p === rawDir)) {
    if (file === stateFile) continue;
    if (editFile(file, edits.other, false, dryRun)) outcome.rewritten.push(relative(paths.root, file));
  }
  if (!existsSync(stateFile)) return;
  // SESSION-STATE.md is a view of the store's hot state: rendered again from it (a dry run asks the edit).
  const state = dryRun ? null : await getState(store, namespace);
  if (state && state.updatedAt !== null) {
    const text = renderStateFile(state).text;
    if (readFileSync(stateFile, 'utf8') !== text) {
      writeFileAtomic(stateFile, text);
      outcome.rewritten.push(relative(paths.root, stateFile));
    }
  } else if (editFile(stateFile, edits.other, false, dryRun)) {
    outcome.rewritten.push(relative(paths.root, stateFile));
  }
}

/** Cleans the logs (`<home>/logs/*.log`), in place. */
export function purgeLogFiles(paths: HomePaths, edit: (text: string) => string, outcome: FileOutcome, dryRun: boolean): void {
  if (!existsSync(paths.logDir)) return;
  for (const name of readdirSync(paths.logDir)) {
    const file = join(paths.logDir, name);
    if (!/\.log(\.\d+)?$/.test(name) || !lstatSync(file).isFile()) continue;
    if (editFile(file, edit, true, dryRun)) outcome.rewritten.push(relative(paths.root, file));
  }
}

/**
 * Removes a purged turn's block from a raw daily view: the block as the view rendered it, at any
 * time of day (the view's time zone may have changed since), from its heading line to its end.
 */
export function withoutTurnBlocks(text: string, turns: readonly Turn[]): string {
  let out = text;
  for (const turn of turns) {
    const rendered = renderTurn(turn, '\u0000');
    const tail = rendered.slice(rendered.indexOf('\u0000') + 1);
    let from = 0;
    for (;;) {
      const at = out.indexOf(tail, from);
      if (at === -1) break;
      const lineStart = out.lastIndexOf('\n', at - 1) + 1;
      const head = out.slice(lineStart, at);
      if (head.startsWith('### ') && !head.includes('\n')) out = out.slice(0, lineStart) + out.slice(at + tail.length);
      else from = at + 1;
    }
  }
  return out;
}

/** Indexed notes of a namespace (the person's files) that `holds` says still contain what was purged. */
export async function userFilesHolding(store: Store, namespace: string, holds: (text: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  for (const doc of await store.documentFiles(namespace)) {
    try {
      if (holds(readFileSync(doc.path, 'utf8'))) out.push(doc.path);
    } catch {
      // gone or unreadable: nothing of it to report
    }
  }
  return out;
}

/**
 * Digest files written whole from the store, with no words of a person's in them: a purge that
 * removes their digest deletes them (the next consolidation writes them again without what was
 * purged); an entity page's items.json goes with it. MEMORY.md and topic pages may hold a person's own lines: they are kept, and lose only the
 * lines citing a purged record (withoutCitingLines).
 */
const GENERATED_DIGESTS: ReadonlySet<DigestKind> = new Set(['daily', 'night', 'review', 'weekly', 'entity', 'life']);
/** Files written beside a digest from the same material: an entity page's items.json goes with its summary.md. */
const COMPANIONS: Partial<Record<DigestKind, string>> = { entity: 'items.json' };

/** Deletes the files of removed digests that are Cairn's alone; returns them relative to the home. */
export function removeDigestFiles(paths: HomePaths, digests: readonly RemovedDigest[], dryRun: boolean): string[] {
  const deleted: string[] = [];
  for (const d of digests) {
    if (!GENERATED_DIGESTS.has(d.kind)) continue;
    const dir = namespaceDir(paths, d.namespace as Namespace);
    const file = join(dir, ...d.path.split('/'));
    // The store only keeps plain relative paths; checked again before deleting anything.
    const inside = relative(dir, file);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) continue;
    const companion = COMPANIONS[d.kind];
    for (const f of companion ? [file, join(dirname(file), companion)] : [file]) {
      if (!existsSync(f) || !lstatSync(f).isFile()) continue;
      if (!dryRun) unlinkSync(f);
      deleted.push(relative(paths.root, f));
    }
  }
  return deleted;
}

/** The text without the lines that cite one of `ids` (a citation is the full id in backticks). */
export function withoutCitingLines(text: string, ids: readonly string[]): string {
  const cites = ids.map((id) => `\`${id}\``).filter((c) => text.includes(c));
  if (cites.length === 0) return text;
  return text
    .split('\n')
    .filter((line) => !cites.some((c) => line.includes(c)))
    .join('\n');
}
