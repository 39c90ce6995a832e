// What an OpenClaw agent pays for one memory_search, before (Cairn's MCP tool, as OpenClaw calls it
// through MCP) and after (the OpenClaw plugin's compact answer), on the same data and queries, and
// how long memory_search takes through each path: the plugin via the daemon's local socket (what
// runs inside OpenClaw, on Node 24), the library in-process (Node 20 here: under OpenClaw's Node 24
// Cairn's native SQLite addon does not load), and MCP over stdio.
// Data: the first LoCoMo conversation as an OpenClaw transcript of agent "bench", captured by a
// real `cairn watch` (default config: the bundled embedder, hybrid search), plus its questions.
// Beside them, OpenClaw's built-in memory (memory-core) on the same turns and queries, searched in
// process by OpenClaw's Node 24 (see openclaw-builtin.ts); it needs the cached OpenClaw install of
// the real-OpenClaw test and is skipped without it, unless --install-openclaw installs it from npm.
// Usage: node --import tsx bench/openclaw-plugin.ts [--turns 160] [--queries 30] [--install-openclaw]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Cairn } from '../src/service/cairn.js';
import { loadLocomo } from './locomo.js';
import { dist, pair, table } from './stats.js';
import { cairnClient } from '../integrations/openclaw/src/client.js';
import { readSettings } from '../integrations/openclaw/src/config.js';
import { compactHits } from '../integrations/openclaw/src/compact.js';
import { memorySearchTool } from '../integrations/openclaw/src/tools.js';
import { catchUp, status } from '../integrations/openclaw/src/operations.js';
import { recall } from '../integrations/openclaw/src/hooks.js';
import { cachedOpenClaw, ensureOpenClaw, openclawCacheDir } from '../test/helpers/openclaw-install.js';
import { runBuiltin, type BuiltinRun } from './openclaw-builtin.js';

const arg = (name: string, fallback: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] ?? fallback) || fallback;
const TURNS = arg('turns', 160);
const QUERIES = arg('queries', 30);
const LIMIT = 6;
const CLI = resolve('dist/interfaces/cli/main.js');
const LOCOMO = resolve(process.env.LOCOMO_PATH ?? '/work/shared/bench/data/locomo10.json');

function run(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((res, rej) => {
    const c = spawn(process.execPath, [CLI, ...args], { env, stdio: 'ignore' });
    c.on('close', (code) => (code === 0 ? res() : rej(new Error(`cairn ${args.join(' ')} exited ${code}`))));
  });
}

/** Wall and CPU (this process) of one call, in ms. */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, wall, cpu: (c.user + c.system) / 1000 };
}

