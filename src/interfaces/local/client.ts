// Asks the process serving the home's local socket for a read. Any trouble (nobody listening, a
// stale socket file, another release, a busy or broken server) returns null and the caller does
// the read in-process; only the server's verdict on the read itself (a typed error) is final.
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { CairnError, ERROR_CODES, type ErrorCode } from '../../core/errors.js';
import { PROTOCOL, configStamp, socketPath, type SocketOp, type SocketReply, type SocketRequest } from './protocol.js';

/** A process that has not taken the request by then is busy with something else: read in-process. */
const ACCEPT_TIMEOUT_MS = 2000;
/**
 * Once taken, the request is the server's: a first search that must build a large index takes as
 * long in-process, so waiting beats starting over (up to this).
 */
const REPLY_TIMEOUT_MS = 120_000;
const MAX_REPLY_BYTES = 64 * 1024 * 1024;
const WORKING = JSON.stringify({ working: true } satisfies SocketReply);

export interface LocalAnswer {
  result: unknown;
}

export async function askDaemon(
  home: { root: string; config: string },
  op: SocketOp,
  namespace: string | undefined,
  payload: Record<string, unknown>,
): Promise<LocalAnswer | null> {
  const path = socketPath(home.root);
  if (path === null || !existsSync(path)) return null;
  const request: SocketRequest = { v: PROTOCOL, stamp: configStamp(home.config), op, namespace: namespace ?? null, payload };
  const line = await exchange(path, JSON.stringify(request) + '\n');
  if (line === null) return null;
  let reply: unknown;
  try {
    reply = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof reply !== 'object' || reply === null) return null;
  if ('ok' in reply) {
    if (process.env.CAIRN_DEBUG) process.stderr.write(`cairn: debug: answered by the running daemon (local socket, ${op})\n`);
    return { result: reply.ok };
  }
  if ('error' in reply) {
    const e = reply.error as { code?: unknown; message?: unknown; details?: Record<string, unknown> };
    const code = typeof e.code === 'string' && e.code in ERROR_CODES ? (e.code as ErrorCode) : null;
    // An error this release does not know, or the server's own failure: read in-process.
    if (code === null || code === 'INTERNAL' || typeof e.message !== 'string') return null;
    throw new CairnError(code, e.message, e.details);
  }
  // stale, rejected, or anything else: read in-process.
  return null;
}

/** Sends one line, reads the final line back (after `working`); null on any failure or timeout. */
function exchange(path: string, line: string): Promise<string | null> {
  return new Promise((resolve) => {
    let data = '';
    let settled = false;
    const finish = (value: string | null) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(value);
    };
    const socket = createConnection(path);
    socket.setEncoding('utf8');
    socket.setTimeout(ACCEPT_TIMEOUT_MS, () => finish(null));
    socket.once('error', () => finish(null));
    socket.once('connect', () => socket.write(line));
    socket.on('data', (chunk: string) => {
      data += chunk;
      for (let end = data.indexOf('\n'); end >= 0; end = data.indexOf('\n')) {
        const first = data.slice(0, end);
        data = data.slice(end + 1);
        if (first !== WORKING) return finish(first);
        socket.setTimeout(REPLY_TIMEOUT_MS);
      }
      if (data.length > MAX_REPLY_BYTES) finish(null);
    });
    socket.once('end', () => finish(null));
  });
}
