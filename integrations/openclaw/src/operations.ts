// What the tools, the memory runtime and the CLI ask Cairn, each as one daemon request in the
// agent's namespace. Arguments come from a model (tools) or a shell (CLI): checked here, so a
// malformed call gets a clear error without reaching Cairn.
import type { SearchResponse } from '../../../src/service/cairn-base.js';
import type { StatusReport } from '../../../src/service/status.js';
import type { ReadFileResult } from '../../../src/service/files.js';
import type { Memory } from '../../../src/core/types.js';
import { agentNamespace } from './agent.js';
import { CairnRefused, type CairnClient } from './client.js';
import { compactHits } from './compact.js';
import type { PluginSettings } from './config.js';
import type { MemorySearchResult, MemorySource } from './openclaw-api.js';

/** Cairn's own limit on a query; longer ones are refused here, before any request. */
export const MAX_QUERY_CHARS = 2000;
const MEMORY_PATH = /^memory:([a-z]{1,4}_[A-Za-z0-9_-]{1,64})$/;

export interface Cairn {
  client: CairnClient;
  settings: PluginSettings;
}

export interface SearchArgs {
  query: string;
  maxResults?: number;
  minScore?: number;
  sources?: MemorySource[];
}

export interface SearchAnswer {
  results: MemorySearchResult[];
  provider: 'cairn';
  model: string;
  mode: string;
  noGoodMatch?: true;
  warning?: string;
}

const invalid = (message: string) => new CairnRefused('INVALID_INPUT', message);

function record(params: unknown): Record<string, unknown> {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) throw invalid('arguments must be an object');
  return params as Record<string, unknown>;
}

