// OpenClaw's built-in memory (memory-core) on the same data as the plugin bench: the same LoCoMo
// turns written as the daily memory files memory-core indexes (memory/YYYY-MM-DD.md, one line per
// turn), searched in process by OpenClaw's own Node 24 (openclaw-builtin-search.mjs) with the same
// queries. OpenClaw runs offline: no embedding provider, so memory-core searches by keywords
// (FTS5/BM25), as it does for any user without an embeddings key.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OpenClawInstall } from '../test/helpers/openclaw-install.js';

export interface BuiltinTurn {
  speaker: string;
  text: string;
  timestamp: string;
}

export interface BuiltinRun {
  status: { files: number; chunks: number; provider: string; sources: string[]; sourceCounts: unknown; searchMode?: string };
  indexMs: number;
  timings: Array<{ wall: number; cpu: number; chars: number; perResult: number[] }>;
}

/** One file per day, as OpenClaw's agents keep their daily notes. */
export function dailyFiles(turns: readonly BuiltinTurn[]): Map<string, string> {
  const days = new Map<string, string[]>();
  for (const t of turns) {
    const day = t.timestamp.slice(0, 10);
    const lines = days.get(day) ?? [`# ${day}`, ''];
    lines.push(`- ${t.timestamp.slice(11, 16)} ${t.speaker}: ${t.text.replace(/\s+/g, ' ')}`);
    days.set(day, lines);
  }
  return new Map([...days].map(([day, lines]) => [day, lines.join('\n') + '\n']));
}

export async function runBuiltin(install: OpenClawInstall, dir: string, turns: readonly BuiltinTurn[], queries: readonly string[], maxResults: number): Promise<BuiltinRun> {
  const workspace = join(dir, 'workspace');
  mkdirSync(join(workspace, 'memory'), { recursive: true });
  for (const [day, text] of dailyFiles(turns)) writeFileSync(join(workspace, 'memory', `${day}.md`), text);
  const job = join(dir, 'job.json');
  writeFileSync(job, JSON.stringify({ agentId: 'bench', workspace, queries, maxResults }));
  // A minimal environment: no provider keys reach OpenClaw, its state stays in `dir`.
  const env = { PATH: install.path, HOME: dir, OPENCLAW_STATE_DIR: join(dir, 'state'), TZ: 'UTC' };
  const pkg = join(install.entry, '..');
  const script = resolve('bench/openclaw-builtin-search.mjs');
  return new Promise((res, rej) => {
    const c = spawn(install.node, [script, pkg, job], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => c.kill('SIGKILL'), 600_000);
    c.on('close', (code) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').pop() ?? '';
      try {
        if (code === 0) return res(JSON.parse(last) as BuiltinRun);
      } catch {
        // reported below with OpenClaw's own output
      }
      rej(new Error(`OpenClaw's built-in search exited ${code}: ${(err || out).slice(-2000)}`));
    });
  });
}
