// The MCP server over stdio (`cairn mcp`): stdout carries the protocol and nothing else, so every
// stray write to it (a library's banner, a console.log) is routed to stderr before the server
// starts. The server runs until stdin ends, the transport closes, or SIGTERM/SIGINT arrives; it
// then lets in-flight tool calls finish and returns, leaving the facade to the caller to close.
import { Writable, type Readable } from 'node:stream';
import type { Cairn } from '../../service/cairn.js';
import { BoundedStdioTransport } from './bounded-stdio-transport.js';
import { createMcpServer, whenIdle } from './server.js';

export interface StdioOptions {
  /** Where requests come from (default process.stdin). */
  stdin?: Readable;
  /** The protocol channel; by default stdout, reserved with reserveStdout(). */
  stdout?: Writable;
  log?: (message: string) => void;
}

/**
 * Makes process.stdout a protocol-only channel: returns a stream that writes to the real stdout,
 * and redirects every other write to stdout (console.log included) to stderr.
 */
export function reserveStdout(): Writable {
  const out = process.stdout;
  const realWrite = out.write.bind(out) as (chunk: unknown, encoding?: BufferEncoding, cb?: (err?: Error | null) => void) => boolean;
  const errWrite = process.stderr.write.bind(process.stderr) as typeof realWrite;
  (out as unknown as { write: typeof realWrite }).write = (chunk: unknown, encoding?: unknown, cb?: unknown) =>
    typeof encoding === 'function' ? errWrite(chunk, undefined, encoding as () => void) : errWrite(chunk, encoding as BufferEncoding, cb as () => void);
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (realWrite(chunk)) callback();
      else out.once('drain', () => callback());
    },
  });
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Serves one namespace over stdio until stdin closes or the process is told to stop. */
export async function runStdioServer(cairn: Cairn, namespace: string, options: StdioOptions = {}): Promise<void> {
  const log = options.log ?? ((m: string) => process.stderr.write(m + '\n'));
  const stdout = options.stdout ?? reserveStdout();
  const stdin = options.stdin ?? process.stdin;
  const server = createMcpServer(cairn, namespace, { log });
  // Not the SDK's StdioServerTransport: one message over 10 MB made it close (see the transport).
  const transport = new BoundedStdioTransport(stdin, stdout);

  let stop!: (why: string) => void;
  const stopped = new Promise<string>((resolve) => {
    stop = resolve;
  });
  const onEnd = () => stop('stdin closed');
  const onSignal = (signal: NodeJS.Signals) => stop(signal);
  // The client went away mid-answer (EPIPE): stop instead of dying on an unhandled error (kept
  // attached to the end: the last answers may still hit a closed pipe while shutting down).
  const onOutError = (err: NodeJS.ErrnoException) => stop(`stdout failed: ${err.code ?? err.message}`);
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  process.stdout.on('error', onOutError);
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  transport.onclose = () => stop('transport closed');
  transport.onerror = (err) => log(`cairn mcp: transport error: ${err.message}`);

  await server.connect(transport);
  log(`cairn mcp: serving namespace "${cairn.namespace(namespace)}" over stdio`);
  const why = await stopped;
  stdin.off('end', onEnd);
  stdin.off('close', onEnd);
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
  // Requests already read are still being validated (microtasks) or run: let them answer first.
  await nextTurn();
  await whenIdle(server);
  await nextTurn();
  await server.close().catch(() => undefined);
  stdin.pause();
  log(`cairn mcp: stopped (${why})`);
}
