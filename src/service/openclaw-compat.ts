// OpenClaw's memory_search result shape, so an OpenClaw agent can use Cairn without prompt changes:
// `{results: [{path, startLine, endLine, score, snippet, source}]}` (see ../shared/FORMATS.md).
// `path` is what memory_get {path} (Cairn.readFile) accepts back: a document's file, a memory as
// `memory:<id>`, a turn as `turn:<id>` (never its raw transcript: that file may hold the secrets
// capture redacted).
import type { Kind } from '../core/types.js';
import type { SearchResult } from '../search/hybrid.js';

/** OpenClaw's sources are `memory` (its Markdown memory files) and `sessions` (transcripts). */
export type OpenClawSource = 'memory' | 'sessions';

export interface OpenClawResult {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
  source: OpenClawSource;
  /** Cairn's own fields beside OpenClaw's: the record id and its layer. */
  id: string;
  kind: Kind;
}

const SOURCE_BY_KIND: Record<Kind, OpenClawSource> = {
  memory: 'memory',
  digest: 'memory',
  document: 'memory',
  turn: 'sessions',
};

export function toOpenClawResult(r: SearchResult): OpenClawResult {
  const p = r.provenance.find((x) => typeof x.path === 'string' && x.path.length > 0);
  let path: string;
  let startLine = 1;
  let endLine = 1;
  if (r.kind === 'memory') {
    // A memory's provenance points at where it was learnt; the memory itself is what to fetch.
    path = `memory:${r.id}`;
    endLine = Math.max(1, r.text.split('\n').length);
  } else if (r.kind === 'turn') {
    path = `turn:${r.id}`;
    endLine = Math.max(1, r.text.split('\n').length);
  } else if (p) {
    path = p.path!;
    startLine = typeof p.line === 'number' && p.line > 0 ? p.line : 1;
    endLine = typeof p.endLine === 'number' && p.endLine >= startLine ? p.endLine : startLine;
  } else {
    path = `${r.kind}:${r.id}`;
  }
  return { path, startLine, endLine, score: r.score, snippet: r.snippet, source: SOURCE_BY_KIND[r.kind], id: r.id, kind: r.kind };
}

export function toOpenClawResults(results: readonly SearchResult[]): OpenClawResult[] {
  return results.map(toOpenClawResult);
}
