// Namespaces an older Cairn accepted under a name the data directory now keeps for itself
// ("cache", "cairn.sock", …): their folder `<home>/<ns>/` collides with Cairn's own file or folder
// (a namespace folder named cairn.sock stops the daemon's socket). On open they are renamed the way
// a new outside name would be (core/namespace.ts unreservedName), with their files, and the caller
// is told once: the next open finds nothing to rename.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HomePaths } from '../core/home.js';
import { isReservedName, unreservedName } from '../core/namespace.js';
import type { Store } from '../store/store.js';
import { PRIVATE_DIR_MODE } from '../core/private-files.js';

/** What Cairn writes in a namespace's folder (hot-state.ts, consolidate/realtime-view.ts). */
const NAMESPACE_FILES = ['SESSION-STATE.md', 'MEMORY.md', 'raw'] as const;
/** Reserved names that are folders Cairn itself uses: only the namespace's files leave them. */
const OWN_FOLDERS = new Set(['index', 'logs', 'run', 'cache', 'backups']);

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Moves the namespace's files from its old folder to its new one; never overwrites. */
function moveFolder(root: string, from: string, to: string): void {
  const source = join(root, from);
  if (!isDirectory(source)) return;
  const target = join(root, to);
  if (!OWN_FOLDERS.has(from) && !existsSync(target)) {
    renameSync(source, target);
    return;
  }
  mkdirSync(target, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const name of NAMESPACE_FILES) {
    if (existsSync(join(source, name)) && !existsSync(join(target, name))) renameSync(join(source, name), join(target, name));
  }
  // A folder the namespace alone used goes once empty, so Cairn's own file can take its name.
  if (!OWN_FOLDERS.has(from) && readdirSync(source).length === 0) rmdirSync(source);
}

/** Drops the namespace's saved vector indexes (rebuilt from the database under the new name). */
function dropIndexFiles(indexDir: string, ns: string): void {
  if (!isDirectory(indexDir)) return;
  for (const model of readdirSync(indexDir)) {
    const dir = join(indexDir, model);
    if (!isDirectory(dir)) continue;
    // `<ns>.<dims>d.<watermark>…` (search/vector-index.ts); anchored so namespace "cache.x" keeps its files.
    for (const name of readdirSync(dir)) if (name.startsWith(ns) && /^\.\d+d\./.test(name.slice(ns.length))) rmSync(join(dir, name), { force: true });
  }
}

/**
 * Renames every stored namespace whose name is reserved; returns one notice per rename. Files
 * move first, then the records: a crash in between leaves the records under the old name, and the
 * next open finishes the rename.
 */
export async function renameReservedNamespaces(store: Store, paths: HomePaths): Promise<string[]> {
  const ids = await store.namespaceIds();
  const notices: string[] = [];
  for (const from of ids.filter(isReservedName)) {
    const base = unreservedName(from);
    let to = base;
    for (let n = 2; ids.includes(to); n++) to = `${base.slice(0, 60)}-${n}`;
    moveFolder(paths.root, from, to);
    dropIndexFiles(paths.indexDir, from);
    if (await store.renameNamespace(from, to)) {
      ids.push(to);
      notices.push(`namespace "${from}" collides with the data directory's own "${from}" and was renamed to "${to}"`);
    }
  }
  return notices;
}
