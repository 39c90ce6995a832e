// Shared pieces for source/capture tests: a sandboxed HOME / OPENCLAW_STATE_DIR / CLAUDE_CONFIG_DIR
// restored after each test, transcript line builders for the three JSONL formats, FIFOs with a
// safety valve (so a reader that wrongly blocks on one fails the test instead of hanging it), and
// a pid that is certainly dead.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';

const ENV_KEYS = ['HOME', 'OPENCLAW_STATE_DIR', 'CLAUDE_CONFIG_DIR'] as const;

/** Points HOME at `home` (created) and clears the agents' overrides; returns the restore function. */
export function sandboxEnv(home: string): () => void {
  const saved = new Map(ENV_KEYS.map((k) => [k, process.env[k]]));
  mkdirSync(home, { recursive: true });
  process.env.HOME = home;
  delete process.env.OPENCLAW_STATE_DIR;
  delete process.env.CLAUDE_CONFIG_DIR;
  return () => {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

const jl = (value: unknown): string => JSON.stringify(value) + '\n';

/** One OpenClaw (pi v3) message line. */
export function ocLine(id: string, role: 'user' | 'assistant', text: string, timestamp = '2026-03-02T06:14:05.000Z'): string {
  const message = role === 'user'
    ? { role, content: text, timestamp: Date.parse(timestamp) }
    : { role, content: [{ type: 'text', text }], provider: 'anthropic', model: 'claude-sonnet-4-6', stopReason: 'stop', timestamp: Date.parse(timestamp) };
  return jl({ type: 'message', id, parentId: null, timestamp, message });
}

/** An OpenClaw session header line. */
export function ocHeader(id: string): string {
  return jl({ type: 'session', version: 3, id, timestamp: '2026-03-02T06:10:00.000Z', cwd: '/home/ana/.openclaw/workspace' });
}

/** One Claude Code user line (emitted at once: nothing is held for later parts). */
export function ccUser(uuid: string, text: string, sessionId = '0b9d2c1e-7a44-4f5b-8e0d-3c2a1f6e9b77', timestamp = '2026-02-18T11:43:58.858Z'): string {
  return jl({ isSidechain: false, userType: 'external', cwd: '/home/ana/proj', sessionId, version: '2.1.37', parentUuid: null, type: 'user', message: { role: 'user', content: text }, uuid, timestamp });
}

/** One generic JSONL chat line. */
export function chat(id: string, content: string, extra: Record<string, unknown> = {}): string {
  return jl({ role: 'user', content, id, timestamp: '2026-03-01T10:00:00.000Z', ...extra });
}

/** Creates a FIFO (named pipe) at `path`. */
export function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

/**
 * After `ms`, opens the FIFO's write end once (non-blocking) and closes it: a reader stuck in
 * open(2) on it is released and sees EOF. `fired()` tells whether the valve had to act.
 */
export function fifoValve(path: string, ms = 3000): { fired: () => boolean; cancel: () => void } {
  let fired = false;
  const timer = setTimeout(() => {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
      fired = true;
    } catch {
      /* no reader is blocked on it: nothing to release */
    }
  }, ms);
  return { fired: () => fired, cancel: () => clearTimeout(timer) };
}

/** The pid of a child process that has already exited (and been reaped). */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  assert.equal(child.status, 0);
  assert.ok(child.pid && child.pid > 0);
  let gone = false;
  try {
    process.kill(child.pid, 0);
  } catch {
    gone = true;
  }
  assert.ok(gone, `pid ${child.pid} should be dead`);
  return child.pid;
}

/** mkdir -p of `parts` joined; returns the path. */
export function dir(...parts: string[]): string {
  const path = join(...parts);
  mkdirSync(path, { recursive: true });
  return path;
}
