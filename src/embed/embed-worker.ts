// The body of an embedding worker thread: builds the configured in-process embedder and answers
// init/embed requests, so a model can load and run on another core than the caller's. A 'close'
// request ends the thread from inside: once every request in flight has settled, the model is
// released and the port closed, so the thread's loop empties and it exits on its own. It is never
// terminated from outside: Worker.terminate() landing while onnxruntime-node is inside a native
// call (creating a session, running a batch) aborts the whole process ("terminate called after
// throwing an instance of 'Napi::Error'", exit 134).
import { parentPort, workerData } from 'node:worker_threads';
import type { EmbedderConfig } from '../core/config.js';
import type { Embedder } from './embedder.js';
import type { LocalModelOptions } from './factory.js';

export type WorkerCall = { type: 'init' } | { type: 'embed'; texts: string[] } | { type: 'close' };
export type WorkerRequest = WorkerCall & { id: number };
export type WorkerResponse =
  | { id: number; ok: true; dimensions?: number; runtime?: string; vectors?: Float32Array[] }
  | { id: number; ok: false; code: string; message: string };

if (!parentPort) throw new Error('embed-worker must run in a worker thread');
const port = parentPort;

const { config, options } = workerData as { config: EmbedderConfig; options: LocalModelOptions };
/**
 * Texts per model run in a thread on TF.js. The pool's messages carry up to 32 texts
 * (worker-embedder.ts CHUNK, sorted by length); smaller runs pad less and stay in cache. On
 * onnxruntime every text is a run of its own (use-lite-ort.ts).
 */
const USE_LITE_RUN = 8;

// Only the one embedder module is loaded: a worker's start-up is on the cold-search path.
const embedderPromise: Promise<Embedder> = (async () => {
  if (config.provider === 'use-lite') {
    return new (await import('./use-lite.js')).UseLiteEmbedder({ runtime: config.runtime, cacheDir: options.cacheDir, batchSize: USE_LITE_RUN });
  }
  if (config.provider === 'transformers') return new (await import('./transformers.js')).TransformersEmbedder(config);
  throw new Error(`embedder provider "${config.provider}" does not run in a worker`);
})();

/** Requests being answered: 'close' waits for them, so no native call is cut short. */
const inFlight = new Set<Promise<void>>();

port.on('message', (req: WorkerRequest) => {
  if (req.type === 'close') return void shutDown(req.id);
  const answered = handle(req).then(
    (res) => port.postMessage(res, res.ok && res.vectors ? res.vectors.map((v) => v.buffer as ArrayBuffer) : []),
    (err: unknown) => {
      const e = err as { code?: string; message?: string };
      port.postMessage({ id: req.id, ok: false, code: e.code ?? 'EMBEDDER', message: e.message ?? String(err) } satisfies WorkerResponse);
    },
  );
  inFlight.add(answered);
  void answered.finally(() => inFlight.delete(answered));
});

async function shutDown(id: number): Promise<void> {
  await Promise.allSettled([...inFlight]);
  try {
    await (await embedderPromise).close(); // InferenceSession.release()
    port.postMessage({ id, ok: true } satisfies WorkerResponse);
  } catch (err) {
    port.postMessage({ id, ok: false, code: 'EMBEDDER', message: (err as Error).message ?? String(err) } satisfies WorkerResponse);
  }
  port.close();
}

async function handle(req: Exclude<WorkerRequest, { type: 'close' }>): Promise<WorkerResponse> {
  const embedder = await embedderPromise;
  if (req.type === 'init') {
    const { dimensions, runtime } = await embedder.init();
    return { id: req.id, ok: true, dimensions, ...(runtime ? { runtime } : {}) };
  }
  return { id: req.id, ok: true, vectors: await embedder.embed(req.texts) };
}
