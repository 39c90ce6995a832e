// cairn serve: the REST API (and MCP over Streamable HTTP at /mcp) in the foreground.
import type { Command } from 'commander';
import { DEFAULT_HOST, DEFAULT_PORT } from '../../http/defaults.js';
import { THREADS, intOption, openCairn, print } from '../run.js';

const AUTH_HELP = `
Authentication:
  Every route except GET /v1/health and GET /openapi.json needs "Authorization: Bearer <token>".
  Create tokens with "cairn tokens create --grant NAMESPACE" (--grant "*" for all namespaces);
  a token only reaches the namespaces it was granted (403 for others).

  Local single-user mode: while the data directory has NO token at all and the server is bound
  to a loopback address (127.0.0.1, ::1, localhost), requests from this machine are accepted
  without a token. Creating the first token ends this mode at once (no restart needed).
  Binding to any other address (e.g. --host 0.0.0.0) is refused until a token exists.
  Revoking every token does NOT reopen this mode: a home that had a token keeps requiring one.
  Start with --no-auth to choose token-less local access again (loopback only, refused while a
  token is active; creating a token ends it at once).

Web UI at / (search, memory detail and the other views): log in once with a token (kept in an
  HttpOnly cookie); no login in the token-less local mode above.

Routes (JSON in and out; OpenAPI 3.1 document at /openapi.json):
  GET  /v1/health                                  GET  /v1/status
  POST /v1/namespaces/:ns/memories                 GET  /v1/namespaces/:ns/memories
  GET  /v1/namespaces/:ns/memories/:id             GET  /v1/namespaces/:ns/memories/:id/history
  POST /v1/namespaces/:ns/memories/:id/supersede   POST /v1/namespaces/:ns/memories/:id/feedback
  PUT  /v1/namespaces/:ns/memories/:id/tags        GET  /v1/namespaces
  POST /v1/namespaces/:ns/search                   GET  /v1/namespaces/:ns/search?q=
  GET  /v1/namespaces/:ns/state                    PUT  /v1/namespaces/:ns/state
  GET  /v1/namespaces/:ns/context?query=&budgetTokens=
  GET  /v1/namespaces/:ns/files?path=&from=&lines=
  POST /mcp   (MCP Streamable HTTP; namespace from the X-Cairn-Namespace header or ?namespace=)
`;

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Serve the REST API and MCP over HTTP (logs JSON lines to stdout and <home>/logs/cairn.log)')
    .option('--host <host>', 'address to listen on', DEFAULT_HOST)
    .option('--port <port>', 'port to listen on (0: any free port)', intOption('port', 0, 65_535), DEFAULT_PORT)
    .option('--quiet', 'log to the file only, not to stdout')
    .option('--no-auth', 'accept requests from this machine without a token although the home had tokens (all revoked); loopback only')
    .addHelpText('after', AUTH_HELP)
    .action(async (opts: { host: string; port: number; quiet?: boolean; auth: boolean }, cmd: Command) => {
      // One facade for the server's life; the embedder runs in-process (a query embeds in ~20 ms).
      const cairn = await openCairn(cmd, { embedThreads: THREADS.query });
      // Loaded here, not at the top: every other command (and every hook) starts faster without them.
      const [{ createLogger }, { startServer }, { serveLocal }] = await Promise.all([
        import('../../../daemon/logger.js'),
        import('../../http/server.js'),
        import('../../local/server.js'),
      ]);
      let server;
      let logger;
      try {
        logger = createLogger(cairn.paths.logDir, { quiet: opts.quiet }).child({ component: 'http' });
        server = await startServer(cairn, { host: opts.host, port: opts.port, logger, noAuth: !opts.auth });
      } catch (err) {
        await cairn.close();
        throw err;
      }
      print(`Cairn API listening on ${server.url} (web UI: ${server.url}/, OpenAPI: ${server.url}/openapi.json, MCP: ${server.url}/mcp)`);
      // `cairn search`, `cairn context` and the SessionStart hook ask this warm process first, unless `cairn watch` already answers them.
      const local = await serveLocal(cairn);
      if (local) logger.info({ socket: local.path }, 'answering searches on the local socket');
      if (server.open && server.allRevoked) print('--no-auth: every API token is revoked and requests from this machine are accepted without one, until a token is created.');
      else if (server.open) print('No API token exists: requests from this machine are accepted without one. Create one with "cairn tokens create --grant NAMESPACE".');
      else if (server.allRevoked) print('Every API token of this home is revoked: requests still need one ("cairn tokens create --grant NAMESPACE"), or restart with --no-auth to accept requests from this machine without one.');
      logger.info({ url: server.url, open: server.open, allRevoked: server.allRevoked, home: cairn.paths.root }, 'listening');
      const running = server;
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          process.removeAllListeners('SIGINT');
          process.removeAllListeners('SIGTERM');
          logger.info({ signal }, 'stopping');
          Promise.all([running.close(), local?.close()])
            .then(() => cairn.close())
            .then(
              () => {
                logger.info('stopped');
                resolve();
              },
              (err: unknown) => {
                logger.error({ err: String(err) }, 'shutdown failed');
                process.exitCode = 1;
                resolve();
              },
            );
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      });
    });
}
