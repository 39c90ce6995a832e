// The REST API's response shapes the client reads (the server's types live in src/, which the
// client bundle must not import: it would pull Node code in).

export interface Provenance {
  source?: string;
  sessionId?: string;
  messageId?: string;
  line?: number;
  endLine?: number;
  heading?: string;
  path?: string;
  role?: string;
  speaker?: string;
  timestamp?: string;
  /** The captured turns the record was made from. */
  turnIds?: string[];
}

export interface Memory {
  id: string;
  namespace: string;
  text: string;
  category: string;
  importance: number;
  tags: string[];
  entities: string[];
  eventTime: string | null;
  createdAt: string;
  updatedAt: string;
  validFrom: string;
  validTo: string | null;
  supersededBy: string | null;
  supersedes: string | null;
  mentions: number;
  provenance: Provenance[];
}

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

export const CATEGORIES = ['decision', 'discovery', 'implementation', 'issue', 'success', 'preference', 'fact', 'plan', 'feeling', 'philosophy', 'acknowledgement', 'noise', 'note'] as const;

export const LAYERS: ReadonlyArray<{ value: string; label: string }> = [
  { value: '1', label: '1 · MEMORY.md' },
  { value: '2', label: '2 · reviews, weeks, topics' },
  { value: '3', label: '3 · notes, memories, documents' },
  { value: '4', label: '4 · conversation turns' },
];
