// Response shapes of the browsing routes (src/interfaces/http/browse-routes.ts) the timeline,
// layers, entities and health views read. Kept apart from types.ts: the server's types live in
// src/, which the client bundle must not import.

export interface Span {
  start: string;
  end: string;
}

export interface TimelineItem {
  kind: 'memory' | 'turn';
  id: string;
  time: string;
  localTime: string;
  localDay: string;
  part: 'day' | 'night';
  text: string;
  clipped: boolean;
  importance: number | null;
  category: string | null;
  current: boolean;
  role: string | null;
  sessionId: string | null;
  related: string[];
}

export interface Timeline {
  namespace: string;
  timezone: string;
  bounds: { dayStart: string; nightStart: string };
  from: string;
  to: string;
  today: string;
  previous: { from: string; to: string };
  next: { from: string; to: string };
  days: Array<{ day: string; windows: { day: Span; night: Span }; items: TimelineItem[]; counts: { turns: number; memories: number; night: number } }>;
  truncated: boolean;
}

export interface TurnView {
  id: string;
  sessionId: string;
  messageId: string;
  role: string;
  speaker: string | null;
  text: string;
  timestamp: string;
  line: number | null;
  placed: { day: string; part: 'day' | 'night' } | null;
  memories: string[];
}

export interface LayerEntry {
  path: string;
  kind: 'memory' | 'weekly' | 'review' | 'daily' | 'night' | 'topic' | 'life' | 'entity';
  layer: 1 | 2 | 3;
  title: string;
  periodStart: string;
  periodEnd: string;
  updatedAt: string;
  generator: string;
}

export interface RenderedLayer extends LayerEntry {
  markdown: string;
  html: string;
  citations: Array<{ id: string; kind: 'memory' | 'turn'; href: string }>;
}

export interface GraphNode {
  id: string;
  name: string;
  slug: string;
  type: string;
  para: string;
  promoted: boolean;
  mentions: number;
  relation: string | null;
}

export interface EntityGraph {
  nodes: GraphNode[];
  edges: Array<{ source: string; target: string; memories: number }>;
  truncated: boolean;
}

export interface Fact {
  id: string;
  subject: string;
  subjectName?: string;
  attribute: string;
  value: string;
  memoryId: string;
  validFrom: string;
  validTo: string | null;
  recordedAt: string;
}

export interface EntityDetail {
  entity: GraphNode & { aliases: string[]; stats: { mentions: number; memories: number; firstSeen: string; lastSeen: string; maxImportance: number } };
  facts: Fact[];
  history: Fact[];
  memories: Array<{ id: string; text: string; eventTime: string | null; createdAt: string; importance: number; category: string }>;
}

export interface HealthSource {
  id: number;
  kind: string;
  path: string;
  watched: boolean;
  missing: boolean;
  turns: number;
  malformed: number;
  redactions: number;
  redactionsByKind: Record<string, number>;
  errors: number;
  firstErrors: string[];
  lagSeconds: number;
  pendingBytes: number;
  lastCaptureAt: string | null;
}

export interface NamespaceHealth {
  namespace: string;
  today: string;
  from: string;
  to: string;
  counts: { memories: number; currentMemories: number; turns: number; documents: number };
  sources: HealthSource[];
  daemon: { running: boolean; pid?: number; startedAt?: string; lastScanAt?: string | null; queued?: number };
  judge: {
    threshold: number;
    mode: 'llm' | 'heuristic';
    llm: { provider: string; model: string } | null;
    breaker: { state: string; consecutiveFailures: number } | null;
    judged: number;
    pending: number;
    byJudge: Record<string, number>;
    today: { calls: number; failures: number; fallbacks: number; costUsd: number; budgetUsd: number | null };
  };
  alerts: Array<{ kind: string; message: string; since: string }>;
  activity: Array<{ day: string; turns: number; memories: number; capped: boolean }>;
  importance: Array<{ importance: number; memories: number }>;
  reviews: Array<{ day: string; path: string; mood: string | null; lean: 'upbeat' | 'frustrated' | 'mixed' | null; activities: Array<{ name: string; lines: number }> }>;
}
