// One stdio message over the 10 MB bound made `cairn mcp` exit 0 without a reply (the SDK's
// transport closes itself). It must answer such a message with a JSON-RPC error, naming its id
// when the id can be found (else null), and keep serving; the dropped message is never held whole
// (issue 30 item 11). A raw child process, so every byte of stdout is seen.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, NO_EMBEDDER, ROOT, assertBuilt, childEnv, makeHome, removeHome } from '../helpers/cli.js';
import { RequestIdScanner } from '../../src/interfaces/mcp/request-id-scanner.js';

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const MB = 1024 * 1024;
const MAX_RSS_PRELOAD = join(ROOT, 'test', 'helpers', 'max-rss.mjs');

interface Reply {
  id?: number | string | null;
  result?: any;
  error?: { code: number; message: string };
}

/** `cairn mcp` as a child: send lines, wait for the next reply. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  private buffered = '';
  private readonly replies: Reply[] = [];
  private waiting: ((r: Reply) => void) | null = null;
  stderr = '';
  readonly exited: Promise<number | null>;

  constructor(home: string, env: Record<string, string> = {}, nodeArgs: string[] = []) {
    this.child = spawn(process.execPath, [...nodeArgs, CLI, 'mcp'], { cwd: ROOT, env: childEnv(home, env), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (d: Buffer) => {
      this.buffered += d.toString('utf8');
      for (let nl = this.buffered.indexOf('\n'); nl >= 0; nl = this.buffered.indexOf('\n')) {
        const reply = JSON.parse(this.buffered.slice(0, nl)) as Reply;
        this.buffered = this.buffered.slice(nl + 1);
        if (this.waiting) {
          const w = this.waiting;
          this.waiting = null;
          w(reply);
        } else this.replies.push(reply);
      }
    });
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString('utf8')));
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  /** Writes a message (an object, or its bytes in parts) and a newline, honouring backpressure. */
  async send(message: object | Buffer[]): Promise<void> {
    const parts = Array.isArray(message) ? message : [Buffer.from(JSON.stringify(message))];
    const stdin = this.child.stdin;
    for (const part of parts) {
      if (stdin.destroyed) return; // the server is gone: next() reports it
      if (!stdin.write(part)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            stdin.off('drain', done);
            stdin.off('close', done);
            resolve();
          };
          stdin.on('drain', done);
          stdin.on('close', done);
        });
      }
    }
    if (!stdin.destroyed) stdin.write('\n');
  }

  next(): Promise<Reply> {
    const ready = this.replies.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      void this.exited.then((code) => reject(new Error(`cairn mcp exited (${code}) without a reply\nstderr: ${this.stderr}`)));
    });
  }

  async request(message: object): Promise<Reply> {
    await this.send(message);
    return this.next();
  }

  async stop(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }
}

/**
 * A memory_store call carrying `size` bytes of text, its id written last (as the SDK's client
 * does) or first, in parts of 1 MB that share one buffer. Never one big buffer: a child's peak RSS
 * on Linux starts from its parent's at the fork.
 */
