// Stage 8, from ranked hits to results: the best hit of each session with its session's further
// hits folded in and the turns around it as context, each with a snippet.
import type { Provenance, Turn } from '../../core/types.js';
import type { IndexEntry, NeighbourTurns } from '../../store/store.js';
import { passagesOf, type PassagePolicy } from '../../embed/passages.js';
import { contextFor, contextProvenance, contextTurn, matchTurn, type ContextPick } from '../neighbours.js';
import { makeSnippet } from '../snippet.js';
import type { Language } from '../text-analysis.js';
import type { AssembledResult, ContextOptions, ScoredEntry } from './types.js';

/** How many results' worth of ranked hits a search gathers from (see assemble). */
export function foldSpan(o: Pick<ContextOptions, 'groupHits' | 'foldPages' | 'foldDepth'>, limit: number): number {
  return o.groupHits > 1 ? Math.max(Math.ceil(limit * o.foldPages), o.foldDepth) : limit;
}

/** The passage of an entry's text closest to the query (by its index among passagesOf), where its snippet goes. */
export function focusText(e: IndexEntry, focus: ReadonlyMap<number, number>, policy: PassagePolicy): string | undefined {
  const index = focus.get(e.seq);
  return index === undefined ? undefined : passagesOf(e.text, policy)[index];
}

export interface AssemblyOptions extends Pick<ContextOptions, 'groupHits' | 'foldPages' | 'foldDepth' | 'contextTurns' | 'contextChars'> {
  limit: number;
  /** The query's own terms: what snippets show. */
  terms: readonly string[];
  /** The query's language: snippets and previews find its words in that form. */
  language: Language;
  /** Show the turns around a hit (not in vector mode). */
  withContext: boolean;
  focusOf: (e: IndexEntry) => string | undefined;
}

/**
 * The turns a result shows as context, picked by id from the neighbours ranking read: the rest
 * of each turn is read for these alone (Store.getTurns), then filled in by withContextTurns.
 */
export interface PickedContext {
  result: AssembledResult;
  /** Where their provenance goes: right after the hit's own. */
  at: number;
  base: Provenance | undefined;
  picks: ContextPick[];
}

export interface Assembly {
  results: AssembledResult[];
  picked: PickedContext[];
}

interface Group {
  /** Null for a result past the limit: counted and absorbing its session's hits, never built. */
  result: AssembledResult | null;
  hits: number;
}

/**
 * Results in rank order, each the best hit of its session so far, with (up to `groupHits` − 1)
 * further hits of that session folded in and the turns around the hit as context. A turn is
 * never shown twice. Grouping spends the token budget on matches rather than on neighbours:
 * a question's evidence is usually several turns of one conversation.
 *
 * Further hits are gathered from the ranked hits that fill the first max(limit × foldPages,
 * foldDepth) results: a result is judged by what it would gather in a list one page longer, so
 * a short search shows as much per result as the first of a longer one, and a long one as much
 * past its end as a short one does. The context turns are picked here and shown by
 * withContextTurns, which also puts each result's context in time order.
 */
export function assemble(
  kept: readonly ScoredEntry[],
  anchors: ReadonlyMap<number, string>,
  neighbours: ReadonlyMap<string, NeighbourTurns>,
  o: AssemblyOptions,
): Assembly {
  const results: AssembledResult[] = [];
  const picked: PickedContext[] = [];
  const groups = new Map<string, Group>();
  const shown = new Set<string>();
  const span = foldSpan(o, o.limit);
  let counted = 0;
  for (const { e, score, parts } of kept) {
    const anchor = anchors.get(e.seq);
    if (anchor && shown.has(anchor)) continue;
    const session = anchor ? e.provenance[0]?.sessionId : undefined;
    const group = session === undefined ? undefined : groups.get(session);
    if (group && group.hits < o.groupHits) {
      group.hits++;
      shown.add(anchor!);
      if (!group.result) continue;
      group.result.provenance.push(...e.provenance);
      group.result.context.push(matchTurn(e, o.terms, o.contextChars, Date.parse(e.time) < Date.parse(group.result.time) ? -1 : 1, o.focusOf(e), o.language));
      continue;
    }
    if (counted >= span) break;
    counted++;
    // Context already on screen (the window of an earlier hit) is not repeated.
    const ctx = o.withContext && anchor ? contextFor(neighbours.get(anchor), o.contextTurns).filter((c) => !shown.has(c.id)) : [];
    if (anchor) shown.add(anchor);
    for (const c of ctx) shown.add(c.id);
    if (results.length >= o.limit) {
      // Past the limit a result only takes its session's later hits, as it would in a longer list.
      if (session !== undefined && o.groupHits > 1) groups.set(session, { result: null, hits: 1 });
      continue;
    }
    const base = e.provenance[0];
    const result: AssembledResult = {
      id: e.refId,
      kind: e.kind,
      namespace: e.namespace,
      text: e.text,
      snippet: makeSnippet(e.text, o.terms, undefined, o.focusOf(e), o.language),
      score,
      parts,
      time: e.time,
      createdAt: e.createdAt,
      validTo: e.validTo,
      current: e.current,
      category: e.category,
      importance: e.importance,
      provenance: [...e.provenance],
      context: [],
    };
    results.push(result);
    if (ctx.length > 0) picked.push({ result, at: e.provenance.length, base, picks: ctx });
    if (session !== undefined && o.groupHits > 1) groups.set(session, { result, hits: 1 });
  }
  return { results, picked };
}

/** The ids of the turns an assembly shows as context, each once. */
export function pickedTurnIds(a: Assembly): string[] {
  return [...new Set(a.picked.flatMap((p) => p.picks.map((c) => c.id)))];
}

/**
 * The results with their context turns shown (from `turns`, the whole turns by id: one gone since
 * ranking read it is left out), clipped to `contextChars`, and each result's context in time order.
 */
export function withContextTurns(a: Assembly, turns: ReadonlyMap<string, Turn>, contextChars: number): AssembledResult[] {
  for (const p of a.picked) {
    const shown = p.picks.flatMap((c) => {
      const t = turns.get(c.id);
      return t ? [{ t, offset: c.offset }] : [];
    });
    // Before the further hits folded in, as the hit's own window comes first.
    p.result.context.unshift(...shown.map((x) => contextTurn(x.t, x.offset, contextChars)));
    p.result.provenance.splice(p.at, 0, ...shown.map((x) => contextProvenance(x.t, p.base)));
  }
  // ISO times: code-unit order is time order (no ICU collation, rankScored says why).
  for (const r of a.results) r.context.sort((x, y) => (x.time < y.time ? -1 : x.time > y.time ? 1 : 0) || x.offset - y.offset);
  return a.results;
}
