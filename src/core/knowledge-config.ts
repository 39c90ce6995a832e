// The knowledge part's settings (<home>/config.json, key "knowledge"): when an entity is promoted
// into the knowledge graph, when it is archived, and whether facts supersede themselves and
// near-duplicate memories merge. The LLM used for extraction is the judge's (judge.llm).
import { z } from 'zod';
import { lazily } from './lazily.js';

export const knowledgeConfigSchema = lazily(() => z.strictObject({
  /**
   * Let the judge's chat model (judge.llm) extract entities and facts, within the judge's budget and
   * breaker; the offline extractor is the fallback and the only extractor when judge.llm is absent.
   * Opt-in: it costs one model call per 12 new memories on top of judging, and shares the judge's
   * breaker, so a bad extraction answer counts against the judge too.
   */
  llm: z.boolean().default(false),
  /** Mentions (over memories) that promote a candidate entity into the knowledge graph. */
  promoteMentions: z.number().int().min(1).max(1000).default(3),
  /** A memory at least this important (1–10) promotes the entities it names (significant projects). */
  promoteImportance: z.number().int().min(1).max(10).default(8),
  /** A promoted entity with no mention for this many days moves to archives. */
  archiveAfterDays: z.number().int().min(1).max(36_500).default(90),
  /** Merge memories that say the same thing in other words (the survivor keeps both provenances). */
  nearDuplicates: z.boolean().default(true),
  /** A new value for a subject and attribute supersedes the old fact and the memory that stated it. */
  autoSupersede: z.boolean().default(true),
}));

export type KnowledgeConfig = z.infer<ReturnType<typeof knowledgeConfigSchema>>;
