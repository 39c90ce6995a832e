// The agent's tools, with OpenClaw's names and answer shapes: memory_search and memory_get (so the
// system prompt, AGENTS.md habits and OpenClaw's other memory features keep working) and
// memory_store. No failure of Cairn breaks a turn: the tool answers with what went wrong, and
// "memory unavailable" (OpenClaw's own disabled/unavailable shape) when Cairn cannot be reached.
import { CairnRefused, CairnUnavailable } from './client.js';
import { get, readGetArgs, readSearchArgs, readStoreArgs, search, store, type Cairn } from './operations.js';
import type { AgentTool, PluginApi, ToolContext, ToolResult } from './openclaw-api.js';

export const TOOL_NAMES = ['memory_search', 'memory_get', 'memory_store'] as const;

/** Compact JSON: the agent reads every character of it. */
export function toolResult(payload: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(payload) }], details: payload };
}

export function unavailable(err: unknown): Record<string, unknown> {
  const reason = err instanceof Error ? err.message : String(err);
  return {
    disabled: true,
    unavailable: true,
    error: reason,
    warning: 'Memory (Cairn) is unavailable right now; answer without it and say you could not check memory.',
    action: 'Start the Cairn daemon (cairn watch), then retry.',
  };
}

function failure(err: unknown): Record<string, unknown> {
  if (err instanceof CairnRefused) return { error: err.message, code: err.code };
  return unavailable(err);
}

const searchParameters = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What to recall, in a few words' },
    maxResults: { type: 'integer', minimum: 1, maximum: 50 },
    minScore: { type: 'number' },
    corpus: { type: 'string', enum: ['memory', 'sessions', 'all'], description: 'memory: stored memories, digests and notes; sessions: captured conversation turns; all (default)' },
  },
  required: ['query'],
  additionalProperties: false,
};

const getParameters = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'The path of a memory_search result (memory:…, turn:… or a file)' },
    from: { type: 'integer', minimum: 1 },
    lines: { type: 'integer', minimum: 1, maximum: 2000 },
  },
  required: ['path'],
  additionalProperties: false,
};

const storeParameters = {
  type: 'object',
  properties: {
    text: { type: 'string', description: 'One durable, self-contained statement: a decision, fact, preference, plan or lesson' },
    category: { type: 'string', description: 'decision, discovery, implementation, issue, success, preference, fact, …' },
    importance: { type: 'integer', minimum: 1, maximum: 10 },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['text'],
  additionalProperties: false,
};

export function memorySearchTool(cairn: Cairn, ctx: ToolContext): AgentTool {
  return {
    name: 'memory_search',
    label: 'Memory Search',
    description:
      `Mandatory recall step: search long-term memory (Cairn: stored memories, daily and weekly digests, MEMORY.md, captured conversation turns) before answering questions about prior work, decisions, dates, people, preferences, or todos. Results are short (up to ${cairn.settings.resultChars} characters each); read one in full, with where it came from, by memory_get {path}. If the answer has unavailable=true, tell the user memory could not be checked.`,
    parameters: searchParameters,
    async execute(_id, params) {
      try {
        const args = readSearchArgs(params, cairn.settings.maxResults);
        return toolResult({ ...(await search(cairn, ctx.agentId, args)) });
      } catch (err) {
        return toolResult({ results: [], ...failure(err) });
      }
    },
  };
}

export function memoryGetTool(cairn: Cairn, ctx: ToolContext): AgentTool {
  return {
    name: 'memory_get',
    label: 'Memory Get',
    description:
      'Read a memory_search result in full: a memory (memory:…) with its category, times and provenance, a captured turn (turn:…), or lines of a memory file ({path, from?, lines?}). status=not_found means no such entry in this agent\'s memory.',
    parameters: getParameters,
    async execute(_id, params) {
      let path = '';
      try {
        const args = readGetArgs(params);
        path = args.path;
        return toolResult({ ...(await get(cairn, ctx.agentId, args)) });
      } catch (err) {
        if (err instanceof CairnRefused && err.code === 'NOT_FOUND') return toolResult({ status: 'not_found', path, text: '' });
        if (err instanceof CairnUnavailable) return toolResult({ status: 'error', path, text: '', ...unavailable(err) });
        return toolResult({ status: 'error', path, text: '', ...failure(err) });
      }
    },
  };
}

export function memoryStoreTool(cairn: Cairn, ctx: ToolContext): AgentTool {
  return {
    name: 'memory_store',
    label: 'Memory Store',
    description:
      'Remember something durable: a decision, fact, preference, plan or lesson, as one self-contained statement. An equal memory already stored is not duplicated (duplicate: true). Conversations are captured on their own; store only what must not be missed.',
    parameters: storeParameters,
    async execute(_id, params) {
      try {
        return toolResult(await store(cairn, ctx.agentId, readStoreArgs(params), ctx.sessionId));
      } catch (err) {
        return toolResult({ stored: false, ...failure(err) });
      }
    },
  };
}

export function registerTools(api: PluginApi, cairn: Cairn): void {
  api.registerTool((ctx) => memorySearchTool(cairn, ctx), { names: ['memory_search'] });
  api.registerTool((ctx) => memoryGetTool(cairn, ctx), { names: ['memory_get'] });
  api.registerTool((ctx) => memoryStoreTool(cairn, ctx), { names: ['memory_store'] });
}
