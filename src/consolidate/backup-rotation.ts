// Which nightly backups to keep: the newest of each local day for the newest `keepDaily` days that
// have one, then, among the older ones, the newest of each ISO week for the newest `keepWeekly`
// weeks. Only `daily` backups are rotated: a manual backup and the one kept before a restore were
// asked for (or are a restore's undo), so they stay until the person deletes them.
import type { HomePaths } from '../core/home.js';
import { localDayTime } from '../core/local-time.js';
import { createBackup, listBackups, removeAbandonedTemps, removeDatabaseFiles, type BackupInfo } from './backup.js';
import type { Store } from '../store/store.js';

export interface RotationPolicy {
  keepDaily: number;
  keepWeekly: number;
  /** The home's time zone: which local day (and ISO week) a backup was taken on. */
  timeZone: string;
}

import { isoWeekOf } from './windows.js';

export { isoWeekOf };

/** Splits daily backups into kept and removable (pure: the rule, tested across day and week boundaries). */
export function selectRotation<T extends Pick<BackupInfo, 'id' | 'kind' | 'createdAt'>>(backups: readonly T[], policy: RotationPolicy): { keep: T[]; remove: T[] } {
  const daily = backups.filter((b) => b.kind === 'daily').sort((a, b) => (a.createdAt === b.createdAt ? b.id.localeCompare(a.id) : a.createdAt < b.createdAt ? 1 : -1));
  const keep = new Set<T>();
  const days = new Set<string>();
  let oldestKeptDay: string | null = null;
  for (const b of daily) {
    const day = localDayTime(b.createdAt, policy.timeZone)!.day;
    if (days.has(day) || days.size >= policy.keepDaily) continue;
    days.add(day);
    keep.add(b);
    oldestKeptDay = day;
  }
  const weeks = new Set<string>();
  for (const b of daily) {
    const day = localDayTime(b.createdAt, policy.timeZone)!.day;
    if (oldestKeptDay !== null && day >= oldestKeptDay) continue;
    const week = isoWeekOf(day);
    if (weeks.has(week) || weeks.size >= policy.keepWeekly) continue;
    weeks.add(week);
    keep.add(b);
  }
  return { keep: daily.filter((b) => keep.has(b)), remove: daily.filter((b) => !keep.has(b)) };
}

export interface RotationReport {
  kept: string[];
  removed: string[];
  /** Temporary files of backups whose process died, removed. */
  abandoned: string[];
}

/** Applies the policy to `<home>/backups/`; returns the ids kept and removed. */
export function rotateBackups(paths: HomePaths, policy: RotationPolicy): RotationReport {
  const abandoned = removeAbandonedTemps(paths);
  const { keep, remove } = selectRotation(listBackups(paths), policy);
  for (const b of remove) removeDatabaseFiles(b.path);
  return { kept: keep.map((b) => b.id), removed: remove.map((b) => b.id), abandoned };
}

/** A nightly backup younger than this makes another unnecessary (a catch-up after a restart). */
const RECENT_NIGHTLY_MS = 20 * 3600_000;

/**
 * The sleep protocol's backup: one `daily` backup a night, then rotation. Returns its id, or null
 * when a daily backup of the last 20 hours exists.
 */
export async function nightlyBackup(paths: HomePaths, store: Store, policy: RotationPolicy, at: Date): Promise<string | null> {
  const since = at.getTime() - RECENT_NIGHTLY_MS;
  if (listBackups(paths).some((b) => b.kind === 'daily' && Date.parse(b.createdAt) > since)) return null;
  const made = await createBackup(paths, store, { kind: 'daily', now: at });
  rotateBackups(paths, policy);
  return made.id;
}
