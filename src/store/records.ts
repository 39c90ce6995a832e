// The records and results the Store interface (store.ts) passes: plain data, shared by every backend.
import type { Category, Digest, DigestKind, Kind, Layer, Memory, NamespaceStats, NewDigest, NewMemory, NewTurn, Provenance, Source, Turn } from '../core/types.js';
import type { PurgeChanges, PurgeIdsResult, PurgeRecord, PurgeScope, TextRewrite } from './purge.js';

export interface MemoryFilter {
  namespace: string;
  includeSuperseded?: boolean;
  categories?: readonly Category[];
  minImportance?: number;
  /** Inclusive bounds on event time (or creation time when no event time is known). */
  since?: string;
  until?: string;
  limit?: number;
  offset?: number;
}

/** Options for adding a memory beyond its content: ids and clocks are injectable for tests/imports. */
export interface AddMemoryOptions {
  now?: string;
}

export interface AddMemoryResult {
  memory: Memory;
  /** True when an equal (normalised) current memory existed: its mention count was raised instead. */
  duplicate: boolean;
}

export interface SupersedeResult {
  previous: Memory;
  current: Memory;
}

export type ImportOutcome = 'imported' | 'exists' | 'merged';

/**
 * Words an entry is also found by, beside its own text: what the places it names imply (its
 * region, country, continent). Computed when an entry is written; the keyword index holds them,
 * search never shows them.
 */
export interface EntryKeys {
  /** Changes whenever `keys` would answer differently: entries keyed by another version are keyed again on open. */
  readonly version: string;
  /** Space-separated keys for an entry's indexed text ('' for none). */
  keys(text: string): string;
}

/** One searchable unit of any layer, with the metadata search filters and ranks on. */
export interface IndexEntry {
  seq: number;
  namespace: string;
  kind: Kind;
  refId: string;
  /** Text shown to people (the memory or turn text). */
  text: string;
  /** Event time, message time or creation time: what "when" means for this entry. */
  time: string;
  createdAt: string;
  category: string | null;
  importance: number | null;
  /** False once superseded. */
  current: boolean;
  validTo: string | null;
  provenance: Provenance[];
  /** Length of the text the index holds for it (the shown text, plus tags and entities for a memory). */
  indexedChars: number;
  /** Its layer of the pyramid: turns 4, memories and documents 3, digests by kind (DIGEST_LAYER). */
  layer: Layer;
}

export interface SpeakerCount {
  name: string;
  turns: number;
}

/**
 * A turn near another, as search ranks by it: its id and text, whether it carries conversation and
 * its index entry. Only what ranking reads: a search ranks by ~1,000 neighbours and shows a few
 * (none by default), so the rest of a turn's columns come from Store.getTurns for those shown.
 */
export interface NeighbourTurn {
  id: string;
  text: string;
  /** False for tool activity (role or meta.kind 'tool'): context for nobody. */
  conversational: boolean;
  entrySeq: number | null;
  /**
   * UTF-8 bytes of its entry's indexed text (at least its length), null without an entry: given
   * when asked for (NeighbourOptions), and a backend may leave it out otherwise.
   */
  entryBytes?: number | null;
}

export interface NeighbourOptions {
  /**
   * Read each neighbour's entryBytes (search wants them only when passages are stored): a read of
   * the entry's row per neighbour, about half of the neighbours' cost on SQLite.
   */
  entryBytes?: boolean;
}

/** The turns just before and after a turn in its session, with the index entry of each. */
export interface NeighbourTurns {
  turnId: string;
  before: NeighbourTurn[];
  after: NeighbourTurn[];
}

export interface EntryFilter {
  kinds?: readonly Kind[];
  categories?: readonly string[];
  minImportance?: number;
  since?: string;
  until?: string;
  includeSuperseded?: boolean;
  /** Only entries of these layers (turns 4; memories and documents 3; digests by kind: see DIGEST_LAYER). */
  layers?: readonly Layer[];
  /**
   * "As of" this moment: an entry superseded later than it counts as current (its valid_to, set
   * when its memory was superseded, is after validAt). Entries current now still pass.
   */
  validAt?: string;
  /** Only the memory entries of these memory ids (an entity filter resolved by the caller). */
  memoryIds?: readonly string[];
  /** Keyword search only: entries holding every term (AND) rather than any (OR). */
  allTerms?: boolean;
}

export interface KeywordHit {
  seq: number;
  /** BM25 relevance, higher is better (backend-specific scale; search normalises it). */
  score: number;
}

/** A vector to store for an entry. */
export interface VectorRow {
  seq: number;
  vector: Float32Array;
  /**
   * The hash (sha256, hex) of the text this is the embedding of, when it is one text's own vector:
   * the row then serves the embedding cache for that text (cacheGet) instead of a copy of its own.
   */
  textHash?: string;
}

export interface StoredVector {
  /** Monotonic row id: a vector index remembers the highest it has seen and catches up past it. */
  id: number;
  seq: number;
  vector: Float32Array;
}

