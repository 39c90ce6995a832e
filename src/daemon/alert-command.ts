// Runs `alerts.command` for one raised or cleared alert: through the shell, the alert as one JSON
// line on stdin, killed (with everything it started) after `alerts.commandTimeoutSeconds`. A
// failing, missing or slow command is logged and never stops the daemon.
import { spawn } from 'node:child_process';
import type { Logger } from './logger.js';

export interface AlertEvent {
  /** raised: the alert starts; cleared: its condition is gone. */
  state: 'raised' | 'cleared';
  id: string;
  kind: string;
  message: string;
  since: string;
  /** When this check saw the change. */
  at: string;
  home: string;
  details: Record<string, unknown>;
}

export function runAlertCommand(command: string, timeoutSeconds: number, event: AlertEvent, log: Logger): Promise<void> {
  return new Promise((resolve) => {
    let stderr = '';
    let timedOut = false;
    const child = spawn(command, { shell: true, detached: true, stdio: ['pipe', 'ignore', 'pipe'] });
    const killAll = (): void => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killAll();
    }, timeoutSeconds * 1000);
    child.stderr!.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString('utf8')).slice(-1000);
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      log.warn({ alert: event.id, err: err.message }, 'alerts.command could not be started');
      resolve();
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) log.warn({ alert: event.id, timeoutSeconds }, `alerts.command did not finish within ${timeoutSeconds} s and was killed`);
      else if (code !== 0) log.warn({ alert: event.id, code, signal, stderr: stderr.trim() }, 'alerts.command failed');
      resolve();
    });
    // A command that does not read its stdin closes the pipe early: that is its business.
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(JSON.stringify(event) + '\n');
  });
}
