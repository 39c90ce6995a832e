// The built use-lite ONNX graph, kept in the home's cache folder: a small graph file and its
// weights beside it (13 MB: float token embeddings, int8 matrices; ONNX external data). Building
// it means reading and re-encoding the weights (~120 ms); ONNX Runtime maps the cached weights in
// less, which is most of what a cold `cairn search` waits for (docs/BENCHMARKS.md). The files are derived data: missing, stale or
// unreadable, they are rebuilt; a home that cannot be written to simply goes without.
//
// Beside it, once a session has run it, the same graph as ONNX Runtime prepared it for this
// processor (use-lite-<key>-t<n>-<host>.prepacked/): its matrix weights already packed for the
// CPU's kernels. Packing them again was most of creating a session (~20 MB of weights copied into
// fresh memory); mapped from this file, a session is ready in about half the time, and it runs the
// very same kernels on the very same packed numbers, so its vectors are bit for bit the same.
// The packing belongs to the runtime's version and the processor: another of either makes another
// folder, and the old one goes.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/private-files.js';

/** The version of the graph use-lite-onnx.ts builds and of its files here: bump it with any change. */
export const USE_LITE_GRAPH_VERSION = 3;

// Keys are CRC-32s, 8 hex digits. The 16- and 12-digit (SHA-256) names of earlier versions still
// match, so their files are found as another key's and removed.
const NAME = /^use-lite-([0-9a-f]{8}|[0-9a-f]{16})-t(\d{1,4})\.onnx$/;
const PREPACKED = /^use-lite-([0-9a-f]{8}|[0-9a-f]{16})-t(\d{1,4})-([0-9a-f]{8}|[0-9a-f]{12})\.prepacked$/;
/** Every file this cache writes, of any key: graphs, their weights, prepacked folders, temp files. */
const OWN_FILE = /^use-lite-([0-9a-f]{8}|[0-9a-f]{16})-t\d{1,4}(\.(onnx|weights)|-([0-9a-f]{8}|[0-9a-f]{12})\.prepacked)$/;
const TMP_FILE = /^use-lite-.*\.tmp$/;
/** The two files of a prepacked folder: the graph names its data file relative to itself. */
export const PREPACKED_GRAPH = 'graph.onnx';
export const PREPACKED_DATA = 'graph.data';

export interface CachedGraph {
  path: string;
  maxTokens: number;
}

/**
 * A cache name for a text: its CRC-32. Names only have to tell apart the few weights, runtimes and
 * processors one home meets, and a model thread finds its files before its first vector: node:zlib
 * loads in ~1 ms there, node:crypto (with WebCrypto, which an import of it brings) in ~8.
 */
function nameOf(text: string): string {
  return hex(crc32(text));
}

function hex(crc: number): string {
  return crc.toString(16).padStart(8, '0');
}

/**
 * Names the graph built from these weights (the package's model.json, as bytes: decoding its
 * 247 KB to a string took longer than the CRC) by this version of the builder.
 */
export function graphKey(manifest: Uint8Array): string {
  return hex(crc32(manifest, crc32(`${USE_LITE_GRAPH_VERSION}\n`)));
}

let tempFiles = 0;
/** A name no other writer uses at the same time: this process and thread, a count and a random part. */
export function cacheTempSuffix(): string {
  return `${process.pid}-${threadId}-${++tempFiles}-${Math.random().toString(16).slice(2, 8)}.tmp`;
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
  const suffix = cacheTempSuffix();
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
      const ownOther = other !== name && other !== weightsName && OWN_FILE.test(other) && !other.startsWith(`use-lite-${key}-t${maxTokens}-`);
      if (ownOther || (TMP_FILE.test(other) && ageMs(path) > STALE_TMP_MS)) rmSync(path, { recursive: true, force: true });
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

/**
 * Names the runtime and processor a prepacked graph is for: ONNX Runtime's version, the
 * architecture, and the CPU's model and feature flags (its kernels, and so the packing, are
 * chosen by them).
 */
export function hostKey(runtimeVersion: string): string {
  let cpu = '';
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    cpu = `${/^model name\s*:(.*)$/m.exec(info)?.[1] ?? ''}\n${/^(flags|Features)\s*:(.*)$/m.exec(info)?.[2] ?? ''}`;
  } catch {
    cpu = cpus()[0]?.model ?? ''; // no /proc (macOS, Windows): the model name
  }
  return nameOf(`${runtimeVersion}\n${process.arch}\n${cpu}`);
}

/** The prepacked graph of this key and host, or null. */
export function findPrepackedGraph(cacheDir: string, key: string, host: string): (CachedGraph & { others: boolean }) | null {
  let names: string[];
  try {
    names = readdirSync(cacheDir);
  } catch {
    return null;
  }
  let found: CachedGraph | null = null;
  let others = false;
  for (const name of names) {
    const m = PREPACKED.exec(name);
    if (!m) continue;
    if (m[1] === key && m[3] === host && existsSync(join(cacheDir, name, PREPACKED_GRAPH))) found = { path: join(cacheDir, name, PREPACKED_GRAPH), maxTokens: Number(m[2]) };
    else others = true;
  }
  return found && { ...found, others };
}

/**
 * A folder for ONNX Runtime to write the prepacked graph into (a temp name); `keep` moves it to
 * its name in one rename, so a folder under that name is always complete, and removes prepacked
 * folders of other keys or hosts; `discard` removes it. Null when the cache folder cannot be made.
 */
export function prepackedGraphWriter(cacheDir: string, key: string, maxTokens: number, host: string): { graphPath: string; keep: () => boolean; discard: () => void } | null {
  const name = `use-lite-${key}-t${maxTokens}-${host}.prepacked`;
  const temp = join(cacheDir, `${name}.${cacheTempSuffix()}`);
  try {
    mkdirSync(temp, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch {
    return null;
  }
  const discard = () => quietly(() => rmSync(temp, { recursive: true, force: true }));
  return {
    graphPath: join(temp, PREPACKED_GRAPH),
    discard,
    keep: () => {
      try {
        for (const file of readdirSync(temp)) quietly(() => chmodPrivate(join(temp, file)));
        renameSync(temp, join(cacheDir, name)); // fails when another process was first: theirs stays
      } catch {
        discard();
        return false;
      }
      dropOtherPrepacked(cacheDir, name);
      return true;
    },
  };
}

function chmodPrivate(path: string): void {
  chmodSync(path, PRIVATE_FILE_MODE); // ONNX Runtime writes with the umask (the CLI's is private already)
}

/** Removes the prepacked folders of other keys or hosts (a home moved to another machine, an upgrade). */
export function dropOtherPrepacked(cacheDir: string, keep: string): void {
  quietly(() => {
    for (const other of readdirSync(cacheDir)) if (other !== keep && PREPACKED.test(other)) rmSync(join(cacheDir, other), { recursive: true, force: true });
  });
}

/** Removes a prepacked folder that failed to load: the next session writes it again. */
export function dropPrepackedGraph(graph: CachedGraph): void {
  quietly(() => rmSync(join(graph.path, '..'), { recursive: true, force: true }));
}
