// Response shapes of the browsing routes (browse-routes.ts) for the OpenAPI document.
type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const time = { type: 'string', format: 'date-time' };
const day = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
const span = { type: 'object', properties: { start: time, end: time }, description: 'start inclusive, end exclusive (UTC)' };
const int = { type: 'integer', minimum: 0 };
const range = { type: 'object', properties: { from: day, to: day } };

const timelineItem: Json = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: ['memory', 'turn'] },
    id: { type: 'string' },
    time,
    localTime: { type: 'string', description: 'HH:MM on the home clock' },
    localDay: day,
    part: { type: 'string', enum: ['day', 'night'] },
    text: { type: 'string', description: 'cut at 280 characters (clipped: true)' },
    clipped: { type: 'boolean' },
    importance: { type: ['integer', 'null'] },
    category: { type: ['string', 'null'] },
    current: { type: 'boolean' },
    role: { type: ['string', 'null'] },
    sessionId: { type: ['string', 'null'] },
    related: { type: 'array', items: { type: 'string' }, description: 'memories: the turns they came from; turns: the memories citing them' },
  },
};

const layerEntry: Json = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    kind: { type: 'string', enum: ['memory', 'weekly', 'review', 'daily', 'night', 'topic', 'entity', 'life'] },
    layer: { type: 'integer', enum: [1, 2, 3] },
    title: { type: 'string' },
    periodStart: time,
    periodEnd: time,
    updatedAt: time,
    generator: { type: 'string' },
  },
};

export const BROWSE_SCHEMAS: Record<string, Json> = {
  TimelineItem: timelineItem,
  Timeline: {
    type: 'object',
    properties: {
      namespace: { type: 'string' },
      timezone: { type: 'string' },
      bounds: { type: 'object', properties: { dayStart: { type: 'string' }, nightStart: { type: 'string' } } },
      from: day,
      to: day,
      today: { ...day, description: 'the logical day now is in (after midnight, the night still belongs to yesterday)' },
      previous: range,
      next: range,
      days: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            day,
            windows: { type: 'object', properties: { day: span, night: span } },
            items: { type: 'array', items: ref('TimelineItem') },
            counts: { type: 'object', properties: { turns: int, memories: int, night: int } },
          },
        },
      },
      truncated: { type: 'boolean', description: 'more records than limit: the oldest were left out' },
    },
  },
  TurnView: {
    type: 'object',
    properties: {
      id: { type: 'string', pattern: '^t_' },
      namespace: { type: 'string' },
      sessionId: { type: 'string' },
      messageId: { type: 'string' },
      role: { type: 'string' },
      speaker: { type: ['string', 'null'] },
      text: { type: 'string' },
      timestamp: time,
      line: { type: ['integer', 'null'], description: 'line of the transcript it was read from' },
      placed: { type: ['object', 'null'], properties: { day, part: { type: 'string', enum: ['day', 'night'] } } },
      memories: { type: 'array', items: { type: 'string' }, description: 'memories made from it' },
    },
  },
  LayerEntry: layerEntry,
  LayerList: { type: 'object', properties: { namespace: { type: 'string' }, layers: { type: 'array', items: ref('LayerEntry') } } },
  RenderedLayer: {
    allOf: [
      ref('LayerEntry'),
      {
        type: 'object',
        properties: {
          markdown: { type: 'string' },
          html: { type: 'string', description: 'safe to insert: no raw HTML, no images, links only into the web UI or http(s)' },
          citations: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, kind: { type: 'string', enum: ['memory', 'turn'] }, href: { type: 'string' } } } },
        },
      },
    ],
  },
  NamespaceHealth: {
    type: 'object',
    properties: {
      namespace: { type: 'string' },
      timezone: { type: 'string' },
      today: day,
      from: day,
      to: day,
      counts: { type: 'object', properties: { memories: int, currentMemories: int, turns: int, documents: int } },
      sources: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: int, kind: { type: 'string' }, path: { type: 'string' }, watched: { type: 'boolean' }, missing: { type: 'boolean' }, units: int, turns: int,
            linesRead: int, malformed: int, skipped: int, redactions: int, redactionsByKind: { type: 'object', additionalProperties: int },
            errors: int, firstErrors: { type: 'array', items: { type: 'string' } }, lagSeconds: { type: 'number' }, pendingBytes: int, lastCaptureAt: { type: ['string', 'null'] },
          },
        },
      },
      daemon: { type: 'object', properties: { running: { type: 'boolean' }, pid: int, startedAt: time, lastScanAt: { type: ['string', 'null'] }, queued: int } },
      judge: {
        type: 'object',
        properties: {
          threshold: { type: 'integer' },
          mode: { type: 'string', enum: ['llm', 'heuristic'] },
          llm: { type: ['object', 'null'] },
          breaker: { type: ['object', 'null'], properties: { state: { type: 'string' }, consecutiveFailures: int } },
          judged: int, pending: int, byJudge: { type: 'object', additionalProperties: int },
          today: { type: 'object', properties: { calls: int, failures: int, fallbacks: int, costUsd: { type: 'number' }, budgetUsd: { type: ['number', 'null'] } } },
        },
      },
      alerts: { type: 'array', items: { type: 'object', properties: { kind: { type: 'string' }, message: { type: 'string' }, since: time } } },
      activity: { type: 'array', items: { type: 'object', properties: { day, turns: int, memories: int, capped: { type: 'boolean' } } } },
      importance: { type: 'array', items: { type: 'object', properties: { importance: { type: 'integer' }, memories: int } } },
      reviews: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            day, path: { type: 'string' }, mood: { type: ['string', 'null'] }, lean: { type: ['string', 'null'], enum: ['upbeat', 'frustrated', 'mixed', null] },
            activities: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, lines: int } } },
          },
        },
      },
    },
  },
  EntityGraph: {
    type: 'object',
    properties: {
      namespace: { type: 'string' },
      nodes: {
        type: 'array',
        items: {
          type: 'object',
          properties: { id: { type: 'string' }, name: { type: 'string' }, slug: { type: 'string' }, type: { type: 'string' }, para: { type: 'string' }, promoted: { type: 'boolean' }, mentions: int, relation: { type: ['string', 'null'] } },
        },
      },
      edges: { type: 'array', items: { type: 'object', properties: { source: { type: 'string' }, target: { type: 'string' }, memories: int } } },
      truncated: { type: 'boolean' },
    },
  },
};
