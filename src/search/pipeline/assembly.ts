// Stage 8, from ranked hits to results: the best hit of each session with its session's further
// hits folded in and the turns around it as context, each with a snippet.
import type { IndexEntry, NeighbourTurns } from '../../store/store.js';
import { passagesOf, type PassagePolicy } from '../../embed/passages.js';
import { contextFor, contextProvenance, matchTurn } from '../neighbours.js';
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
 * past its end as a short one does.
 */
export function assemble(
  kept: readonly ScoredEntry[],
  anchors: ReadonlyMap<number, string>,
  neighbours: ReadonlyMap<string, NeighbourTurns>,
  o: AssemblyOptions,
): AssembledResult[] {
  const results: AssembledResult[] = [];
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
    const ctx = o.withContext && anchor ? contextFor(neighbours.get(anchor), o.contextTurns, o.contextChars).filter((c) => !shown.has(c.turn.id)) : [];
    if (anchor) shown.add(anchor);
    for (const c of ctx) shown.add(c.turn.id);
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
      provenance: [...e.provenance, ...ctx.map((c) => contextProvenance(c.turn, base))],
      context: ctx.map((c) => c.ctx),
    };
    results.push(result);
    if (session !== undefined && o.groupHits > 1) groups.set(session, { result, hits: 1 });
  }
  // ISO times: code-unit order is time order (no ICU collation, rankScored says why).
  for (const r of results) r.context.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0) || a.offset - b.offset);
  return results;
}
