// The data directory is private to its user: folders 0700, files 0600, whatever the umask. The CLI
// also sets a 077 umask at start, so files made by libraries it calls (SQLite's -wal and -shm, the
// model cache, pino's log) are private too; code that creates a file in the home still passes
// these modes itself, so library users get private files without touching their process's umask.
import { chmodSync, lstatSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { HomePaths } from './home.js';
import { isReservedName } from './namespace.js';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** Group and other get nothing. */
export const PRIVATE_UMASK = 0o077;
const SHARED_BITS = 0o077;

/** Sets the process umask so every file the process creates from now on is private. */
export function usePrivateUmask(): void {
  // Two calls with an argument: reading the umask with process.umask() alone is deprecated.
  const previous = process.umask(PRIVATE_UMASK);
  process.umask(previous | PRIVATE_UMASK);
}

function modeOf(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * Whether the home still has modes from before files were private (or from a umask): its folder
 * or its database readable by others. Two stats, so every open can ask.
 */
export function homeNeedsPrivacy(paths: HomePaths): boolean {
  return [paths.root, paths.database].some((p) => {
    const st = modeOf(p);
    return st !== null && !st.isSymbolicLink() && (st.mode & SHARED_BITS) !== 0;
  });
}

/**
 * Takes group and other bits off Cairn's own entries in the home: its files and folders (config,
 * database, socket, logs, run, index, cache, backups, temp files) and the folders of the given
 * namespaces, recursively; then the home folder itself. Entries that are not Cairn's (a home set to
 * a folder holding other things) and symbolic links are left alone, as is the home folder when it
 * is a shared one (sticky bit, like /tmp). Returns how many entries changed; one that cannot be
 * changed (another user's, a read-only file system) is skipped.
 */
export function makeHomePrivate(paths: HomePaths, namespaces: readonly string[]): number {
  let changed = 0;
  const fix = (path: string, st: Stats): void => {
    if ((st.mode & SHARED_BITS) === 0) return;
    try {
      chmodSync(path, st.mode & 0o7700);
      changed++;
    } catch {
      // not ours to change: reported by nothing, as the rest of the home is still fixed
    }
  };
  const walk = (path: string): void => {
    const st = modeOf(path);
    if (st === null || st.isSymbolicLink()) return;
    if (st.isDirectory()) {
      let names: string[] = [];
      try {
        names = readdirSync(path);
      } catch {
        // unreadable folder: its own mode is still fixed below
      }
      for (const name of names) walk(join(path, name));
    }
    fix(path, st);
  };
  const own = (name: string): boolean => isReservedName(name) || namespaces.includes(name);
  let top: string[] = [];
  try {
    top = readdirSync(paths.root);
  } catch {
    return 0;
  }
  for (const name of top) if (own(name)) walk(join(paths.root, name));
  const root = modeOf(paths.root);
  if (root !== null && root.isDirectory() && (root.mode & 0o1000) === 0) fix(paths.root, root);
  return changed;
}
