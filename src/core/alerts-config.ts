// The `alerts` section of config.json: when the stability sentinel raises an alert, how often the
// daemon checks, and the optional command run when an alert is raised or cleared.
import { z } from 'zod';
import { lazily } from './lazily.js';

export const alertsConfigSchema = lazily(() => z.strictObject({
  /** How often the daemon runs its health checks. */
  checkIntervalSeconds: z.number().int().min(1).max(86_400).default(60),
  /** A watched file has unread complete lines and capture has not moved on for this long. */
  captureLagSeconds: z.number().int().min(1).max(604_800).default(300),
  /** The LLM judge has been failing (its batches judged by the heuristic fallback) for this long; 0 = at once. */
  judgeFallbackMinutes: z.number().min(0).max(10_080).default(15),
  /** Entries waiting for a vector above this count. */
  embedBacklogMax: z.number().int().min(1).max(1_000_000_000).default(10_000),
  /** Entries waiting for a vector, growing at each of this many consecutive checks. */
  embedBacklogRisingChecks: z.number().int().min(2).max(1000).default(5),
  /** Free space on the data directory's file system below this many MiB. */
  minFreeDiskMb: z.number().int().min(0).max(1_000_000_000).default(512),
  /** How often the daemon runs PRAGMA quick_check (it reads every page); 0 = at every check. */
  integrityCheckHours: z.number().min(0).max(8760).default(24),
  /** The newest entry of <home>/backups/ is older than this (no backups yet: no alert). */
  backupMaxAgeHours: z.number().min(1).max(87_600).default(48),
  /** Shell command run when an alert is raised or cleared, with the alert as JSON on stdin. */
  command: z.string().min(1).optional(),
  /** The command is killed after this long (a failure is logged, never fatal). */
  commandTimeoutSeconds: z.number().int().min(1).max(600).default(10),
}));

export type AlertsConfig = z.infer<ReturnType<typeof alertsConfigSchema>>;
