// The local socket: a running `cairn watch` or `cairn serve` answers `cairn search`, `cairn context`
// and the SessionStart hook from its warm process (model loaded, indexes in memory, tokenizer
// compiled), so they cost a connect, not a start-up. The OpenClaw plugin, which runs on a Node
// whose ABI Cairn's native addon was not built for, does all its work through it: reads, `store`,
// `status`, and `catch-up` (capture every source now, through the daemon's own checkpoints).
// Per connection: the client sends one JSON line; the server answers `working` as soon as it has
// taken the request (so a client can tell a busy process from one working on its search), then
// one final line. Kept free of heavy imports: the CLI loads it first.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { CAIRN_VERSION } from '../../core/version.js';

export const PROTOCOL = 2;
/** A request is a query, a few options or a hook's JSON: far below this. */
export const MAX_REQUEST_BYTES = 64 * 1024;
/** Unix socket paths longer than this are refused by Linux (108 with the terminator) and macOS (104). */
const MAX_SOCKET_PATH = 100;

/** The socket's path in a home, or null where none can be (Windows, a home with a very long path). */
export function socketPath(homeRoot: string): string | null {
  if (process.platform === 'win32') return null;
  const path = join(homeRoot, 'cairn.sock');
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : null;
}

/**
 * What a searcher's answer depends on besides the data: the release and the config file as it
 * was read. A daemon started before config.json changed answers with the old settings, so the
 * CLI then searches in-process instead.
 */
export function configStamp(configPath: string): string {
  let file = 'none';
  try {
    const st = statSync(configPath);
    file = `${st.size}:${Math.trunc(st.mtimeMs)}`;
  } catch {
    // no config file: the defaults
  }
  return `${PROTOCOL}/${CAIRN_VERSION}/${file}`;
}

/**
 * What the socket answers. The first three are reads the facade (or the hook) does in-process
 * otherwise; the rest serve clients that cannot open the store themselves (the OpenClaw plugin).
 */
export const OPS = ['search', 'context', 'session-start', 'read-file', 'get', 'store', 'status', 'catch-up'] as const;
export type SocketOp = (typeof OPS)[number];

export interface SocketRequest {
  v: number;
  stamp: string;
  op: SocketOp;
  /** Null: the config's default namespace (not the daemon's own -n). */
  namespace: string | null;
  /** The op's arguments, validated by the facade (or the hook) as every interface's are. */
  payload: Record<string, unknown>;
}

export type SocketReply =
  /** The request is taken; the final line follows. */
  | { working: true }
  | { ok: unknown }
  /** The search itself failed: what an in-process search would have thrown. */
  | { error: { code: string; message: string; details?: Record<string, unknown> } }
  /** Another release or config: the client searches in-process. */
  | { stale: string }
  /** Not a request this server reads (malformed, oversized): the client searches in-process. */
  | { rejected: string };
