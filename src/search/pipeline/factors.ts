// Stage 5, the factors that scale a text's relevance, each on its own: coverage of the query's
// words, what the neighbouring turns lend, the speaker a query names, the time it names or asks
// for, the entities it names, and history that was replaced. Importance and recency come after
// (ranking.ts finalScore).
import type { IndexEntry } from '../../store/store.js';
import { candidateIdf, TermFinder, windowCoverage, type TermWeights } from '../coverage.js';
import type { Language } from '../text-analysis.js';
import { currentAt } from '../entry-filter.js';
import { inTimeWindow, type TimeWindow } from '../query-time.js';
import { isAbout, type QueryPeople } from '../speakers.js';
import { statesTime } from '../time-mentions.js';

/** People mention an event for days after it: an entry this long after the time a query names still counts as from then. */
export const TIME_GRACE_DAYS = 7;
/**
 * Relevance kept by an entry no longer current, when a search asks for superseded ones too: what
 * was replaced ranks below what replaced it (history stays findable, the current answer first).
 */
export const SUPERSEDED_FACTOR = 0.5;

/** How coverage is counted in one search: on or off, its words and their weights among the candidates. */
export interface Coverage {
  on: boolean;
  finder: TermFinder;
  weights: TermWeights;
}

/**
 * Coverage counts only with a weight and more than one word (one word is always covered by its
 * matches). `held`: which of `terms` the index holds for a text (see TermFinder).
 */
export function coverageFor(terms: readonly string[], weight: number, idf: boolean, candidateTexts: readonly string[], language: Language, held?: ReadonlyMap<string, Uint8Array>): Coverage {
  const on = weight > 0 && terms.length > 1;
  const finder = new TermFinder(on ? terms : [], language, held);
  return { on, finder, weights: on && idf ? candidateIdf(finder, candidateTexts) : null };
}

/**
 * The terms the index holds for each entry (store termsHeld, by seq) keyed by the entry's text, as
 * TermFinder reads them: a text two entries share (a memory and the turn it came from) has what
 * either has. The arrays are taken, not copied (a search makes ~600 at 50k chat turns): a text's
 * first one is its answer, the others of the same text or-ed into it.
 */
export function heldByText(bySeq: ReadonlyMap<number, Uint8Array>, textOf: ReadonlyMap<number, string>): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  bySeq.forEach((found, seq) => {
    const text = textOf.get(seq);
    if (text === undefined) return;
    const known = out.get(text);
    if (!known) out.set(text, found);
    else for (let i = 0; i < found.length; i++) known[i]! |= found[i]!;
  });
  return out;
}

/** The share of the query a text (and, at `aroundWeight`, the turns beside it) covers; 1 when coverage is off or the text unknown. */
export function coverageOf(c: Coverage, text: string | undefined, around: readonly string[], aroundWeight: number): number {
  return c.on && text !== undefined ? windowCoverage(c.finder, text, around, aroundWeight, c.weights) : 1;
}

/** Coverage scales relevance between 1 − weight (nothing covered) and 1 (all of it). */
export function coverageFactor(coverage: number, weight: number): number {
  return 1 - weight + weight * coverage;
}

/** Above 1 for what a person the query names said, or the role a first- or second-person query is about. */
export function speakerFactor(named: QueryPeople | null, e: IndexEntry, boost: number): number {
  return named && isAbout(named, e.provenance[0]?.speaker, e.provenance[0]?.role) ? 1 + boost : 1;
}

export interface WhenQuery {
  /** The time the query names (null: none, or the factor is off). */
  window: TimeWindow | null;
  /** The query asks when (and the factor is on). */
  askedWhen: boolean;
  timeZone: string;
}

/** Above 1 for an entry from the time the query names, and for one that states a time when the query asks when. */
export function whenFactor(q: WhenQuery, e: IndexEntry, timeBoost: number, whenBoost: number): number {
  return (q.window && inTimeWindow(q.window, e.time, q.timeZone, TIME_GRACE_DAYS) ? 1 + timeBoost : 1) * (q.askedWhen && statesTime(e.text) ? 1 + whenBoost : 1);
}

/** Above 1 for a memory about an entity the query names. */
export function entityFactor(e: IndexEntry, entityMemories: ReadonlySet<string> | undefined, boost: number): number {
  return e.kind === 'memory' && entityMemories?.has(e.refId) ? 1 + boost : 1;
}

/** Below 1 for an entry no longer current at the moment searched (validAt, else now). */
export function supersededFactor(e: IndexEntry, validAt: string | undefined): number {
  return currentAt(e, validAt) ? 1 : SUPERSEDED_FACTOR;
}

/** The factors together: own relevance blended with the neighbours' at weight `lambda`, then scaled. */
export function relevanceOf(own: number, neighbours: number, lambda: number, factors: { speaker: number; when: number; about: number; stale: number }): number {
  return ((own + lambda * neighbours) / (1 + lambda)) * factors.speaker * factors.when * factors.about * factors.stale;
}
