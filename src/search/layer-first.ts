// Layer-first retrieval (issue 24, "Search and context use the layers"): the digest sections of
// the upper layers that answer a query come first, then the records they cite that the query's
// normal ranking also finds (the drill-down), then the rest of the flat ranking. Ranking itself
// stays hybrid.ts's: this only decides which filtered searches run and in what order their
// results are shown. Whether it beats flat search is measured by bench/locomo-layers.ts.
import type { Layer } from '../core/types.js';
import type { EntryFilter } from '../store/store.js';
import type { SearchResult } from './hybrid.js';

export const SEARCH_STRATEGIES = ['flat', 'layers'] as const;
export type SearchStrategy = (typeof SEARCH_STRATEGIES)[number];

/** The digest layers searched first: MEMORY.md (1) and knowledge (2), as the pyramid answers from. */
export const FIRST_LAYERS: readonly Layer[] = [1, 2];
/** Digest sections searched for before the drill-down. */
export const DIGEST_SECTIONS = 2;
/** Lines of a digest section shown: a whole weekly section runs to hundreds of tokens, most of it off the query. */
export const SECTION_LINES = 5;
/** A record id cited on a digest line (contracts.ts `citation`: full ids in backticks). */
const CITED = /`([a-z]_[0-9a-z]+)`/g;

/** The normal ranking under a filter, for a number of results (hybridSearch with the query's other parameters bound). */
export type RankedSearch = (filter: EntryFilter, limit: number) => Promise<SearchResult[]>;

export interface LayerFirstOptions {
  limit: number;
  /** The caller's filter: every search below keeps it, narrowing only kinds and layers. */
  filter: EntryFilter;
  /** Digest layers searched first (default FIRST_LAYERS). */
  layers?: readonly Layer[];
  /** Digest sections shown first at most (default DIGEST_SECTIONS). */
  sections?: number;
  /** Lines shown of each section at most (default SECTION_LINES). */
  lines?: number;
}

/** The digest layers the caller's filter allows among those wanted, or none when it rules digests out. */
function digestLayers(filter: EntryFilter, wanted: readonly Layer[]): Layer[] {
  if (filter.kinds?.length && !filter.kinds.includes('digest')) return [];
  return wanted.filter((l) => l !== 4 && (!filter.layers?.length || filter.layers.includes(l)));
}

/** The records a digest section cites (memories and turns), from its provenance. */
export function citedIds(result: Pick<SearchResult, 'provenance'>): string[] {
  return [...new Set(result.provenance.flatMap((p) => [...(p.memoryIds ?? []), ...(p.turnIds ?? [])]))];
}

/** Whether a flat result stands for a cited record: it is one, or it was made from (or shows) one. */
function standsFor(r: SearchResult, cited: ReadonlySet<string>): boolean {
  return cited.has(r.id) || r.provenance.some((p) => (p.turnIds ?? []).some((id) => cited.has(id)));
}

/** The ids a ranked result stands for: its own and those of the turns it was made from or shows. */
function idsOf(results: readonly SearchResult[]): Set<string> {
  const ids = new Set<string>();
  for (const r of results) {
    ids.add(r.id);
    for (const p of r.provenance) for (const id of p.turnIds ?? []) ids.add(id);
  }
  return ids;
}

/**
 * The section cut to its heading (its first line) and the lines (at most `lines`, in the section's order) that cite
 * a record the query's ranking reaches; null when none does: the section does not hold the answer.
 * Its provenance then names only what the kept lines cite.
 */
export function narrowSection(d: SearchResult, reached: ReadonlySet<string>, lines: number): SearchResult | null {
  const kept: string[] = [];
  const cites = new Set<string>();
  let points = 0;
  for (const [i, line] of d.text.split('\n').entries()) {
    const ids = [...line.matchAll(CITED)].map((m) => m[1]!);
    if (ids.length === 0) {
      // The first line of a section's entry is its heading (sectionBody): it says what the lines are.
      if (i === 0) kept.push(line);
      continue;
    }
    if (points >= lines || !ids.some((id) => reached.has(id))) continue;
    points++;
    kept.push(line);
    for (const id of ids) cites.add(id);
  }
  if (points === 0) return null;
  const text = kept.join('\n');
  const provenance = d.provenance.map((p) => ({ ...p, turnIds: (p.turnIds ?? []).filter((id) => cites.has(id)), memoryIds: (p.memoryIds ?? []).filter((id) => cites.has(id)) }));
  return { ...d, text, snippet: text, provenance };
}

/**
 * Digest sections of the first layers that hold the answer (a section holds it when it cites a
 * record the query's own ranking puts within the limit; it is cut to those lines), then the flat
 * results that stand for what they cite, in flat order, then the other flat results; at most
 * `limit`, no record twice. A namespace without digests (or a filter that rules them out, or no
 * section holding the answer) gets the flat ranking unchanged. A cited record the ranking does
 * not reach is not drilled down to: nothing about the query points at it.
 */
export async function layerFirstSearch(search: RankedSearch, o: LayerFirstOptions): Promise<SearchResult[]> {
  const layers = digestLayers(o.filter, o.layers ?? FIRST_LAYERS);
  const wanted = Math.min(o.limit, Math.max(0, o.sections ?? DIGEST_SECTIONS));
  const found = layers.length > 0 && wanted > 0 ? await search({ ...o.filter, kinds: ['digest'], layers }, wanted) : [];
  if (found.length === 0) return search(o.filter, o.limit);

  // The flat list a flat search would return: layer-first reorders it, never reaches past it.
  const flat = await search(o.filter, o.limit);
  const reached = idsOf(flat);
  const digests = found.map((d) => narrowSection(d, reached, o.lines ?? SECTION_LINES)).filter((d): d is SearchResult => d !== null);
  if (digests.length === 0) return flat;
  const cited = new Set(digests.flatMap(citedIds));
  const shown = new Set(digests.map((d) => d.id));
  const fresh = flat.filter((r) => !shown.has(r.id));
  const drilled = fresh.filter((r) => standsFor(r, cited));
  const rest = fresh.filter((r) => !standsFor(r, cited));
  return [...digests, ...drilled, ...rest].slice(0, o.limit);
}
