// Helpers for running the built CLI as another user (runCli takes uid/gid), for tests of permission
// errors: root bypasses file mode bits, so as root the child runs as `nobody` instead.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { CLI, ROOT } from './cli.js';

/** The uid/gid of `nobody` on Linux. */
export const NOBODY = { uid: 65534, gid: 65534 } as const;

/** True when this process runs as root (mode bits do not stop it from reading a file). */
export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Whether a child running as `user` can read the built CLI (the repository may sit under a private home). */
export function canRunAs(user: { uid: number; gid: number }): boolean {
  const probe = `require('fs').accessSync(${JSON.stringify(CLI)}, require('fs').constants.R_OK)`;
  const res = spawnSync(process.execPath, ['-e', probe], { cwd: ROOT, uid: user.uid, gid: user.gid, stdio: 'ignore', timeout: 10_000 });
  return res.status === 0;
}


/**
 * How to run `node …` so that file mode bits apply to it: as this user when it is not root; as
 * root, as `nobody` when nobody can read the checkout, else as root without the capabilities that
 * bypass mode bits (setpriv drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH). Null when none of
 * these works here: a permission test then fails, saying so, instead of being skipped.
 */
export interface Unprivileged {
  /** Who the child runs as, for messages. */
  who: string;
  command: string;
  /** Arguments before node's own. */
  prefix: string[];
  uid?: number;
  gid?: number;
  /** Lets the child write `path` and everything under it. */
  grant(path: string): void;
}

const DROP_DAC = ['--bounding-set', '-dac_override,-dac_read_search'];

/** Whether a child started this way can load the built library and better-sqlite3, yet not read a mode-000 file. */
function works(command: string, prefix: string[], user: { uid?: number; gid?: number } = {}): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-unpriv-'));
  try {
    const locked = join(dir, 'locked');
    writeFileSync(locked, 'x');
    chmodSync(locked, 0o000);
    if (user.uid !== undefined) chownSync(dir, user.uid, user.gid ?? user.uid);
    const probe = `require('better-sqlite3'); require('fs').accessSync(${JSON.stringify(CLI)}, 4);
      try { require('fs').readFileSync(${JSON.stringify(locked)}); process.exit(3); } catch (e) { process.exit(e.code === 'EACCES' ? 0 : 4); }`;
    const res = spawnSync(command, [...prefix, '-e', probe], { cwd: ROOT, stdio: 'ignore', timeout: 60_000, ...user });
    return res.status === 0;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function chownTree(path: string, uid: number, gid: number): void {
  chownSync(path, uid, gid);
  if (!statSync(path).isDirectory()) return;
  for (const name of readdirSync(path)) chownTree(join(path, name), uid, gid);
}

/** Gives `nobody` `path` (and what is under it), and a way to it through the test's temp folders. */
function grantNobody(path: string): void {
  chownTree(path, NOBODY.uid, NOBODY.gid);
  for (let dir = dirname(path); dir.startsWith(tmpdir() + sep); dir = dirname(dir)) chmodSync(dir, statSync(dir).mode | 0o011);
}

export function unprivileged(): Unprivileged | null {
  if (!isRoot()) return { who: 'this user', command: process.execPath, prefix: [], grant: () => undefined };
  if (works(process.execPath, [], NOBODY)) return { who: 'nobody', command: process.execPath, prefix: [], ...NOBODY, grant: grantNobody };
  if (works('setpriv', [...DROP_DAC, process.execPath])) {
    return { who: 'root without CAP_DAC_OVERRIDE (setpriv)', command: 'setpriv', prefix: [...DROP_DAC, process.execPath], grant: () => undefined };
  }
  return null;
}
