// Where Cairn keeps its data. The default is ~/.cairn; CAIRN_HOME or --home override it. Under the
// test runner the default refuses to resolve, so no test can ever touch a real home.
import { homedir } from 'node:os';
import { join, resolve, relative, isAbsolute } from 'node:path';
import { CairnError, ERROR_CODES } from './errors.js';
import type { Namespace } from './namespace.js';

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

/** The per-namespace folder for readable Markdown; the id is already validated, this double-checks. */
export function namespaceDir(home: HomePaths, ns: Namespace): string {
  const dir = resolve(home.root, ns);
  const rel = relative(home.root, dir);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new CairnError(ERROR_CODES.INVALID_NAMESPACE, `Namespace ${JSON.stringify(ns)} resolves outside the data directory`);
  }
  return dir;
}
