// The rules the knowledge pass asks, gathered in one object so the pass stays a loop over
// memories: the offline extractors, alias and subject keys, the fact timeline and the
// near-duplicate test. The service builds it (knowledgeRules) from the memory part's modules.
import type { Fact } from '../../core/types.js';
import type { EntityMention, ExtractedFact, ExtractionContext, FactDecision, NearDupCandidate, NearDupVerdict } from './contracts.js';

export interface KnowledgeRules {
  extractEntities(text: string, ctx: ExtractionContext): EntityMention[];
  extractFacts(text: string, ctx: ExtractionContext): ExtractedFact[];
  /** Normalised alias key: names that mean the same entity share it ("@Ana" → "ana"). */
  aliasKey(name: string): string;
  /** File-safe slug of a display name. */
  slugify(name: string): string;
  /** Normalised fact subject: statements about the same thing share it. */
  subjectKey(subject: string): string;
  decideFact(known: readonly Fact[], incoming: { value: string; validFrom: string; replaces?: string }): FactDecision;
  nearDuplicate(a: NearDupCandidate, b: NearDupCandidate): NearDupVerdict;
  /** Words to look near-duplicate candidates up by, rarest first. */
  nearDupQueryTerms(text: string): string[];
  /** Label stored with facts the offline extractors found (`offline@<version>`). */
  offlineLabel: string;
}

/** What the pass may do beyond extracting (the `knowledge` config section). */
export interface KnowledgeSwitches {
  /** Merge near-duplicate memories into the older one. */
  nearDuplicates: boolean;
  /** Retire a memory whose every fact was superseded by a newer one. */
  autoSupersede: boolean;
}
