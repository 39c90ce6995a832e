// OpenClaw's built-in memory search (memory-core, the manager `openclaw memory search` calls), timed
// in process. Run by OpenClaw's Node 24 (plain JS: no tsx there) from bench/openclaw-plugin.ts:
//   node openclaw-builtin-search.mjs <openclaw package dir> <job.json>
// job.json: { agentId, workspace, queries, maxResults }; OPENCLAW_STATE_DIR and HOME point at an
// isolated state dir. Prints one JSON line: the index's status, per-query wall/CPU and answer sizes.
// The imports below are OpenClaw 2026.9.6's own modules: memory-core's runtime API, and the
// keyed state store its host hands memory-core at startup (the CLI does the same before a search).
import { readFileSync, readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [pkg, jobFile] = process.argv.slice(2);
const job = JSON.parse(readFileSync(jobFile, 'utf8'));
const mod = (p) => import(pathToFileURL(`${pkg}/dist/${p}`).href);
const { getMemorySearchManager } = await mod('extensions/memory-core/runtime-api.js');
const { configureMemoryCoreDreamingState } = await mod('extensions/memory-core/api.js');
// Bundler-hashed chunks: the one that exports createPluginStateKeyedStore by name (in 2026.9.6
// plugin-state-store-Bm-w12Xn.mjs re-exports it from a minified sibling).
let createPluginStateKeyedStore;
for (const f of readdirSync(`${pkg}/dist`).filter((name) => /^plugin-state-store-[\w-]+\.mjs$/.test(name))) {
  createPluginStateKeyedStore ??= (await mod(f)).createPluginStateKeyedStore;
}
if (typeof createPluginStateKeyedStore !== 'function') throw new Error(`no plugin-state-store chunk in ${pkg}/dist exports createPluginStateKeyedStore`);
configureMemoryCoreDreamingState((options) => createPluginStateKeyedStore('memory-core', options));

const cfg = { agents: { list: [{ id: job.agentId, default: true, workspace: job.workspace }] } };
const t0 = performance.now();
const { manager, error } = await getMemorySearchManager({ cfg, agentId: job.agentId, purpose: 'cli' });
if (!manager) throw new Error(`memory-core has no search manager: ${error}`);
await manager.sync({ reason: 'bench', force: true });
const indexMs = performance.now() - t0;
const status = manager.status();

const timings = [];
for (const query of [job.queries[0], ...job.queries]) {
  const c0 = process.cpuUsage(); // worker threads count here too: the search worker is one
  const w0 = performance.now();
  const results = await manager.search(query, { maxResults: job.maxResults, sessionKey: `agent:${job.agentId}:bench` });
  const wall = performance.now() - w0;
  const c = process.cpuUsage(c0);
  timings.push({ wall, cpu: (c.user + c.system) / 1000, chars: JSON.stringify({ results }).length, perResult: results.map((r) => JSON.stringify(r).length) });
}
timings.shift(); // the warm-up query
await manager.close?.();
const { files, chunks, provider, sources, sourceCounts, custom } = status;
console.log(JSON.stringify({ status: { files, chunks, provider, sources, sourceCounts, searchMode: custom?.searchMode }, indexMs, timings }));
process.exit(0);
