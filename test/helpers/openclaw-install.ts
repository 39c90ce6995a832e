// Installs the real OpenClaw from npm, with the Node 24 it requires (npm's `node` package, so the
// system Node 20 is left alone), into a cache directory outside the repository, once: later runs
// find the completion marker (written last) and reuse it. Only the npm registry is reached, and
// only here; OpenClaw itself runs offline against loopback servers.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, lstatSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

export const OPENCLAW_VERSION = '2026.9.6';
/** OpenClaw 2026.9 needs Node >= 24.16 (its engines field); npm's `node` package brings it. */
export const NODE24_VERSION = '24.21.0';

export interface OpenClawInstall {
  /** The cache directory holding both installs. */
  dir: string;
  /** The Node 24 binary. */
  node: string;
  /** OpenClaw's CLI entry (its package `bin`), run with `node`. */
  entry: string;
  /** PATH with Node 24 first, so OpenClaw's own child processes and shebangs get Node 24 too. */
  path: string;
  /** Wall milliseconds of the install, or null when the cache was reused. */
  installed: { wallMs: number } | null;
  /** Bytes of the install's files, counted when it was made (read back from the marker). */
  bytes: number;
}

const MARKER = '.complete';

/** `$CAIRN_OPENCLAW_CACHE`, else `${XDG_CACHE_HOME:-~/.cache}/cairn-test/openclaw-<version>-node-<version>`. */
export function openclawCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CAIRN_OPENCLAW_CACHE) return env.CAIRN_OPENCLAW_CACHE;
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'cairn-test', `openclaw-${OPENCLAW_VERSION}-node-${NODE24_VERSION}`);
}

function layout(dir: string): Pick<OpenClawInstall, 'dir' | 'node' | 'entry' | 'path'> {
  const nodeBin = join(dir, 'node24', 'node_modules', 'node', 'bin');
  return {
    dir,
    node: join(nodeBin, 'node'),
    entry: join(dir, 'openclaw', 'node_modules', 'openclaw', 'openclaw.mjs'),
    path: [nodeBin, process.env.PATH ?? ''].join(delimiter),
  };
}

function isComplete(dir: string): boolean {
  const l = layout(dir);
  return existsSync(join(dir, MARKER)) && existsSync(l.node) && existsSync(l.entry);
}

function reused(dir: string): OpenClawInstall {
  let bytes = 0;
  try {
    bytes = Number((JSON.parse(readFileSync(join(dir, MARKER), 'utf8')) as { bytes?: unknown }).bytes) || 0;
  } catch {
    // an unreadable marker still marks a finished install; the size is then unknown (0)
  }
  return { ...layout(dir), installed: null, bytes };
}

/** The cached install if a finished one is there, else null (never installs: for benches). */
export function cachedOpenClaw(dir = openclawCacheDir()): OpenClawInstall | null {
  return isComplete(dir) ? reused(dir) : null;
}

/** Bytes of regular files under `dir` (hard links counted once per path, like `du -b --apparent-size`). */
export function treeBytes(dir: string): number {
  let total = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p);
      if (st.isDirectory()) stack.push(p);
      else if (st.isFile()) total += st.size;
    }
  }
  return total;
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code} in ${cwd}:\n${out.slice(-4000)}`))));
  });
}

/** A package folder whose package.json pins exactly `deps` and allows their install scripts. */
function writePackage(dir: string, deps: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  // npm 11 asks for install scripts to be allowed: node's preinstall fetches its platform binary
  // (another npm package); OpenClaw's check its runtime and prune its bundled plugins; koffi and
  // protobufjs set up what they ship.
  const allowScripts = { node: true, openclaw: true, koffi: true, protobufjs: true, '@google/genai': true };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, dependencies: deps, allowScripts }, null, 2));
}

/** Holds `<dir>.lock` (O_EXCL) while installing; a lock left by a dead process is taken over. */
async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${dir}.lock`;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(lock, 'utf8').trim());
      let alive = false;
      try {
        if (pid > 0) process.kill(pid, 0);
        alive = pid > 0;
      } catch {
        alive = false;
      }
      if (!alive) rmSync(lock, { force: true });
      else await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * Returns the cached install, installing it first when the marker is missing (a half-done install
 * is removed and redone). Concurrent callers wait on one lock; the second finds the marker.
 */
export async function ensureOpenClaw(dir = openclawCacheDir()): Promise<OpenClawInstall> {
  if (isComplete(dir)) return reused(dir);
  mkdirSync(join(dir, '..'), { recursive: true });
  return withLock(dir, async () => {
    if (isComplete(dir)) return reused(dir);
    rmSync(dir, { recursive: true, force: true });
    const l = layout(dir);
    const started = Date.now();
    const npmFlags = ['install', '--no-audit', '--no-fund', '--no-update-notifier', '--save-exact'];
    writePackage(join(dir, 'node24'), { node: NODE24_VERSION });
    await run('npm', npmFlags, join(dir, 'node24'), process.env);
    // OpenClaw's preinstall checks the Node that runs it: Node 24 goes first on PATH (npm itself
    // then runs on it too).
    writePackage(join(dir, 'openclaw'), { openclaw: OPENCLAW_VERSION });
    await run('npm', npmFlags, join(dir, 'openclaw'), { ...process.env, PATH: l.path });
    if (!existsSync(l.node) || !existsSync(l.entry)) throw new Error(`install in ${dir} finished without ${l.node} or ${l.entry}`);
    // npm's CPU is in the children, not in this process's cpuUsage(): the wall time is reported.
    const installed = { wallMs: Date.now() - started };
    const bytes = treeBytes(dir);
    // Written last: its presence means both installs finished.
    writeFileSync(join(dir, MARKER), JSON.stringify({ openclaw: OPENCLAW_VERSION, node: NODE24_VERSION, at: new Date().toISOString(), ...installed, bytes }));
    return { ...l, installed, bytes };
  });
}
