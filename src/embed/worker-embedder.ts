// Runs a CPU-bound embedder (use-lite, transformers.js) in worker threads. One worker lets a CLI
// load the model on a second core while the first opens the store and runs BM25; several workers
// spread bulk embedding (reembed, import, capture) over every core.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { EmbedderConfig } from '../core/config.js';
import type { LocalModelOptions } from './factory.js';
import { CairnError, ERROR_CODES, type ErrorCode } from '../core/errors.js';
import type { Embedder, EmbedderInfo } from './embedder.js';
import { onceUntilFailure } from './once.js';
import { keepOnnxRuntimeOffline } from './onnxruntime-offline.js';
import type { WorkerCall, WorkerRequest, WorkerResponse } from './embed-worker.js';

/** Texts per message to a worker: large enough to amortise messaging, small enough to balance. */
const CHUNK = 32;
/**
 * How long a thread that has released its model may take to wind down before it is stopped. Only
 * a thread whose loop something unexpected keeps alive waits that long; stopping it then is safe,
 * as no native call is running any more.
 */
const EXIT_GRACE_MS = 5_000;

// Under a TypeScript loader (tests, benches) this file is .ts and so is its sibling. Built, the
// thread runs the worker's bundle (scripts/bundle-cli.mjs): one CommonJS file starts a fresh thread
// faster than the ES modules it is made of (a worker's module loader, then ~15 modules resolved and
// linked), and a cold `cairn search` waits for that thread's first vector. The modules serve when
// only tsc has run.
const RUNNING_FROM_SOURCE = import.meta.url.endsWith('.ts');
const BUNDLED_WORKER = new URL('../bin/embed-worker.cjs', import.meta.url);
const WORKER_URL = RUNNING_FROM_SOURCE
  ? new URL('./embed-worker.ts', import.meta.url)
  : existsSync(BUNDLED_WORKER)
    ? BUNDLED_WORKER
    : new URL('./embed-worker.js', import.meta.url);

interface Pending {
  resolve: (res: WorkerResponse & { ok: true }) => void;
  reject: (err: Error) => void;
}

class EmbedThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | null = null;
  private readonly exited: Promise<void>;
  /** Requests sent and not yet answered: the pool sends new work to the least busy thread. */
  inFlight = 0;

  constructor(config: EmbedderConfig, options: LocalModelOptions) {
    keepOnnxRuntimeOffline(); // the thread's copy of the environment would come too late
    this.worker = RUNNING_FROM_SOURCE
      ? // Loader hooks are per thread on Node 20: register tsx in the worker before loading it.
        new Worker(`import('tsx/esm/api').then((m) => m.register()).then(() => import(${JSON.stringify(WORKER_URL.href)}))`, {
          eval: true,
          workerData: { config, options },
        })
      : new Worker(WORKER_URL, { workerData: { config, options } });
    this.worker.unref();
    this.worker.on('message', (res: WorkerResponse) => {
      const p = this.pending.get(res.id);
      if (!p) return;
      this.pending.delete(res.id);
      this.inFlight--;
      if (res.ok) p.resolve(res);
      else p.reject(new CairnError((res.code in ERROR_CODES ? res.code : 'EMBEDDER') as ErrorCode, res.message));
    });
    this.worker.on('error', (err) => this.fail(new CairnError(ERROR_CODES.EMBEDDER, `embedding worker crashed: ${err.message}`)));
    this.exited = new Promise((resolve) =>
      this.worker.on('exit', (code) => {
        this.fail(new CairnError(ERROR_CODES.EMBEDDER, `embedding worker exited (code ${code})`));
        resolve();
      }),
    );
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.inFlight = 0;
  }

  request(req: WorkerCall): Promise<WorkerResponse & { ok: true }> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    this.inFlight++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // While requests are pending the thread must keep the process alive.
      this.worker.ref();
      this.worker.postMessage({ ...req, id } as WorkerRequest);
    }).finally(() => {
      if (this.pending.size === 0) this.worker.unref();
    }) as Promise<WorkerResponse & { ok: true }>;
  }

  /**
   * Asks the thread to finish what it was given, release its model and exit, and waits until it
   * has. Later requests are refused. Not Worker.terminate(): see embed-worker.ts.
   */
  async close(): Promise<void> {
    if (!this.failure) {
      const released = this.request({ type: 'close' }).catch(() => undefined);
      this.failure = new CairnError(ERROR_CODES.EMBEDDER, 'embedder closed');
      await released;
      // The caller waits for the exit: the process must not end first and stop the thread itself.
      this.worker.ref();
      const stop = setTimeout(() => void this.worker.terminate(), EXIT_GRACE_MS);
      await this.exited;
      clearTimeout(stop);
    }
    await this.exited;
  }
}

