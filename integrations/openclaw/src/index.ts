// Cairn as OpenClaw's memory: the plugin entry OpenClaw loads when plugins.slots.memory is "cairn".
// It owns the memory slot (tools, memory capability, `openclaw memory` CLI, auto-recall and
// auto-capture hooks) and does all its work through the local Cairn daemon (see client.ts).
import { cairnClient } from './client.js';
import { readSettings } from './config.js';
import { registerCli } from './cli.js';
import { registerHooks } from './hooks.js';
import type { PluginApi } from './openclaw-api.js';
import { memoryCapability } from './runtime.js';
import { registerTools } from './tools.js';

export const PLUGIN_ID = 'cairn';

/** Wires everything into OpenClaw; returns what it built (for tests and the harness). */
export function register(api: PluginApi) {
  const settings = readSettings(api.pluginConfig, process.env, (m) => api.logger.warn(m));
  const cairn = { client: cairnClient(settings.home), settings };
  api.registerMemoryCapability(memoryCapability(cairn));
  registerTools(api, cairn);
  registerHooks(api, cairn);
  registerCli(api, cairn);
  return cairn;
}

export default {
  id: PLUGIN_ID,
  name: 'Cairn memory',
  description: 'Long-term memory for OpenClaw agents from Cairn: search, recall and capture through the local Cairn daemon',
  kind: 'memory',
  register(api: PluginApi): void {
    register(api);
  },
};
