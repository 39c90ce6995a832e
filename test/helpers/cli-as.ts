// Runs the built CLI as another user (uid/gid through child_process spawn options), for tests of
// permission errors: root bypasses file mode bits, so as root the child runs as `nobody` instead.
import { spawn, spawnSync } from 'node:child_process';
import { CLI, ROOT, childEnv, type RunOptions, type RunResult } from './cli.js';

/** The uid/gid of `nobody` on Linux. */
export const NOBODY = { uid: 65534, gid: 65534 } as const;

/** True when this process runs as root (mode bits do not stop it from reading a file). */
export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Whether a child running as `user` can read the built CLI (the repository may sit under a private home). */
export function canRunAs(user: { uid: number; gid: number }): boolean {
  const probe = `require('fs').accessSync(${JSON.stringify(CLI)}, require('fs').constants.R_OK)`;
  const res = spawnSync(process.execPath, ['-e', probe], { cwd: ROOT, uid: user.uid, gid: user.gid, stdio: 'ignore', timeout: 10_000 });
  return res.status === 0;
}

/**
 * Like runCli, with optional `uid`/`gid` for the child. The home and every file the child must
 * read or write have to be accessible to that user (e.g. a world-writable home).
 */
export function runCliAs(args: readonly string[], options: RunOptions & { uid?: number; gid?: number }): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], {
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
      reject(new Error(`cairn ${args.join(' ').slice(0, 200)} timed out after ${timeoutMs} ms\nstderr: ${Buffer.concat(err).toString()}`));
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), ms: Date.now() - started });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}
