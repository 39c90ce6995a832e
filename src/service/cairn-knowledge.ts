// The knowledge layer of the facade: the knowledge pass (learn) that capture, judging, storing
// and consolidation run, and entities and facts for people and agents (list, show, merge, rename,
// split). Between CairnBase (records, search) and Cairn (capture, consolidation, backups) by size.
// The pass and the entity views are imported where used: a search needs neither (issue 29).
import type {
  EntityDetail,
  EntityListInput,
  EntityView,
  FactsInput,
  KnowledgeSettings,
  MergeResult,
  RenameResult,
  SplitInput,
  SplitResult,
} from './knowledge.js';
import type { Fact } from '../core/types.js';
import type { KnowledgeLlm, KnowledgeReport } from '../memory/knowledge/pass.js';
import { aliasKey } from '../memory/knowledge/entities/aliases.js';
import { CairnBase } from './cairn-base.js';

/** Memories one remember takes into the knowledge pass at most (one page of it): its own, when no backlog is ahead. */
export const LEARN_PER_STORE = 200;

export abstract class CairnKnowledge extends CairnBase {
  private knowledgeLlm: KnowledgeLlm | null | undefined;

  protected aliasKey(name: string): string {
    return aliasKey(name);
  }

  // Knowledge: the pass that folds near-duplicates, counts entities and places facts on timelines.
  /**
   * Takes in the memories stored since the knowledge pass last ran (every namespace when none is
   * given): near-duplicates fold into the older memory, entities are counted, facts placed on their
   * timelines (a newer value supersedes the memory that stated the old one).
   */
  async learn(options: { namespace?: string; limit?: number; signal?: AbortSignal; onProgress?: (done: number) => void } = {}): Promise<KnowledgeReport> {
    if (this.readOnly) return (await import('../memory/knowledge/pass.js')).emptyKnowledgeReport();
    const [{ learnPending }, { createLlmKnowledgeExtractor }] = await Promise.all([import('./learning.js'), import('../memory/knowledge/llm-extract.js')]);
    const namespaces = options.namespace !== undefined ? [this.namespace(options.namespace)] : await this.store.namespaceIds();
    this.knowledgeLlm ??= createLlmKnowledgeExtractor({ config: this.config, runtime: this.llm(), transport: this.llmTransport });
    const vectorModel = this.embedder && this.config.capture.embed ? this.embedder.modelId : null;
    return learnPending({ store: this.store, config: this.config, llm: this.knowledgeLlm, vectorModel }, namespaces, options);
  }

  protected override async afterStore(namespace: string, memoryId: string) {
    // One page of the pass, not the whole backlog: a home filled without the pass (Store.addMemories,
    // an import, a crash) would otherwise be taken in whole by the next remember, minutes at 100k
    // memories (issue 29). The rest follows in pages: the next remembers, captures, the daemon, sleep.
    await this.learn({ namespace, limit: LEARN_PER_STORE });
    return (await import('./learning.js')).storeOutcome(this.store, namespace, memoryId);
  }

  // Knowledge: entities and facts (service/knowledge.ts; the edit rules in memory/knowledge/edits.ts).

  /** Entities, most mentioned first: by type, PARA kind, promotion, or names starting with `query`. */
  async entities(options: EntityListInput & { namespace?: string } = {}): Promise<EntityView[]> {
    const { namespace, ...input } = options ?? {};
    return (await import('./knowledge.js')).listEntityViews(this.store, this.namespace(namespace), input, this.knowledgeSettings(), new Date().toISOString());
  }

  /** One entity by id, slug or name: stats, PARA kind, promotion, current facts, history, recent memories. */
  async entity(ref: string, options: { namespace?: string } = {}): Promise<EntityDetail> {
    return (await import('./knowledge.js')).entityDetail(this.store, this.namespace(options.namespace), ref, this.knowledgeSettings(), new Date().toISOString());
  }

  /** `from` becomes part of `into` (names, mentions, facts); the fix survives the knowledge pass running again. */
  async mergeEntity(from: string, into: string, options: { namespace?: string } = {}): Promise<MergeResult> {
    return (await import('./knowledge.js')).mergeEntityRefs(this.store, this.namespace(options.namespace), from, into, new Date().toISOString());
  }

  /** A person's name for an entity: extraction never changes it again. */
  async renameEntity(ref: string, name: string, options: { namespace?: string } = {}): Promise<RenameResult> {
    return (await import('./knowledge.js')).renameEntityRef(this.store, this.namespace(options.namespace), ref, name, new Date().toISOString());
  }

  /** Names wrongly taken as one entity become another, with the memories that name only them. */
  async splitEntity(ref: string, request: SplitInput, options: { namespace?: string } = {}): Promise<SplitResult> {
    return (await import('./knowledge.js')).splitEntityRef(this.store, this.namespace(options.namespace), ref, request, new Date().toISOString());
  }

  /** Facts by subject, attribute or entity; current ones unless includeSuperseded. */
  async facts(options: FactsInput & { namespace?: string } = {}): Promise<Fact[]> {
    const { namespace, ...input } = options ?? {};
    return (await import('./knowledge.js')).listFactsFor(this.store, this.namespace(namespace), input);
  }

  private knowledgeSettings(): KnowledgeSettings {
    return this.config.knowledge;
  }
}
