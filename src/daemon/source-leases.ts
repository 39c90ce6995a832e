// Which registered sources this daemon captures when several daemons share one database
// (PostgreSQL: homes on several machines). A source is captured only by the daemon holding its
// lease in the database (store.acquireLease), renewed well before it runs out; a daemon that dies
// stops renewing, and another takes the source over once the lease has expired. Sources are also
// tied to the machine that registered them (options.host, recorded by `cairn sources add`): their
// paths are that machine's, and another machine reading the same path would read other files, or
// none (a Markdown tree that looks emptied would drop its chunks). Sources of older homes carry no
// host and are captured by any daemon, one at a time. On SQLite the store is one machine's file
// and the home's lock file already admits one daemon: hosts are not compared there.
import { randomBytes } from '../core/lazy-crypto.js';
import { hostname } from 'node:os';
import type { Source } from '../core/types.js';
import type { Store } from '../store/store.js';
import { readSourceOptions } from '../capture/sources/kinds.js';
import type { Logger } from './logger.js';

export const leaseName = (sourceId: number): string => `source:${sourceId}`;

/** Whether a daemon on `host` captures this source (see above). */
export function capturesHere(source: Source, shared: boolean, host: string = hostname()): boolean {
  if (!shared) return true;
  const owner = readSourceOptions(source.options).host;
  return owner === undefined || owner === host;
}

export class SourceLeases {
  /** `host:pid:random`: unique per daemon run, and says where a lease's holder runs. */
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  readonly shared: boolean;
  private readonly held = new Set<number>();
  /** Who had each source we could not take when we last said so (said once per holder). */
  private readonly reported = new Map<number, string>();

  constructor(private readonly store: Store, private readonly log: Logger, readonly ttlMs: number) {
    this.shared = store.backend !== 'sqlite';
  }

  /**
   * A SQLite home's lock file proves no other daemon uses its database: leases a killed
   * predecessor left are given up at once instead of waiting for them to run out.
   */
  async start(): Promise<void> {
    if (this.shared) return;
    for (const lease of await this.store.listLeases()) if (lease.name.startsWith('source:')) await this.store.releaseLease(lease.name, lease.holder);
  }

  /**
   * Takes or renews the lease of every source this machine captures; returns those now held.
   * A source another daemon holds is skipped, and said once per holder.
   */
  async claim(sources: readonly Source[]): Promise<Source[]> {
    const mine: Source[] = [];
    const refused: Source[] = [];
    for (const source of sources) {
      if (!capturesHere(source, this.shared)) continue;
      if (await this.store.acquireLease(leaseName(source.id), this.holder, this.ttlMs)) {
        if (!this.held.has(source.id)) this.log.info({ source: source.id, kind: source.kind, path: source.path, holder: this.holder }, 'lease taken: capturing this source');
        this.held.add(source.id);
        this.reported.delete(source.id);
        mine.push(source);
      } else {
        if (this.held.delete(source.id)) this.log.warn({ source: source.id, path: source.path }, 'lease lost to another daemon: no longer capturing this source');
        refused.push(source);
      }
    }
    const ids = new Set(sources.map((s) => s.id));
    for (const id of this.held) if (!ids.has(id)) this.held.delete(id);
    if (refused.length > 0) await this.report(refused);
    return mine;
  }

  private async report(refused: readonly Source[]): Promise<void> {
    const holders = new Map((await this.store.listLeases()).map((l) => [l.name, l]));
    for (const source of refused) {
      const lease = holders.get(leaseName(source.id));
      const who = lease?.holder ?? '(released)';
      if (this.reported.get(source.id) === who) continue;
      this.reported.set(source.id, who);
      this.log.info({ source: source.id, path: source.path, holder: who, until: lease?.expiresAt }, 'source captured by another daemon: skipped while its lease runs');
    }
  }

  /**
   * Renews the lease right before a capture of the source starts, so a batch is only begun with a
   * whole ttl ahead; false (and forgotten) when another daemon has taken it meanwhile.
   */
  async confirm(source: Source): Promise<boolean> {
    if (!this.held.has(source.id)) return false;
    if (await this.store.acquireLease(leaseName(source.id), this.holder, this.ttlMs)) return true;
    this.held.delete(source.id);
    this.log.warn({ source: source.id, path: source.path }, 'lease lost to another daemon: no longer capturing this source');
    return false;
  }

  /** Gives every held lease up (a stopping daemon), so another daemon takes the sources at once. */
  async releaseAll(): Promise<void> {
    for (const id of [...this.held]) {
      this.held.delete(id);
      try {
        await this.store.releaseLease(leaseName(id), this.holder);
      } catch (err) {
        this.log.warn({ source: id, err: (err as Error).message }, 'could not release a lease; it runs out by itself');
      }
    }
  }
}
