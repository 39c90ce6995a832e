// Serves the home's local socket from a warm process (`cairn watch`, `cairn serve`): reads for the
// CLI and hooks, and everything the OpenClaw plugin asks. The socket file is the user's alone (0600
// in their home), so what it answers needs no token; one process serves it at a time.
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { z } from 'zod';
import { CairnError, ERROR_CODES, isCairnError } from '../../core/errors.js';
import type { Cairn } from '../../service/cairn.js';
import type { ReadFileInput } from '../../service/files.js';
import type { StoreInput } from '../../service/inputs.js';
import { MAX_REQUEST_BYTES, OPS, PROTOCOL, configStamp, socketPath, type SocketReply } from './protocol.js';

const requestSchema = z.strictObject({
  v: z.literal(PROTOCOL),
  stamp: z.string().max(200),
  op: z.enum(OPS),
  namespace: z.string().max(200).nullable(),
  payload: z.record(z.string(), z.unknown()),
});

/** How long a client may take to send its request before it is cut off. */
const REQUEST_TIMEOUT_MS = 5000;

export interface LocalServer {
  path: string;
  close(): Promise<void>;
}

/** What only the capture daemon can do; `cairn serve` has no daemon and answers `catch-up` with CONFLICT. */
export interface LocalServerOptions {
  /** Captures every registered source now, through the daemon's checkpoints, and says how many turns it took. */
  catchUp?: () => Promise<{ turnsCaptured: number }>;
}

/**
 * Starts answering on `<home>/cairn.sock`. Returns null when another live process already
 * serves it or no socket can exist here; a socket file left by a process that died is replaced.
 */
export async function serveLocal(cairn: Cairn, options: LocalServerOptions = {}): Promise<LocalServer | null> {
  const path = socketPath(cairn.paths.root);
  if (path === null) return null;
  if (existsSync(path)) {
    if (await answers(path)) return null;
    rmSync(path, { force: true });
  }
  const stamp = configStamp(cairn.paths.config);
  // Half-open allowed: a client that ends its side after the request still gets the answer.
  const server = createServer({ allowHalfOpen: true }, (socket) => handle(socket, cairn, stamp, options));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch {
    // Another process bound it between the check and here, or the home is read-only: the CLI
    // then reads in-process, as it always can.
    return null;
  }
  chmodSync(path, 0o600);
  // The first answer should be as quick as the rest: load the model and tokenizer now.
  void cairn.warmUp();
  return { path, close: () => closeServer(server, path) };
}

function handle(socket: Socket, cairn: Cairn, stamp: string, options: LocalServerOptions): void {
  let buffered = '';
  let done = false;
  socket.setEncoding('utf8');
  socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  // Ended before a whole request: nothing to answer.
  socket.on('end', () => {
    if (!done) socket.end();
  });
  socket.on('data', (chunk: string) => {
    if (done) return;
    buffered += chunk;
    const end = buffered.indexOf('\n');
    if (end < 0 && buffered.length <= MAX_REQUEST_BYTES) return;
    done = true;
    socket.setTimeout(0);
    if (end < 0) return reply(socket, { rejected: `request longer than ${MAX_REQUEST_BYTES} bytes` });
    const request = read(buffered.slice(0, end), stamp);
    if ('stale' in request || 'rejected' in request) return reply(socket, request);
    socket.write(JSON.stringify({ working: true } satisfies SocketReply) + '\n');
    answer(request, cairn, options).then((r) => reply(socket, r));
  });
}

function read(line: string, stamp: string): z.infer<typeof requestSchema> | { stale: string } | { rejected: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { rejected: 'not JSON' };
  }
  // Another protocol or release is told apart before the shape is checked: its client falls back.
  const v = (value as { v?: unknown } | null)?.v;
  if (v !== PROTOCOL) return { stale: `protocol ${String(v).slice(0, 20)}, this process speaks ${PROTOCOL}` };
  const parsed = requestSchema.safeParse(value);
  if (!parsed.success) return { rejected: 'malformed local request' };
  if (parsed.data.stamp !== stamp) return { stale: 'this process runs another release or an older config.json' };
  return parsed.data;
}

async function answer(request: z.infer<typeof requestSchema>, cairn: Cairn, options: LocalServerOptions): Promise<SocketReply> {
  const { payload } = request;
  const namespace = request.namespace ?? cairn.config.defaultNamespace;
  try {
    switch (request.op) {
      case 'search': {
        const { query, ...options } = payload;
        return { ok: await cairn.search(query as string, { ...options, namespace }) };
      }
      case 'context':
        return { ok: await cairn.context({ ...payload, namespace }) };
      case 'session-start': {
        const { parseHookInput, runHook } = await import('../../integrations/claude-code/hook.js');
        const input = parseHookInput(JSON.stringify(payload.input ?? null));
        // A read only: capture events stay with the hook's own process and its checkpoints.
        if (input.hook_event_name !== 'SessionStart') return { rejected: 'only SessionStart is answered here' };
        const budgetTokens = typeof payload.budgetTokens === 'number' ? payload.budgetTokens : undefined;
        return { ok: await runHook(cairn, input, { namespace: request.namespace === null ? undefined : cairn.namespace(request.namespace), fallbackNamespace: cairn.config.defaultNamespace, budgetTokens }) };
      }
      case 'read-file':
        return { ok: await cairn.readFile(payload as unknown as ReadFileInput, namespace) };
      case 'get':
        return { ok: await cairn.get(payload.id as string, namespace) };
      case 'store':
        return { ok: await cairn.remember({ ...(payload as unknown as StoreInput), namespace }) };
      case 'status':
        return { ok: await cairn.status() };
      case 'catch-up':
        if (!options.catchUp) throw new CairnError(ERROR_CODES.CONFLICT, 'This process does not capture (cairn serve); run cairn watch to capture transcripts');
        return { ok: await options.catchUp() };
    }
  } catch (err) {
    if (isCairnError(err)) return { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } };
    return { error: { code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) } };
  }
}

function reply(socket: Socket, r: SocketReply): void {
  if (socket.destroyed) return;
  socket.end(JSON.stringify(r) + '\n');
}

/** Whether a live process accepts connections on the socket. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

function closeServer(server: Server, path: string): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // The file goes now: a CLI that finds it must find someone listening.
    rmSync(path, { force: true });
  });
}
