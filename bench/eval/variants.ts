// Named configurations for the ablation (`npm run eval -- <set> --compare`). A variant is a partial
// Cairn config, validated like a config file, so every key it leaves out keeps its default (a deep
// merge over the default config), plus optional search-call options. Adding a technique to the
// table is one line here.
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { loadConfigFile, parseConfig, type CairnConfig, type CairnConfigInput } from '../../src/core/config.js';
import { CairnError, ERROR_CODES } from '../../src/core/errors.js';
import type { SearchOptions } from '../../src/service/cairn.js';

/** What a variant may change in the search call itself (the rest of the call is the eval's). */
export type VariantSearch = Pick<SearchOptions, 'mode' | 'kinds'>;

export interface Variant {
  name: string;
  description: string;
  config: CairnConfigInput;
  search?: VariantSearch;
}

/** Every technique of the default search switched off: where the ablation starts from (and bench:recall's retrievers). */
export const PLAIN = {
  bm25Weight: 0.6, vectorWeight: 0.4, minRange: 0, importanceWeight: 0.1, candidates: 100,
  neighbourWeight: 0, speakerBoost: 0, coverageWeight: 0, groupHits: 1, contextTurns: 0, focusWeight: 0, timeBoost: 0, whenBoost: 0, passageWeight: 0, neighbourHits: false,
};
const SPEAKER = { ...PLAIN, speakerBoost: 1 };
const NEIGHBOURS = { ...SPEAKER, neighbourWeight: 0.5, neighbourReach: 1 };
const COVERAGE = { ...NEIGHBOURS, coverageWeight: 0.5, coverageIdf: false };
const TUNED = { ...COVERAGE, bm25Weight: 0.5, vectorWeight: 0.5, minRange: 0.5, importanceWeight: 0.25, neighbourReach: 2, coverageIdf: true };
/** From session groups on, the pool follows the fold (src/search/pipeline/candidates.ts) above the default floor. */
const GROUPED = { ...TUNED, candidates: 50 };

export const DEFAULT_VARIANT = 'default';
/** The baseline every report shows beside the default: what a plain full-text index gives. */
export const BASELINE_VARIANT = 'plain BM25';

