// The `cairn` executable (dist/bin/cairn.js, a CommonJS file scripts/bundle-cli.mjs builds from
// this module) runs the bundled CLI (dist/bin/cli.cjs) from V8's code cache. V8 parsing and
// compiling the bundle was the largest single cost of a cold command (~60 ms of a 330 ms BM25
// search, plus every function compiled lazily after it). Node 20 has no compile cache for modules
// (module.enableCompileCache() is 22.1+) and an ES module takes no cachedData, so the bundle is
// one CommonJS function compiled here as a vm.Script, which does: after a command succeeds, V8
// serialises what it compiled (the lazily compiled functions too) into <home>/cache/, and the next
// command starts from it.
//
// The cache only saves time: with no home, a read-only one, a full disk, a damaged or stale file,
// the command runs without it (and without writing it) and says nothing.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { resolveHome } from '../../core/home.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, usePrivateUmask } from '../../core/private-files.js';
import { CAIRN_VERSION } from '../../core/version.js';
import { socketPath } from '../local/protocol.js';
import { asksAboutTime, commandWord, embedsQuery, optionValue } from './command-line.js';
import { releaseEarlyModel, startModelEarly } from './early-model.js';

/** The bundled CLI, beside the executable in dist/bin/. */
export const BUNDLE_FILE = 'cli.cjs';

/** Part of every cache key: bumped when the cache file's layout changes. */
const CACHE_FORMAT = 1;

/** The bundle is one function expression: CommonJS's module wrapper plus a real import() for specifiers known only at run time. */
type BundleFunction = (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  filename: string,
  dirname: string,
  importModule: (specifier: string) => Promise<unknown>,
) => void;

/**
 * The first line of a cache file; V8's serialised code follows. V8 checks only the source's
 * length, its own version and its flags, and in a release build no checksum: the key names the
 * bundle (size, mtime, inode) and the Node build, the checksum catches a damaged file.
 */
interface CacheHeader {
  key: string;
  crc32: string;
  /** The commands whose functions the code covers (see commandLabel). */
  commands: string[];
}

interface CodeCache {
  file: string;
  home: string;
  dir: string;
  key: string;
  /** The stored code when its key and checksum match; V8 may still reject it. */
  data?: Buffer;
  commands: string[];
}

/**
 * A CRC-32 finds a damaged file as well as a cryptographic digest here (nobody forges a cache in
 * the user's own private folder), at 1 ms to load node:zlib where node:crypto takes 6–10 ms on a
 * command that needs it for nothing else (`--version`, a search the daemon answers).
 */
const checksum = (data: string | Buffer): string => crc32(data).toString(16).padStart(8, '0');

/**
 * What a run adds to the code: its command word ("" for none, as `cairn --version`; help loads
 * every command), whether it embeds a query (a hybrid search runs other code than a BM25 one), and
 * whether its query may name a time (the bundled English date parser: ~110 KB of code, its first
 * load and parse ~75 ms without the cache).
 */
export function commandLabel(args: readonly string[]): string {
  const word = commandWord(args) ?? (args.includes('-h') || args.includes('--help') ? '--help' : '');
  return `${word}${embedsQuery(args) ? ' +vector' : ''}${asksAboutTime(args) ? ' +time' : ''}`;
}

/**
 * Commands that run until stopped never write the cache: V8 drops the bytecode of functions unused
 * for a while, so what such a process holds at exit may no longer cover the other commands'.
 * They still start from what one-shot commands wrote.
 */
const LONG_RUNNING = new Set(['watch', 'serve', 'mcp']);

function readStored(file: string, key: string): Pick<CodeCache, 'data' | 'commands'> | null {
  let raw: Buffer;
  try {
    raw = readFileSync(file);
  } catch {
    return null;
  }
  const end = raw.indexOf(0x0a);
  if (end < 0) return null;
  let header: Partial<CacheHeader>;
  try {
    header = JSON.parse(raw.toString('utf8', 0, end)) as Partial<CacheHeader>;
  } catch {
    return null;
  }
  if (header.key !== key || !Array.isArray(header.commands)) return null;
  const data = raw.subarray(end + 1);
  if (header.crc32 !== checksum(data)) return null;
  return { data, commands: header.commands.filter((c): c is string => typeof c === 'string') };
}

/** The bundle's identity: a cache made for another bundle, Cairn or Node build is never used. */
export function bundleKey(bundle: string): string {
  const st = statSync(bundle);
  return [CACHE_FORMAT, CAIRN_VERSION, st.size, st.mtimeMs, st.ino, process.version, process.arch].join(' ');
}

/**
 * The cache file of a bundle in a home's cache folder: one per bundle path, so two installs sharing
 * a home do not overwrite each other's at every run; and apart for the commands run while a daemon
 * listens (`viaDaemon`): a search it answers runs ~0.8 MB of V8's code (commander, the client), and
 * loading the 1.5 MB of a cache that also holds the in-process search took it 140 → 160 ms.
 */
export function cacheFileFor(cacheDir: string, bundle: string, viaDaemon = false): string {
  return join(cacheDir, `${CACHE_PREFIX}${checksum(bundle)}${viaDaemon ? DAEMON_SUFFIX : ''}.bin`);
}

const CACHE_PREFIX = 'cli-code-';
const DAEMON_SUFFIX = '-daemon';
/** A cache file's bundle: `cli-code-<crc>[-daemon].bin`. */
const CACHE_NAME = /^cli-code-([0-9a-f]{8})(?:-daemon)?\.bin$/;

