// The REST API's response shapes the client reads. The records themselves (memories, provenance,
// categories) come from src/core/types.ts, which is plain data with no imports, so the bundle takes
// only the constants it uses; the search response types below are restated because the server's
// live beside Node code the client must not type-check or bundle.
export { CATEGORIES, type Memory, type Provenance } from '../../../core/types.js';
import type { Provenance } from '../../../core/types.js';

export interface ScoreParts {
  bm25: number;
  vector: number;
  cosine: number | null;
  own: number;
  neighbours: number;
  speaker: number;
  when: number;
  relevance: number;
  importance: number;
  recency: number;
  tier: string;
}

export interface SearchResult {
  id: string;
  kind: string;
  namespace: string;
  text: string;
  snippet: string;
  score: number;
  parts: ScoreParts;
  time: string;
  current: boolean;
  supersededBy?: string;
  category: string | null;
  importance: number | null;
  provenance: Provenance[];
  confidence: number;
}

export interface SearchResponse {
  namespace: string;
  query: string;
  mode: string;
  results: SearchResult[];
  noGoodMatch: boolean;
  belowConfidence: number;
  degraded?: string;
  asOf?: string;
}

export const LAYERS: ReadonlyArray<{ value: string; label: string }> = [
  { value: '1', label: '1 · MEMORY.md' },
  { value: '2', label: '2 · reviews, weeks, topics' },
  { value: '3', label: '3 · notes, memories, documents' },
  { value: '4', label: '4 · conversation turns' },
];
