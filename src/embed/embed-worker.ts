// The body of an embedding worker thread: builds the configured in-process embedder and answers
// init/embed requests, so a model can load and run on another core than the caller's.
import { parentPort, workerData } from 'node:worker_threads';
import type { EmbedderConfig } from '../core/config.js';
import type { Embedder } from './embedder.js';
import type { LocalModelOptions } from './factory.js';

export type WorkerCall = { type: 'init' } | { type: 'embed'; texts: string[] };
export type WorkerRequest = WorkerCall & { id: number };
export type WorkerResponse =
  | { id: number; ok: true; dimensions?: number; runtime?: string; vectors?: Float32Array[] }
  | { id: number; ok: false; code: string; message: string };

const port = parentPort;
if (!port) throw new Error('embed-worker must run in a worker thread');

const { config, options } = workerData as { config: EmbedderConfig; options: LocalModelOptions };
// Only the one embedder module is loaded: a worker's start-up is on the cold-search path.
const embedderPromise: Promise<Embedder> = (async () => {
  if (config.provider === 'use-lite') return new (await import('./use-lite.js')).UseLiteEmbedder({ runtime: config.runtime, cacheDir: options.cacheDir });
  if (config.provider === 'transformers') return new (await import('./transformers.js')).TransformersEmbedder(config);
  throw new Error(`embedder provider "${config.provider}" does not run in a worker`);
})();

port.on('message', (req: WorkerRequest) => {
  void handle(req).then(
    (res) => port.postMessage(res, res.ok && res.vectors ? res.vectors.map((v) => v.buffer as ArrayBuffer) : []),
    (err: unknown) => {
      const e = err as { code?: string; message?: string };
      port.postMessage({ id: req.id, ok: false, code: e.code ?? 'EMBEDDER', message: e.message ?? String(err) } satisfies WorkerResponse);
    },
  );
});

async function handle(req: WorkerRequest): Promise<WorkerResponse> {
  const embedder = await embedderPromise;
  if (req.type === 'init') {
    const { dimensions, runtime } = await embedder.init();
    return { id: req.id, ok: true, dimensions, ...(runtime ? { runtime } : {}) };
  }
  return { id: req.id, ok: true, vectors: await embedder.embed(req.texts) };
}
