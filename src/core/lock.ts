// One daemon per data directory. The lock is a file created exclusively, holding who took it; a
// lock whose process is gone (crash, kill -9) is taken over, and a live holder is named in the
// error so the user knows which process to stop.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { CairnError, ERROR_CODES } from './errors.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.js';

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
}

function readHolder(path: string): LockHolder | null {
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    // pid 0 or below would make kill(pid, 0) probe a process group and always look alive.
    return typeof raw.pid === 'number' && Number.isSafeInteger(raw.pid) && raw.pid > 0 && typeof raw.host === 'string' && typeof raw.startedAt === 'string' ? (raw as LockHolder) : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live holder of the lock at `path`, or null when it is free or stale. */
export function lockHolder(path: string): LockHolder | null {
  const holder = readHolder(path);
  if (!holder) return null;
  // Another machine's process (a shared folder) cannot be checked: trust the lock.
  return holder.host !== hostname() || alive(holder.pid) ? holder : null;
}

function create(path: string, me: LockHolder): boolean {
  try {
    const fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
    try {
      writeSync(fd, JSON.stringify(me) + '\n');
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Takes the lock or throws CONFLICT naming the holder. Returns the release function. */
export function acquireLock(path: string, what: string): () => void {
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  const me: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    if (create(path, me)) {
      return () => {
        if (readHolder(path)?.pid === me.pid) {
          try {
            unlinkSync(path);
          } catch {
            /* already gone */
          }
        }
      };
    }
    const holder = lockHolder(path);
    if (holder) {
      throw new CairnError(ERROR_CODES.CONFLICT, `${what} is already running for this data directory (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}); stop it first`, { ...holder, lock: path });
    }
    // Stale: its process is gone. Remove and try once more (a racing starter may win; then it is the holder).
    try {
      unlinkSync(path);
    } catch {
      /* someone else removed it */
    }
  }
  const holder = readHolder(path);
  throw new CairnError(ERROR_CODES.CONFLICT, `${what} is already running for this data directory${holder ? ` (pid ${holder.pid})` : ''}`, { lock: path });
}
