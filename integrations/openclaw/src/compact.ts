// memory_search answers in OpenClaw's shape and within a stated size per result: what the agent
// needs to read and cite (path, lines, score, a clipped snippet, source, citation). Cairn's full
// record (provenance, context turns, category, times) stays one memory_get {path} away, so a
// search costs the agent a few hundred characters per hit instead of thousands.
import type { SearchResult } from '../../../src/search/hybrid.js';
import { toOpenClawResult } from '../../../src/service/openclaw-compat.js';
import type { MemorySearchResult } from './openclaw-api.js';

const ELLIPSIS = '…';

/** `path#L3` or `path#L3-L9`, as OpenClaw cites memory hits. */
export function citationOf(path: string, startLine: number, endLine: number): string {
  return startLine === endLine ? `${path}#L${startLine}` : `${path}#L${startLine}-L${endLine}`;
}

/** Cuts `text` to at most `max` characters, at a word boundary when one is near, marking the cut. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  if (max <= ELLIPSIS.length) return '';
  let cut = flat.slice(0, max - ELLIPSIS.length);
  // Never split a surrogate pair: a lone half is not valid text.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const space = cut.lastIndexOf(' ');
  if (space >= cut.length * 0.6) cut = cut.slice(0, space);
  return cut.trimEnd() + ELLIPSIS;
}

/**
 * One hit within `budget` characters of JSON: the snippet gives way; path and line numbers never
 * do (memory_get needs them whole).
 */
export function compactHit(r: SearchResult, budget: number): MemorySearchResult {
  const o = toOpenClawResult(r);
  const hit: MemorySearchResult = {
    path: o.path,
    startLine: o.startLine,
    endLine: o.endLine,
    score: Math.round(o.score * 1000) / 1000,
    snippet: '',
    source: o.source,
    citation: citationOf(o.path, o.startLine, o.endLine),
  };
  const room = budget - JSON.stringify(hit).length;
  // JSON escapes (quotes, backslashes, control characters) make the snippet longer than its text.
  let snippet = clip(o.snippet || r.text, Math.max(0, room));
  while (snippet.length > 0 && JSON.stringify(snippet).length - 2 > room) snippet = clip(snippet.slice(0, -ELLIPSIS.length), Math.max(0, snippet.length - 8));
  hit.snippet = snippet;
  return hit;
}

export function compactHits(results: readonly SearchResult[], budget: number): MemorySearchResult[] {
  return results.map((r) => compactHit(r, budget));
}
