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
      // Signals are taken from the start: the daemon begins work (a catch-up) while it starts, and a
      // SIGTERM then must stop it cleanly, not kill it.
      let stopSignal: string | null = null;
      let wake: (() => void) | null = null;
      const onSignal = (signal: string) => {
        if (stopSignal !== null) return;
        stopSignal = signal;
        wake?.();
      };
      process.once('SIGINT', () => onSignal('SIGINT'));
      process.once('SIGTERM', () => onSignal('SIGTERM'));
      try {
        await daemon.start();
      } catch (err) {
        await cairn.close();
        throw err;
      }
      // `cairn search`, `cairn context` and the SessionStart hook ask this warm process first.
      const local = stopSignal === null ? await serveLocal(cairn, { catchUp: () => daemon.catchUp() }) : null;
      if (local) logger.info({ socket: local.path }, 'answering searches on the local socket');
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (stopSignal !== null) resolve();
      });
      process.removeAllListeners('SIGINT');
      process.removeAllListeners('SIGTERM');
      try {
        await Promise.all([daemon.stop(stopSignal ?? 'SIGTERM'), local?.close()]);
        await cairn.close();
      } catch (err) {
        logger.error({ err: String(err) }, 'shutdown failed');
      }
      // Everything is committed and closed: a handle some library still holds (a file watcher
      // racing the shutdown) must not keep a stopped daemon alive.
      setTimeout(() => process.exit(process.exitCode ?? 0), 2000).unref();
    });
}
