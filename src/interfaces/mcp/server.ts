// The MCP server: Cairn's operations as tools and resources for an agent. One server serves one
// namespace, chosen by whoever starts it (the `cairn mcp` command line, or the HTTP layer after
// authorising the request), so no tool takes a namespace and an agent can never reach another
// agent's memories. Thin by design: zod schemas validate arguments, the facade does the work.
import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Cairn } from '../../service/cairn.js';
import { registerKnowledgeTools } from './knowledge-tools.js';
import { registerMemoryTools } from './memory-tools.js';
import { failure, type Log } from './results.js';
import { registerFileResources, registerStateTools } from './state-tools.js';

export interface McpServerOptions {
  /** Where diagnostics go (never stdout: on stdio that is the protocol channel). Default: stderr. */
  log?: Log;
}

/** What every tool module gets: the server, the facade, the one namespace, and the call wrapper. */
export interface ToolContext {
  server: McpServer;
  cairn: Cairn;
  ns: string;
  maxTextChars: number;
  log: Log;
  /** Runs a tool body: failures become isError results; the call is tracked for shutdown. */
  run: (tool: string, body: () => Promise<CallToolResult>) => Promise<CallToolResult>;
  /** Tracks any other request (resource reads) for shutdown. */
  track: <T>(p: Promise<T>) => Promise<T>;
}

const SERVER_VERSION = ((): string => {
  try {
    // dist/interfaces/mcp (or src/interfaces/mcp under tsx) → the package root.
    return (createRequire(import.meta.url)('../../../package.json') as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
})();

/** Largest number of array elements plus object members one tool call's arguments may hold. */
const MAX_ARGUMENT_ELEMENTS = 1000;

const instructions = (ns: string): string =>
  [
    `Cairn is your long-term memory (namespace "${ns}"). It persists across sessions and compactions.`,
    'At the start of a session call `context` for a brief of your hot state and the memories that matter.',
    'Before answering about past work, decisions or preferences, call `memory_search`; read more of a result with `memory_get` (by id, or by path with from/lines).',
    'Ask `entity_get` what is known about a person, project or tool (its current facts and their history); `memory_search` takes an `entity` to search only memories about it.',
    'Store durable facts, decisions and preferences with `memory_store` (self-contained text); correct an outdated one with `memory_supersede`.',
    'Keep what you are doing now in `state_set` (objective, blockers, next actions): it is on disk before the call returns.',
  ].join('\n');

/** In-flight requests per server, so a shutdown can let them answer before the store closes. */
const inFlight = new WeakMap<McpServer, Set<Promise<unknown>>>();

/** Resolves once every tool call and resource read the server has started has settled. */
export async function whenIdle(server: McpServer): Promise<void> {
  const pending = inFlight.get(server);
  while (pending && pending.size > 0) await Promise.allSettled([...pending]);
}

/**
 * Builds an MCP server bound to one namespace (validated here). The facade is shared: the caller
 * owns it and closes it.
 */
export function createMcpServer(cairn: Cairn, namespace: string, options: McpServerOptions = {}): McpServer {
  const ns = cairn.namespace(namespace);
  const log = options.log ?? ((m: string) => void process.stderr.write(m + '\n'));
  const server = new McpServer(
    { name: 'cairn', title: 'Cairn memory', version: SERVER_VERSION },
    { instructions: instructions(ns), maxToolInputElements: MAX_ARGUMENT_ELEMENTS },
  );
  const pending = new Set<Promise<unknown>>();
  inFlight.set(server, pending);
  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    const done = () => void pending.delete(p);
    p.then(done, done);
    return p;
  };
  const run = (tool: string, body: () => Promise<CallToolResult>): Promise<CallToolResult> =>
    track(body().catch((err: unknown) => failure(err, log, tool)));

  const context: ToolContext = { server, cairn, ns, maxTextChars: cairn.config.limits.maxTextChars, log, run, track };
  registerMemoryTools(context);
  registerKnowledgeTools(context);
  registerStateTools(context);
  registerFileResources(context);
  return server;
}