export const VARIANTS: readonly Variant[] = [
  { name: DEFAULT_VARIANT, description: 'the default offline configuration (hybrid search, bundled use-lite embedder, heuristic judge)', config: {} },
  { name: BASELINE_VARIANT, description: 'the baseline: BM25 alone (search mode bm25) over the default home, importance 0.1, one hit per result, none of the default\'s techniques', config: { search: PLAIN }, search: { mode: 'bm25' } },
  { name: 'plain hybrid', description: 'min-max fusion 0.6·BM25 + 0.4·vector, importance 0.1, 100 candidates, one hit per result, nothing else (no time preferences, no passages, no place keys)', config: { search: PLAIN } },
  { name: '+ speaker', description: 'plain + the speaker factor (×2) for people the query names, their names no longer keywords', config: { search: SPEAKER } },
  { name: '+ neighbours', description: '+ speaker + half the relevance of the better of the turns right before and after', config: { search: NEIGHBOURS } },
  { name: '+ coverage', description: '+ neighbours + relevance scaled by the share of query words a text has (0.5), a word only in the turn before or after counting half', config: { search: COVERAGE } },
  { name: '+ tuning', description: '+ coverage + fusion 0.5/0.5, min-max spanning at least half the top score, importance 0.25, neighbours up to two turns away, coverage words weighed by their rarity among the candidates', config: { search: TUNED } },
  { name: '+ session groups', description: '+ tuning + up to 4 hits of a session per result (previews of 160 chars), gathered from the hits that fill max(2 × limit, 20) results; the candidate pool follows the fold (0.8 per hit it may fold: 64 at limit 10)', config: { search: { ...GROUPED, groupHits: 4, contextChars: 160 } } },
  { name: '+ query focus', description: '+ session groups + the query vector blended with the query\'s focus (content words without the speakers it names)', config: { search: { ...GROUPED, groupHits: 4, contextChars: 160, focusWeight: 1 } } },
  { name: '+ time and passages', description: '+ query focus + the preference for the time a question names (×1.5) and passage vectors for texts over 400 characters', config: { search: { ...GROUPED, groupHits: 4, contextChars: 160, focusWeight: 1, timeBoost: 0.5, passageWeight: 0.5 } } },
  { name: '+ neighbour hits', description: '+ time and passages + the turns up to two away from the strongest candidates ranked as hits too, on what they borrow from them, with previews of 150 chars (fuller groups cost tokens)', config: { search: { ...GROUPED, groupHits: 4, contextChars: 150, focusWeight: 1, timeBoost: 0.5, passageWeight: 0.5, neighbourHits: true } } },
  { name: '+ five shorter previews', description: '+ neighbour hits + up to five hits of a session per result, previews of 110 chars (a sentence around the query\'s words): the default', config: { search: { ...GROUPED, groupHits: 5, contextChars: 110, focusWeight: 1, timeBoost: 0.5, passageWeight: 0.5, neighbourHits: true } } },
  { name: '4 hits of 150 chars', description: 'default, but up to four hits per result with previews of 150 characters (the default until 2026-11-23 pm): fewer turns in more tokens', config: { search: { groupHits: 4, contextChars: 150 } } },
  { name: 'no speaker', description: 'default without the speaker factor', config: { search: { speakerBoost: 0 } } },
  { name: 'no neighbours', description: 'default without relevance from neighbouring turns', config: { search: { neighbourWeight: 0 } } },
  { name: 'adjacent neighbours only', description: 'default, but a turn borrows relevance only from the turns right before and after it, not also from those two away (before 2026-11-22)', config: { search: { neighbourReach: 1 } } },
  { name: 'no neighbour hits', description: 'default, but only turns BM25 or the vector index returned are ranked, not also the turns around them (before 2026-11-23)', config: { search: { neighbourHits: false } } },
  { name: 'no coverage', description: 'default without the query-word coverage factor', config: { search: { coverageWeight: 0 } } },
  { name: 'coverage words alike', description: 'default, but coverage counts every query word alike, not by its rarity among the candidates (IDF; the default until 2026-11-22)', config: { search: { coverageIdf: false } } },
  { name: 'no neighbour coverage', description: 'default, but coverage counts only the words a turn has itself, not those of the turns around it (before 2026-11-22)', config: { search: { neighbourCoverage: 0 } } },
  { name: 'no passages', description: 'default, but a text longer than 400 characters is compared by its own vector only, not also by its closest passage (before 2026-11-22)', config: { search: { passageWeight: 0 } } },
  { name: 'sentence passages', description: 'default, but a long text gets a vector for every run of its sentences, up to 16 (index.passages "sentences", before 2026-11-26), not up to three windows', config: { index: { passages: 'sentences' } } },
  { name: 'no passage vectors', description: 'default, but no passage vectors are made at all (index.passages "none": one vector per text, BM25 over the whole text)', config: { index: { passages: 'none' } } },
  { name: 'no time preference', description: 'default, but a time the question names ("in October 2023", "on May 3") does not prefer entries from then (before 2026-11-22)', config: { search: { timeBoost: 0 } } },
  { name: 'when preference', description: 'default, but a question that asks when ("when did…", "what year…") prefers texts that state a time ("yesterday", "last Friday", "in March") ×1.5 (on by default 2026-11-22 until 2026-11-27)', config: { search: { whenBoost: 0.5 } } },
  { name: 'lean', description: 'default without the five preferences that did not earn their place on the agent-work set (each within its noise there): the time and when preferences, the query focus, rarity-weighted coverage and neighbour coverage', config: { search: { timeBoost: 0, whenBoost: 0, focusWeight: 0, coverageIdf: false, neighbourCoverage: 0 } } },
  { name: 'no small relevance factors', description: 'default without the five further mechanisms that each moved the agent-work set by less than its noise alone (2026-11-27): query-word coverage, passage cosines, the judged-importance prior, neighbours two turns away (one instead), the entity preference', config: { search: { coverageWeight: 0, passageWeight: 0, importanceWeight: 0, neighbourReach: 1, entityBoost: 0 } } },
  { name: 'no when and entity preferences', description: 'default without the two preferences that never changed recall@10 alone on either set (2026-11-27): the when preference and the entity preference', config: { search: { whenBoost: 0, entityBoost: 0 } } },
  { name: 'no weak preferences', description: 'default without the four mechanisms each within noise alone on both sets (2026-11-27): the when and entity preferences, rarity-weighted coverage and neighbour coverage', config: { search: { whenBoost: 0, entityBoost: 0, coverageIdf: false, neighbourCoverage: 0 } } },
  { name: 'no query focus', description: 'default with the query vector of the question alone', config: { search: { focusWeight: 0 } } },
  { name: 'plain min-max', description: 'default, but each side\'s min-max spans only its candidates\' scores, the weakest keyword match scoring as no match (before 2026-11-22)', config: { search: { minRange: 0 } } },
  { name: 'place keys', description: 'default, but texts are also found by what the places they name imply (region, country, continent: index.places; on by default from 2026-11-23 until issue 29)', config: { index: { places: true } } },
  { name: 'entity preference', description: 'default, but memories about an entity the query names (not a speaker) are preferred ×1.3 (on by default until 2026-11-27)', config: { search: { entityBoost: 0.3 } } },
  { name: 'no recency', description: 'default, but memories younger than hotDays are not preferred (×1.2): every entry of either set is older than warmDays when asked, so this cannot change a ranking there', config: { search: { recencyBoost: 1 } } },
  { name: 'no importance', description: 'default without the judged-importance prior', config: { search: { importanceWeight: 0 } } },
  { name: 'hits up to the limit', description: 'default, but a result gathers its session\'s hits only from the hits that fill `limit` results (before 2026-11-22)', config: { search: { foldDepth: 1, foldPages: 1 } } },
  { name: 'fold depth 20 at any limit', description: 'default, but every search gathers from the hits that fill 20 results, a limit-20 search no further past its end (2026-11-22)', config: { search: { foldPages: 1 } } },
  { name: 'pool of 125', description: 'default, but 125 candidates from each side at every limit (the pool at limit 10 until 2026-11-28, when it became 0.8 per hit a search may fold: 80 at limit 5 and 10, 160 at limit 20)', config: { search: { candidates: 125 } } },
  { name: 'no groups', description: 'default with one hit per result (a 250-candidate pool, as the default had at limit 20 until 2026-11-28)', config: { search: { groupHits: 1, candidates: 250 } } },
  { name: 'neighbours shown', description: 'one hit per result with a context turn on each side (200 chars) instead of groups', config: { search: { groupHits: 1, candidates: 250, contextTurns: 1, contextChars: 200 } } },
  { name: 'bm25 only', description: 'no embedder: BM25 alone (default search otherwise)', config: { embedder: { provider: 'none' } } },
  { name: 'vector only', description: 'default ingest, search mode vector', config: {}, search: { mode: 'vector' } },
  { name: 'turns only', description: 'default ingest, searching raw turns only (no judge memories)', config: {}, search: { kinds: ['turn'] } },
];

