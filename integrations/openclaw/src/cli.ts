// `openclaw memory status|search` while Cairn owns the memory slot (OpenClaw's own `memory`
// command belongs to memory-core, which is then not loaded): the user's check that the memory
// system is healthy and answers, with Cairn's figures and results.
import { DEFAULT_AGENT, agentNamespace } from './agent.js';
import { MAX_QUERY_CHARS, readSearchArgs, search, status, type Cairn } from './operations.js';
import type { CliCommand, PluginApi } from './openclaw-api.js';
import { providerStatus, statusLines } from './status.js';

export const CLI_DESCRIPTOR = { name: 'memory', description: 'Cairn memory: status and search', hasSubcommands: true };

type Out = { log(text: string): void; error(text: string): void };

/**
 * OpenClaw's CLI routes console.* through its logger, to stderr while `--json` reserves stdout, so
 * the commands write to the streams themselves: `openclaw memory status --json | jq` must work.
 */
const STDIO: Out = {
  log: (text) => void process.stdout.write(`${text}\n`),
  error: (text) => void process.stderr.write(`${text}\n`),
};

export async function statusCommand(cairn: Cairn, opts: { agent?: string; json?: boolean }, out: Out = console): Promise<number> {
  const agentId = opts.agent ?? DEFAULT_AGENT;
  try {
    const ns = agentNamespace(agentId);
    const report = await status(cairn);
    if (opts.json) out.log(JSON.stringify([{ agentId, status: providerStatus(report, ns, cairn.client.home) }], null, 2));
    else out.log(statusLines(agentId, report, ns, cairn.client.socket).join('\n'));
    return report.ok ? 0 : 1;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (opts.json) out.log(JSON.stringify({ ok: false, agentId, error: { type: 'cli_error', message: `Cairn memory unavailable: ${message}` } }));
    else out.error(`Memory (Cairn) · agent ${agentId}: unavailable: ${message}`);
    return 1;
  }
}

export async function searchCommand(cairn: Cairn, positional: string | undefined, opts: { query?: string; agent?: string; maxResults?: string; minScore?: string; json?: boolean }, out: Out = console): Promise<number> {
  const agentId = opts.agent ?? DEFAULT_AGENT;
  try {
    const query = opts.query ?? positional;
    if (query === undefined) throw new Error('give a query: openclaw memory search <query> or --query <text>');
    const args = readSearchArgs(
      {
        query,
        ...(opts.maxResults !== undefined ? { maxResults: Number(opts.maxResults) } : {}),
        ...(opts.minScore !== undefined ? { minScore: Number(opts.minScore) } : {}),
      },
      cairn.settings.maxResults,
    );
    const answer = await search(cairn, agentId, args);
    if (opts.json) out.log(JSON.stringify(answer, null, 2));
    else if (answer.results.length === 0) out.log(answer.noGoodMatch ? `No good match for "${query}".` : `No results for "${query}".`);
    else out.log(answer.results.map((r, i) => `${i + 1}. ${r.score.toFixed(3)} ${r.citation} [${r.source}]\n   ${r.snippet}`).join('\n'));
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (opts.json) out.log(JSON.stringify({ ok: false, agentId, error: { type: 'cli_error', message } }));
    else out.error(`memory search failed: ${message}`);
    return 1;
  }
}

export function registerCli(api: PluginApi, cairn: Cairn): void {
  api.registerCli(
    ({ program }: { program: CliCommand }) => {
      const memory = program.command('memory').description(CLI_DESCRIPTOR.description);
      memory
        .command('status')
        .description("Cairn's health and figures for an agent's memory")
        .option('--agent <id>', 'OpenClaw agent id', DEFAULT_AGENT)
        .option('--json', 'print JSON')
        .action(async (opts: { agent?: string; json?: boolean }) => {
          process.exitCode = await statusCommand(cairn, opts, STDIO);
        });
      memory
        .command('search [query]')
        .description(`Search an agent's memory in Cairn (query up to ${MAX_QUERY_CHARS} characters)`)
        .option('--query <text>', 'the query (wins over the positional one)')
        .option('--agent <id>', 'OpenClaw agent id', DEFAULT_AGENT)
        .option('--max-results <n>', 'results to show')
        .option('--min-score <n>', 'leave out results scoring below this')
        .option('--json', 'print JSON')
        .action(async (query: string | undefined, opts: { query?: string; agent?: string; maxResults?: string; minScore?: string; json?: boolean }) => {
          process.exitCode = await searchCommand(cairn, query, opts, STDIO);
        });
    },
    { descriptors: [CLI_DESCRIPTOR] },
  );
}
