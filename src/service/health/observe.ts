// What the sentinel looks at: unread lines in watched files, free disk, the newest backup, the
// embedding backlog, and (when due) the database's own integrity check. Each probe is cheap except
// the integrity check, which the daemon runs at `alerts.integrityCheckHours`.
import { open, readdir, stat, statfs } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { backupsDir, type HomePaths } from '../../core/home.js';
import type { Store } from '../../store/store.js';
import type { IntegrityResult, UnitBacklog } from './evaluate.js';

/** Bytes read past a checkpoint to see whether a whole line waits there (a half-written one does not count). */
const PEEK_BYTES = 64 * 1024;

/** <home>/run/health.json: the daemon's last check, read by `cairn status`. */
export function healthStatePath(paths: HomePaths): string {
  return join(dirname(paths.daemonState), 'health.json');
}

/** Watched files with complete lines beyond their checkpoint (files only: database sources have no byte offset). */
export async function unitBacklogs(store: Store, sources: ReadonlyArray<{ id: number }>): Promise<UnitBacklog[]> {
  const out: UnitBacklog[] = [];
  for (const source of sources) {
    for (const cp of await store.listCheckpoints(source.id)) {
      const { offset, ino } = cp.state as { offset?: unknown; ino?: unknown };
      if (typeof offset !== 'number' || typeof ino !== 'string') continue;
      try {
        const st = await stat(cp.key, { bigint: true });
        // Another file now has the name (rotation): capture re-reads it; nothing is waiting behind this checkpoint.
        if (st.ino.toString() !== ino || Number(st.size) <= offset) continue;
        const pending = Number(st.size) - offset;
        if (pending < PEEK_BYTES && !(await hasNewline(cp.key, offset, pending))) continue;
        out.push({ sourceId: source.id, key: cp.key, offset, capturedAt: cp.updatedAt, pendingBytes: pending, modifiedAt: new Date(Number(st.mtimeMs)).toISOString() });
      } catch {
        // Gone or unreadable: the source's own errors say so.
      }
    }
  }
  return out;
}

async function hasNewline(path: string, offset: number, length: number): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, offset);
    return buf.subarray(0, bytesRead).includes(0x0a);
  } finally {
    await fh.close();
  }
}

export async function diskSpace(dir: string): Promise<{ freeBytes: number; totalBytes: number } | null> {
  try {
    const s = await statfs(dir);
    return { freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize };
  } catch {
    return null;
  }
}

/** When the newest file or folder in the backups directory was written; null when there is none. */
export async function newestBackup(paths: HomePaths): Promise<string | null> {
  const dir = backupsDir(paths);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  let newest = -Infinity;
  for (const name of names) {
    // A backup being written (a temporary name) is not a backup yet.
    if (name.startsWith('.') || /\.(?:tmp|partial)(?:-\d+)?$/.test(name)) continue;
    try {
      newest = Math.max(newest, (await stat(join(dir, name))).mtimeMs);
    } catch {
      /* removed meanwhile */
    }
  }
  return Number.isFinite(newest) ? new Date(newest).toISOString() : null;
}

/** Entries of every namespace without a vector of the active model. */
export async function embedBacklog(store: Store, model: string): Promise<number> {
  return (await store.vectorStats(model)).reduce((n, v) => n + Math.max(0, v.missing), 0);
}

/** PRAGMA quick_check and the schema checks; a store too damaged to answer fails the check too. */
export async function integrityCheck(store: Store, at: string): Promise<IntegrityResult> {
  try {
    const report = await store.health({ integrity: true });
    return { at, ok: report.ok, problems: report.problems };
  } catch (err) {
    return { at, ok: false, problems: [(err as Error).message] };
  }
}