/**
 * Config sections read only at search time. Variants that differ only here (and in `search`
 * options) share one ingested home; anything else changes what is stored, so gets its own.
 */
export const SEARCH_TIME_SECTIONS: ReadonlySet<keyof CairnConfig> = new Set(['search']);

export interface ResolvedVariant extends Variant {
  /** The full validated config the facade is opened with. */
  resolved: CairnConfig;
  /** The config minus its search-time sections: what the ingested home depends on. */
  ingestConfig: Partial<CairnConfig>;
}

export function resolveVariant(variant: Variant): ResolvedVariant {
  const resolved = parseConfig(variant.config, `config of variant "${variant.name}"`);
  const ingestConfig = Object.fromEntries(Object.entries(resolved).filter(([k]) => !SEARCH_TIME_SECTIONS.has(k as keyof CairnConfig)));
  return { ...variant, resolved, ingestConfig };
}

/** Picks variants by name (case and spacing insensitive), in the order given. */
export function pickVariants(names: readonly string[], from: readonly Variant[] = VARIANTS): Variant[] {
  const key = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');
  const picked: Variant[] = [];
  for (const name of names) {
    const v = from.find((x) => key(x.name) === key(name));
    if (!v) throw new CairnError(ERROR_CODES.INVALID_INPUT, `Unknown variant "${name.slice(0, 60)}": use one of ${from.map((x) => `"${x.name}"`).join(', ')}`);
    if (!picked.includes(v)) picked.push(v);
  }
  if (picked.length === 0) throw new CairnError(ERROR_CODES.INVALID_INPUT, '--variants names no variant');
  return picked;
}

/** JSON with sorted keys, so equal configs hash equally whatever order they were written in. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function hashOf(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex');
}

/** A config file as a variant named after the file (validated like the home's config.json). */
export function configVariant(path: string): Variant {
  const config = loadConfigFile(path, { mustExist: true });
  return { name: `config ${basename(path)}`, description: `the configuration in ${path}`, config: config as CairnConfigInput };
}
