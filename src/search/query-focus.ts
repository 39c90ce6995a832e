// The query's focus: its content words without the names of the speakers it mentions. Turns are
// embedded without their speaker's name (the name is provenance, not text), so "What might John's
// job be?" embedded whole leans towards every text about John; its focus "job" leans towards the
// turn that says it. The query vector blends both (search.focusWeight).
import { normalize } from '../embed/embedder.js';
import type { SpeakerCount } from '../store/store.js';
import { queryWords, tokenize } from './query-terms.js';
import { namedSpeakers } from './speakers.js';

/** The focus text to embed beside the query, or null when it would add nothing. */
export function queryFocus(query: string, speakers: readonly SpeakerCount[]): string | null {
  const named = namedSpeakers(query, speakers).tokens;
  const focus = queryWords(query)
    .filter((t) => !named.has(t))
    .join(' ');
  if (focus.length === 0 || focus === tokenize(query).join(' ')) return null;
  return focus;
}

/** normalize(base + weight · mean(others)): a query vector pulled towards other phrasings of it. */
export function blendVectors(base: Float32Array, others: readonly Float32Array[], weight: number): Float32Array {
  const out = Float32Array.from(base);
  if (others.length === 0 || weight === 0) return out;
  const scale = weight / others.length;
  for (const v of others) for (let i = 0; i < out.length; i++) out[i] = out[i]! + scale * v[i]!;
  return normalize(out);
}
