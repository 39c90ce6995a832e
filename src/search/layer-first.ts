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
/** Digest sections shown before the drill-down: each costs a few hundred tokens. */
export const DIGEST_SECTIONS = 1;
/** How far down the flat ranking a cited record may sit and still be drilled down to, in pages of the limit. */
const DRILL_PAGES = 3;

/** The normal ranking under a filter, for a number of results (hybridSearch with the query's other parameters bound). */
export type RankedSearch = (filter: EntryFilter, limit: number) => Promise<SearchResult[]>;

export interface LayerFirstOptions {
  limit: number;
  /** The caller's filter: every search below keeps it, narrowing only kinds and layers. */
  filter: EntryFilter;
  /** Digest layers searched first (default FIRST_LAYERS). */
  layers?: readonly Layer[];
  /** Digest sections shown first (default DIGEST_SECTIONS). */
  sections?: number;
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

/**
 * Digest sections of the first layers (best first, at most `sections`), then the flat results
 * that stand for what they cite, in flat order, then the other flat results; at most `limit`,
 * no record twice. A namespace without digests (or a filter that rules them out) gets the flat
 * ranking unchanged. A cited record the query's ranking does not reach within a few pages is not
 * shown: the section already shows its words, and nothing else about the query points at it.
 */
export async function layerFirstSearch(search: RankedSearch, o: LayerFirstOptions): Promise<SearchResult[]> {
  const layers = digestLayers(o.filter, o.layers ?? FIRST_LAYERS);
  const wanted = Math.min(o.limit, Math.max(0, o.sections ?? DIGEST_SECTIONS));
  const digests = layers.length > 0 && wanted > 0 ? await search({ ...o.filter, kinds: ['digest'], layers }, wanted) : [];
  if (digests.length === 0) return search(o.filter, o.limit);

  const cited = new Set(digests.flatMap(citedIds));
  const flat = await search(o.filter, o.limit * DRILL_PAGES);
  const shown = new Set(digests.map((d) => d.id));
  const fresh = flat.filter((r) => !shown.has(r.id));
  const drilled = fresh.filter((r) => standsFor(r, cited));
  const rest = fresh.filter((r) => !standsFor(r, cited));
  return [...digests, ...drilled, ...rest].slice(0, o.limit);
}
