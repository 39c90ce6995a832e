// Starts the real `cairn watch` daemon as a child process and waits on what it logs, so daemon
// tests drive it exactly as a user's shell (or systemd) would: signals, kill -9, restarts.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, HANG_GUARD_MS, ROOT, childEnv } from './cli.js';

export interface DaemonProcess {
  child: ChildProcess;
  /** Everything the daemon printed so far (pino JSON lines on stdout, errors on stderr). */
  output(): string;
  /** Resolves when a log line matching `pattern` has appeared (rejects after timeoutMs). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code and signal once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startDaemon(home: string, args: readonly string[] = [], env: Record<string, string | undefined> = {}): DaemonProcess {
  const child = spawn(process.execPath, [CLI, 'watch', ...args], { cwd: ROOT, env: childEnv(home, env), stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const waiters = new Set<() => void>();
  const onData = (d: Buffer) => {
    text += d.toString('utf8');
    for (const w of [...waiters]) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  // A daemon that ignores SIGTERM/SIGINT must fail its test, not hang the suite: kill it after the
  // hang guard (the test then sees signal SIGKILL instead of exit code 0).
  const kill = child.kill.bind(child);
  child.kill = ((signal?: NodeJS.Signals | number) => {
    const sent = kill(signal);
    if (signal !== 'SIGKILL' && signal !== 9) {
      setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) kill('SIGKILL');
      }, HANG_GUARD_MS).unref();
    }
    return sent;
  }) as typeof child.kill;
  return {
    child,
    output: () => text,
    exited,
    waitFor(pattern, timeoutMs = HANG_GUARD_MS) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(text)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`daemon did not log ${pattern} within ${timeoutMs} ms; output:\n${text.slice(-3000)}`));
        }, timeoutMs);
        waiters.add(check);
        void exited.then(() => {
          if (!pattern.test(text) && waiters.has(check)) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`daemon exited before logging ${pattern}; output:\n${text.slice(-3000)}`));
          }
        });
        check();
      });
    },
  };
}

/** Polls `fn` until it returns a truthy value (or throws after timeoutMs, a hang guard). */
export async function eventually<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = HANG_GUARD_MS, stepMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/**
 * Resolves once the running daemon of `home` has reported `count` source scans that ended after
 * `since` (epoch ms), read from <home>/run/daemon.json: "the rescans have looked at it" without
 * guessing how long they take. Scans run one at a time, so of `count` ≥ sources + 1 such scans,
 * every source's last one started after `since`.
 */
export async function scansAfter(home: string, since: number, count: number): Promise<void> {
  const seen = new Set<string>();
  await eventually(
    async () => {
      try {
        const at = (JSON.parse(readFileSync(join(home, 'run', 'daemon.json'), 'utf8')) as { lastScanAt?: unknown }).lastScanAt;
        if (typeof at === 'string' && Date.parse(at) > since) seen.add(at);
      } catch {
        // not written yet, or being replaced
      }
      return seen.size >= count;
    },
    HANG_GUARD_MS,
    20,
  );
}
