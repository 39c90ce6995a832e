// Ingested homes kept across runs: embedding ~6k turns takes a minute or two, so a home is reused
// while nothing that shaped it changed (the dataset, the config outside its search-time sections,
// the package, the store schema, the judge, the embedding model's graph, this pipeline). Each home
// records which conversations it holds completely, so a quick run's home grows into a full run's
// instead of starting over.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { HEURISTIC_VERSION } from '../../src/judge/heuristic.js';
import { USE_LITE_GRAPH_VERSION } from '../../src/embed/use-lite-graph-cache.js';
import { LLM_PROMPT_VERSION } from '../../src/judge/llm-judge.js';
import { hashOf, type ResolvedVariant } from './variants.js';

/**
 * Bump when the eval changes how it builds a home (the transcripts it writes, how it ingests):
 * every kept home is then rebuilt. Changes to the product's capture, judge or indexing code that
 * do not bump a version also need this bump, or `--fresh` (2: passage vectors; 3: the knowledge
 * pass: near-duplicates fold, superseded facts retire memories and their turns).
 */
export const EVAL_PIPELINE_VERSION = 3;

const MANIFEST = 'eval-home.json';

export interface HomeManifest {
  key: string;
  components: Record<string, unknown>;
  createdAt: string;
  /** Namespaces captured, judged and embedded completely. */
  conversations: Record<string, { turns: number; ingestedAt: string; seconds: number }>;
}

export interface EvalHome {
  path: string;
  manifest: HomeManifest;
  /** `reused`: everything asked for was there; `extended`: some was, the rest is ingested now. */
  state: 'new' | 'reused' | 'extended';
  /** Namespaces still to ingest. */
  missing: string[];
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

/**
 * The parts of a home's key that no run of this code can match once they changed. The model's
 * graph too: its vectors are the home's (version 3, int8 matrices, moved them by ~0.001 cosine).
 */
function codeComponents(): { package: string; pipeline: number; schema: number; useLiteGraph: number } {
  return { package: packageVersion(), pipeline: EVAL_PIPELINE_VERSION, schema: SCHEMA_VERSION, useLiteGraph: USE_LITE_GRAPH_VERSION };
}

/** Everything an ingested home depends on; its hash names the home's folder. */
export function homeComponents(datasetSha256: string, variant: ResolvedVariant): Record<string, unknown> {
  return {
    dataset: datasetSha256,
    config: variant.ingestConfig,
    ...codeComponents(),
    judge: variant.resolved.judge.llm ? [HEURISTIC_VERSION, LLM_PROMPT_VERSION] : HEURISTIC_VERSION,
  };
}

/**
 * Removes kept homes built by another package, pipeline or store schema version: they can never
 * be reused, and a home with vectors takes ~120 MB. Returns the folders removed.
 */
export function pruneObsoleteHomes(workDir: string): string[] {
  const dir = join(workDir, 'homes');
  if (!existsSync(dir)) return [];
  const current = codeComponents();
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const components = readManifest(path)?.components;
    if (!components) continue; // not (yet) a home of ours: left alone
    if (Object.entries(current).some(([k, v]) => components[k] !== v)) {
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    }
  }
  return removed;
}

function readManifest(home: string): HomeManifest | null {
  try {
    return JSON.parse(readFileSync(join(home, MANIFEST), 'utf8')) as HomeManifest;
  } catch {
    return null;
  }
}

function writeManifest(home: string, manifest: HomeManifest): void {
  const tmp = join(home, `${MANIFEST}.tmp-${process.pid}`);
  writeFileSync(tmp, JSON.stringify(manifest, null, 2) + '\n');
  renameSync(tmp, join(home, MANIFEST));
}

/**
 * The home for these components under `<workDir>/homes/`, with the namespaces it still lacks.
 * A folder without a readable manifest of the same key (a run killed before its first
 * conversation finished, a hand-made folder) is never trusted: it is emptied and rebuilt.
 */
export function prepareHome(workDir: string, components: Record<string, unknown>, namespaces: readonly string[], fresh: boolean): EvalHome {
  const key = hashOf(components);
  const path = join(workDir, 'homes', key.slice(0, 16));
  let manifest = fresh ? null : readManifest(path);
  if (manifest?.key !== key) manifest = null;
  if (!manifest) {
    rmSync(path, { recursive: true, force: true });
    mkdirSync(path, { recursive: true });
    manifest = { key, components, createdAt: new Date().toISOString(), conversations: {} };
    writeManifest(path, manifest);
  }
  const missing = namespaces.filter((ns) => !manifest.conversations[ns]);
  const held = Object.keys(manifest.conversations).length;
  const state = missing.length === 0 ? 'reused' : held > 0 ? 'extended' : 'new';
  return { path, manifest, state, missing };
}

/** Marks a conversation as completely ingested (written at once: a later crash keeps it). */
export function recordIngested(home: EvalHome, namespace: string, info: { turns: number; seconds: number }): void {
  home.manifest.conversations[namespace] = { ...info, ingestedAt: new Date().toISOString() };
  writeManifest(home.path, home.manifest);
}