/** The daemon's CPU so far (utime + stime), in ms. */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function main(): Promise<void> {
  const conv = loadLocomo(LOCOMO)?.[0];
  if (!conv) throw new Error(`${LOCOMO} is missing`);
  const root = mkdtempSync(join(tmpdir(), 'cairn-ocp-'));
  const home = join(root, 'h');
  const oc = join(root, '.openclaw');
  mkdirSync(join(oc, 'agents', 'bench', 'sessions'), { recursive: true });
  const speakers = [...new Set(conv.turns.map((t) => t.speaker))];
  const rows = [{ type: 'session', version: 3, id: 'locomo', timestamp: conv.turns[0]!.timestamp, cwd: root }];
  conv.turns.slice(0, TURNS).forEach((t, i) => {
    const role = t.speaker === speakers[0] ? 'user' : 'assistant';
    const message = role === 'user' ? { role, content: [{ type: 'text', text: `${t.speaker}: ${t.text}` }], timestamp: Date.parse(t.timestamp) } : { role, content: [{ type: 'text', text: `${t.speaker}: ${t.text}` }], stopReason: 'stop', timestamp: Date.parse(t.timestamp) };
    rows.push({ type: 'message', id: i.toString(16).padStart(8, '0'), parentId: null, timestamp: t.timestamp, message } as never);
  });
  writeFileSync(join(oc, 'agents', 'bench', 'sessions', 'locomo.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const env = { ...process.env, CAIRN_HOME: home, OPENCLAW_STATE_DIR: oc };
  await run(['sources', 'add', 'openclaw'], env);
  const daemon = spawn(process.execPath, [CLI, 'watch', '--quiet'], { env, stdio: 'ignore' });
  const plugin = { client: cairnClient(home), settings: readSettings({ home }) };
  const queries = conv.questions.slice(0, QUERIES).map((q) => q.question);
  let mcp: Client | null = null;
  let cairn: Cairn | null = null;
  try {
    // Captured, judged and embedded: the daemon's queue is empty and every vector is there.
    for (const until = Date.now() + 600_000; ; ) {
      try {
        const s = await status(plugin, 5000);
        const ns = s.namespaces.find((n) => n.namespace === 'bench');
        if (ns && ns.turns > 0 && ns.missingVectors === 0 && s.capture.daemon.queued === 0 && s.index.fresh) {
          console.log(`data: ${ns.turns} turns, ${ns.memories} memories, ${ns.vectors} vectors in namespace bench (LoCoMo ${conv.id}, first ${TURNS} turns); ${queries.length} of its questions`);
          break;
        }
      } catch {
        // the daemon is still starting
      }
      if (Date.now() > until) throw new Error('the daemon did not finish capturing within 10 minutes');
      await new Promise((r) => setTimeout(r, 1000));
    }

    const tool = memorySearchTool(plugin, { agentId: 'bench' });
    const viaSocket: Array<{ wall: number; cpu: number; daemonCpu: number; chars: number; perResult: number[] }> = [];
    for (const q of [queries[0]!, ...queries]) {
      const d0 = processCpuMs(daemon.pid!);
      const { value, wall, cpu } = await timed(() => tool.execute('b', { query: q, maxResults: LIMIT }));
      const details = value.details as { results: unknown[] };
      viaSocket.push({ wall, cpu, daemonCpu: processCpuMs(daemon.pid!) - d0, chars: value.content[0]!.text.length, perResult: details.results.map((r) => JSON.stringify(r).length) });
    }
    viaSocket.shift(); // the warm-up query
    // What the hooks cost a turn: the brief before the prompt, the catch-up at agent_end (nothing new).
    const recalls: number[] = [];
    const catchUps: number[] = [];
    for (const q of queries.slice(0, 10)) {
      recalls.push((await timed(() => recall(plugin, 'bench', q))).wall);
      catchUps.push((await timed(() => catchUp(plugin, 'bench'))).wall);
    }

    cairn = await Cairn.open({ home });
    const inProcess: Array<{ wall: number; cpu: number }> = [];
    for (const q of [queries[0]!, ...queries]) {
      const { wall, cpu } = await timed(async () => compactHits((await cairn!.search(q, { namespace: 'bench', limit: LIMIT })).results, plugin.settings.resultChars));
      inProcess.push({ wall, cpu });
    }
    inProcess.shift();

    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '-n', 'bench'], env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string')), stderr: 'ignore' });
    mcp = new Client({ name: 'bench', version: '1' });
    await mcp.connect(transport);
    await mcp.listTools();
    const viaMcp: Array<{ wall: number; cpu: number; chars: number; text: number; structured: number; perResult: number[] }> = [];
    for (const q of [queries[0]!, ...queries]) {
      const { value, wall, cpu } = await timed(() => mcp!.callTool({ name: 'memory_search', arguments: { query: q, maxResults: LIMIT } }));
      const text = (value.content as Array<{ text: string }>)[0]!.text.length;
      const structured = JSON.stringify(value.structuredContent).length;
      const results = (value.structuredContent as { results: unknown[] }).results;
      viaMcp.push({ wall, cpu, chars: JSON.stringify({ content: value.content, structuredContent: value.structuredContent }).length, text, structured, perResult: results.map((r) => JSON.stringify(r).length) });
    }
    viaMcp.shift();

    const install = process.argv.includes('--install-openclaw') ? await ensureOpenClaw() : cachedOpenClaw();
    let builtin: BuiltinRun | null = null;
    if (install) {
      builtin = await runBuiltin(install, join(root, 'builtin'), conv.turns.slice(0, TURNS), queries, LIMIT);
      const s = builtin.status;
      console.log(`OpenClaw built-in memory-core: ${s.files} daily files, ${s.chunks} chunks (sources ${s.sources.join('+')}, embedding provider ${s.provider}, mode ${s.searchMode ?? '?'}), indexed in ${(builtin.indexMs / 1000).toFixed(1)} s`);
    } else {
      console.log(`OpenClaw built-in memory: skipped, no cached OpenClaw at ${openclawCacheDir()} (run with --install-openclaw to install it from npm, or run test/integrations/openclaw-real.test.ts once)`);
    }

    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
    const per = (rows: Array<{ perResult: number[] }>) => rows.flatMap((r) => r.perResult);
    console.log(`\nanswer size per memory_search (maxResults ${LIMIT}), characters the agent receives:`);
    console.log(
      table(
        ['path', 'answer mean', 'answer max', 'per result mean', 'per result max'],
        [
          ['MCP memory_search (structured JSON + text copy)', mean(viaMcp.map((r) => r.chars)).toFixed(0), Math.max(...viaMcp.map((r) => r.chars)).toString(), mean(per(viaMcp)).toFixed(0), Math.max(...per(viaMcp)).toString()],
          ['  of which structuredContent / text', `${mean(viaMcp.map((r) => r.structured)).toFixed(0)} / ${mean(viaMcp.map((r) => r.text)).toFixed(0)}`, '', '', ''],
          [`plugin memory_search (resultChars ${plugin.settings.resultChars})`, mean(viaSocket.map((r) => r.chars)).toFixed(0), Math.max(...viaSocket.map((r) => r.chars)).toString(), mean(per(viaSocket)).toFixed(0), Math.max(...per(viaSocket)).toString()],
          ...(builtin ? [['OpenClaw built-in memory-core (its search results as JSON)', mean(builtin.timings.map((r) => r.chars)).toFixed(0), Math.max(...builtin.timings.map((r) => r.chars)).toString(), mean(per(builtin.timings)).toFixed(0), Math.max(...per(builtin.timings)).toString()]] : []),
        ],
      ),
    );
    console.log(`\nmemory_search latency, p50 / p95 (n=${queries.length} each, after one warm-up):`);
    console.log(
      table(
        ['path', 'wall', 'CPU, caller', 'CPU, daemon'],
        [
          ['plugin → daemon socket (runs under Node 24)', pair(dist(viaSocket.map((r) => r.wall))), pair(dist(viaSocket.map((r) => r.cpu))), pair(dist(viaSocket.map((r) => r.daemonCpu)))],
          ['library in-process (Node 20 only: baseline)', pair(dist(inProcess.map((r) => r.wall))), pair(dist(inProcess.map((r) => r.cpu))), '—'],
          ['MCP over stdio (cairn mcp)', pair(dist(viaMcp.map((r) => r.wall))), pair(dist(viaMcp.map((r) => r.cpu))), '—'],
          builtin
            ? ['OpenClaw built-in memory-core, in process (Node 24, keywords only)', pair(dist(builtin.timings.map((r) => r.wall))), pair(dist(builtin.timings.map((r) => r.cpu))), '—']
            : ['OpenClaw built-in memory-core', 'skipped: no cached OpenClaw', '', ''],
        ],
      ),
    );
    console.log(`\nhooks per turn, wall p50 / p95 (n=${recalls.length}): auto-recall brief (${plugin.settings.recallTokens} tokens, with the request as query) ${pair(dist(recalls))}; catch-up at agent_end, nothing new ${pair(dist(catchUps))}`);
  } finally {
    await mcp?.close();
    await cairn?.close();
    daemon.kill('SIGTERM');
    await new Promise((r) => daemon.once('close', r));
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
