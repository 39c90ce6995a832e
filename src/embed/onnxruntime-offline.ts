// onnxruntime-node (1.2x and later, on Linux and macOS) ships Microsoft's telemetry SDK and turns it
// on by default: loading it writes a persistent device id and an event queue (an SQLite file) under
// ~/.cache/Microsoft/DeveloperTools/.onnxruntime, a `.ses` file and a `mat-debug-<pid>.log` into
// the temporary folder of every process, and queues events to send. Cairn runs offline and keeps
// what it does on the machine, so telemetry is off unless the user has set ORT_DISABLE_TELEMETRY
// themselves. It also takes the first model load ~150 ms longer (creating that queue) and every
// later one ~20 ms.
//
// The runtime reads the process environment (getenv) when it starts. A worker thread's
// `process.env` is its own copy that native code never sees, so this must run on the main thread
// before the first worker that loads a model starts, as well as before an in-process load.
import { isMainThread } from 'node:worker_threads';

export const ORT_TELEMETRY_VARIABLE = 'ORT_DISABLE_TELEMETRY';

/** Turns onnxruntime's telemetry off for this process (unless the user chose a value); idempotent. */
export function keepOnnxRuntimeOffline(): void {
  if (!isMainThread) return; // a copy here would not reach the runtime: the main thread sets it
  if (process.env[ORT_TELEMETRY_VARIABLE] === undefined) process.env[ORT_TELEMETRY_VARIABLE] = '1';
}
