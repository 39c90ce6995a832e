// Which Markdown files belong to a root. Sync lists them; the watcher asks `inMarkdownScope` about
// single file events, and both apply the same rules. Directory symlinks are never followed (a
// link loop cannot hang a walk); a symlinked file counts when it resolves to a regular file.
import { readdir, stat } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';

export type MarkdownLayout = 'openclaw-workspace' | 'tree';

/** The files an OpenClaw workspace keeps at its top level. */
const WORKSPACE_FILES = new Set(['MEMORY.md', 'memory.md']);
const WORKSPACE_DIR = 'memory';

export function isMarkdownPath(path: string): boolean {
  return /\.(md|markdown)$/i.test(basename(path));
}

/** Tool state and trash (`.obsidian`, `.git`, `.trash`) and dependencies are not notes. */
export function isSkippedDir(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

export interface MarkdownListing {
  /** Absolute paths, sorted. */
  files: string[];
  errors: Array<{ path: string; message: string }>;
  /**
   * Existing directories that could not be read: what was indexed under them is unknown, not
   * gone, so sync keeps it.
   */
  unreadable: string[];
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/** A directory entry that is a Markdown file, through a file symlink too. */
async function isMarkdownFile(dir: string, entry: Dirent): Promise<boolean> {
  if (!isMarkdownPath(entry.name)) return false;
  if (entry.isFile()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return (await stat(join(dir, entry.name))).isFile();
  } catch {
    return false; // dangling link
  }
}

async function walkTree(top: string, out: MarkdownListing): Promise<void> {
  const stack = [top];
  while (stack.length) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) continue; // removed while walking
      out.errors.push({ path: dir, message: message(err) });
      out.unreadable.push(dir);
      continue;
    }
    for (const entry of entries) {
      // isDirectory() is false for a symlink, so linked directories are never entered.
      if (entry.isDirectory()) {
        if (!isSkippedDir(entry.name)) stack.push(join(dir, entry.name));
      } else if (await isMarkdownFile(dir, entry)) out.files.push(join(dir, entry.name));
    }
  }
}

async function walkWorkspace(root: string, out: MarkdownListing): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (err) {
    out.errors.push({ path: root, message: message(err) });
    if (!isMissing(err)) out.unreadable.push(root);
    return;
  }
  for (const entry of entries) {
    if (WORKSPACE_FILES.has(entry.name) && (await isMarkdownFile(root, entry))) out.files.push(join(root, entry.name));
    else if (entry.name === WORKSPACE_DIR && entry.isDirectory()) await walkTree(join(root, entry.name), out);
  }
}

/**
 * The Markdown files under `root`: the file itself when it is one; otherwise every `.md` of the
 * tree ('tree', the default) or `MEMORY.md`/`memory.md` plus `memory/**` ('openclaw-workspace').
 * Problems are reported, never thrown: one unreadable folder must not stop the rest.
 */
export async function listMarkdownFiles(root: string, layout: MarkdownLayout = 'tree'): Promise<MarkdownListing> {
  const top = resolve(root);
  const out: MarkdownListing = { files: [], errors: [], unreadable: [] };
  try {
    const info = await stat(top);
    if (info.isFile()) out.files.push(top);
    else if (!info.isDirectory()) out.errors.push({ path: top, message: 'not a regular file or directory' });
    else if (layout === 'openclaw-workspace') await walkWorkspace(top, out);
    else await walkTree(top, out);
  } catch (err) {
    out.errors.push({ path: top, message: message(err) });
    if (!isMissing(err)) out.unreadable.push(top);
  }
  out.files.sort();
  return out;
}

/**
 * Whether a file event at `path` concerns the root: by path alone, so it also answers for a file
 * that was just deleted. (A file reached through a linked directory is not under `root` here,
 * matching the walk, which does not follow such links.)
 */
export function inMarkdownScope(root: string, path: string, layout: MarkdownLayout = 'tree'): boolean {
  const top = resolve(root);
  const rel = relative(top, resolve(path));
  if (rel === '') return true; // a single-file root
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) || !isMarkdownPath(rel)) return false;
  const parts = rel.split(sep);
  const dirs = parts.slice(0, -1);
  if (layout === 'openclaw-workspace') {
    if (dirs.length === 0) return WORKSPACE_FILES.has(parts[0]!);
    if (dirs[0] !== WORKSPACE_DIR) return false;
    return !dirs.slice(1).some(isSkippedDir);
  }
  return !dirs.some(isSkippedDir);
}

/** Whether `path` is `dir` or lies under it. */
export function isWithin(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
