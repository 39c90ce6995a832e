// cairn watch: the capture daemon in the foreground (run it under systemd, launchd or nohup).
import type { Command } from 'commander';
import { CairnError, ERROR_CODES } from '../../../core/errors.js';
import { THREADS, intOption, openCairn } from '../run.js';

export function registerWatchCommand(program: Command): void {
  program
    .command('watch')
    .description('Capture continuously from every registered source (one per data directory; logs to <home>/logs/cairn.log)')
    .option('--quiet', 'log to the file only, not to stdout')
    .option('--debounce-ms <ms>', 'quiet time after a change before capturing', intOption('debounce-ms', 0, 60_000))
    .option('--rescan-seconds <s>', 'full rescan interval (safety net for missed events)', intOption('rescan-seconds', 1, 86_400))
    .option('--settle-seconds <s>', 'quiet time before a held response is captured as final', intOption('settle-seconds', 1, 3600))
    .action(async (opts: { quiet?: boolean; debounceMs?: number; rescanSeconds?: number; settleSeconds?: number }, cmd: Command) => {
      // Loaded here, not at the top: every other command (and every hook) starts faster without them.
      const [{ createLogger }, { Daemon }, { serveLocal }] = await Promise.all([
        import('../../../daemon/logger.js'),
        import('../../../daemon/daemon.js'),
        import('../../local/server.js'),
      ]);
      const cairn = await openCairn(cmd, { embedThreads: THREADS.bulk });
      if (cairn.readOnly) {
        await cairn.close();
        throw new CairnError(ERROR_CODES.READ_ONLY, `cairn watch captures into the data directory, which is read-only here: ${cairn.readOnly}`);
      }
      const logger = createLogger(cairn.paths.logDir, { quiet: opts.quiet });
      const daemon = new Daemon(cairn, { logger, debounceMs: opts.debounceMs, rescanSeconds: opts.rescanSeconds, settleSeconds: opts.settleSeconds });
      try {
        await daemon.start();
      } catch (err) {
        await cairn.close();
        throw err;
      }
      // `cairn search`, `cairn context` and the SessionStart hook ask this warm process first.
      const local = await serveLocal(cairn);
      if (local) logger.info({ socket: local.path }, 'answering searches on the local socket');
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          process.removeAllListeners('SIGINT');
          process.removeAllListeners('SIGTERM');
          Promise.all([daemon.stop(signal), local?.close()]).then(() => cairn.close()).then(resolve, (err: unknown) => {
            logger.error({ err: String(err) }, 'shutdown failed');
            resolve();
          });
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      });
      // Everything is committed and closed: a handle some library still holds (a file watcher
      // racing the shutdown) must not keep a stopped daemon alive.
      setTimeout(() => process.exit(process.exitCode ?? 0), 2000).unref();
    });
}
