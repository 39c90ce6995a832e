// The knowledge stage of the pipeline (capture → judge → embed → learn): builds the memory part's
// rules from its modules and the `knowledge` config, and runs the knowledge pass over what was
// stored since it last ran. Called after judging and storing, by the daemon, and before
// consolidation renders life/.
import type { CairnConfig } from '../core/config.js';
import type { Store } from '../store/store.js';
import { aliasKey, slugify } from '../memory/knowledge/entities/aliases.js';
import { ENTITY_EXTRACTOR_VERSION, extractEntities } from '../memory/knowledge/entities/extract.js';
import { extractFacts } from '../memory/knowledge/facts/extract.js';
import { subjectKey } from '../memory/knowledge/facts/keys.js';
import { decideFact } from '../memory/knowledge/facts/timeline.js';
import { nearDuplicate, nearDupQueryTerms } from '../memory/knowledge/near-dup.js';
import { runKnowledgePass, type KnowledgeLlm, type KnowledgePassOptions, type KnowledgeReport } from '../memory/knowledge/pass.js';
import type { KnowledgeRules, KnowledgeSwitches } from '../memory/knowledge/rules.js';

/** The offline rules, one object for every pass of the process. */
export const KNOWLEDGE_RULES: KnowledgeRules = {
  extractEntities: (text, ctx) => extractEntities(text, ctx),
  extractFacts,
  aliasKey,
  slugify,
  subjectKey,
  decideFact,
  nearDuplicate: (a, b) => nearDuplicate(a, b),
  nearDupQueryTerms,
  offlineLabel: `offline@${ENTITY_EXTRACTOR_VERSION}`,
};

export function knowledgeSwitches(config: CairnConfig): KnowledgeSwitches {
  return { nearDuplicates: config.knowledge.nearDuplicates, autoSupersede: config.knowledge.autoSupersede };
}

export interface LearnDeps {
  store: Store;
  config: CairnConfig;
  llm: KnowledgeLlm | null;
  vectorModel: string | null;
}

/** Runs the knowledge pass for each namespace; the reports add up. */
export async function learnPending(deps: LearnDeps, namespaces: readonly string[], options: KnowledgePassOptions = {}): Promise<KnowledgeReport> {
  const total: KnowledgeReport = { memories: 0, merged: 0, superseded: 0, entities: 0, mentions: 0, facts: 0, byLlm: 0 };
  for (const ns of namespaces) {
    const base = total.memories;
    const r = await runKnowledgePass(
      { store: deps.store, rules: KNOWLEDGE_RULES, switches: knowledgeSwitches(deps.config), llm: deps.llm, vectorModel: deps.vectorModel },
      ns,
      { ...options, onProgress: (done) => options.onProgress?.(base + done) },
    );
    for (const k of Object.keys(total) as Array<keyof KnowledgeReport>) total[k] += r[k];
  }
  return total;
}
