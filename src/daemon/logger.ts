// Structured logs (pino): JSON lines to <data>/logs/cairn.log, and to stdout unless quiet.
// Synchronous writes: the daemon logs little, and a log line must not be lost at SIGTERM.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(logDir: string, options: { quiet?: boolean; level?: string } = {}): Logger {
  mkdirSync(logDir, { recursive: true });
  const streams: pino.StreamEntry[] = [{ stream: pino.destination({ dest: join(logDir, 'cairn.log'), sync: true, mkdir: true }) }];
  if (!options.quiet) streams.push({ stream: pino.destination({ dest: 1, sync: true }) });
  return pino({ level: options.level ?? 'info', base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, pino.multistream(streams));
}
