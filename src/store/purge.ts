// What the store's purge methods take and give (store.ts): the one deletion Cairn has, for secrets
// and legal removal. Plain data; the rules (what to remove, what to rewrite) come from the service.
import type { DigestKind } from '../core/types.js';

/** Where a purge reaches: one namespace, or every namespace (null). */
export type PurgeScope = string | null;

export type PurgedKind = 'memory' | 'turn' | 'document';

/** The text a purged turn keeps, and what a purged literal becomes. */
export const PURGED_MARKER = '[REDACTED:purged]';

/** A digest a purge removed, and where its file is (relative to the namespace folder). */
export interface RemovedDigest {
  id: string;
  namespace: string;
  kind: DigestKind;
  path: string;
}

/** What a purge changed in the store (or, dry, would change). */
export interface PurgeChanges {
  /**
   * Records removed: memories and document chunks are deleted with their index entries; a turn
   * keeps a tombstone (its ids, the marker as text, not indexed) so capture never takes the same
   * message in again from its transcript.
   */
  removed: Array<{ kind: PurgedKind; id: string; namespace: string }>;
  /** Rows whose text was rewritten, per table (`turns`, `memories`, `hot_state`, …). */
  rewritten: Record<string, number>;
  /** Index entries removed, and entries whose text changed (their vectors are dropped: they need new ones). */
  entriesRemoved: number;
  entriesRewritten: number;
  /** Vectors dropped, every model. */
  vectors: number;
  /** Namespaces that changed. */
  namespaces: string[];
  /**
   * Digests removed because they cite a removed memory or turn (rows and section entries; the next
   * consolidation writes them again without it). The caller deletes or cleans their files,
   * `<namespace folder>/<path>`. Empty for rewriteTexts, which rewrites digests in place.
   */
  digests: RemovedDigest[];
  /**
   * Every text that was indexed (so possibly embedded) and no longer is: the caller drops their
   * cached embeddings. Held in memory only, never written anywhere.
   */
  formerTexts: string[];
}

export interface PurgeIdsResult extends PurgeChanges {
  /** Ids found nowhere in the scope: nothing at all was changed when any is missing. */
  missing: string[];
}

/** How rewriteTexts changes text: every stored text of the scope goes through `rewrite`. */
export interface TextRewrite {
  /**
   * The text to keep for a text; the same string leaves it alone. `table` says where the text is
   * kept (`turns`, `memories`, `documents`, `digests`, `judgments`, `feedback`, `hot_state`, `entities`,
   * `entity_aliases`, `facts`, and `entries` for
   * the index's copy of a text already given from its own table).
   */
  rewrite(text: string, table: string): string;
  /** Only texts containing this can change (lets the store skip rows without reading them). */
  mustContain?: string;
}

/** One purge as audited: what rule, where and when, and what it removed — never the removed text. */
export interface PurgeRecord {
  id: number;
  startedAt: string;
  /** Null while running, or when the purge was cut short (a crash): run it again. */
  finishedAt: string | null;
  /** Null: every namespace. */
  namespace: string | null;
  /** Who asked: `cli`, `http`, `library`. */
  via: string;
  rule: Record<string, unknown>;
  result: Record<string, unknown> | null;
}
