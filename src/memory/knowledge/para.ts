// Promotion and PARA (DESIGN.md "Know"): which entities leave the candidate pool and get a page
// under life/, and which of the four drawers the page is filed in. Pure rules over an entity's
// stats, its facts and (optionally) the categories of its recent memories, so a person can read why
// (`paraReason`) and the same input always files the same way.
//
// The drawers, first match wins:
//  1. archives  – not mentioned for `archiveAfterDays` (the last mention is in the cold tier and
//                 older than the setting: an archived page is never hot or warm).
//  2. projects  – active work with a goal or an end: an entity typed project; or a topic with a
//                 current plan/deadline/date fact, or with plan/decision/implementation memories in
//                 the hot or warm tier (last 30 days).
//  3. areas     – ongoing responsibilities, which have no end date: anyone or anything in a direct
//                 relationship with the person (manager, sister, client, home town), and people,
//                 organisations, places and topics that keep coming up across weeks.
//  4. resources – everything else: tools, reference topics, people as contacts, places, organisations.
import { DAY_MS } from '../../core/time.js';
import type { Fact, ParaKind } from '../../core/types.js';
import type { EntityWithStats } from '../../store/knowledge-records.js';
import { decayTier, type DecayTier } from '../../core/decay.js';

export interface PromotionOptions {
  /** Mentions (summed over memories) that promote an entity. */
  promoteMentions: number;
  /** A project named by a memory this important (1–10) is promoted on that alone. */
  promoteImportance: number;
}

export interface ParaOptions {
  /** Days without a mention after which an entity is archived. */
  archiveAfterDays: number;
  /**
   * Categories of the entity's memories in the hot and warm tiers (the last 30 days), one per
   * memory: plan, decision and implementation memories mark active work.
   */
  recentCategories?: readonly string[];
}

/** The knowledge config's defaults (src/core/knowledge-config.ts), for callers without a config. */
export const PARA_DEFAULTS: Readonly<PromotionOptions & ParaOptions> = { promoteMentions: 3, promoteImportance: 8, archiveAfterDays: 90 };

/** The decay tiers of the search ranking's defaults (DESIGN.md "Recall"): hot ≤ 7 days, warm 8–30, cold older. */
export const PARA_TIERS = { hotDays: 7, warmDays: 30 } as const;

/** Spread between first and last mention that makes a recurring subject an ongoing area. */
const AREA_SPAN_DAYS = 21;
/** …with at least this many memories naming it (one long thread is not a responsibility). */
const AREA_MIN_MEMORIES = 4;
/** Recent memories of these categories show work under way. */
const WORK_CATEGORIES = new Set(['plan', 'decision', 'implementation']);
/** Recent work memories that make a topic a project. */
const WORK_MIN_MEMORIES = 2;
/** Fact attributes that give something a goal or an end. */
const GOAL_ATTRIBUTE = /^(?:plans?|goal|deadline|due|milestone|launch|release|ships?|starts?|ends?|date of\b.*)$/;

const hasRelation = (e: EntityWithStats): boolean => (e.entity.relation ?? '').trim() !== '';

/**
 * Whether an entity is in the knowledge graph (gets a page) rather than a candidate: mentioned at
 * least `promoteMentions` times, or in a direct relationship with the person, or a project named
 * by a memory of importance ≥ `promoteImportance`.
 */
export function isPromoted(e: EntityWithStats, opts: PromotionOptions): boolean {
  if (e.stats.mentions >= opts.promoteMentions) return true;
  if (hasRelation(e)) return true;
  return e.entity.type === 'project' && e.stats.maxImportance >= opts.promoteImportance;
}

export interface ParaPlacement {
  kind: ParaKind;
  /** One short sentence why, for summary.md. */
  reason: string;
  /** Decay tier of the last mention. */
  tier: DecayTier;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
const day = (iso: string): string => iso.slice(0, 10);

/** Where an entity is filed and why. Reasons name dates, not ages, so a page does not change every day. */
export function placePara(e: EntityWithStats, facts: readonly Fact[], now: string, opts: ParaOptions): ParaPlacement {
  const { entity, stats } = e;
  const nowMs = Date.parse(now);
  const lastMs = Date.parse(stats.lastSeen);
  const tier = Number.isNaN(lastMs) || Number.isNaN(nowMs) ? 'cold' : decayTier(stats.lastSeen, nowMs, PARA_TIERS);
  const idleDays = Number.isNaN(lastMs) || Number.isNaN(nowMs) ? Infinity : (nowMs - lastMs) / DAY_MS;
  const archiveAfter = Math.max(1, opts.archiveAfterDays);

  if (idleDays > archiveAfter && tier === 'cold') {
    const reason = Number.isNaN(lastMs) ? 'Archived: no dated mention.' : `Archived: not mentioned since ${day(stats.lastSeen)}, over ${plural(archiveAfter, 'day')} ago.`;
    return { kind: 'archives', tier, reason };
  }

  if (entity.type === 'project') return { kind: 'projects', tier, reason: `A project, last mentioned on ${day(stats.lastSeen)}.` };
  const goal = facts.find((f) => f.validTo === null && GOAL_ATTRIBUTE.test(f.attribute));
  const work = tier === 'cold' ? 0 : (opts.recentCategories ?? []).filter((c) => WORK_CATEGORIES.has(c)).length;
  if (entity.type === 'topic' && goal) return { kind: 'projects', tier, reason: `Active work with an end in view (${goal.attribute}: ${goal.value}).` };
  if (entity.type === 'topic' && work >= WORK_MIN_MEMORIES) {
    return { kind: 'projects', tier, reason: `Active work: ${plural(work, 'plan, decision or implementation memory', 'plan, decision or implementation memories')} in the last ${PARA_TIERS.warmDays} days.` };
  }

  if (entity.type !== 'tool' && hasRelation(e)) return { kind: 'areas', tier, reason: `An ongoing relationship: your ${entity.relation!.trim()}.` };
  const span = (lastMs - Date.parse(stats.firstSeen)) / DAY_MS;
  if (entity.type !== 'tool' && span >= AREA_SPAN_DAYS && stats.memories >= AREA_MIN_MEMORIES) {
    return { kind: 'areas', tier, reason: `Ongoing: named in ${plural(stats.memories, 'memory', 'memories')} from ${day(stats.firstSeen)} to ${day(stats.lastSeen)}.` };
  }

  const what: Record<string, string> = { person: 'a contact', tool: 'a tool', place: 'a place', organization: 'an organisation', topic: 'a reference topic' };
  return { kind: 'resources', tier, reason: `Reference: ${what[entity.type] ?? 'a reference'}, last mentioned on ${day(stats.lastSeen)}.` };
}

/** The PARA drawer an entity is filed in (see the rules at the top of this file). */
export function paraKind(e: EntityWithStats, facts: readonly Fact[], now: string, opts: ParaOptions): ParaKind {
  return placePara(e, facts, now, opts).kind;
}

/** One short sentence saying why the entity is filed where it is. */
export function paraReason(e: EntityWithStats, facts: readonly Fact[], now: string, opts: ParaOptions): string {
  return placePara(e, facts, now, opts).reason;
}