/**
 * Idle time after which the pool lets every thread but one go. Each thread holds its own model
 * (use-lite on onnxruntime: ~150 MB once it has run a batch), so a daemon that embedded a backlog
 * on every core would otherwise keep them all while it only answers searches. The one left stays
 * warm for queries; the others come back, loading their model again (~0.5 s), with the next call
 * large enough to share out.
 */
export const SPARE_THREAD_IDLE_MS = 30_000;

export class WorkerEmbedder implements Embedder {
  private readonly threads: EmbedThread[];
  private readonly maxThreads: number;
  /** Calls of more than one chunk in progress: spare threads are only let go when none is. */
  private active = 0;
  private idleTimer: NodeJS.Timeout | null = null;

  /**
   * Spawns the threads at once and starts loading the model in each, so the load overlaps with
   * whatever the caller does next.
   */
  constructor(
    readonly modelId: string,
    private readonly config: EmbedderConfig,
    threads = 1,
    private readonly options: LocalModelOptions & { spareIdleMs?: number } = {},
  ) {
    this.maxThreads = Math.max(1, threads);
    this.threads = Array.from({ length: this.maxThreads }, () => new EmbedThread(config, options));
    void this.init().catch(() => undefined); // preload; a failure is reported by the next call
  }

  readonly init = onceUntilFailure(async (): Promise<EmbedderInfo> => {
    const [first] = await Promise.all(this.threads.map((t) => t.request({ type: 'init' })));
    this.releaseSparesWhenIdle();
    return { modelId: this.modelId, dimensions: first!.dimensions!, ...(first!.runtime ? { runtime: first!.runtime } : {}) };
  });

  /** Threads alive now (spares are let go after SPARE_THREAD_IDLE_MS without work). */
  get threadCount(): number {
    return this.threads.length;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    // Only a call that shares out work keeps the spares: a daemon's steady trickle of one-chunk
    // queries must not hold a model per core for ever.
    const shared = texts.length > CHUNK;
    if (shared) {
      this.active++;
      if (this.idleTimer) clearTimeout(this.idleTimer);
    }
    try {
      // Sent at once, not after the threads answered 'init': a thread takes them while its model
      // still loads and embeds as soon as it is ready. Waiting for that answer first cost a cold
      // search the first model run plus two messages at its end, since a main thread busy with
      // BM25 and the index reads the answer only when it next waits.
      // Chunks of similar length: the model pads a batch to its longest text, so sorting the whole
      // call before cutting it into chunks saves that padding (1.4× on agent transcripts).
      const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
      while (this.threads.length < Math.min(this.maxThreads, Math.ceil(order.length / CHUNK))) this.threads.push(new EmbedThread(this.config, this.options));
      const chunks: Array<Promise<Float32Array[]>> = [];
      for (let i = 0; i < order.length; i += CHUNK) {
        const thread = this.threads.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
        chunks.push(thread.request({ type: 'embed', texts: order.slice(i, i + CHUNK).map((k) => texts[k]!) }).then((r) => r.vectors!));
      }
      const sorted = (await Promise.all(chunks)).flat();
      const out = new Array<Float32Array>(texts.length);
      order.forEach((k, i) => (out[k] = sorted[i]!));
      return out;
    } finally {
      if (shared) {
        this.active--;
        this.releaseSparesWhenIdle();
      }
    }
  }

  private releaseSparesWhenIdle(): void {
    if (this.active > 0 || this.threads.length <= 1) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.active > 0) return;
      // Closing waits for whatever a thread was given, then releases its model.
      for (const spare of this.threads.splice(1)) void spare.close();
    }, this.options.spareIdleMs ?? SPARE_THREAD_IDLE_MS);
    this.idleTimer.unref();
  }

  /** Waits for the work in flight, releases the model in every thread and lets the threads exit. */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    await Promise.all(this.threads.map((t) => t.close()));
  }
}
