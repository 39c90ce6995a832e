// A progress bar on stderr for long jobs (reembed, import, ingest, judge); silent when stderr is
// not a terminal so scripts and --json output stay clean.
import { createRequire } from 'node:module';
import type CliProgress from 'cli-progress';

// Required when a bar is shown, not when the CLI starts: every command (and hook) starts faster.
const require = createRequire(import.meta.url);

/** Steps a unit is split into, so work done within one item (a large file) moves the bar too. */
const SCALE = 1000;

export interface Progress {
  /** `done` may be fractional (part of the current item); the count shown is whole items. */
  update(done: number, total: number): void;
  stop(): void;
}

export function progressBar(label: string, options: { unit?: string } = {}): Progress {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const cliProgress = require('cli-progress') as typeof CliProgress;
  const unit = options.unit ? ` ${options.unit}` : '';
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: `${label} [{bar}] {count}/{of}${unit} {percentage}% · eta {eta_formatted}`, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      const payload = { count: Math.floor(done), of: total };
      if (!started) {
        bar.start(total * SCALE, Math.round(done * SCALE), payload);
        started = true;
      }
      bar.setTotal(total * SCALE);
      bar.update(Math.round(done * SCALE), payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
