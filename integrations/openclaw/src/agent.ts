// Which Cairn namespace an OpenClaw agent's memory lives in: the one capture files its transcripts
// under (agents/<agentId>/… → namespaceFromName(agentId), src/capture/sources/units.ts), taken
// from the agent id OpenClaw hands each tool and hook, never from a global setting, so two agents
// never read each other's memories.
import { namespaceFromName } from '../../../src/core/namespace.js';
import { CairnUnavailable } from './client.js';

/** OpenClaw's default agent, used when a context names none (a single-agent setup). */
export const DEFAULT_AGENT = 'main';

export function agentNamespace(agentId: string | undefined): string {
  const id = typeof agentId === 'string' && agentId.trim() !== '' ? agentId : DEFAULT_AGENT;
  const ns = namespaceFromName(id);
  // Capture would file such an agent under its source's namespace, which only the daemon knows.
  if (ns === null) throw new CairnUnavailable(`agent id ${JSON.stringify(id.slice(0, 64))} maps to no Cairn namespace`);
  return ns;
}
