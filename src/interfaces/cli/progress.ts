// A progress bar on stderr for long jobs (reembed, import); silent when stderr is not a terminal
// so scripts and --json output stay clean.
import { createRequire } from 'node:module';
import type CliProgress from 'cli-progress';

// Required when a bar is shown, not when the CLI starts: every command (and hook) starts faster.
const require = createRequire(import.meta.url);

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

export function progressBar(label: string): Progress {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const cliProgress = require('cli-progress') as typeof CliProgress;
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: `${label} [{bar}] {value}/{total} {percentage}% · eta {eta_formatted}`, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, done);
        started = true;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
