// What the knowledge extractors (entities, facts) and the near-duplicate test produce and take.
// Pure data: the pass (pass.ts) reads memories from the store, asks these, decides, and writes one
// batch per run of memories (Store.applyKnowledge).
import type { EntityType } from '../../core/types.js';

/** What an extractor is told beside the text. */
export interface ExtractionContext {
  /** Who said it (a turn's speaker or the memory's provenance speaker), when known. */
  speaker?: string;
  /** The role of whoever said it: `user`, `assistant`, … (first person means the user when `user`). */
  role?: string;
  /** Names the person is known by (hot state, config, the top speaker), so "I"/"my" resolve. */
  userNames?: readonly string[];
  /** The memory's valid time (event time or creation), ISO: relative dates in the text count from it. */
  time: string;
}

/** An entity a text names. */
export interface EntityMention {
  /** The name as the text writes it, trimmed ("Ana Souza", "@ana", "cairn-db", "src/store/sqlite.ts"). */
  name: string;
  type: EntityType;
  /** A direct relationship with the person stated in this text ("sister", "manager", "client"). */
  relation?: string;
  /** 0–1. */
  confidence: number;
}

/** One subject – attribute – value statement a text makes. */
export interface ExtractedFact {
  /** The subject as written ("the staging database", "Ana", "I"); `user` for first person with no known name. */
  subject: string;
  /** Normalised attribute: lower case, singular, no article (`port`, `lives in`, `works at`, `role`, `version`, `prefers`, `plans`, `decided`, `date of <event>`). */
  attribute: string;
  /** The value as written, trimmed ("6543", "Lisbon", "flat white"). */
  value: string;
  /** When the text says it became true ("since March", "on 2026-03-02"), ISO; otherwise the memory's time applies. */
  validFrom?: string;
  /**
   * The value this statement says it replaced, as written ("cortado" in "I switched from cortado to
   * flat white"): for attributes that hold several values at once, only a named value is superseded.
   */
  replaces?: string;
  /** 0–1. */
  confidence: number;
}

/** What the fact timeline decides for a new fact, given the facts already known for its subject and attribute. */
export type FactDecision =
  /** The same value is current: count a re-mention of that fact. */
  | { action: 'remention'; factId: string }
  /** A new value that is newer in valid time: it becomes current and supersedes these (validTo = its validFrom). */
  | { action: 'supersede'; supersedes: string[] }
  /** A value older in valid time than the current one: stored as history, already superseded by `by`, validTo = `validTo`. */
  | { action: 'history'; by: string; validTo: string }
  /** Nothing known yet for subject + attribute (or a value that can hold beside the others): a new current fact. */
  | { action: 'add' };

/** A memory as the near-duplicate test sees it. */
export interface NearDupCandidate {
  id: string;
  text: string;
  /** Unit-length vector of the memory's index entry, when the embedder made one. */
  vector?: Float32Array | null;
}

export interface NearDupVerdict {
  duplicate: boolean;
  /** Word-overlap similarity, 0–1. */
  overlap: number;
  /** Cosine similarity, when both have vectors. */
  cosine: number | null;
  /** Why not, in words, when the scores are high but the texts differ on something that matters ("numbers differ", "values differ"). */
  reason?: string;
}
