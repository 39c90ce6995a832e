// Which namespaces this daemon does the background work of (judging, embedding, the knowledge
// pass, scheduled consolidation) when several daemons share one database (PostgreSQL: homes on
// several machines). Capture stays with each source's lease holder (source-leases.ts); the work
// that follows it, paid in LLM calls and embeddings, is done by the one daemon holding the
// namespace's `work:<namespace>` lease, renewed like a source lease and taken over by another
// daemon once a dead holder's lease has run out. One lease per namespace rather than per job
// kind: the knowledge pass and the consolidation read what judging and embedding wrote, so
// keeping them on one daemon keeps their order. On SQLite the home's lock file admits one
// daemon: it does every namespace's work and no lease is written.
import type { Store } from '../store/store.js';
import type { Logger } from './logger.js';

export const workLeaseName = (namespace: string): string => `work:${namespace}`;

export class NamespaceLeases {
  readonly shared: boolean;
  private readonly held = new Set<string>();
  /** Who had each namespace we could not take when we last said so (said once per holder). */
  private readonly reported = new Map<string, string>();

  constructor(private readonly store: Store, private readonly log: Logger, readonly holder: string, readonly ttlMs: number) {
    this.shared = store.backend !== 'sqlite';
  }

  /**
   * Takes or renews the lease of every namespace; returns those newly taken (their backlog is
   * to be looked at). A namespace another daemon holds is skipped, and said once per holder.
   */
  async claim(namespaces: readonly string[]): Promise<string[]> {
    if (!this.shared) return [];
    const taken: string[] = [];
    const refused: string[] = [];
    for (const namespace of namespaces) {
      if (await this.store.acquireLease(workLeaseName(namespace), this.holder, this.ttlMs)) {
        if (!this.held.has(namespace)) {
          this.log.info({ namespace, holder: this.holder }, 'namespace work taken: judging, embedding, knowledge and consolidation of this namespace run here');
          this.held.add(namespace);
          taken.push(namespace);
        }
        this.reported.delete(namespace);
      } else {
        this.lost(namespace);
        refused.push(namespace);
      }
    }
    const listed = new Set(namespaces);
    for (const namespace of this.held) if (!listed.has(namespace)) this.held.delete(namespace);
    if (refused.length > 0) await this.report(refused);
    return taken;
  }

  /** Whether this daemon does the namespace's work now (always on SQLite). */
  holds(namespace: string): boolean {
    return !this.shared || this.held.has(namespace);
  }

  /** The namespaces whose work runs here; null on SQLite (all of them). */
  heldNamespaces(): string[] | null {
    return this.shared ? [...this.held] : null;
  }

  /**
   * Renews the lease right before a slice of work starts, so a slice is only begun with a whole
   * ttl ahead; false (and forgotten) when another daemon has taken it meanwhile.
   */
  async confirm(namespace: string): Promise<boolean> {
    if (!this.shared) return true;
    if (!this.held.has(namespace)) return false;
    if (await this.store.acquireLease(workLeaseName(namespace), this.holder, this.ttlMs)) return true;
    this.lost(namespace);
    return false;
  }

  /** Gives every held lease up (a stopping daemon), so another daemon takes the work at once. */
  async releaseAll(): Promise<void> {
    for (const namespace of [...this.held]) {
      this.held.delete(namespace);
      try {
        await this.store.releaseLease(workLeaseName(namespace), this.holder);
      } catch (err) {
        this.log.warn({ namespace, err: (err as Error).message }, 'could not release a namespace lease; it runs out by itself');
      }
    }
  }

  private lost(namespace: string): void {
    if (this.held.delete(namespace)) this.log.warn({ namespace }, 'namespace lease lost to another daemon: its judging, embedding, knowledge and consolidation no longer run here');
  }

  private async report(refused: readonly string[]): Promise<void> {
    const leases = new Map((await this.store.listLeases()).map((l) => [l.name, l]));
    for (const namespace of refused) {
      const lease = leases.get(workLeaseName(namespace));
      const who = lease?.holder ?? '(released)';
      if (this.reported.get(namespace) === who) continue;
      this.reported.set(namespace, who);
      this.log.info({ namespace, holder: who, until: lease?.expiresAt }, 'namespace work done by another daemon: skipped here while its lease runs');
    }
  }
}
