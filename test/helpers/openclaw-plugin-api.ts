// A stand-in for the api object OpenClaw passes a plugin's register(api): it records the tools,
// memory capability, hooks and CLI commands the plugin registers, so tests drive them as OpenClaw
// would (tool factories get the agent's context; hooks get OpenClaw's event and context).
import assert from 'node:assert/strict';
import type { AgentTool, MemoryPluginCapability, PluginApi, ToolContext } from '../../integrations/openclaw/src/openclaw-api.js';

export interface Recorded {
  api: PluginApi;
  tools: Map<string, (ctx: ToolContext) => AgentTool>;
  hooks: Map<string, (event: any, ctx: any) => unknown>;
  capability: MemoryPluginCapability | null;
  cli: string[];
  warnings: string[];
}

/** An OpenClaw plugin api that records what the plugin registers. */
export function recordingApi(pluginConfig: Record<string, unknown>): Recorded {
  const r: Recorded = { api: null as unknown as PluginApi, tools: new Map(), hooks: new Map(), capability: null, cli: [], warnings: [] };
  r.api = {
    id: 'cairn',
    pluginConfig,
    logger: { info: () => undefined, warn: (m) => r.warnings.push(m), error: (m) => r.warnings.push(m) },
    registerTool: (factory, opts) => r.tools.set(opts!.names![0]!, factory),
    registerMemoryCapability: (c) => (r.capability = c),
    registerCli: (_registrar, opts) => r.cli.push(...(opts?.descriptors ?? []).map((d) => d.name)),
    on: (hook, handler) => r.hooks.set(hook, handler),
  };
  return r;
}

/** Runs a tool as OpenClaw would; returns what the agent reads (the text) and the details. */
export async function callTool(r: Recorded, name: string, agentId: string | undefined, params: unknown): Promise<{ text: string; details: any }> {
  const tool = r.tools.get(name)!({ agentId, sessionKey: `agent:${agentId}:main` });
  const res = await tool.execute('call-1', params);
  assert.equal(res.content.length, 1);
  assert.deepEqual(JSON.parse(res.content[0]!.text), res.details, 'the text the agent reads is the details, as compact JSON');
  return { text: res.content[0]!.text, details: res.details };
}

