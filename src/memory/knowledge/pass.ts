// The knowledge pass: takes in the memories stored since it last ran (in seq order), and for each
// one decides whether it repeats an older memory in other words (then it folds into that one),
// which entities it names, and which facts it states, placing each fact on its timeline so a newer
// value supersedes an older one. Everything one run of memories taught is written in one
// transaction with the pass's cursor: a crash loses the run, never half of it, and the next pass
// takes it in again. The rules live beside this file; the store only keeps what they decided.
import type { Memory } from '../../core/types.js';
import type { MemoryRetirement, Store } from '../../store/store.js';
import type { EntityMention, ExtractedFact, ExtractionContext } from './contracts.js';
import { EntityOverlay } from './pass-entities.js';
import { FactOverlay } from './pass-facts.js';
import { findNearDuplicate } from './pass-near-dup.js';
import type { KnowledgeRules, KnowledgeSwitches } from './rules.js';

/** An LLM extractor (llm-extract.ts): null, or no entry for a memory, means "use the offline extractors". */
export interface KnowledgeLlm {
  readonly extractor: string;
  extract(namespace: string, items: ReadonlyArray<{ id: string; text: string; ctx: ExtractionContext }>, signal?: AbortSignal): Promise<Map<string, { entities: EntityMention[]; facts: ExtractedFact[] }> | null>;
}

export interface KnowledgePassDeps {
  store: Store;
  rules: KnowledgeRules;
  switches: KnowledgeSwitches;
  llm?: KnowledgeLlm | null;
  /** The embedder's model id when vectors exist (near-duplicates then also compare meaning). */
  vectorModel: string | null;
  /** Names the person is known by ("I" resolves to the first). */
  userNames?: readonly string[];
  now?: () => string;
}

export interface KnowledgeReport {
  /** Memories taken in. */
  memories: number;
  /** Memories folded into an older one that says the same. */
  merged: number;
  /** Memories retired because a newer fact superseded everything they stated. */
  superseded: number;
  entities: number;
  mentions: number;
  facts: number;
  /** Memories whose knowledge the LLM extracted (the rest: offline). */
  byLlm: number;
}

export interface KnowledgePassOptions {
  batchSize?: number;
  /** Stop after about this many memories (a daemon interleaves the pass with capture). */
  limit?: number;
  signal?: AbortSignal;
  onProgress?: (done: number) => void;
}

/** Attempts at one run when another process keeps moving the cursor first. */
const MAX_CONFLICTS = 5;

export function emptyKnowledgeReport(): KnowledgeReport {
  return { memories: 0, merged: 0, superseded: 0, entities: 0, mentions: 0, facts: 0, byLlm: 0 };
}