/**
 * How many bundles' caches a home keeps (each 1–2 MB): an install that moved (another Node under
 * nvm, another prefix) leaves its file behind. Writing one removes the least recently written
 * beyond this; one still in use is written again by its next command.
 */
export const KEPT_CACHES = 3;

function removeOldCaches(cache: CodeCache): void {
  // By bundle: its files (both kinds) go together, the bundle's newest write counting.
  const own = CACHE_NAME.exec(basename(cache.file))?.[1];
  const bundles = new Map<string, { paths: string[]; newest: number }>();
  for (const name of readdirSync(cache.dir)) {
    const bundle = CACHE_NAME.exec(name)?.[1];
    if (bundle === undefined || bundle === own) continue;
    const path = join(cache.dir, name);
    const entry = bundles.get(bundle) ?? { paths: [], newest: 0 };
    entry.paths.push(path);
    entry.newest = Math.max(entry.newest, statSync(path).mtimeMs);
    bundles.set(bundle, entry);
  }
  const others = [...bundles.values()].sort((a, b) => b.newest - a.newest);
  for (const old of others.slice(KEPT_CACHES - 1)) for (const path of old.paths) unlinkSync(path);
}

/** The cache of this bundle in the home the command line names (--home, CAIRN_HOME, ~/.cairn). */
function openCache(bundle: string, args: readonly string[]): CodeCache | null {
  try {
    const paths = resolveHome(optionValue(args, ['--home']));
    const key = bundleKey(bundle);
    const socket = args.includes('--no-daemon') ? null : socketPath(paths.root);
    const file = cacheFileFor(paths.cacheDir, bundle, socket !== null && existsSync(socket));
    return { file, home: paths.root, dir: paths.cacheDir, key, commands: [], ...readStored(file, key) };
  } catch {
    return null; // no home to keep it in (e.g. the default one under the test runner)
  }
}

/**
 * Whether the folder is a Cairn home: its database, its config or its cache folder is there. No
 * other folder gets a cache: `cairn --version` creates no ~/.cairn, `CAIRN_HOME=/tmp cairn --version`
 * no /tmp/cache.
 */
function isCairnHome(cache: CodeCache): boolean {
  return [join(cache.home, 'cairn.db'), join(cache.home, 'config.json'), cache.dir].some((p) => existsSync(p));
}

/** Writes V8's code for the script, atomically: a private temporary file renamed over the old one. */
function saveCache(cache: CodeCache, script: Script, commands: string[]): void {
  let temp: string | null = null;
  try {
    if (!isCairnHome(cache)) return;
    mkdirSync(cache.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const data = script.createCachedData();
    const header: CacheHeader = { key: cache.key, crc32: checksum(data), commands };
    temp = `${cache.file}.${process.pid}.tmp`;
    const fd = openSync(temp, 'wx', PRIVATE_FILE_MODE);
    try {
      writeSync(fd, `${JSON.stringify(header)}\n`);
      writeSync(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, cache.file);
    temp = null;
    removeOldCaches(cache);
  } catch {
    // Read-only home, full disk…: the next command compiles without the cache, as this one may have.
  } finally {
    if (temp) {
      try {
        unlinkSync(temp);
      } catch {
        // nothing left to tidy
      }
    }
  }
}

/**
 * Compiles the bundle in `binDir` (from the cache when it has one) and runs it. After a command
 * that succeeded, the cache is written when it was missing, stale, damaged or rejected by V8, or
 * lacks this command's code: it grows to cover the commands the user runs, each one writing once.
 */
export function runBundle(binDir: string, args: readonly string[] = process.argv.slice(2)): void {
  // `cairn --version` needs none of the CLI: answered here as commander answers it (main.ts,
  // `-V, --version`), without reading 3 MB of bundle that a process outside a home has no cache for.
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${CAIRN_VERSION}\n`);
    return;
  }
  // A cold hybrid search ends when the query model's thread has its vector: the thread starts
  // loading it now, while this one reads and compiles the bundle (~60 ms), not after. Private from
  // the start: the thread may write the model's cached graph into the home.
  usePrivateUmask();
  startModelEarly(args);
  const filename = join(binDir, BUNDLE_FILE);
  let source: string;
  let cache: CodeCache | null;
  let script: Script;
  try {
    // esbuild writes ASCII (it escapes the rest; the build checks): latin1 skips UTF-8 decoding.
    source = readFileSync(filename, 'latin1');
    cache = openCache(filename, args);
    script = new Script(source, { filename, ...(cache?.data ? { cachedData: cache.data } : {}) });
  } catch (err) {
    // The thread may be inside a native call that an exit would cut short (embed-worker.ts):
    // the error ends the process once the thread is let go.
    void releaseEarlyModel().finally(() => {
      throw err;
    });
    return;
  }
  if (cache && !LONG_RUNNING.has(commandWord(args) ?? '')) {
    const label = commandLabel(args);
    const accepted = cache.data !== undefined && !script.cachedDataRejected;
    if (!accepted || !cache.commands.includes(label)) {
      const commands = accepted ? [...cache.commands, label] : [label];
      process.once('exit', (code) => {
        if (code === 0) saveCache(cache, script, commands);
      });
    }
  }
  const bundle = script.runInThisContext() as BundleFunction;
  const module = { exports: {} };
  bundle(module.exports, createRequire(filename), module, filename, binDir, (specifier) => import(specifier));
}
