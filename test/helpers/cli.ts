// Spawns the real built `cairn` CLI (dist/interfaces/cli/main.js) as a child process, each test
// with its own temporary home, so the tests exercise argument parsing, exit codes and stdio
// exactly as a user's shell would.
import { spawn } from 'node:child_process';
import { after, before } from 'node:test';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'dist', 'interfaces', 'cli', 'main.js');
export const LIB = join(ROOT, 'dist', 'index.js');

/**
 * How long a child process, a log line or a condition may take before a test calls it hung. Only a
 * guard against hangs, never a speed check (speed is measured in bench/): generous, so a test
 * passes on a loaded machine.
 */
export const HANG_GUARD_MS = 300_000;

/** Config for fast tests: no embedder, BM25 only (no model load per process). */
export const NO_EMBEDDER = { embedder: { provider: 'none' } } as const;

export interface RunOptions {
  /** Data directory passed as CAIRN_HOME; null leaves CAIRN_HOME unset. */
  home: string | null;
  /** Written to the child's stdin (then closed); stdin is closed empty otherwise. */
  input?: string | Buffer;
  /** Extra environment; a value of undefined removes the variable. */
  env?: Record<string, string | undefined>;
  /** A hang guard (default HANG_GUARD_MS). */
  timeoutMs?: number;
  cwd?: string;
  /** Flags for node itself, before the script (e.g. --import a preload). */
  nodeArgs?: readonly string[];
  /** Run the child as another user (tests of permission errors; see cli-as.ts). */
  uid?: number;
  gid?: number;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function assertBuilt(): void {
  if (!existsSync(CLI) || !existsSync(LIB)) throw new Error(`${CLI} or ${LIB} is missing: run "npm run build" first`);
}

export function childEnv(home: string | null, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_TEST: '1', NO_COLOR: '1' };
  delete env.CAIRN_HOME;
  delete env.CAIRN_BUSY_TIMEOUT_MS;
  delete env.CAIRN_DEBUG;
  // A developer's shared database must never receive a test's writes: a test passes it explicitly.
  delete env.CAIRN_DATABASE_URL;
  if (home !== null) env.CAIRN_HOME = home;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Runs `node dist/interfaces/cli/main.js ...args`; rejects only on timeout or spawn failure. */
export function runCli(args: readonly string[], options: RunOptions): Promise<RunResult> {
  return runNode([...(options.nodeArgs ?? []), CLI, ...args], { ...options, nodeArgs: [] });
}

/** Runs `node ...args` (a script or flags) with the same environment handling as runCli. */
export function runNode(args: readonly string[], options: RunOptions): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? HANG_GUARD_MS;
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...args], {
      cwd: options.cwd ?? ROOT,
      env: childEnv(options.home, options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.uid !== undefined ? { uid: options.uid } : {}),
      ...(options.gid !== undefined ? { gid: options.gid } : {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cairn ${args.slice(1).join(' ').slice(0, 200)} timed out after ${timeoutMs} ms\nstderr: ${Buffer.concat(err).toString()}`));
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms: Date.now() - started,
      });
    });
    child.stdin.on('error', () => undefined); // the child may exit before reading its input
    child.stdin.end(options.input ?? '');
  });
}

/** A fresh temporary home (mkdtemp under the OS temp dir), optionally with a config file. */
export function makeHome(config?: object | string): string {
  const home = mkdtempSync(join(tmpdir(), 'cairn-cli-'));
  if (config !== undefined) writeConfig(home, config);
  return home;
}

export function writeConfig(home: string, config: object | string): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
}

export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
}

/** Parses stdout as JSON with a helpful failure message. */
export function json<T = any>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`expected JSON, got: ${text.slice(0, 500)}`);
  }
}

/** Throws with the child's output when it did not exit 0; returns stdout. */
export function ok(res: RunResult, what = 'cairn'): string {
  if (res.code !== 0) throw new Error(`${what} exited ${res.code} (signal ${res.signal})\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
  return res.stdout;
}

/** Runs the CLI and returns parsed JSON stdout, failing on a non-zero exit. */
export async function cliJson<T = any>(args: readonly string[], options: RunOptions): Promise<T> {
  return json<T>(ok(await runCli(args, options), `cairn ${args.join(' ')}`));
}

/**
 * Temporary homes for a test file: checks the build before its tests, removes every home after
 * them. Returns the factory (`config` defaults to `defaultConfig`; null: no config file).
 */
export function tempHomes(defaultConfig: object | string | undefined = NO_EMBEDDER): (config?: object | string | null) => string {
  const homes: string[] = [];
  before(() => assertBuilt());
  after(() => {
    for (const h of homes) removeHome(h);
  });
  return (config = defaultConfig) => {
    const h = makeHome(config ?? undefined);
    homes.push(h);
    return h;
  };
}
