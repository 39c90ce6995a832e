// Shared plumbing for CLI commands: global options, opening the facade, printing, and mapping
// typed errors to distinct exit codes. Commands stay a few lines each.
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { CairnError, EXIT_CODES, isCairnError } from '../../core/errors.js';
import type { Cairn, OpenOptions } from '../../service/cairn.js';

export interface GlobalOptions {
  home?: string;
  namespace?: string;
  json?: boolean;
}

export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

/**
 * Embedding threads per job. A single query embeds in-process (a worker measured 20–25 ms slower
 * cold: its start-up costs more than the overlap saves); bulk jobs use every core.
 */
export const THREADS = { query: 0, bulk: Math.max(1, availableParallelism()) } as const;

export async function openCairn(cmd: Command, extra: Pick<OpenOptions, 'embedThreads'> = {}): Promise<Cairn> {
  const { Cairn } = await import('../../service/cairn.js');
  const g = globals(cmd);
  return Cairn.open({ home: g.home, namespace: g.namespace, ...extra });
}

/** Opens the facade, runs `fn`, always closes. */
export async function withCairn<T>(
  cmd: Command,
  fn: (cairn: Cairn) => Promise<T>,
  extra: Pick<OpenOptions, 'embedThreads'> = {},
): Promise<T> {
  const cairn = await openCairn(cmd, extra);
  try {
    return await fn(cairn);
  } finally {
    await cairn.close();
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export function print(line = ''): void {
  process.stdout.write(line + '\n');
}

/** Reports an error on stderr (as JSON with --json) and returns the exit code for it. */
export function reportError(err: unknown, json: boolean): number {
  if (isCairnError(err)) {
    if (json) process.stderr.write(JSON.stringify({ error: { code: err.code, message: err.message, ...(err.details ?? {}) } }) + '\n');
    else process.stderr.write(`cairn: ${err.message}\n`);
    return EXIT_CODES[err.code];
  }
  const message = err instanceof Error ? err.message : String(err);
  if (json) process.stderr.write(JSON.stringify({ error: { code: 'INTERNAL', message } }) + '\n');
  else process.stderr.write(`cairn: internal error: ${message}\n${err instanceof Error && process.env.CAIRN_DEBUG ? err.stack + '\n' : ''}`);
  return EXIT_CODES.INTERNAL;
}

/** Parses an integer option, rejecting junk like "10abc" that parseInt would accept. */
export function intOption(name: string, min: number, max: number): (value: string) => number {
  return (value: string) => {
    if (!/^-?\d+$/.test(value.trim())) throw new CairnError('INVALID_INPUT', `--${name} must be an integer, got "${value.slice(0, 40)}"`);
    const n = Number(value);
    if (n < min || n > max) throw new CairnError('INVALID_INPUT', `--${name} must be between ${min} and ${max}, got ${n}`);
    return n;
  };
}

export function listOption(value: string, previous: string[] = []): string[] {
  return previous.concat(value.split(',').map((v) => v.trim()).filter(Boolean));
}