export interface VectorStats {
  model: string;
  namespace: string;
  vectors: number;
  /** Entries of the namespace with no vector of this model. */
  missing: number;
}

export interface CheckpointState {
  sourceId: number;
  key: string;
  state: Record<string, unknown>;
}

/**
 * The checkpoint written with a batch of turns. Its state may depend on how many of them were new,
 * worked out inside the same transaction: capture's running totals count stored turns, and a
 * re-read file hands over turns the store already holds.
 */
export interface TurnsCheckpoint {
  sourceId: number;
  key: string;
  state: Record<string, unknown> | ((added: { inserted: number; duplicates: number }) => Record<string, unknown>);
}

export interface CheckpointRecord {
  key: string;
  state: Record<string, unknown>;
  updatedAt: string;
}

/** What a judge decided about one turn. */
export interface JudgmentRecord {
  importance: number;
  category: Category;
  /** Which judge decided: `heuristic@<version>`, `llm:<provider>/<model>@<prompt version>`, … */
  judge: string;
  reason: string;
  /** A self-contained restatement (LLM judges), or null. */
  statement: string | null;
  /** Judged by a fallback: the preferred judge should judge it again when it is back. */
  needsRejudge: boolean;
}

export interface JudgmentInput extends JudgmentRecord {
  turnId: string;
  /** The memory this turn becomes (judged at or above the threshold). */
  memory?: NewMemory;
}

export interface StoredJudgment extends JudgmentRecord {
  turnId: string;
  namespace: string;
  turnSeq: number;
  memoryId: string | null;
  judgedAt: string;
}

export interface JudgeStats {
  namespace: string;
  judged: number;
  /** Turns with no judgment yet. */
  pending: number;
  /** Judged turns that became (or fed) a memory. */
  promoted: number;
  needsRejudge: number;
  byJudge: Record<string, number>;
}

/** LLM spending of one namespace on one local day. */
export interface UsageRow {
  calls: number;
  failures: number;
  fallbacks: number;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
}

export interface FeedbackRecord {
  id: string;
  namespace: string;
  /** The memory or turn the feedback is about. */
  refId: string;
  text: string;
  category: string | null;
  important: boolean;
  createdAt: string;
}

export interface AddTurnsResult {
  inserted: Turn[];
  /** Turns already present (same namespace, session and message id). */
  duplicates: number;
}

/** One chunk of a Markdown file, as the chunker cut it (line numbers 1-based, inclusive). */
export interface DocumentChunkInput {
  /** Heading trail, e.g. `Projects > Staging`; empty before the first heading. */
  heading: string;
  text: string;
  startLine: number;
  endLine: number;
}

export interface ReplaceDocumentInput {
  namespace: string;
  sourceId: number | null;
  /** Absolute path of the file: with the namespace, what identifies the document. */
  path: string;
  /** Hash of the file's bytes: equal to the stored one means nothing to do. */
  fileHash: string;
  /** The file's modification time (ISO): what "when" means for its chunks. */
  time: string;
  chunks: readonly DocumentChunkInput[];
}

export interface ReplaceDocumentResult {
  inserted: number;
  removed: number;
  /** True when the stored file had this hash already (or is absent and has no chunks now). */
  unchanged: boolean;
}

export interface DocumentFile {
  path: string;
  fileHash: string;
  chunks: number;
}

export interface DocumentChunk {
  id: string;
  namespace: string;
  sourceId: number | null;
  path: string;
  /** 0-based position of the chunk in its file. */
  chunk: number;
  heading: string;
  text: string;
  startLine: number;
  endLine: number;
  fileHash: string;
  time: string;
  createdAt: string;
}

/** The hot state of one namespace: a JSON object the service layer gives its shape. */
export interface HotStateRecord {
  namespace: string;
  state: Record<string, unknown>;
  updatedAt: string;
}

/** An API token as stored: only the sha256 hash of the token, never the token itself. */
export interface ApiTokenRecord {
  id: string;
  hash: string;
  label: string | null;
  /** Namespaces the token may use; `*` grants all. */
  namespaces: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface NewApiToken {
  id: string;
  hash: string;
  label: string | null;
  namespaces: readonly string[];
  createdAt: string;
}

export interface HealthReport {
  ok: boolean;
  backend: string;
  schemaVersion: number;
  location: string;
  problems: string[];
  details: Record<string, unknown>;
}

export interface HealthOptions {
  /** Also verify every page (slow on big stores: seconds at 1M memories). */
  integrity?: boolean;
}

export interface DigestFilter {
  kinds?: readonly DigestKind[];
  /** Digests whose period overlaps [since, until) (UTC ISO). */
  since?: string;
  until?: string;
}

/** What putDigest did. */
export interface PutDigestResult {
  digest: Digest;
  /** False when the stored digest already had this text and inputs hash (nothing was written). */
  changed: boolean;
}

/** An index entry's position and time: what consolidation needs to know which periods changed. */
export interface EntryChange {
  seq: number;
  kind: Kind;
  time: string;
}

