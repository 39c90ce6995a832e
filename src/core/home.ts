// Where Cairn keeps its data. The default is ~/.cairn; CAIRN_HOME or --home override it. Under the
// test runner the default refuses to resolve, so no test can ever touch a real home.
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve, relative, isAbsolute } from 'node:path';
import { CairnError, ERROR_CODES } from './errors.js';
import type { Namespace } from './namespace.js';
import { PRIVATE_DIR_MODE } from './private-files.js';

export interface HomePaths {
  root: string;
  config: string;
  database: string;
  indexDir: string;
  /** Files derived from local models, rebuilt when missing (the use-lite ONNX graph). */
  cacheDir: string;
  /** The capture daemon's lock (who runs it) and its last reported state. */
  daemonLock: string;
  daemonState: string;
  logDir: string;
}

function underTestRunner(): boolean {
  return process.env.NODE_TEST_CONTEXT !== undefined || process.env.CAIRN_TEST === '1';
}

/** Resolves the data directory from an explicit value, then CAIRN_HOME, then ~/.cairn. */
export function resolveHome(explicit?: string): HomePaths {
  // An empty CAIRN_HOME is unset (as XDG variables are): `CAIRN_HOME= cairn …` means the default.
  const fromEnv = process.env.CAIRN_HOME === '' ? undefined : process.env.CAIRN_HOME;
  const chosen = explicit ?? fromEnv;
  if (!chosen && underTestRunner()) {
    throw new CairnError(ERROR_CODES.CONFIG, 'Refusing to use the default home (~/.cairn) under test: set CAIRN_HOME or --home');
  }
  if (chosen !== undefined && (chosen.trim() === '' || chosen.includes('\0'))) {
    throw new CairnError(ERROR_CODES.CONFIG, 'Home directory must be a non-empty path');
  }
  const root = resolve(chosen ?? join(homedir(), '.cairn'));
  return {
    root,
    config: join(root, 'config.json'),
    database: join(root, 'cairn.db'),
    indexDir: join(root, 'index'),
    cacheDir: join(root, 'cache'),
    daemonLock: join(root, 'run', 'daemon.lock'),
    daemonState: join(root, 'run', 'daemon.json'),
    logDir: join(root, 'logs'),
  };
}

/** `<home>/backups/`: the store's backups (consolidate/backup.ts), which health checks and purge reaches. */
export function backupsDir(paths: HomePaths): string {
  return join(paths.root, 'backups');
}

const DENIED = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * Makes sure the home is a folder, creating it (private, 0700) when missing. A path that is a file
 * (`--home /dev/null`) is a CONFIG error; a folder that cannot be created is READ_ONLY.
 */
export function ensureHomeDir(paths: HomePaths): void {
  const notDirectory = () =>
    new CairnError(ERROR_CODES.CONFIG, `The data directory ${paths.root} is not a directory (or lies under a file): choose another with --home or CAIRN_HOME`);
  try {
    if (!statSync(paths.root).isDirectory()) throw notDirectory();
    return;
  } catch (err) {
    if (err instanceof CairnError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') throw notDirectory();
    if (code !== 'ENOENT') throw new CairnError(ERROR_CODES.CONFIG, `The data directory ${paths.root} cannot be used: ${(err as Error).message}`);
  }
  try {
    mkdirSync(paths.root, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOTDIR' || code === 'EEXIST') throw notDirectory();
    if (DENIED.has(code)) throw new CairnError(ERROR_CODES.READ_ONLY, `The data directory ${paths.root} cannot be created: ${code === 'EROFS' ? 'read-only file system' : 'permission denied'}`);
    throw err;
  }
}

/**
 * Why this process cannot write the home, or null when it can: the folder (SQLite writes its -wal
 * and -shm files beside the database) and the database files must be writable.
 */
export function whyReadOnly(paths: HomePaths): string | null {
  for (const path of [paths.root, paths.database, `${paths.database}-wal`, `${paths.database}-shm`]) {
    if (path !== paths.root && !existsSync(path)) continue;
    try {
      accessSync(path, constants.W_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EACCES';
      return `${path} is not writable (${code === 'EROFS' ? 'read-only file system' : 'permission denied'})`;
    }
  }
  return null;
}

/** The per-namespace folder for readable Markdown; the id is already validated, this double-checks. */
export function namespaceDir(home: HomePaths, ns: Namespace): string {
  const dir = resolve(home.root, ns);
  const rel = relative(home.root, dir);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new CairnError(ERROR_CODES.INVALID_NAMESPACE, `Namespace ${JSON.stringify(ns)} resolves outside the data directory`);
  }
  return dir;
}
