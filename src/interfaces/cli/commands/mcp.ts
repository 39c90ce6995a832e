// cairn mcp: the MCP server over stdio for one namespace (-n, else $CAIRN_NAMESPACE, else the
// config's defaultNamespace). The facade is opened once for the server's life, with the embedder
// in-process (single queries: a worker thread would only add start-up time), and closed when stdin
// ends or on SIGTERM/SIGINT. Logs go to stderr: stdout is the protocol channel.
import type { Command } from 'commander';
import { THREADS, globals } from '../run.js';

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Run the MCP server over stdio for one namespace (-n, else $CAIRN_NAMESPACE, else the config default)')
    .action(async (_opts, cmd: Command) => {
      const g = globals(cmd);
      const envNs = process.env.CAIRN_NAMESPACE?.trim();
      const namespace = g.namespace ?? (envNs ? envNs : undefined);
      const { runStdioServer, reserveStdout } = await import('../../mcp/stdio.js');
      // Before anything else can print: from here on only the protocol reaches stdout.
      const stdout = reserveStdout();
      const { Cairn } = await import('../../../service/cairn.js');
      const cairn = await Cairn.open({ home: g.home, namespace, embedThreads: THREADS.query });
      try {
        await runStdioServer(cairn, cairn.defaultNamespace, { stdout });
      } finally {
        await cairn.close();
      }
    });
}
