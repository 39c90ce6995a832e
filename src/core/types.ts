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
  /** Turn ids the memory (or digest section) was derived from. */
  turnIds?: string[];
  /** Memory ids a digest section cites. */
  memoryIds?: string[];
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

/**
 * The consolidated layers (DESIGN.md "Files a person can read"): what each digest file is.
 * daily = day window of a local day, night = its night window (22:00 → 07:00 next morning),
 * review = the day and its night, weekly = an ISO week, topic = a recurring subject, memory = MEMORY.md,
 * entity = a promoted entity's `life/<para>/<slug>/summary.md`, life = `life/index.md`.
 */
export const DIGEST_KINDS = ['daily', 'night', 'review', 'weekly', 'topic', 'memory', 'entity', 'life'] as const;
export type DigestKind = (typeof DIGEST_KINDS)[number];

/** The pyramid's layer of each digest kind: 1 = MEMORY.md, 2 = knowledge, 3 = daily notes (4 = raw turns). */
export const DIGEST_LAYER: Readonly<Record<DigestKind, 1 | 2 | 3>> = {
  daily: 3,
  night: 3,
  review: 2,
  weekly: 2,
  topic: 2,
  memory: 1,
  entity: 2,
  life: 2,
};

/** The layer of an index entry: turns 4, memories and documents 3, digests by their kind. */
export type Layer = 1 | 2 | 3 | 4;

/** What each layer of the pyramid holds, as a person asking for one should read it. */
export const LAYER_HELP = '1 (MEMORY.md), 2 (reviews, weeks, topics), 3 (daily notes, memories, documents) or 4 (conversation turns)';

/** A record a digest line cites. */
export interface DigestSource {
  kind: 'memory' | 'turn';
  id: string;
  /** ISO time of the cited record. */
  time: string;
}

/** One section of a digest file (a heading and its lines): the unit search indexes. */
export interface DigestSection {
  /** The section's heading text (no `#`), e.g. `Decisions`; '' for text before the first heading. */
  heading: string;
  /** The section's Markdown as it stands in the file (without its heading line). */
  text: string;
  /** Every record the section's lines cite, in order of first citation, no repeats. */
  sources: DigestSource[];
}

/** A digest to store: the rendered file plus what it was made from. */
export interface NewDigest {
  namespace: string;
  kind: DigestKind;
  /** Path relative to the namespace folder, with `/`: `daily/2026-11-25.md`, `MEMORY.md`. */
  path: string;
  /** The period it covers (UTC ISO, start inclusive, end exclusive); MEMORY.md: the weeks it shows. */
  periodStart: string;
  periodEnd: string;
  /** The whole file as written. */
  text: string;
  sections: DigestSection[];
  /** Hash of the material the digest was made from: equal means regenerating would write the same file. */
  inputsHash: string;
  /** Who wrote the prose: `extractive@<version>` or `llm:<provider>/<model>@<prompt version>`. */
  generator: string;
}

/** A digest as the store keeps it. */
export interface Digest extends NewDigest {
  /** `g_` + a hash of namespace and path: stable across regenerations. */
  id: string;
  layer: 1 | 2 | 3;
  createdAt: string;
  updatedAt: string;
}

/**
 * Knowledge (DESIGN.md "Know"): who and what the memories are about. An entity's type says what it
 * is; its PARA kind (where it is filed under `life/`) is worked out from its mentions by the memory
 * part, never stored.
 */
export const ENTITY_TYPES = ['person', 'project', 'organization', 'place', 'tool', 'topic'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** The PARA method's four drawers: active work, ongoing responsibilities, reference, inactive. */
export const PARA_KINDS = ['projects', 'areas', 'resources', 'archives'] as const;
export type ParaKind = (typeof PARA_KINDS)[number];

/** An entity as the store keeps it: identity and names. Counts come from its mentions (EntityStats). */
export interface Entity {
  /** `e_…` */
  id: string;
  namespace: string;
  /** Display name ("Ana Souza"). */
  name: string;
  /** File-safe, unique within the namespace: `ana-souza`. */
  slug: string;
  type: EntityType;
  /** Every name it is known by, the display name included ("Ana", "Ana Souza", "@ana"). */
  aliases: string[];
  /** Its direct relationship with the person ("manager", "sister", "client"), when one was stated. */
  relation: string | null;
  /** True when a person named it (rename): extraction never changes the name again. */
  locked: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What an entity's mentions add up to (over memories, current and superseded). */
export interface EntityStats {
  /** Sum of the mention counts of the memories that name it. */
  mentions: number;
  /** Memories that name it. */
  memories: number;
  firstSeen: string;
  lastSeen: string;
  /** Highest importance among those memories. */
  maxImportance: number;
}

/**
 * A fact: subject – attribute – value, with provenance and both times (bi-temporal). Valid time
 * (validFrom/validTo) is when it was true in the world; recordedAt is when Cairn learned it.
 */
export interface Fact {
  /** `f_…` */
  id: string;
  namespace: string;
  /** Normalised subject key (`staging database`, `ana souza`, `user`): facts with equal subject and attribute are one timeline. */
  subject: string;
  /** The subject as written. */
  subjectName: string;
  /** The entity the subject resolves to, when it does. */
  entityId: string | null;
  /** Normalised attribute (`port`, `lives in`, `works at`, `role`, `version of node`, `prefers`). */
  attribute: string;
  value: string;
  /** The memory that stated it. */
  memoryId: string;
  validFrom: string;
  validTo: string | null;
  recordedAt: string;
  /** 0–1: how sure the extractor was (offline patterns are fixed per shape; the LLM says). */
  confidence: number;
  supersededBy: string | null;
  /** How often the same value was stated again (1 = once). */
  mentions: number;
  /** `offline@<version>` or `llm:<provider>/<model>@<prompt>`. */
  extractor: string;
  provenance: Provenance[];
}
