// Several machines on one PostgreSQL database, as the multi-daemon tests stand them up: one home per
// machine (a folder standing for a host) on a shared fresh schema, each with a JSONL transcript
// folder registered as a source, the daemons started on them, and one store to look at the
// database directly. `close` kills what still runs and removes everything.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { assertBuilt, cliJson, makeHome, removeHome } from './cli.js';
import type { DaemonProcess } from './daemon.js';
import { dropSchema, freshSchemaName } from './postgres.js';
import { PgStore } from '../../src/store/postgres/pg-store.js';

export class PgMachines {
  readonly homes: string[] = [];
  /** Each home's transcript folder (its source), by the home's index. */
  readonly dirs: string[] = [];
  readonly daemons: DaemonProcess[] = [];
  url = '';
  schema = '';
  private opened: PgStore | null = null;

  /** Picks a fresh schema on the server at `url`; call before adding machines. */
  start(url: string): void {
    assertBuilt();
    this.url = url;
    this.schema = freshSchemaName();
  }

  /** What every CLI call and daemon of these machines runs with. */
  env(): Record<string, string> {
    return { CAIRN_DATABASE_URL: this.url };
  }

  /**
   * A machine: a home whose config (the store block added) is `config`, with `session.jsonl`
   * holding `firstLine` in its transcript folder, added as a jsonl source of `namespace`.
   */
  async addMachine(namespace: string, config: Record<string, unknown>, firstLine: string): Promise<{ home: string; dir: string; added: { added: unknown[] } }> {
    const home = makeHome({ ...config, store: { backend: 'postgres', schema: this.schema } });
    this.homes.push(home);
    const dir = join(home, 'transcripts');
    mkdirSync(dir);
    this.dirs.push(dir);
    appendFileSync(join(dir, 'session.jsonl'), firstLine);
    const added = await cliJson(['-n', namespace, 'sources', 'add', 'jsonl', dir, '--json'], { home, env: this.env() });
    return { home, dir, added };
  }

  /** A store on the shared schema, closed with the machines. */
  async store(): Promise<PgStore> {
    this.opened ??= await PgStore.open({ url: this.url, schema: this.schema, max: 2 });
    return this.opened;
  }

  async close(): Promise<void> {
    for (const d of this.daemons) {
      if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
      await d.exited;
    }
    await this.opened?.close();
    if (this.schema) await dropSchema(this.url, this.schema);
    for (const h of this.homes) removeHome(h);
  }
}
