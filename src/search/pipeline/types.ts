// The shapes a search passes between its stages and returns: what a caller asks, what each result
// holds, and the settings the ranking reads (config search.*).
import type { Kind, Provenance } from '../../core/types.js';
import type { EntryFilter, IndexEntry, SpeakerCount } from '../../store/store.js';
import type { ContextTurn } from '../neighbours.js';
import type { TimeWindow } from '../query-time.js';
import type { RankingOptions, ScoreParts } from '../ranking.js';
import type { VectorIndex } from '../vector-index.js';
import type { ConfidenceSignals } from './confidence.js';

export type SearchMode = 'hybrid' | 'bm25' | 'vector';

export interface SearchParams {
  namespace: string;
  query: string;
  limit: number;
  filter: EntryFilter;
  mode: SearchMode;
  now?: number;
  /** More keyword text (a rewrite's words and phrasings): searched by BM25 beside the query's own terms. */
  expansion?: readonly string[];
  /** The namespace's speakers when the caller already read them (else read here). */
  speakers?: readonly SpeakerCount[];
  /** The time the query names (query-time.ts), and the zone its days are read in. */
  timeWindow?: TimeWindow | null;
  timeZone?: string;
  /** Memories about entities the query names (ids): ranked up by ranking.entityBoost. */
  entityMemories?: ReadonlySet<string>;
}

export interface SearchResult {
  id: string;
  kind: Kind;
  namespace: string;
  text: string;
  snippet: string;
  score: number;
  parts: ScoreParts;
  time: string;
  createdAt: string;
  validTo: string | null;
  current: boolean;
  /** The memory that replaced this one, when it is no longer current (set by the service). */
  supersededBy?: string;
  category: string | null;
  importance: number | null;
  provenance: Provenance[];
  /** Conversation turns around a turn hit (empty for memories of their own and documents). */
  context: ContextTurn[];
  /** How likely it holds what the query asks for (0–1), from absolute signals (pipeline/confidence.ts), not the score. */
  confidence: number;
  /** What the confidence was made of. */
  signals: ConfidenceSignals;
}

/** A result as grouping builds it, before its confidence is known. */
export type AssembledResult = Omit<SearchResult, 'confidence' | 'signals'>;

/** How the ranking uses the conversation around a hit and the people a query names. */
export interface ContextOptions {
  /** Weight of the best neighbouring turn's relevance in a turn's own (0 = none). */
  neighbourWeight: number;
  /** Turns on each side whose relevance a turn borrows (1 = the adjacent ones only). */
  neighbourReach: number;
  /** The turns within neighbourReach of the strongest candidates are ranked as hits too. */
  neighbourHits: boolean;
  /** Extra weight for what a person named in the query said themselves, or the role a first- or second-person query is about (0 = none). */
  speakerBoost: number;
  /** Turns shown on each side of a turn hit (0 = none). */
  contextTurns: number;
  /** Characters kept of each context turn. */
  contextChars: number;
  /** Hits of one session shown together as one result (1 = every hit is its own result). */
  groupHits: number;
  /** A result's further hits come from the ranked hits that fill the first max(limit × foldPages, foldDepth) results. */
  foldDepth: number;
  foldPages: number;
  /** How much the share of query words a text contains scales its relevance (0 = not at all). */
  coverageWeight: number;
  /** Coverage weighs each query word by how rare it is among the candidates (false = every word counts alike). */
  coverageIdf: boolean;
  /** What a query word found only in the turns right before and after a turn counts in its coverage (0 = nothing). */
  neighbourCoverage: number;
  /** Weight of a text's closest passage in its cosine, against its own vector's (0 = the whole text only). */
  passageWeight: number;
  /** Extra weight for entries from the time a query names ("last week", "in October 2023"; 0 = none). */
  timeBoost: number;
  /** Extra weight, for a question that asks when, of texts that state a time ("yesterday", "in March"; 0 = none). */
  whenBoost: number;
  /** Extra weight for memories about an entity the query names (0 = none). */
  entityBoost: number;
}

export type SearchRanking = RankingOptions & ContextOptions;

export interface VectorSide {
  index: VectorIndex;
  model: string;
  /** Where the entries' passage vectors are stored (embed/passages.ts). */
  passageModel: string;
  /** The query's vector, already being computed while BM25 runs. */
  queryVector: Promise<Float32Array>;
}

/** An entry with its final score: what filtering and grouping work on. */
export interface ScoredEntry {
  e: IndexEntry;
  score: number;
  parts: ScoreParts;
}
