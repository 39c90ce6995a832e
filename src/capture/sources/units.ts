// A source's capture units: the transcript files, transcript databases and Markdown trees under
// its root, each with the namespace its records go to. The daemon lists them on every rescan and
// maps file-system events to them, so both paths agree on what belongs to a source.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { Source } from '../../core/types.js';
import type { TranscriptFormat } from '../formats/index.js';
import { claudeProjectNamespace } from './discover.js';
import { namespaceFromName } from '../../core/namespace.js';
import { readSourceOptions, type SourceKind } from './kinds.js';
import { walkFiles, type WalkResult } from './walk.js';
import { isMarkdownPath } from '../markdown/walk.js';

export { isMarkdownPath };

export type CaptureUnit =
  | { type: 'file'; path: string; format: TranscriptFormat; namespace: string }
  | { type: 'db'; path: string; namespace: string }
  | { type: 'markdown'; path: string; namespace: string; layout: 'openclaw-workspace' | 'tree' };

/** The name OpenClaw gives an agent's transcript database. */
export const OPENCLAW_DB_NAME = 'openclaw-agent.sqlite';
/** Live transcripts and their reset/deleted archives; never `sessions.json` or lock files. */
const OPENCLAW_FILE = /\.jsonl(\.(reset|deleted)\.[^/\\]+)?$/;
const SKIP_DIRS = new Set(['node_modules', '.git', '.obsidian', '.trash']);

const skipDir = (name: string) => name.startsWith('.') || SKIP_DIRS.has(name);

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The namespace a record at `path` of `source` belongs to. */
export function namespaceFor(source: Source, path: string): string {
  const { namespaceFrom } = readSourceOptions(source.options);
  if (namespaceFrom === 'agent') {
    const parts = resolve(path).split(sep);
    const at = parts.lastIndexOf('agents');
    const agent = at >= 0 && at + 2 < parts.length ? parts[at + 1]! : null;
    return (agent && namespaceFromName(agent)) || source.namespace;
  }
  if (namespaceFrom === 'project') {
    // Claude Code project folders start with "-" (an absolute cwd); otherwise root holds them.
    const root = resolve(source.path);
    if (basename(root).startsWith('-')) return claudeProjectNamespace(root) ?? source.namespace;
    const rel = relative(root, resolve(path)).split(sep);
    return (rel.length >= 2 && claudeProjectNamespace(rel[0]!)) || source.namespace;
  }
  return source.namespace;
}

/** The unit a changed path belongs to, or null when the source does not capture it. */
export function unitForPath(source: Source, changed: string): CaptureUnit | null {
  const root = resolve(source.path);
  const path = resolve(changed);
  const kind = source.kind as SourceKind;
  // A database given as the root writes beside itself (root-wal, root-shm): those are the root too.
  const inside = path === root || path.startsWith(root + sep) || (kind === 'openclaw' && path.replace(/-(wal|shm|journal)$/, '') === root);
  if (!inside) return null;
  const namespace = namespaceFor(source, path);
  switch (kind) {
    case 'openclaw': {
      const db = path.replace(/-(wal|shm|journal)$/, '');
      if (basename(db) === OPENCLAW_DB_NAME || (db === root && db.endsWith('.sqlite'))) return { type: 'db', path: db, namespace };
      return OPENCLAW_FILE.test(basename(path)) ? { type: 'file', path, format: 'openclaw', namespace } : null;
    }
    case 'claude-code':
      return path.endsWith('.jsonl') ? { type: 'file', path, format: 'claude-code', namespace } : null;
    case 'jsonl':
      return path.endsWith('.jsonl') || path === root ? { type: 'file', path, format: 'jsonl', namespace } : null;
    case 'markdown':
      return isMarkdownPath(path) || path === root ? markdownUnit(source) : null;
    default:
      return null;
  }
}

function markdownUnit(source: Source): CaptureUnit {
  const layout = readSourceOptions(source.options).layout ?? 'tree';
  return { type: 'markdown', path: resolve(source.path), namespace: source.namespace, layout };
}

/** Every unit of a source as the disk stands now, plus folders that could not be listed. */
export async function listUnits(source: Source): Promise<{ units: CaptureUnit[]; errors: WalkResult['errors'] }> {
  const root = resolve(source.path);
  if (source.kind === 'markdown') return { units: [markdownUnit(source)], errors: [] };
  if (!isDir(root)) {
    // A missing root is flagged on the source (status: missing); as a unit it would record an
    // error under the root's key that nothing clears once the root is back as a folder.
    if (!existsSync(root)) return { units: [], errors: [] };
    const unit = unitForPath(source, root);
    return { units: unit ? [unit] : [], errors: [] };
  }
  // openclaw: agents/<id>/sessions/*.jsonl* and agents/<id>/agent/*.sqlite (root may be any level);
  // claude-code: <project>/*.jsonl and <project>/<session>/subagents/*.jsonl.
  const maxDepth = source.kind === 'openclaw' ? 4 : source.kind === 'claude-code' ? 4 : 8;
  const walked = await walkFiles(root, { maxDepth, skipDir, accept: (p) => unitForPath(source, p) !== null });
  const seen = new Set<string>();
  const units: CaptureUnit[] = [];
  for (const file of walked.files) {
    const unit = unitForPath(source, file)!;
    if (seen.has(unit.path)) continue;
    seen.add(unit.path);
    units.push(unit);
  }
  return { units, errors: walked.errors };
}

/** Folders to watch for a source: its root (or the folder of a single-file root). */
export function watchRoot(source: Source): string {
  const root = resolve(source.path);
  return isDir(root) ? root : dirname(root);
}
