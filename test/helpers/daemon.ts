// Starts the real `cairn watch` daemon as a child process and waits on what it logs, so daemon
// tests drive it exactly as a user's shell (or systemd) would: signals, kill -9, restarts.
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, ROOT, childEnv } from './cli.js';

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
  // A daemon that ignores SIGTERM/SIGINT must fail its test, not hang the suite: kill it after 15 s
  // (the test then sees signal SIGKILL instead of exit code 0).
  const kill = child.kill.bind(child);
  child.kill = ((signal?: NodeJS.Signals | number) => {
    const sent = kill(signal);
    if (signal !== 'SIGKILL' && signal !== 9) {
      setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) kill('SIGKILL');
      }, 15_000).unref();
    }
    return sent;
  }) as typeof child.kill;
  return {
    child,
    output: () => text,
    exited,
    waitFor(pattern, timeoutMs = 20_000) {
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

/** Polls `fn` until it returns a truthy value (or throws after timeoutMs). */
export async function eventually<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 20_000, stepMs = 100): Promise<T> {
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
