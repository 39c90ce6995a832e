// Helpers for running the built CLI as another user (runCli takes uid/gid), for tests of permission
// errors: root bypasses file mode bits, so as root the child runs as `nobody` instead.
import { spawnSync } from 'node:child_process';
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

