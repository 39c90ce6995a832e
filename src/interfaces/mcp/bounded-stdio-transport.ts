// The MCP stdio transport with a bound on one message: newline-delimited JSON-RPC, as the SDK's
// StdioServerTransport, except for a message over the bound. The SDK's transport buffers up to
// 10 MB, then closes itself: `cairn mcp` exited 0 without a word (issue 30 item 11). Here the
// oversized line is dropped as it is read (memory stays within the bound), answered with a
// JSON-RPC error naming its id when one can be found (else null), and the next line is served.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE, deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { RequestIdScanner } from './request-id-scanner.js';

/** The SDK's own bound for one stdio message (10 MB). */
export const MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;
/** JSON-RPC "Invalid Request": the message was not taken in. */
const INVALID_REQUEST = -32600;
const NEWLINE = 0x0a;

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** The pieces of the line being read while it is within the bound. */
  private pieces: Buffer[] = [];
  private lineBytes = 0;
  /** Set while an oversized line is being dropped: finds its id as its bytes go by. */
  private oversized: RequestIdScanner | null = null;
  private started = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('BoundedStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStdinError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStdinError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.pieces = [];
    this.lineBytes = 0;
    this.oversized = null;
    this.onclose?.();
  }

  private readonly onStdinError = (err: Error): void => this.onerror?.(err);

  private readonly onData = (chunk: Buffer | string): void => {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let end = bytes.indexOf(NEWLINE); ; end = bytes.indexOf(NEWLINE)) {
      const part = end < 0 ? bytes : bytes.subarray(0, end);
      this.take(part);
      if (end < 0) return;
      this.endLine();
      bytes = bytes.subarray(end + 1);
    }
  };

  /** Adds bytes of the current line, switching to dropping them once the line is over the bound. */
  private take(part: Buffer): void {
    if (part.length === 0) return;
    this.lineBytes += part.length;
    if (this.oversized) return this.oversized.feed(part);
    if (this.lineBytes <= this.maxMessageBytes) {
      this.pieces.push(part);
      return;
    }
    this.oversized = new RequestIdScanner();
    for (const p of this.pieces) this.oversized.feed(p);
    this.oversized.feed(part);
    this.pieces = [];
  }

  private endLine(): void {
    const scanner = this.oversized;
    const size = this.lineBytes;
    const line = scanner ? '' : Buffer.concat(this.pieces).toString('utf8').replace(/\r$/, '');
    this.pieces = [];
    this.lineBytes = 0;
    this.oversized = null;
    if (scanner) return this.refuse(scanner.id, size);
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (err) {
      // As the SDK's transport: a line that is not a JSON-RPC message is reported, not answered.
      this.onerror?.(err as Error);
      return;
    }
    this.onmessage?.(message);
  }

  private refuse(id: string | number | null, size: number): void {
    const limitMb = Math.round(this.maxMessageBytes / (1024 * 1024));
    this.onerror?.(new Error(`dropped a message of ${size} bytes (over ${this.maxMessageBytes}); answered id ${JSON.stringify(id)}`));
    const reply = {
      jsonrpc: '2.0',
      id,
      error: { code: INVALID_REQUEST, message: `Message too large: ${size} bytes, over the ${limitMb} MB limit for one message; it was not read` },
    };
    void this.write(JSON.stringify(reply) + '\n');
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(text)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }
}
