// MCP test plumbing: SDK clients over stdio (spawning the real built CLI) and over Streamable HTTP
// (the handler mounted on a tiny hono app), plus call helpers that tell a tool's success from the
// two ways an MCP call can fail (an isError result, or a JSON-RPC error).
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { CLI, ROOT, childEnv } from '../helpers/cli.js';
import type { McpHttpHandler } from '../../src/interfaces/mcp/http.js';

export interface TestClient {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

async function connected(client: Client): Promise<Client> {
  // Listing the tools makes the client validate every structured result against its outputSchema.
  await client.listTools();
  return client;
}

/** `node dist/interfaces/cli/main.js mcp -n <ns>` with its own CAIRN_HOME, through the SDK's client. */
export async function stdioClient(home: string, namespace: string | null, env: Record<string, string | undefined> = {}): Promise<TestClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...(namespace === null ? [] : ['-n', namespace])],
    env: stringEnv(childEnv(home, env)),
    cwd: ROOT,
    stderr: 'pipe',
  });
  const err: Buffer[] = [];
  transport.stderr?.on('data', (d: Buffer) => err.push(d));
  const client = new Client({ name: 'cairn-test', version: '1.0.0' });
  await client.connect(transport);
  await connected(client);
  return { client, stderr: () => Buffer.concat(err).toString('utf8'), close: () => client.close() };
}

export interface HttpFixture {
  url: (namespace: string) => URL;
  close: () => Promise<void>;
}

/** Mounts the handler at /mcp/:ns on hono + @hono/node-server, 127.0.0.1, a free port. */
export async function httpServer(handler: McpHttpHandler): Promise<HttpFixture> {
  const app = new Hono();
  app.all('/mcp/:ns', (c) => handler(c.req.raw, c.req.param('ns')));
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: (ns) => new URL(`http://127.0.0.1:${port}/mcp/${ns}`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function httpClient(url: URL): Promise<TestClient> {
  const client = new Client({ name: 'cairn-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  await connected(client);
  return { client, stderr: () => '', close: () => client.close() };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** Calls a tool that must succeed; returns its structured content (and text). */
export async function callOk<T = any>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T & { _text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.ok(!result.isError, `${name} ${JSON.stringify(args).slice(0, 200)} failed: ${textOf(result)}`);
  assert.ok(result.structuredContent, `${name} returned no structured content`);
  assert.ok(textOf(result).length > 0, `${name} returned no text content`);
  return { ...(result.structuredContent as T), _text: textOf(result) };
}

/**
 * Calls a tool that must fail, and returns the error text. Accepts either failure form (isError
 * result, JSON-RPC error), checks the message matches and shows no stack trace.
 */
export async function callFails(client: Client, name: string, args: unknown, pattern: RegExp): Promise<string> {
  let message: string;
  try {
    const result = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult;
    assert.equal(result.isError, true, `${name} ${JSON.stringify(args).slice(0, 200)} should fail, got: ${textOf(result).slice(0, 300)}`);
    assert.equal(result.structuredContent, undefined);
    message = textOf(result);
  } catch (err) {
    if (err instanceof assert.AssertionError) throw err;
    message = (err as Error).message;
  }
  assert.match(message, pattern, `${name} ${JSON.stringify(args).slice(0, 200)}`);
  assert.doesNotMatch(message, /\n\s+at /, 'no stack trace in tool errors');
  return message;
}
