// The built use-lite ONNX graph, kept in the home's cache folder (28 MB). Building it means reading
// and re-encoding the weights (~120 ms); ONNX Runtime loads the file itself in less, which is most
// of what a cold `cairn search` waits for (docs/BENCHMARKS.md). The file is derived data: missing,
// stale or unreadable, it is rebuilt; a home that cannot be written to simply goes without.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The version of the graph use-lite-onnx.ts builds: bump it with any change there. */
export const USE_LITE_GRAPH_VERSION = 1;

const NAME = /^use-lite-([0-9a-f]{16})-t(\d{1,4})\.onnx$/;

export interface CachedGraph {
  path: string;
  maxTokens: number;
}

/** Names the graph built from these weights by this version of the builder. */
export function graphKey(manifest: string): string {
  return createHash('sha256').update(`${USE_LITE_GRAPH_VERSION}\n${manifest}`).digest('hex').slice(0, 16);
}

export function findCachedGraph(cacheDir: string, key: string): CachedGraph | null {
  let names: string[];
  try {
    names = readdirSync(cacheDir);
  } catch {
    return null;
  }
  for (const name of names) {
    const m = NAME.exec(name);
    if (m && m[1] === key) return { path: join(cacheDir, name), maxTokens: Number(m[2]) };
  }
  return null;
}

/** Writes the graph atomically and removes graphs of other keys; false when it could not. */
export function saveCachedGraph(cacheDir: string, key: string, maxTokens: number, model: Uint8Array): boolean {
  const name = `use-lite-${key}-t${maxTokens}.onnx`;
  // Unique per writer: two worker threads of one process may build at the same moment.
  const tmp = join(cacheDir, `${name}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(tmp, model);
    renameSync(tmp, join(cacheDir, name));
  } catch {
    quietly(() => rmSync(tmp, { force: true }));
    return false;
  }
  quietly(() => {
    for (const other of readdirSync(cacheDir)) {
      const path = join(cacheDir, other);
      // Graphs of other weights or builders go; so do temp files a crashed writer left long ago.
      if ((other !== name && NAME.test(other)) || (/^use-lite-.*\.tmp$/.test(other) && ageMs(path) > STALE_TMP_MS)) rmSync(path, { force: true });
    }
  });
  return true;
}

/** Cache housekeeping never fails a load. */
function quietly(fn: () => void): void {
  try {
    fn();
  } catch {
    // the cache is an optimisation: leaving a file behind is harmless
  }
}

const STALE_TMP_MS = 10 * 60_000;

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

export function dropCachedGraph(graph: CachedGraph): void {
  quietly(() => rmSync(graph.path, { force: true }));
}
