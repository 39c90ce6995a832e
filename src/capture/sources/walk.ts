// Lists the files under a root without following directory symlinks (a symlink loop cannot hang
// it) and without letting one unreadable folder stop the rest: those are reported instead.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface WalkOptions {
  /** Folders below the root to descend (0: the root's own files only). */
  maxDepth: number;
  /** True for folder names never entered (dot folders, node_modules, …). */
  skipDir?: (name: string) => boolean;
  /** True for the files wanted, by absolute path. */
  accept: (path: string) => boolean;
}

export interface WalkResult {
  files: string[];
  errors: Array<{ path: string; message: string }>;
}

export async function walkFiles(root: string, options: WalkOptions): Promise<WalkResult> {
  const result: WalkResult = { files: [], errors: [] };
  await walkDir(root, 0, options, result);
  result.files.sort();
  return result;
}

async function walkDir(dir: string, depth: number, options: WalkOptions, out: WalkResult): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    out.errors.push({ path: dir, message: (err as Error).message });
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (depth < options.maxDepth && !options.skipDir?.(entry.name)) await walkDir(path, depth + 1, options, out);
      continue;
    }
    if (!options.accept(path)) continue;
    if (entry.isSymbolicLink()) {
      // A link to a folder is not followed (no loops); a dangling or looping link is still listed,
      // so capturing it fails with a clear error that status shows.
      try {
        if ((await stat(path)).isDirectory()) continue;
      } catch {
        /* listed below */
      }
    }
    // Regular files, and anything else named like one (a FIFO, a socket): its capture reports why not.
    out.files.push(path);
  }
}
