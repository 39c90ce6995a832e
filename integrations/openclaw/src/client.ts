// Talks to the Cairn daemon over its local socket (<home>/cairn.sock), the same protocol the cairn
// CLI uses. OpenClaw runs on Node 24 while Cairn's store needs its native SQLite addon built for
// the Node it was installed with, so the plugin never opens the store itself: every operation is
// one request to the warm daemon. Nobody listening, a stale daemon, a timeout: CairnUnavailable
// (the tools answer "memory unavailable" and the agent carries on). Cairn's verdict on the
// request itself (invalid input, not found): CairnRefused.
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { MAX_REQUEST_BYTES, PROTOCOL, configStamp, socketPath, type SocketOp } from '../../../src/interfaces/local/protocol.js';

/** A daemon that has not taken the request by then is not answering. */
const ACCEPT_TIMEOUT_MS = 2000;
const MAX_REPLY_BYTES = 16 * 1024 * 1024;

export class CairnUnavailable extends Error {
  override readonly name = 'CairnUnavailable';
}

export class CairnRefused extends Error {
  override readonly name = 'CairnRefused';
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export interface CairnClient {
  readonly home: string;
  readonly socket: string | null;
  call<T = unknown>(op: SocketOp, namespace: string, payload: Record<string, unknown>, timeoutMs: number): Promise<T>;
}

export function cairnClient(home: string): CairnClient {
  const socket = socketPath(home);
  return {
    home,
    socket,
    async call<T>(op: SocketOp, namespace: string, payload: Record<string, unknown>, timeoutMs: number): Promise<T> {
      if (socket === null) throw new CairnUnavailable(`Cairn's data directory path is too long for a local socket (${home}); choose a shorter home`);
      if (!existsSync(socket)) throw new CairnUnavailable(`no Cairn daemon is running for ${home} (no ${socket}); start it with: cairn watch`);
      const line = JSON.stringify({ v: PROTOCOL, stamp: configStamp(join(home, 'config.json')), op, namespace, payload }) + '\n';
      if (Buffer.byteLength(line) > MAX_REQUEST_BYTES) throw new CairnRefused('INVALID_INPUT', `request too large for Cairn (over ${MAX_REQUEST_BYTES} bytes)`);
      return read(await exchange(socket, line, timeoutMs)) as T;
    },
  };
}

function read(line: string): unknown {
  let reply: unknown;
  try {
    reply = JSON.parse(line);
  } catch {
    throw new CairnUnavailable('the Cairn daemon sent an unreadable answer');
  }
  if (typeof reply !== 'object' || reply === null) throw new CairnUnavailable('the Cairn daemon sent an unreadable answer');
  const r = reply as Record<string, unknown>;
  if ('ok' in r) return r.ok;
  if ('error' in r) {
    const e = (r.error ?? {}) as { code?: unknown; message?: unknown };
    const code = typeof e.code === 'string' ? e.code : 'INTERNAL';
    const message = typeof e.message === 'string' ? e.message : 'Cairn failed';
    if (code === 'INTERNAL') throw new CairnUnavailable(`Cairn failed: ${message}`);
    throw new CairnRefused(code, message);
  }
  if ('stale' in r) throw new CairnUnavailable(`the running Cairn daemon is another release or was started before config.json changed: restart cairn watch (${String(r.stale)})`);
  if ('rejected' in r) throw new CairnUnavailable(`the Cairn daemon refused the request: ${String(r.rejected)}`);
  throw new CairnUnavailable('the Cairn daemon sent an unexpected answer');
}

/** Sends one line and returns the final line (after `working`). */
function exchange(path: string, line: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    let settled = false;
    const fail = (why: string) => finish(() => reject(new CairnUnavailable(why)));
    const finish = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(overall);
      socket.destroy();
      done();
    };
    const overall = setTimeout(() => fail(`Cairn did not answer within ${timeoutMs} ms`), timeoutMs);
    const socket = createConnection(path);
    socket.setEncoding('utf8');
    socket.setTimeout(Math.min(ACCEPT_TIMEOUT_MS, timeoutMs), () => fail('the Cairn daemon is not answering (busy or hung)'));
    socket.once('error', (err: NodeJS.ErrnoException) =>
      fail(err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? `no Cairn daemon is listening on ${path}; start it with: cairn watch` : `cannot reach the Cairn daemon: ${err.message}`),
    );
    socket.once('connect', () => socket.write(line));
    socket.on('data', (chunk: string) => {
      data += chunk;
      for (let end = data.indexOf('\n'); end >= 0; end = data.indexOf('\n')) {
        const first = data.slice(0, end);
        data = data.slice(end + 1);
        if (first !== '{"working":true}') return finish(() => resolve(first));
        // Taken: the overall timeout alone bounds the wait from here.
        socket.setTimeout(0);
      }
      if (data.length > MAX_REPLY_BYTES) fail('the Cairn daemon sent an oversized answer');
    });
    socket.once('end', () => fail('the Cairn daemon closed the connection without answering'));
  });
}
