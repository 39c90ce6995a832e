// Structured logs (pino): JSON lines to <data>/logs/cairn.log, and to stdout unless quiet.
// Synchronous writes: the daemon logs little, and a log line must not be lost at SIGTERM.
// Every line passes the redaction gate: an error message can quote the text it failed on.
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/private-files.js';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { gateDeep, gateText } from '../service/redaction-gate.js';

export type { Logger };

/** An error as a plain object whose message and stack passed the gate. */
function gatedError(err: Error): Record<string, unknown> {
  return { type: err.name, message: gateText(err.message), ...(err.stack ? { stack: gateText(err.stack) } : {}) };
}

/** A logged value with every string (and every error's message and stack) through the gate. */
export function gateLogValue(value: unknown): unknown {
  if (value instanceof Error) return gatedError(value);
  if (Array.isArray(value)) return value.map(gateLogValue);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = gateLogValue(v);
    return out;
  }
  return gateDeep(value);
}

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
  return pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { log: (object) => gateLogValue(object) as Record<string, unknown> },
      hooks: {
        // The message (and an Error logged on its own, whose message pino would use) through the gate.
        logMethod(args, method) {
          const [first, ...rest] = args as unknown[];
          if (first instanceof Error) {
            const err = gatedError(first);
            const msg = typeof rest[0] === 'string' ? [gateText(rest[0]), ...rest.slice(1)] : [err.message];
            return method.apply(this, [{ err }, ...msg] as Parameters<typeof method>);
          }
          return method.apply(this, args.map((a) => (typeof a === 'string' ? gateText(a) : a)) as Parameters<typeof method>);
        },
      },
    },
    pino.multistream(streams),
  );
}