export async function runKnowledgePass(deps: KnowledgePassDeps, namespace: string, options: KnowledgePassOptions = {}): Promise<KnowledgeReport> {
  const report = emptyKnowledgeReport();
  const batchSize = Math.max(1, Math.min(options.batchSize ?? 200, options.limit ?? Infinity));
  let conflicts = 0;
  while (report.memories < (options.limit ?? Infinity) && !options.signal?.aborted) {
    const cursor = await deps.store.knowledgeCursor(namespace);
    const page = await deps.store.memoriesAfter(namespace, cursor, batchSize);
    if (page.length === 0) break;
    const run = await learnRun(deps, namespace, page.map((p) => p.memory), options.signal);
    const applied = await deps.store.applyKnowledge({ ...run.batch, namespace, expectCursor: cursor, cursor: page[page.length - 1]!.seq });
    if (!applied.applied) {
      if (++conflicts > MAX_CONFLICTS) break;
      continue;
    }
    conflicts = 0;
    add(report, run.report);
    options.onProgress?.(report.memories);
    // The store answers synchronously: without a turn of the event loop a long pass would hold
    // off a daemon's captures, timers and signals until it ends.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return report;
}

function add(into: KnowledgeReport, r: KnowledgeReport): void {
  for (const k of Object.keys(into) as Array<keyof KnowledgeReport>) into[k] += r[k];
}

/** The memory's valid time: when the remembered thing happened, else when it was stored. */
export function validTimeOf(m: Memory): string {
  return m.eventTime ?? m.createdAt;
}

/**
 * The text extractors read: a memory made from a turn starts with who said it ("Ana Souza: we moved
 * staging to 6543", memory/from-turn.ts); the speaker is told in the context instead, so the
 * statement reads as a sentence again.
 */
export function statementOf(m: Memory, ctx: ExtractionContext): string {
  const prefix = ctx.speaker ? `${ctx.speaker}: ` : null;
  return prefix && m.text.startsWith(prefix) ? m.text.slice(prefix.length) : m.text;
}

function contextOf(m: Memory, userNames: readonly string[]): ExtractionContext {
  const p = m.provenance.find((x) => x.speaker !== undefined || x.role !== undefined) ?? m.provenance[0];
  return {
    ...(p?.speaker ? { speaker: p.speaker } : {}),
    ...(p?.role ? { role: p.role } : {}),
    userNames,
    time: validTimeOf(m),
  };
}

async function learnRun(deps: KnowledgePassDeps, namespace: string, memories: readonly Memory[], signal?: AbortSignal) {
  const now = deps.now?.() ?? new Date().toISOString();
  const entities = new EntityOverlay(deps.store, namespace, deps.rules, now);
  const facts = new FactOverlay(deps.store, namespace, deps.rules, deps.switches, now);
  const report = emptyKnowledgeReport();
  const userNames = deps.userNames ?? [];
  const retirements: MemoryRetirement[] = [];
  const merged = new Set<string>();
  const memoryEntities: Array<{ memoryId: string; entities: string[] }> = [];

  for (const memory of memories) {
    report.memories++;
    if (deps.switches.nearDuplicates && memory.validTo === null) {
      const match = await findNearDuplicate(deps.store, namespace, deps.rules, memory, deps.vectorModel, merged);
      if (match) {
        merged.add(memory.id);
        retirements.push({ memoryId: memory.id, by: match.survivor, validTo: now, reason: 'duplicate' });
        report.merged++;
      }
    }
  }

  // A folded memory's entities are the survivor's (its mentions count there); its facts re-mention the survivor's.
  const items = memories.filter((m) => !merged.has(m.id)).map((m) => {
    const ctx = contextOf(m, userNames);
    return { id: m.id, text: statementOf(m, ctx), ctx };
  });
  const byLlm = deps.llm && items.length ? await deps.llm.extract(namespace, items, signal) : null;
  for (const memory of memories) {
    const folded = merged.has(memory.id);
    const ctx = contextOf(memory, userNames);
    const text = statementOf(memory, ctx);
    const llm = byLlm?.get(memory.id);
    if (llm) report.byLlm++;
    if (!folded) {
      const found = llm?.entities ?? deps.rules.extractEntities(text, ctx);
      // Names the memory was stored with (a caller's `entities`, or an earlier pass's) stay on it and
      // count as mentions; unsure of their type, they join whatever entity already has the name.
      const keys = new Set(found.map((m) => deps.rules.aliasKey(m.name)));
      const given = memory.entities.filter((n) => !keys.has(deps.rules.aliasKey(n))).map((name) => ({ name, type: 'topic' as const, confidence: 0.5 }));
      const names = await entities.resolve(memory.id, [...found, ...given]);
      if (names.length || memory.entities.length) memoryEntities.push({ memoryId: memory.id, entities: names });
    }
    const stated = llm?.facts ?? deps.rules.extractFacts(text, ctx);
    if (stated.length === 0) continue;
    const placed = await facts.add({
      memory,
      facts: stated,
      time: ctx.time,
      extractor: llm ? deps.llm!.extractor : deps.rules.offlineLabel,
      entityIdOf: async (subject) => {
        await entities.prefetch([subject]);
        return entities.idOf(subject);
      },
      onlyRementions: folded,
    });
    report.facts += placed.added;
  }
  await facts.retireOutdated();
  report.superseded = facts.retirements.length;
  report.entities = entities.createdRows().length;
  report.mentions = entities.mentions.length;
  return {
    report,
    batch: {
      entities: entities.createdRows(),
      entityUpdates: [...entities.updates.values()],
      aliases: entities.aliases,
      mentions: entities.mentions,
      memoryEntities,
      facts: facts.created,
      factUpdates: [...facts.updates.values()],
      retirements: [...retirements, ...facts.retirements.filter((r) => !merged.has(r.memoryId))],
      now,
    },
  };
}