function optionalInt(p: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const v = p[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw invalid(`${key} must be a whole number from ${min} to ${max}`);
  return v;
}

/** memory_search's arguments, OpenClaw's names: query, maxResults, minScore, corpus. */
export function readSearchArgs(params: unknown, maxResults: number): SearchArgs {
  const p = record(params);
  if (typeof p.query !== 'string' || p.query.trim() === '') throw invalid('query must be a non-empty string');
  if (p.query.length > MAX_QUERY_CHARS) throw invalid(`query is longer than ${MAX_QUERY_CHARS} characters; search with the few words that matter`);
  const minScore = p.minScore;
  if (minScore !== undefined && minScore !== null && (typeof minScore !== 'number' || !Number.isFinite(minScore))) throw invalid('minScore must be a number');
  const corpus = p.corpus;
  if (corpus !== undefined && corpus !== null && !['memory', 'sessions', 'all', 'wiki'].includes(corpus as string)) throw invalid('corpus must be memory, sessions or all');
  return {
    query: p.query,
    maxResults: optionalInt(p, 'maxResults', 1, 50) ?? maxResults,
    ...(typeof minScore === 'number' ? { minScore } : {}),
    ...(corpus === 'memory' ? { sources: ['memory'] as MemorySource[] } : corpus === 'sessions' ? { sources: ['sessions'] as MemorySource[] } : {}),
  };
}

/** OpenClaw's sources in Cairn's kinds: its memory files are Cairn's memories, digests and documents. */
function kindsOf(sources: MemorySource[] | undefined): string[] | undefined {
  if (!sources || sources.length === 0 || (sources.includes('memory') && sources.includes('sessions'))) return undefined;
  return sources.includes('memory') ? ['memory', 'digest', 'document'] : ['turn'];
}

export async function search(cairn: Cairn, agentId: string | undefined, args: SearchArgs, timeoutMs = cairn.settings.timeoutMs): Promise<SearchAnswer> {
  const kinds = kindsOf(args.sources);
  const res = await cairn.client.call<SearchResponse>('search', agentNamespace(agentId), { query: args.query, limit: args.maxResults ?? cairn.settings.maxResults, ...(kinds ? { kinds } : {}) }, timeoutMs);
  const kept = args.minScore === undefined ? res.results : res.results.filter((r) => r.score >= args.minScore!);
  return {
    results: compactHits(kept, cairn.settings.resultChars),
    provider: 'cairn',
    model: res.mode === 'bm25' ? 'bm25' : 'cairn-hybrid',
    mode: res.mode,
    ...(res.noGoodMatch ? { noGoodMatch: true as const } : {}),
    ...(res.degraded ? { warning: res.degraded } : {}),
  };
}

export interface GetArgs {
  path: string;
  from?: number;
  lines?: number;
}

export function readGetArgs(params: unknown): GetArgs {
  const p = record(params);
  if (typeof p.path !== 'string' || p.path.trim() === '') throw invalid('path must be a non-empty string (the path of a memory_search result)');
  if (p.path.length > 4096) throw invalid('path is longer than 4096 characters');
  const from = optionalInt(p, 'from', 1, 10_000_000);
  const lines = optionalInt(p, 'lines', 1, 2000);
  return { path: p.path, ...(from !== undefined ? { from } : {}), ...(lines !== undefined ? { lines } : {}) };
}

export interface GetAnswer {
  status: 'ok';
  path: string;
  text: string;
  from: number;
  lines: number;
  totalLines: number;
  /** A memory's full record: category, importance, times, where it was learnt. */
  memory?: Record<string, unknown>;
}

/** memory_get: a memory in full (with its provenance), or a window of lines of a file Cairn shows. */
export async function get(cairn: Cairn, agentId: string | undefined, args: GetArgs): Promise<GetAnswer> {
  const ns = agentNamespace(agentId);
  const memoryId = MEMORY_PATH.exec(args.path)?.[1];
  const file = await cairn.client.call<ReadFileResult>('read-file', ns, { ...args }, cairn.settings.timeoutMs);
  const out: GetAnswer = { status: 'ok', path: file.path, text: file.text, from: file.from, lines: file.lines, totalLines: file.totalLines };
  if (memoryId === undefined) return out;
  const m = await cairn.client.call<Memory>('get', ns, { id: memoryId }, cairn.settings.timeoutMs);
  out.memory = {
    id: m.id,
    category: m.category,
    importance: m.importance,
    eventTime: m.eventTime,
    createdAt: m.createdAt,
    validTo: m.validTo,
    ...(m.supersededBy ? { supersededBy: m.supersededBy } : {}),
    tags: m.tags,
    entities: m.entities,
    provenance: m.provenance,
  };
  return out;
}

export interface StoreArgs {
  text: string;
  category?: string;
  importance?: number;
  tags?: string[];
}

export function readStoreArgs(params: unknown): StoreArgs {
  const p = record(params);
  if (typeof p.text !== 'string' || p.text.trim() === '') throw invalid('text must be a non-empty string');
  const importance = optionalInt(p, 'importance', 1, 10);
  if (p.category !== undefined && typeof p.category !== 'string') throw invalid('category must be a string');
  if (p.tags !== undefined && (!Array.isArray(p.tags) || p.tags.some((t) => typeof t !== 'string'))) throw invalid('tags must be a list of strings');
  return {
    text: p.text,
    ...(typeof p.category === 'string' ? { category: p.category } : {}),
    ...(importance !== undefined ? { importance } : {}),
    ...(Array.isArray(p.tags) ? { tags: p.tags as string[] } : {}),
  };
}

export async function store(cairn: Cairn, agentId: string | undefined, args: StoreArgs, sessionId?: string) {
  const provenance = [{ source: 'openclaw', ...(sessionId ? { sessionId } : {}) }];
  const res = await cairn.client.call<{ memory: Memory; duplicate: boolean; warning?: string }>('store', agentNamespace(agentId), { ...args, provenance }, cairn.settings.timeoutMs);
  return { stored: true, path: `memory:${res.memory.id}`, duplicate: res.duplicate, ...(res.warning ? { warning: res.warning } : {}) };
}

export async function status(cairn: Cairn, timeoutMs = cairn.settings.timeoutMs): Promise<StatusReport> {
  return cairn.client.call<StatusReport>('status', agentNamespace(undefined), {}, timeoutMs);
}

/** Has the daemon capture every source now (same checkpoints, so never twice); turns it took. */
export async function catchUp(cairn: Cairn, agentId: string | undefined): Promise<number> {
  const res = await cairn.client.call<{ turnsCaptured: number }>('catch-up', agentNamespace(agentId), {}, cairn.settings.timeoutMs);
  return res.turnsCaptured;
}
