// Structured logs (pino): JSON lines to <data>/logs/cairn.log, and to stdout unless quiet.
// Synchronous writes: the daemon logs little, and a log line must not be lost at SIGTERM.
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/private-files.js';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(logDir: string, options: { quiet?: boolean; level?: string } = {}): Logger {
  const file = join(logDir, 'cairn.log');
  try {
    mkdirSync(logDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    // Created private here: pino would create it with the process umask.
    closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (['EACCES', 'EPERM', 'EROFS'].includes(code)) throw new CairnError(ERROR_CODES.READ_ONLY, `Cannot write the log ${file}: the data directory is read-only here (${code})`);
    throw err;
  }
  const streams: pino.StreamEntry[] = [{ stream: pino.destination({ dest: file, sync: true }) }];
  if (!options.quiet) streams.push({ stream: pino.destination({ dest: 1, sync: true }) });
  return pino({ level: options.level ?? 'info', base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, pino.multistream(streams));
}
