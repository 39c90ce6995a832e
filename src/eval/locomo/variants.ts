// Named configurations for the ablation (`cairn eval locomo --compare`). A variant is a partial
// Cairn config, validated like a config file, so every key it leaves out keeps its default (a deep
// merge over the default config), plus optional search-call options. Adding a technique to the
// table is one line here.
import { createHash } from 'node:crypto';
import { parseConfig, type CairnConfig, type CairnConfigInput } from '../../core/config.js';
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import type { SearchOptions } from '../../service/cairn.js';

/** What a variant may change in the search call itself (the rest of the call is the eval's). */
export type VariantSearch = Pick<SearchOptions, 'mode' | 'kinds'>;

export interface Variant {
  name: string;
  description: string;
  config: CairnConfigInput;
  search?: VariantSearch;
}

/** Every technique of the default search switched off: where the ablation starts from. */
const PLAIN_SEARCH = { bm25Weight: 0.6, vectorWeight: 0.4, importanceWeight: 0.1, neighbourWeight: 0, speakerBoost: 0, contextTurns: 0 };

export const VARIANTS: readonly Variant[] = [
  { name: 'default', description: 'the default offline configuration (hybrid search, bundled use-lite embedder, heuristic judge)', config: {} },
  { name: 'plain hybrid', description: 'hybrid 0.6·BM25 + 0.4·vector, importance 0.1, no conversation context, no speaker factor', config: { search: PLAIN_SEARCH } },
  { name: '+ speaker', description: 'plain hybrid + the speaker factor for people the query names', config: { search: { ...PLAIN_SEARCH, speakerBoost: 0.5 } } },
  { name: '+ neighbours', description: '+ speaker + relevance borrowed from the neighbouring turns (0.5)', config: { search: { ...PLAIN_SEARCH, speakerBoost: 0.5, neighbourWeight: 0.5 } } },
  { name: '+ context', description: '+ neighbours + one context turn on each side of a hit', config: { search: { ...PLAIN_SEARCH, speakerBoost: 0.5, neighbourWeight: 0.5, contextTurns: 1, contextChars: 200 } } },
  { name: '+ fusion 0.5/0.5', description: '+ context with 0.5·BM25 + 0.5·vector', config: { search: { ...PLAIN_SEARCH, speakerBoost: 0.5, neighbourWeight: 0.5, contextTurns: 1, contextChars: 200, bm25Weight: 0.5, vectorWeight: 0.5 } } },
  { name: 'no speaker', description: 'default without the speaker factor', config: { search: { speakerBoost: 0 } } },
  { name: 'no neighbours', description: 'default without relevance from neighbouring turns', config: { search: { neighbourWeight: 0 } } },
  { name: 'no context', description: 'default without context turns (hits alone)', config: { search: { contextTurns: 0 } } },
  { name: 'no importance', description: 'default without the judged-importance prior', config: { search: { importanceWeight: 0 } } },
  { name: 'context 2', description: 'default with two context turns on each side', config: { search: { contextTurns: 2 } } },
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
