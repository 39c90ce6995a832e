// `cairn status`: database health, counts per namespace and kind, the embedder, and how fresh the
// vector index is. Unhealthy means the store itself is in trouble; a stale index is a warning
// (search still works on BM25) that names the command that fixes it.
import type { CairnConfig } from '../core/config.js';
import type { HomePaths } from '../core/home.js';
import type { HealthReport, Store } from '../store/store.js';

export interface NamespaceStatus {
  namespace: string;
  memories: number;
  currentMemories: number;
  superseded: number;
  turns: number;
  documents: number;
  vectors: number;
  missingVectors: number;
}

export interface StatusReport {
  ok: boolean;
  home: string;
  database: HealthReport;
  embedder: { provider: string; model: string | null };
  index: {
    fresh: boolean;
    pending: number;
    /** Vectors of models other than the active one: unused until `cairn reembed` drops them. */
    otherModels: Array<{ model: string; dimensions: number; vectors: number }>;
  };
  namespaces: NamespaceStatus[];
  totals: { memories: number; turns: number; documents: number; vectors: number };
  warnings: string[];
  problems: string[];
}

export async function buildStatus(
  store: Store,
  paths: HomePaths,
  config: CairnConfig,
  model: string | null,
  options: { integrity?: boolean } = {},
): Promise<StatusReport> {
  const database = await store.health(options);
  const stats = await store.namespaceStats();
  const vectorStats = model ? await store.vectorStats(model) : [];
  const models = await store.vectorModels();
  const byNs = new Map(vectorStats.map((v) => [v.namespace, v]));
  const namespaces: NamespaceStatus[] = stats.map((s) => ({
    ...s,
    superseded: s.memories - s.currentMemories,
    vectors: byNs.get(s.namespace)?.vectors ?? 0,
    missingVectors: model ? Math.max(0, byNs.get(s.namespace)?.missing ?? 0) : 0,
  }));
  const pending = namespaces.reduce((n, s) => n + s.missingVectors, 0);
  const otherModels = models.filter((m) => m.model !== model);
  const warnings: string[] = [];
  if (pending > 0) warnings.push(`${pending} entries have no vector for ${model}; search uses BM25 for them until "cairn reembed"`);
  if (otherModels.length > 0) {
    warnings.push(`vectors of other models are stored (${otherModels.map((m) => m.model).join(', ')}): the embedder changed; run "cairn reembed"`);
  }
  if (!model) warnings.push('no embedder configured: search is BM25 only');
  const sum = (key: 'memories' | 'turns' | 'documents' | 'vectors') => namespaces.reduce((n, s) => n + s[key], 0);
  return {
    ok: database.ok,
    home: paths.root,
    database,
    embedder: { provider: config.embedder.provider, model },
    index: { fresh: pending === 0 && otherModels.length === 0, pending, otherModels },
    namespaces,
    totals: { memories: sum('memories'), turns: sum('turns'), documents: sum('documents'), vectors: sum('vectors') },
    warnings,
    problems: database.problems,
  };
}
