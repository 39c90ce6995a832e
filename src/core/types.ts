// The records Cairn keeps. Plain data, shared by every part; persistence and logic live elsewhere.

/** What a search result or index entry is: the layer it comes from. */
export const KINDS = ['memory', 'turn', 'digest', 'document'] as const;
export type Kind = (typeof KINDS)[number];

export const CATEGORIES = [
  'decision',
  'discovery',
  'implementation',
  'issue',
  'success',
  'preference',
  'fact',
  'plan',
  'feeling',
  'philosophy',
  'acknowledgement',
  'noise',
  'note',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** Where a record came from. Every field is optional because sources differ in what they know. */
export interface Provenance {
  /** Source kind or name: `cli`, `mcp`, `openclaw`, `claude-code`, `jsonl`, `import`, … */
  source?: string;
  sessionId?: string;
  messageId?: string;
  /** Line number (files) or sequence number (databases) of the original record. */
  line?: number;
  /** Last line of a span of lines starting at `line` (a document chunk), inclusive. */
  endLine?: number;
  /** Heading trail of a document chunk, e.g. `Projects > Staging`. */
  heading?: string;
  path?: string;
  role?: string;
  speaker?: string;
  /** ISO time of the original message. */
  timestamp?: string;
  /** Turn ids the memory was derived from. */
  turnIds?: string[];
  /** A turn shown beside a search hit as its conversation context, not the hit itself. */
  context?: boolean;
  /** The system an imported record came from (`mem0`, `openclaw`, `jsonl`, …). */
  system?: string;
  /** The record's id in that system. */
  originalId?: string;
  /** What that system kept beside the record (mem0 metadata), for reference. */
  metadata?: Record<string, unknown>;
}

export interface Memory {
  id: string;
  namespace: string;
  text: string;
  category: Category;
  importance: number;
  tags: string[];
  entities: string[];
  /** When the remembered thing happened (ISO), if known; otherwise null. */
  eventTime: string | null;
  createdAt: string;
  updatedAt: string;
  /** Time from which this statement is current; validTo is set when it is superseded. */
  validFrom: string;
  validTo: string | null;
  supersededBy: string | null;
  supersedes: string | null;
  /** How often the same statement was stored again (1 = once). */
  mentions: number;
  provenance: Provenance[];
}

export interface NewMemory {
  namespace: string;
  text: string;
  category?: Category;
  importance?: number;
  tags?: string[];
  entities?: string[];
  eventTime?: string | null;
  provenance?: Provenance[];
}

/** A raw captured turn (Layer 4). */
export interface Turn {
  id: string;
  namespace: string;
  sourceId: number | null;
  sessionId: string;
  messageId: string;
  role: string;
  speaker: string | null;
  text: string;
  timestamp: string;
  line: number | null;
  createdAt: string;
  meta: Record<string, unknown>;
}

export interface NewTurn {
  namespace: string;
  sourceId?: number | null;
  sessionId: string;
  messageId: string;
  role: string;
  speaker?: string | null;
  text: string;
  timestamp: string;
  line?: number | null;
  meta?: Record<string, unknown>;
  /** Text to index for search when it should differ from the display text (context, speaker, date). */
  indexText?: string;
}

export interface Source {
  id: number;
  namespace: string;
  kind: string;
  path: string;
  options: Record<string, unknown>;
  createdAt: string;
}

export interface NamespaceStats {
  namespace: string;
  memories: number;
  currentMemories: number;
  turns: number;
  documents: number;
}
