// Fact timelines inside one knowledge batch: each new fact is placed on the timeline of its subject
// and attribute (store facts plus those earlier in the batch) by the timeline rule, and what that
// decides becomes new fact rows, updates to old ones, and memories retired because everything
// they stated was superseded. Valid time decides, never the order things were captured in.
import type { Fact, Memory } from '../../core/types.js';
import { newId } from '../../core/ids.js';
import type { FactUpdate, MemoryRetirement, Store } from '../../store/store.js';
import type { ExtractedFact } from './contracts.js';
import type { KnowledgeRules, KnowledgeSwitches } from './rules.js';

/** Provenance entries kept on a fact: re-mentions add theirs until this cap. */
const MAX_FACT_PROVENANCE = 20;

export interface FactInput {
  memory: Memory;
  facts: readonly ExtractedFact[];
  /** The memory's valid time (event time, else creation). */
  time: string;
  extractor: string;
  entityIdOf: (subjectKey: string) => Promise<string | null>;
  /** A memory folded into another as a near-duplicate: its facts only count as re-mentions. */
  onlyRementions?: boolean;
}

export class FactOverlay {
  readonly created: Fact[] = [];
  readonly updates = new Map<string, FactUpdate>();
  readonly retirements: MemoryRetirement[] = [];
  private readonly timelines = new Map<string, Fact[]>();
  /** Facts of each memory touched in this batch (to tell when all of a memory's facts are superseded). */
  private readonly byMemory = new Map<string, Fact[]>();
  private readonly retired = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly namespace: string,
    private readonly rules: KnowledgeRules,
    private readonly switches: KnowledgeSwitches,
    private readonly now: string,
  ) {}

  /** Places each fact a memory states; returns how many facts were new and how many superseded others. */
  async add(input: FactInput): Promise<{ added: number; superseded: number }> {
    let added = 0;
    let superseded = 0;
    const seen = new Set<string>();
    for (const f of input.facts) {
      const subject = this.rules.subjectKey(f.subject);
      const attribute = f.attribute.trim().toLowerCase();
      const value = f.value.trim();
      if (!subject || !attribute || !value) continue;
      const once = `${subject}\u0000${attribute}\u0000${value.toLowerCase()}`;
      if (seen.has(once)) continue;
      seen.add(once);
      const validFrom = f.validFrom ?? input.time;
      const timeline = await this.timeline(subject, attribute);
      const decision = this.rules.decideFact(timeline, { value, validFrom, ...(f.replaces ? { replaces: f.replaces } : {}) });
      // Each entry names the memory that stated it: a memory that only re-mentions a fact is found
      // (and retired with it) when the fact is superseded.
      const provenance = input.memory.provenance.slice(0, 3).map((p) => ({ ...p, memoryIds: [input.memory.id] }));
      if (provenance.length === 0) provenance.push({ memoryIds: [input.memory.id] });
      if (decision.action === 'remention') {
        const old = timeline.find((x) => x.id === decision.factId);
        if (old) {
          old.mentions += 1;
          old.provenance = [...old.provenance, ...provenance].slice(0, MAX_FACT_PROVENANCE);
          if (!this.created.includes(old)) this.patch(old.id, { mentionsDelta: (this.updates.get(old.id)?.mentionsDelta ?? 0) + 1, provenance: [...(this.updates.get(old.id)?.provenance ?? []), ...provenance].slice(0, MAX_FACT_PROVENANCE) });
        }
        continue;
      }
      if (input.onlyRementions) continue;
      const fact: Fact = {
        id: newId('f', Date.parse(this.now)),
        namespace: this.namespace,
        subject,
        subjectName: f.subject.trim(),
        entityId: await input.entityIdOf(subject),
        attribute,
        value,
        memoryId: input.memory.id,
        validFrom,
        validTo: null,
        recordedAt: this.now,
        confidence: f.confidence,
        supersededBy: null,
        mentions: 1,
        extractor: input.extractor,
        provenance,
      };
      added++;
      if (decision.action === 'history') {
        fact.validTo = decision.validTo;
        fact.supersededBy = decision.by;
      } else if (decision.action === 'supersede') {
        for (const id of decision.supersedes) {
          const old = timeline.find((x) => x.id === id);
          if (!old || old.validTo !== null) continue;
          old.validTo = validFrom;
          old.supersededBy = fact.id;
          if (!this.created.includes(old)) this.patch(old.id, { validTo: validFrom, supersededBy: fact.id });
          superseded++;
        }
      }
      timeline.push(fact);
      this.created.push(fact);
      this.remember(fact);
    }
    return { added, superseded };
  }

  /**
   * Memories whose every fact is now superseded stop being current, linked to the memory that
   * stated the newest value. Run after the batch's facts are placed (a memory's later fact in the
   * same batch may still be current).
   */
  async retireOutdated(): Promise<void> {
    if (!this.switches.autoSupersede) return;
    // Every memory that stated or re-mentioned a fact superseded in this batch, with those facts.
    const touched = new Map<string, Fact[]>();
    for (const f of [...this.created, ...this.changedFacts()]) {
      if (f.validTo === null) continue;
      for (const m of statersOf(f)) touched.set(m, [...(touched.get(m) ?? []), f]);
    }
    for (const [memoryId, stated] of touched) {
      if (this.retired.has(memoryId)) continue;
      const own = await this.factsOfMemory(memoryId);
      if (own.some((f) => f.validTo === null)) continue;
      // The successor: the memory that stated what replaced its latest-valid fact.
      const latest = (own.length ? own : stated).reduce((a, b) => (b.validFrom > a.validFrom ? b : a));
      const successor = this.findFact(latest.supersededBy);
      if (!successor || successor.memoryId === memoryId) continue;
      this.retired.add(memoryId);
      this.retirements.push({ memoryId, by: successor.memoryId, validTo: latest.validTo!, reason: 'superseded' });
    }
  }

  private changedFacts(): Fact[] {
    const out: Fact[] = [];
    for (const t of this.timelines.values()) for (const f of t) if (this.updates.has(f.id)) out.push(f);
    return out;
  }

  private findFact(id: string | null): Fact | null {
    if (!id) return null;
    for (const t of this.timelines.values()) for (const f of t) if (f.id === id) return f;
    return null;
  }

  private async factsOfMemory(memoryId: string): Promise<Fact[]> {
    const mine = this.byMemory.get(memoryId) ?? [];
    const stored = await this.store.listFacts(this.namespace, { memoryIds: [memoryId], includeSuperseded: true, limit: 200 });
    const out = new Map<string, Fact>();
    for (const f of stored) out.set(f.id, this.findFact(f.id) ?? f);
    for (const f of mine) out.set(f.id, f);
    return [...out.values()];
  }

  private async timeline(subject: string, attribute: string): Promise<Fact[]> {
    const key = `${subject}\u0000${attribute}`;
    let t = this.timelines.get(key);
    if (!t) {
      t = await this.store.listFacts(this.namespace, { subject, attribute, includeSuperseded: true, limit: 1000 });
      this.timelines.set(key, t);
      for (const f of t) this.remember(f);
    }
    return t;
  }

  private remember(f: Fact): void {
    const list = this.byMemory.get(f.memoryId) ?? [];
    if (!list.includes(f)) list.push(f);
    this.byMemory.set(f.memoryId, list);
  }

  private patch(id: string, change: Omit<FactUpdate, 'id'>): void {
    this.updates.set(id, { ...this.updates.get(id), id, ...change });
  }
}

/** The memory that stated a fact and those that stated it again (named in its provenance). */
function statersOf(f: Fact): string[] {
  return [...new Set([f.memoryId, ...f.provenance.flatMap((p) => p.memoryIds ?? [])])];
}
