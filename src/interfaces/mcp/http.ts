// The MCP server over Streamable HTTP, for `cairn serve` to mount at /mcp. Stateless: every POST
// gets a fresh server bound to the namespace the HTTP layer has already authorised, answers with
// JSON, and is closed. Authentication and the choice of namespace happen before this is called;
// this function never reads a namespace from the request itself.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isCairnError } from '../../core/errors.js';
import type { Cairn } from '../../service/cairn.js';
import { createMcpServer, whenIdle } from './server.js';

export interface McpHttpOptions {
  /** Largest POST body read, in bytes (default 1 MiB); larger ones get 413 before parsing. */
  maxBodyBytes?: number;
  log?: (message: string) => void;
}

/** Handles one HTTP request for one (already authorised) namespace. */
export type McpHttpHandler = (request: Request, namespace: string) => Promise<Response>;

const DEFAULT_MAX_BODY = 1024 * 1024;

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/**
 * Builds the /mcp handler. `cairn` is the facade (one for every namespace) or a function giving
 * the facade for a namespace; either way the caller owns it and closes it.
 */
export function mcpHttpHandler(cairn: Cairn | ((namespace: string) => Cairn | Promise<Cairn>), options: McpHttpOptions = {}): McpHttpHandler {
  const log = options.log ?? ((m: string) => process.stderr.write(m + '\n'));
  const maxRequestBodySize = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const facadeFor = typeof cairn === 'function' ? cairn : () => cairn;

  return async (request: Request, namespace: string): Promise<Response> => {
    // Stateless: no server-initiated stream (GET) and no session to delete (DELETE).
    if (request.method !== 'POST') {
      return jsonRpcError(405, -32000, `Method ${request.method} not allowed: this MCP endpoint is stateless and only accepts POST`, { allow: 'POST' });
    }
    let server;
    try {
      server = createMcpServer(await facadeFor(namespace), namespace, { log });
    } catch (err) {
      if (isCairnError(err)) return jsonRpcError(err.code === 'INVALID_NAMESPACE' ? 400 : 500, -32602, `${err.code}: ${err.message}`);
      log(`cairn mcp http: ${err instanceof Error ? err.message : String(err)}`);
      return jsonRpcError(500, -32603, 'INTERNAL: could not start the MCP server');
    }
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize });
    try {
      await server.connect(transport);
      return await transport.handleRequest(request);
    } catch (err) {
      log(`cairn mcp http: ${err instanceof Error ? err.message : String(err)}`);
      return jsonRpcError(500, -32603, 'INTERNAL: the MCP request failed');
    } finally {
      // JSON mode: the response is complete once handleRequest resolves.
      await whenIdle(server);
      await server.close().catch(() => undefined);
    }
  };
}
