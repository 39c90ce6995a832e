// Saved vector indexes (vector-index.ts) of whole namespaces, removed when a purge took vectors
// out of the store: a saved HNSW file holds (quantised) vectors of every entry it was built from.
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_PATTERN, LEGACY_PATTERN } from './vector-index.js';

/** A save in progress or abandoned: `<namespace>.<dims>d.<watermark>.tmp-<pid>`. */
const TEMP_FILE = /^(.+)\.\d+d\.\d+\.tmp-\d+$/;

/** Removes every saved index (any model) of these namespaces; returns the files, relative to `dir`. */
export function removeSavedIndexes(dir: string, namespaces: readonly string[]): string[] {
  const removed: string[] = [];
  if (!existsSync(dir)) return removed;
  const wanted = new Set(namespaces);
  for (const model of readdirSync(dir)) {
    const modelDir = join(dir, model);
    if (!statSync(modelDir).isDirectory()) continue;
    for (const name of readdirSync(modelDir)) {
      const m = FILE_PATTERN.exec(name) ?? LEGACY_PATTERN.exec(name) ?? TEMP_FILE.exec(name);
      if (m && wanted.has(m[1]!)) {
        rmSync(join(modelDir, name), { force: true });
        removed.push(join(model, name));
      }
    }
  }
  return removed;
}
