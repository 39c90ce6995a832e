// The built use-lite ONNX graph, kept in the home's cache folder: a small graph file and its
// weights beside it (28 MB, ONNX external data). Building it means reading and re-encoding the
// weights (~120 ms); ONNX Runtime maps the cached weights in less, which is most of what a cold
// `cairn search` waits for (docs/BENCHMARKS.md). The files are derived data: missing, stale or
// unreadable, they are rebuilt; a home that cannot be written to simply goes without.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/private-files.js';

/** The version of the graph use-lite-onnx.ts builds and of its files here: bump it with any change. */
export const USE_LITE_GRAPH_VERSION = 2;

const NAME = /^use-lite-([0-9a-f]{16})-t(\d{1,4})\.onnx$/;
/** Every file this cache writes, of any key: graphs, their weights, temp files. */
const OWN_FILE = /^use-lite-[0-9a-f]{16}-t\d{1,4}\.(onnx|weights)$/;
const TMP_FILE = /^use-lite-.*\.tmp$/;

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

/** The cache's file names for a graph: the graph, and the weights file its initializers point to. */
export function cachedGraphNames(key: string, maxTokens: number): { graph: string; weights: string } {
  const graph = `use-lite-${key}-t${maxTokens}.onnx`;
  return { graph, weights: weightsFileOf(graph) };
}

/**
 * Writes the weights, then the graph that names them (each atomically, so a graph on disk always
 * has its weights written before it), and removes files of other keys; false when it could not.
 * The caller externalizes the graph (onnx-model.ts) so loading a cached graph never imports the
 * protobuf library.
 */
export function saveCachedGraph(cacheDir: string, key: string, maxTokens: number, files: { graph: Uint8Array; weights: Uint8Array }): boolean {
  const { graph: name, weights: weightsName } = cachedGraphNames(key, maxTokens);
  // Unique per writer: two worker threads of one process may build at the same moment.
  const suffix = `${randomBytes(6).toString('hex')}.tmp`;
  const temps = [join(cacheDir, `${weightsName}.${suffix}`), join(cacheDir, `${name}.${suffix}`)];
  try {
    mkdirSync(cacheDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    writeFileSync(temps[0]!, files.weights, { mode: PRIVATE_FILE_MODE });
    renameSync(temps[0]!, join(cacheDir, weightsName));
    writeFileSync(temps[1]!, files.graph, { mode: PRIVATE_FILE_MODE });
    renameSync(temps[1]!, join(cacheDir, name));
  } catch {
    for (const tmp of temps) quietly(() => rmSync(tmp, { force: true }));
    return false;
  }
  quietly(() => {
    for (const other of readdirSync(cacheDir)) {
      const path = join(cacheDir, other);
      // Files of other weights or builders go; so do temp files a crashed writer left long ago.
      if ((other !== name && other !== weightsName && OWN_FILE.test(other)) || (TMP_FILE.test(other) && ageMs(path) > STALE_TMP_MS)) rmSync(path, { force: true });
    }
  });
  return true;
}

function weightsFileOf(graphName: string): string {
  return graphName.replace(/\.onnx$/, '.weights');
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
  quietly(() => rmSync(weightsFileOf(graph.path), { force: true }));
}
