// Storage primitives for writing memories, offered inside one transaction (a unit of work). The
// rules (what is a duplicate, what a re-mention changes, when a supersede is allowed) live in
// src/memory/remember.ts and only call these; a backend implements them without knowing the rules.
import type { Category, Memory } from '../core/types.js';
import type { JudgmentInput } from './records.js';

/** Fields of a memory the rules may change after it was inserted. */
export interface MemoryFields {
  mentions?: number;
  updatedAt?: string;
  tags?: string[];
  provenance?: Memory['provenance'];
  importance?: number;
  category?: Category;
  /** Setting it (with supersededBy) takes the memory out of the current view. */
  validTo?: string;
  supersededBy?: string;
  /** The memory this one succeeds (a history link; no effect on the current view). */
  supersedes?: string;
}

/** The turn a judgment is about, with the memory an earlier judgment of it made (if any). */
export interface JudgmentTarget {
  turnId: string;
  namespace: string;
  seq: number;
  memoryId: string | null;
}

/**
 * What a memory write may do, all inside the transaction that `Store.memoryUnit` opened. The
 * database enforces one current memory per (namespace, content key): an insert that would break
 * it rejects with a MemoryKeyConflict, and the rule retries the whole unit.
 */
export interface MemoryUnit {
  ensureNamespace(namespace: string, now: string): Promise<void>;
  /**
   * The current memory of the namespace whose content key (core/text.ts dedupKey) is `key`, or
   * null. A backend that locks rows takes this one's lock until the unit ends.
   */
  currentByKey(namespace: string, key: string): Promise<Memory | null>;
  memoryById(namespace: string, id: string): Promise<Memory | null>;
  /** Whether any namespace holds a memory with this id (ids are globally unique). */
  memoryIdTaken(id: string): Promise<boolean>;
  /** Inserts the record verbatim with its index entry. */
  insertMemory(memory: Memory): Promise<void>;
  /** Sets the given fields of a memory of the namespace, keeping its index entry in step. */
  updateMemory(namespace: string, id: string, fields: MemoryFields): Promise<void>;
  /** Sets importance and category of a memory only while it is current (a later judgment of its turn). */
  updateCurrentMemory(namespace: string, id: string, fields: Pick<MemoryFields, 'importance' | 'category' | 'updatedAt'>): Promise<void>;
  /** The turn a judgment is about; null when there is no such turn. */
  judgmentTarget(turnId: string): Promise<JudgmentTarget | null>;
  /** Stores (or replaces) the turn's judgment pointing at `memoryId`, and the turn's index ranking. */
  putJudgment(target: JudgmentTarget, item: JudgmentInput, memoryId: string | null, now: string): Promise<void>;
}

/** An insert lost the race for a content key: another writer made that memory current first. */
export class MemoryKeyConflict extends Error {
  constructor(
    readonly namespace: string,
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(`Another writer stored the same memory in ${namespace} first`, options);
    this.name = 'MemoryKeyConflict';
  }
}
