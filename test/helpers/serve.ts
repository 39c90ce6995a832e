// `cairn serve --port 0` started for real (the built CLI) and stopped after the test file.
import { after } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, HANG_GUARD_MS, childEnv } from './cli.js';

export interface Served {
  url: string;
  stdout: () => string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
after(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts `cairn serve --port 0 …args` and resolves with its URL once it prints it. */
export function serve(dir: string, args: string[] = []): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { env: childEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    running.delete(child);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not print its URL: ${stdout} ${stderr}`)), HANG_GUARD_MS);
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /listening on (http:\/\/\S+?) /.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!, stdout: () => stdout, stop });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${stderr}`));
    });
  });
}

export async function get(url: string, path: string, token?: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, text: await res.text() };
}

