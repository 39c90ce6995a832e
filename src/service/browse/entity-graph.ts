// The knowledge graph as the web UI draws it: the namespace's most mentioned entities (listEntityViews,
// so PARA kind and promotion are decided where they always are) and an edge between two of them for
// every memory that names both. Bounded on both sides: at most `limit` entities, and per entity its
// newest memories only, so a home with a million memories answers as fast as one with a hundred.
import type { Store } from '../../store/store.js';
import type { EntityView } from '../knowledge.js';

export const GRAPH_DEFAULT_ENTITIES = 60;
export const GRAPH_MAX_ENTITIES = 300;
/** Memories read per entity to find who it is named with. */
export const GRAPH_MEMORIES_PER_ENTITY = 200;
export const GRAPH_MAX_EDGES = 2000;

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

export interface GraphEdge {
  source: string;
  target: string;
  /** Memories that name both. */
  memories: number;
}

export interface EntityGraph {
  namespace: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** More entities or edges existed than were returned. */
  truncated: boolean;
}

export async function buildEntityGraph(
  store: Store,
  namespace: string,
  list: (input: { limit: number; promoted?: boolean }) => Promise<EntityView[]>,
  input: { limit?: number; promoted?: boolean } = {},
): Promise<EntityGraph> {
  const limit = Math.min(input.limit ?? GRAPH_DEFAULT_ENTITIES, GRAPH_MAX_ENTITIES);
  const views = await list({ limit: limit + 1, ...(input.promoted !== undefined ? { promoted: input.promoted } : {}) });
  const chosen = views.slice(0, limit);
  const byMemory = new Map<string, string[]>();
  for (const e of chosen) {
    for (const m of await store.entityMemoryIds(namespace, [e.id], GRAPH_MEMORIES_PER_ENTITY)) byMemory.set(m, [...(byMemory.get(m) ?? []), e.id]);
  }
  const weights = new Map<string, number>();
  for (const ids of byMemory.values()) {
    const sorted = [...new Set(ids)].sort();
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length; j++) {
        const key = `${sorted[i]}\n${sorted[j]}`;
        weights.set(key, (weights.get(key) ?? 0) + 1);
      }
    }
  }
  const edges = [...weights]
    .map(([key, memories]) => {
      const [source, target] = key.split('\n') as [string, string];
      return { source, target, memories };
    })
    .sort((a, b) => b.memories - a.memories || (a.source + a.target < b.source + b.target ? -1 : 1));
  return {
    namespace,
    nodes: chosen.map((e) => ({ id: e.id, name: e.name, slug: e.slug, type: e.type, para: e.para, promoted: e.promoted, mentions: e.stats.mentions, relation: e.relation ?? null })),
    edges: edges.slice(0, GRAPH_MAX_EDGES),
    truncated: views.length > limit || edges.length > GRAPH_MAX_EDGES,
  };
}
