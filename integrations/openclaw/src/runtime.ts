// The memory capability OpenClaw's core asks for the active memory plugin: a search manager per
// agent (search, readFile, status, sync) so the host's own memory surfaces (status, search, the
// Control UI) answer from Cairn, and the prompt section that tells the agent to use the tools.
import { agentNamespace } from './agent.js';
import { CairnRefused } from './client.js';
import { catchUp, get, search, status, type Cairn } from './operations.js';
import type { MemoryPluginCapability, MemoryProviderStatus, MemoryReadResult, MemorySearchManager } from './openclaw-api.js';
import { providerStatus } from './status.js';

/** A manager for one agent; `report` is Cairn's status when it was made (status() is synchronous). */
export function searchManager(cairn: Cairn, agentId: string, report: MemoryProviderStatus): MemorySearchManager {
  return {
    async search(query, opts = {}) {
      const answer = await search(cairn, agentId, {
        query,
        ...(opts.maxResults !== undefined ? { maxResults: opts.maxResults } : {}),
        ...(opts.minScore !== undefined ? { minScore: opts.minScore } : {}),
        ...(opts.sources ? { sources: opts.sources } : {}),
      });
      return answer.results;
    },
    async readFile({ relPath, from, lines }): Promise<MemoryReadResult> {
      try {
        const got = await get(cairn, agentId, { path: relPath, ...(from !== undefined ? { from } : {}), ...(lines !== undefined ? { lines } : {}) });
        const nextFrom = got.from + got.lines;
        return { status: 'ok', path: got.path, text: got.text, from: got.from, lines: got.lines, ...(nextFrom <= got.totalLines ? { truncated: true, nextFrom } : {}) };
      } catch (err) {
        if (err instanceof CairnRefused && err.code === 'NOT_FOUND') return { status: 'not_found', path: relPath, text: '' };
        throw err;
      }
    },
    status: () => report,
    async sync() {
      await catchUp(cairn, agentId);
    },
    async probeEmbeddingAvailability() {
      return report.vector?.available ? { ok: true } : { ok: false, error: 'Cairn has no embedder configured: keyword search only' };
    },
    async probeVectorAvailability() {
      return report.vector?.available === true;
    },
  };
}

export function memoryCapability(cairn: Cairn): MemoryPluginCapability {
  return {
    deterministicRecallToolName: 'memory_search',
    runtime: {
      async getMemorySearchManager({ agentId }) {
        try {
          const report = await status(cairn);
          return { manager: searchManager(cairn, agentId, providerStatus(report, agentNamespace(agentId), cairn.client.home)) };
        } catch (err) {
          return { manager: null, error: `Cairn memory unavailable: ${err instanceof Error ? err.message : String(err)}` };
        }
      },
      resolveMemoryBackendConfig: () => ({ backend: 'builtin' }),
      // Every hit Cairn returns is already the requesting agent's own (its namespace).
      async authorizeSearchHits({ hits }) {
        return hits;
      },
    },
    promptBuilder({ availableTools }) {
      if (!availableTools.has('memory_search')) return [];
      return [
        '## Memory Recall',
        'Long-term memory is Cairn. Before answering anything about prior work, decisions, dates, people, preferences, or todos: run memory_search; results are short, so use memory_get {path} to read one in full with where it came from. Store durable decisions and facts with memory_store. If memory is unavailable, say you could not check.',
        'Citations: include Source: <citation> when it helps the user verify a memory.',
        '',
      ];
    },
  };
}