function bigCall(id: number | string | null, size: number, idFirst = false): Buffer[] {
  const head = idFirst ? `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"memory_store","arguments":{"text":"` : '{"method":"tools/call","params":{"name":"memory_store","arguments":{"text":"';
  const tail = idFirst ? '"}}}' : `"}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
  const block = Buffer.alloc(MB, 'a');
  // Escapes, quotes and braces inside the text must not be taken for the message's structure.
  block.write('\\"}{ \\\\ \\"id\\": 999, ', 1000);
  const parts = [Buffer.from(head)];
  for (let left = size; left > 0; left -= MB) parts.push(left >= MB ? block : block.subarray(0, left));
  parts.push(Buffer.from(tail));
  return parts;
}

const listTools = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

describe('cairn mcp: a message over the size bound', { timeout: 300_000 }, () => {
  let home: string;
  before(() => {
    assertBuilt();
    home = makeHome(NO_EMBEDDER);
  });
  after(() => removeHome(home));

  it('answers it with a JSON-RPC error carrying its id, then serves the next requests', async () => {
    const server = new RawServer(home);
    try {
      assert.ok((await server.request(INIT)).result, 'initialized');
      await server.send(INITIALIZED);

      const refused = await server.request(bigCall(7, 11 * MB));
      assert.equal(refused.id, 7);
      assert.equal(refused.error?.code, -32600);
      assert.match(refused.error!.message, /too large.*10 MB/i);
      assert.ok((await server.request(listTools(8))).result?.tools.length > 0, 'the next request is served');

      const idFirst = await server.request(bigCall('req-9', 12 * MB, true));
      assert.deepEqual([idFirst.id, idFirst.error?.code], ['req-9', -32600]);

      // Not JSON at all: no id to be found, so null.
      const garbage = Array.from({ length: 11 }, () => Buffer.alloc(MB, 'z'));
      const anonymous = await server.request(garbage);
      assert.deepEqual([anonymous.id, anonymous.error?.code], [null, -32600]);

      const stored = await server.request({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'memory_store', arguments: { text: 'the shed key is in the blue box' } } });
      assert.equal(stored.id, 10);
      assert.ok(!stored.result?.isError, JSON.stringify(stored));
      assert.equal(await server.stop(), 0);
      assert.match(server.stderr, /stopped \(stdin closed\)/);
    } finally {
      server.child.kill();
    }
  });

  it('a message just under the bound is still read', async () => {
    const server = new RawServer(home);
    try {
      await server.request(INIT);
      await server.send(INITIALIZED);
      // ~9.5 MB of text is over limits.maxTextChars: the tool answers it (an error result), not the transport.
      const reply = await server.request(bigCall(3, 9.5 * MB));
      assert.equal(reply.id, 3);
      assert.equal(reply.error, undefined, 'not refused by the transport');
      assert.equal(reply.result?.isError, true);
      assert.match(reply.result.content[0].text, /too big|longer than the limit/i);
    } finally {
      server.child.kill();
    }
  });

  it('does not hold a dropped message in memory: 200 MB in, peak RSS grows far less', async () => {
    const peak = async (message: object | Buffer[]): Promise<number> => {
      const rssFile = join(home, `rss-${Math.random().toString(36).slice(2)}.json`);
      const server = new RawServer(home, { CAIRN_TEST_MAXRSS_FILE: rssFile }, ['--import', MAX_RSS_PRELOAD]);
      try {
        await server.request(INIT);
        assert.equal((await server.request(message)).id, 5);
        assert.equal(await server.stop(), 0);
      } finally {
        server.child.kill();
      }
      return (JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRssKiB: number }).maxRssKiB / 1024;
    };
    const base = await peak(listTools(5));
    const big = await peak(bigCall(5, 200 * MB));
    // Holding the message would take its 200 MB at least; the transport keeps at most the 10 MB bound.
    assert.ok(big - base < 100, `peak RSS ${base.toFixed(0)} MiB for a small request, ${big.toFixed(0)} MiB for a 200 MB one`);
  });
});

describe('RequestIdScanner', () => {
  const idOf = (text: string, chunk = 3): string | number | null => {
    const scanner = new RequestIdScanner();
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += chunk) scanner.feed(bytes.subarray(i, i + chunk));
    return scanner.id;
  };

  it('finds the top-level id wherever it is, split across chunks, and nothing else', () => {
    assert.equal(idOf('{"jsonrpc":"2.0","id":42,"method":"x"}'), 42);
    assert.equal(idOf('{"method":"x","params":{"id":1,"t":"\\"id\\":2"},"id":"a\\"b é"}'), 'a"b é');
    assert.equal(idOf('{ "id" : -3.5 }', 1), -3.5);
    assert.equal(idOf('{"params":{"id":3}}'), null);
    assert.equal(idOf('{"id":{"x":1}}'), null);
    assert.equal(idOf('{"id":[1]}'), null);
    assert.equal(idOf('{"id":null}'), null);
    assert.equal(idOf('{"id":true}'), null);
    assert.equal(idOf('{"x":"id","y":1}'), null);
    assert.equal(idOf('zzzz not json'), null);
    assert.equal(idOf(`{"id":"${'x'.repeat(500)}"}`), null, 'an implausibly long id is not kept');
  });
});
