// A cold `cairn search` (or `cairn context --query`) ends when the query's vector is ready, and the
// model thread that makes it needs ~150 ms CPU before its first vector (onnxruntime, the graph, the
// tokenizer). Started only once commander, zod, the config schema and the service were loaded, it
// was the last thing the search waited for. Here it starts first: from the command line, the home
// and the raw config file, read without the config schema. The thread is a guess until the command
// has the validated config: run.ts takes it only when it matches, and main.ts releases it otherwise.
//
// The executable (bundle-loader.ts) starts it before it even reads the bundled CLI: ~70 ms earlier
// than from the bundle's entry, 40–50 ms off a cold hybrid search. The bundle has its own copy of
// this module, so the thread is kept where both copies find it; main.ts, the unbundled entry, starts
// it itself.
import { existsSync, readFileSync } from 'node:fs';
import type { EmbedderConfig } from '../../core/config.js';
import { resolveHome } from '../../core/home.js';
import type { Embedder } from '../../embed/embedder.js';
import { USE_LITE_MODEL_ID } from '../../embed/use-lite.js';
import { WorkerEmbedder } from '../../embed/worker-embedder.js';
import { socketPath } from '../local/protocol.js';
import { embedsQuery, optionValue } from './command-line.js';

export { embedsQuery };

type UseLiteConfig = Extract<EmbedderConfig, { provider: 'use-lite' }>;

interface EarlyModel {
  config: UseLiteConfig;
  cacheDir: string;
  embedder: Embedder;
}

/** One slot per process, shared by the executable's copy of this module and the bundle's. */
const SLOT = Symbol.for('cairn.cli.earlyModel');
type Slot = { [SLOT]?: EarlyModel | null };
const slot = globalThis as Slot;
const earlyModel = (): EarlyModel | null => slot[SLOT] ?? null;
const setEarlyModel = (model: EarlyModel | null): void => {
  slot[SLOT] = model;
};

/**
 * The use-lite settings of the raw config file, as the schema would read them; null when the file
 * names another embedder or cannot be read as plain JSON (the command then finds out properly).
 */
function rawUseLiteConfig(path: string): UseLiteConfig | null {
  if (!existsSync(path)) return { provider: 'use-lite' };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const embedder = (raw as { embedder?: unknown }).embedder;
  if (embedder === undefined) return { provider: 'use-lite' };
  if (typeof embedder !== 'object' || embedder === null) return null;
  const { provider, runtime, ...rest } = embedder as { provider?: unknown; runtime?: unknown };
  if (provider !== 'use-lite' || Object.keys(rest).length > 0) return null;
  if (runtime === undefined) return { provider };
  return runtime === 'auto' || runtime === 'onnxruntime' || runtime === 'tfjs' ? { provider, runtime } : null;
}

/**
 * Starts loading the query model on a thread when the command line will embed a query in this
 * process: not when a daemon's socket is there (it answers, warm), unless --no-daemon says so.
 */
export function startModelEarly(args: readonly string[]): void {
  if (earlyModel() || !embedsQuery(args)) return;
  try {
    const paths = resolveHome(optionValue(args, ['--home']));
    const socket = socketPath(paths.root);
    if (socket && existsSync(socket) && !args.includes('--no-daemon')) return;
    const config = rawUseLiteConfig(paths.config);
    if (!config) return;
    setEarlyModel({ config, cacheDir: paths.cacheDir, embedder: new WorkerEmbedder(USE_LITE_MODEL_ID, config, 1, { cacheDir: paths.cacheDir }) });
  } catch {
    // No home, an unreadable one…: the command reports it; it simply starts without a head start.
  }
}

/** The early thread when it runs the model the command's validated config asks for; the command then owns it. */
export function takeEarlyModel(config: EmbedderConfig, cacheDir: string): Embedder | null {
  const early = earlyModel();
  if (!early || config.provider !== 'use-lite' || config.runtime !== early.config.runtime || cacheDir !== early.cacheDir) return null;
  setEarlyModel(null);
  return early.embedder;
}

/**
 * Lets an early thread nobody took go. It may be inside a native call (creating the session), and
 * a process that ends under it aborts (embed-worker.ts): close() waits for the call to return.
 */
export async function releaseEarlyModel(): Promise<void> {
  const left = earlyModel();
  setEarlyModel(null);
  await left?.embedder.close();
}
