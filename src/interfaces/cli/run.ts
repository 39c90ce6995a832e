// Shared plumbing for CLI commands: global options, opening the facade, printing, and mapping
// typed errors to distinct exit codes. Commands stay a few lines each.
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { CairnError, EXIT_CODES, isCairnError } from '../../core/errors.js';
import type { Cairn, OpenOptions } from '../../service/cairn.js';
import { takeEarlyModel } from './early-model.js';

export interface GlobalOptions {
  home?: string;
  namespace?: string;
  json?: boolean;
}

export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

/**
 * Embedding threads per job. Bulk jobs use every core. A one-shot query (a cold `cairn search`)
 * loads the model in one thread started before commander and the service are even imported
 * (early-model.ts; openCairn starts it if that could not), so the
 * load (~150 ms CPU: onnxruntime, the graph, the tokenizer) runs on the second core while this one
 * imports ~1 MB of code, opens the store and runs BM25: 100–200 ms less on the main thread for
 * ~50 ms more CPU in all. A query in a long-lived process (serve, mcp) or one that may not embed
 * at all embeds in-process (started later, the thread's start-up costs more than the overlap saves).
 */
export const THREADS = { query: 0, oneShot: 1, bulk: Math.max(1, availableParallelism()) } as const;

type OpenExtra = Pick<OpenOptions, 'embedThreads' | 'mapDatabase'>;

/** Opens the facade for a command that runs until stopped (watch, serve); one-shot commands use withCairn. */
export async function openCairn(cmd: Command, extra: OpenExtra = {}): Promise<Cairn> {
  const g = globals(cmd);
  if (extra.embedThreads) return openWithModelLoading(g, extra);
  const { Cairn } = await import('../../service/cairn.js');
  return Cairn.open({ home: g.home, namespace: g.namespace, ...extra });
}

/**
 * Reads the config and starts the embedder's threads first (they begin loading the model at
 * once), then imports and opens the service with that very config and embedder.
 */
async function openWithModelLoading(g: GlobalOptions, { embedThreads: threads = THREADS.query, mapDatabase }: OpenExtra): Promise<Cairn> {
  const [{ resolveHome }, { loadConfigFile }, { createThreadedEmbedder }] = await Promise.all([
    import('../../core/home.js'),
    import('../../core/config.js'),
    import('../../embed/factory.js'),
  ]);
  const paths = resolveHome(g.home);
  const config = loadConfigFile(paths.config, { cacheDir: paths.cacheDir });
  const embedder = (threads === THREADS.oneShot ? takeEarlyModel(config.embedder, paths.cacheDir) : null) ?? createThreadedEmbedder(config.embedder, threads, { cacheDir: paths.cacheDir });
  try {
    const { Cairn } = await import('../../service/cairn.js');
    return await Cairn.open({ home: g.home, namespace: g.namespace, config, embedder, mapDatabase });
  } catch (err) {
    await embedder?.close(); // Cairn.open leaves an embedder it was given to its caller
    throw err;
  }
}

/**
 * Opens the facade, runs `fn`, always closes. The process ends soon after: the database is read
 * through a memory map (OpenOptions.mapDatabase).
 */
export async function withCairn<T>(
  cmd: Command,
  fn: (cairn: Cairn) => Promise<T>,
  extra: Pick<OpenOptions, 'embedThreads'> = {},
): Promise<T> {
  const cairn = await openCairn(cmd, { ...extra, mapDatabase: true });
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
