// Small helpers shared by the bench scripts: percentiles, sizes, formatting.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface Dist {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentiles of a list of milliseconds. */
export function dist(values: readonly number[]): Dist {
  if (values.length === 0) return { n: 0, p50: NaN, p95: NaN, mean: NaN, max: NaN };
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
  return { n: s.length, p50: at(0.5), p95: at(0.95), mean: s.reduce((a, b) => a + b, 0) / s.length, max: s[s.length - 1]! };
}

/** Total size of the files under a directory (recursively). */
export function dirSize(dir: string): { total: number; files: Record<string, number> } {
  const files: Record<string, number> = {};
  let total = 0;
  const walk = (d: string, prefix: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p, `${prefix}${name}/`);
      else {
        files[`${prefix}${name}`] = st.size;
        total += st.size;
      }
    }
  };
  walk(dir, '');
  return { total, files };
}

/** Bytes available to new processes, from /proc/meminfo (falls back to os.freemem semantics). */
export function memAvailableBytes(): number | null {
  try {
    const m = /MemAvailable:\s+(\d+) kB/.exec(readFileSync('/proc/meminfo', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export const ms = (v: number, digits = 2): string => (Number.isFinite(v) ? `${v.toFixed(digits)} ms` : 'n/a');
export const pair = (d: Dist, digits = 2): string => (d.n ? `${d.p50.toFixed(digits)} / ${d.p95.toFixed(digits)} ms` : 'n/a');
export const int = (v: number): string => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : 'n/a');
export const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(0)} MiB`;
export const pct = (v: number): string => (Number.isFinite(v) ? `${(100 * v).toFixed(1)}%` : 'n/a');
export const mark = (ok: boolean | null): string => (ok === null ? '—' : ok ? '✓' : '✗');

export function scaleLabel(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}k`;
  return String(n);
}

export function parseScale(s: string): number {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(s.trim());
  if (!m) throw new Error(`bad scale "${s}" (use e.g. 10k, 100k, 1m, 25000)`);
  const mult = m[2]!.toLowerCase() === 'k' ? 1000 : m[2]!.toLowerCase() === 'm' ? 1_000_000 : 1;
  return Math.round(Number(m[1]) * mult);
}

/** Renders a Markdown table. */
export function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * Runs one phase of a bench script in a child process of its own (so its RSS and timings are its
 * alone): the script is started again with `--phase NAME --params JSON --out FILE` and writes its
 * result there as JSON, which is returned.
 */
export function runPhase<T>(script: string, phase: string, params: Record<string, unknown>, execArgv: readonly string[] = ['--import', 'tsx']): Promise<T> {
  const out = join(mkdtempSync(join(tmpdir(), 'cairn-bench-phase-')), 'result.json');
  const args = [...execArgv, script, '--phase', phase, '--params', JSON.stringify(params), '--out', out];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`phase ${phase} failed (exit ${code})`));
      try {
        resolve(JSON.parse(readFileSync(out, 'utf8')) as T);
        rmSync(dirname(out), { recursive: true, force: true });
      } catch (err) {
        reject(err as Error);
      }
    });
  });
}
