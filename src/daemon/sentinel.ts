// The stability sentinel inside `cairn watch`: every `alerts.checkIntervalSeconds` it looks at
// capture, the judge, embedding, disk, database integrity (at `alerts.integrityCheckHours`) and
// backups, saves what it saw to <home>/run/health.json for `cairn status`, and for each alert
// that is raised or cleared logs one line and runs `alerts.command`.
import type { Cairn } from '../service/cairn.js';
import { watchedSources } from '../service/sources.js';
import { alertChanges, evaluateHealth, type Alert, type HealthObservation, type HealthState } from '../service/health/evaluate.js';
import { llmObservation } from '../service/health/index.js';
import { diskSpace, embedBacklog, healthStatePath, integrityCheck, newestBackup, unitBacklogs } from '../service/health/observe.js';
import { readHealthState, writeHealthState } from '../service/health/state-file.js';
import { runAlertCommand } from './alert-command.js';
import type { Logger } from './logger.js';

export class Sentinel {
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private state: HealthState;
  private readonly path: string;

  constructor(private readonly cairn: Cairn, private readonly log: Logger) {
    this.path = healthStatePath(cairn.paths);
    // A restarted daemon continues from the last check: alerts still raised are not raised twice.
    this.state = readHealthState(this.path);
  }

  start(): void {
    this.timer = setInterval(() => void this.check(), this.cairn.config.alerts.checkIntervalSeconds * 1000);
  }

  /** Stops the timer and waits for a check in progress (and its commands) to finish. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checking;
  }

  /** One check; a check still running (a slow integrity check or command) is not overlapped. */
  check(): Promise<void> {
    this.checking ??= this.runCheck().finally(() => (this.checking = null));
    return this.checking;
  }

  private async runCheck(): Promise<void> {
    try {
      const next = evaluateHealth(await this.observe(), this.state, this.cairn.config.alerts, process.pid);
      const { raised, cleared } = alertChanges(this.state.alerts, next.alerts);
      this.state = next;
      writeHealthState(this.path, next);
      for (const a of raised) await this.report('raised', a, next.checkedAt!);
      for (const a of cleared) await this.report('cleared', a, next.checkedAt!);
    } catch (err) {
      this.log.error({ err: (err as Error).message }, 'health check failed');
    }
  }

  private async observe(): Promise<HealthObservation> {
    const { store, paths, config } = this.cairn;
    const at = new Date().toISOString();
    const sources = await watchedSources(store);
    const last = this.state.integrity;
    const due = !last || Date.parse(at) - Date.parse(last.at) >= config.alerts.integrityCheckHours * 3_600_000;
    const model = this.cairn.modelId;
    return {
      at,
      daemon: { running: true, lastSeen: at },
      sources,
      units: await unitBacklogs(store, sources),
      llm: llmObservation(this.cairn.judging().llmHealth()?.breaker),
      embedPending: model && config.capture.embed ? await embedBacklog(store, model) : null,
      disk: await diskSpace(paths.root),
      integrity: due ? await integrityCheck(store, at) : null,
      newestBackupAt: await newestBackup(paths),
    };
  }

  private async report(state: 'raised' | 'cleared', alert: Alert, at: string): Promise<void> {
    const fields = { alert: alert.id, kind: alert.kind, since: alert.since, details: alert.details };
    if (state === 'raised') this.log.warn(fields, `alert raised: ${alert.message}`);
    else this.log.info(fields, `alert cleared: ${alert.kind}`);
    const command = this.cairn.config.alerts.command;
    if (command) {
      await runAlertCommand(command, this.cairn.config.alerts.commandTimeoutSeconds, { state, ...alert, at, home: this.cairn.paths.root }, this.log);
    }
  }
}
