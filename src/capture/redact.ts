// "Secrets never land": capture runs every turn through `redact` before it is stored or sent to an
// LLM. Detectors propose spans, overlapping spans merge, each span becomes `[REDACTED:<kind>]`, and
// every other byte stays as it was. Two layers find spans: the hand-written detectors
// (redact-tokens*.ts, redact-env.ts, redact-blocks.ts, redact-prose.ts, redact-cli.ts) and
// secretlint's recommended rules (redact-library.ts). Every scan is linear, so a hostile 5 MB
// transcript costs a bounded, predictable time (see docs/BENCHMARKS.md).
//
// Invisible format characters (zero-width space, soft hyphen, word joiner, BOM, bidi marks, …)
// can split a key so no pattern sees it. Detection therefore runs on a view of the text without
// them, and each span found there is mapped back over the characters it spans in the original,
// invisible ones included.
import { LRUCache } from 'lru-cache';
import { findHighEntropy, findPrivateKeys } from './redact-blocks.js';
import { findCandidates } from './redact-candidates.js';
import { findCommandLineSecrets } from './redact-cli.js';
import { findEnvSecrets } from './redact-env.js';
import { KIND_PRIORITY, type RedactionKind, type Span } from './redact-kinds.js';
import { findLibrarySpans } from './redact-library.js';
import { findProseSecrets } from './redact-prose.js';
import { MORE_TOKEN_RULES } from './redact-tokens-more.js';
import { TOKEN_RULES, findTokenSpans } from './redact-tokens.js';

export { REDACTION_KINDS, type RedactionKind } from './redact-kinds.js';

/** The redacted text and how many spans of each kind were replaced (kinds with zero are absent). */
export interface RedactionResult {
  text: string;
  counts: Record<string, number>;
}

/** Which layers find spans. Both, always, in capture; the split is for measuring each. */
export interface RedactionLayers {
  library: boolean;
}

/** The marker that replaces a secret. Markers are never redacted again. */
export function redactionMarker(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

const MARKER = /\[REDACTED:[a-z0-9-]{1,40}\]/g;
/**
 * A replacement can bring a keyword within reach of a token (a private key block collapsing into
 * one marker), so redaction repeats until a pass finds nothing; that is what makes it idempotent.
 * Each pass removes unmarked text, so this ends; in practice after one or two passes.
 */
const MAX_PASSES = 8;
const ALL_TOKEN_RULES = [...TOKEN_RULES, ...MORE_TOKEN_RULES];

/**
 * Replaces credentials in `text` with `[REDACTED:<kind>]` markers (kinds: see REDACTION_KINDS).
 * Pure, linear in the input, idempotent (`redact(redact(x).text)` changes nothing), and
 * byte-identical outside the replaced spans.
 */
export function redact(text: string): RedactionResult {
  return redactWithLayers(text, { library: true });
}

/**
 * Texts that redact() found clean on its last pass, so redacting one again returns it unchanged:
 * the pass loop ends only when a pass finds nothing, and findSpans is pure. Capture redacts each
 * turn, then the service's gate sees the same text as it is stored (and a judged memory often its
 * turn's): a scan costs ~0.1 ms a KB, a lookup here hashing and comparing the string once. Bounded
 * by characters (a capture page of 1,000 long agent messages is ~2.6M), the least recently
 * redacted forgotten first: a daemon holds at most 4–8 MB of text for it.
 */
const cleanTexts = new LRUCache<string, true>({
  maxSize: 4_000_000,
  maxEntrySize: 256 * 1024,
  sizeCalculation: (_clean, text) => text.length + 64,
});

/** `redact` with a choice of layers: for the benchmark that prices the library layer. */
export function redactWithLayers(text: string, layers: RedactionLayers): RedactionResult {
  const counts: Record<string, number> = {};
  // Only both layers' verdict is kept: a text one layer finds clean may hold what the other finds.
  if (layers.library && cleanTexts.get(text)) return { text, counts };
  let current = text;
  let clean = false;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const spans = findSpans(current, layers);
    if (spans.length === 0) {
      clean = true;
      break;
    }
    current = applySpans(current, spans, counts);
  }
  // A text over maxEntrySize is not kept (lru-cache refuses it).
  if (clean && layers.library) cleanTexts.set(current, true);
  return { text: current, counts };
}

/**
 * Characters after a cut that redaction still reads, so a secret crossing the cut is recognised
 * whole. A private key block is the longest secret (an RSA-8192 PEM is ~6.5 KB); a longer one
 * without its END is still redacted through its base64 body.
 */
export const CUT_CONTEXT = 16 * 1024;

/**
 * Redacts what a cut at `keep` characters keeps: the head of `text`, judged with CUT_CONTEXT
 * characters after it, so a secret that crosses the cut is redacted whole (the head then ends
 * after its marker) instead of leaving its prefix behind. Costs O(keep + CUT_CONTEXT), whatever
 * the length of `text`. The result may be a little longer than `keep` (a marker, a secret that
 * crossed the cut); callers cut it again at a marker boundary.
 */
export function redactHead(text: string, keep: number): RedactionResult {
  if (text.length <= keep + CUT_CONTEXT) return redact(text);
  const window = text.slice(0, keep + CUT_CONTEXT);
  const spans = findSpans(window, { library: true });
  let cut = keep;
  for (const s of spans) if (s.start < cut && s.end > cut) cut = s.end;
  const counts: Record<string, number> = {};
  const head = applySpans(window.slice(0, cut), spans.filter((s) => s.start < cut), counts);
  const rest = redact(head); // later passes, as redact() makes them
  for (const [kind, n] of Object.entries(rest.counts)) counts[kind] = (counts[kind] ?? 0) + n;
  return { text: rest.text, counts };
}

function findSpans(text: string, layers: RedactionLayers): Span[] {
  if (text.length === 0) return [];
  const view = visibleView(text);
  const found: Span[] = [];
  const candidates = findCandidates(view.text);
  findTokenSpans(view.text, candidates, ALL_TOKEN_RULES, found);
  findPrivateKeys(view.text, found);
  findEnvSecrets(view.text, found);
  findHighEntropy(view.text, candidates, found);
  findProseSecrets(view.text, found);
  findCommandLineSecrets(view.text, found);
  if (layers.library) findLibrarySpans(view.text, found);
  return resolve(found, markerSpans(view.text)).map((s) => view.toOriginal(s));
}

function applySpans(text: string, spans: Span[], counts: Record<string, number>): string {
  const parts: string[] = [];
  let at = 0;
  for (const span of spans) {
    parts.push(text.slice(at, span.start), redactionMarker(span.kind));
    counts[span.kind] = (counts[span.kind] ?? 0) + 1;
    at = span.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

// ---------------------------------------------------------------------------------------------
// The text as detectors see it: without invisible format characters.

/**
 * Characters that render as nothing: soft hyphen, combining grapheme joiner, Arabic letter mark,
 * Hangul fillers, Khmer and Mongolian invisibles, zero-width space/joiners and LRM/RLM, bidi
 * embeddings and isolates, word joiner and invisible operators, variation selectors, BOM, and the
 * tag and variation-selector-supplement planes.
 */
const INVISIBLE =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|\uDB40[\uDC00-\uDDEF]/g;

interface View {
  text: string;
  toOriginal(span: Span): Span;
}

function visibleView(text: string): View {
  if (text.search(INVISIBLE) === -1) return { text, toOriginal: (s) => s };
  // Removed runs, as (position in the view, characters removed up to and including this run).
  const at: number[] = [];
  const shift: number[] = [];
  const parts: string[] = [];
  let from = 0;
  let removed = 0;
  for (const m of text.matchAll(INVISIBLE)) {
    parts.push(text.slice(from, m.index));
    removed += m[0].length;
    const viewPos = m.index + m[0].length - removed;
    if (at.length > 0 && at[at.length - 1] === viewPos) shift[shift.length - 1] = removed;
    else {
      at.push(viewPos);
      shift.push(removed);
    }
    from = m.index + m[0].length;
  }
  parts.push(text.slice(from));
  /** Original index of the view's character `v`: after every invisible run before or at it. */
  const original = (v: number): number => {
    let lo = 0;
    let hi = at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at[mid]! <= v) lo = mid + 1;
      else hi = mid;
    }
    return v + (lo === 0 ? 0 : shift[lo - 1]!);
  };
  return {
    text: parts.join(''),
    toOriginal: (s) => ({ start: original(s.start), end: original(s.end - 1) + 1, kind: s.kind }),
  };
}

// ---------------------------------------------------------------------------------------------
// Merging spans.

function markerSpans(text: string): Array<{ start: number; end: number }> {
  if (!text.includes('[REDACTED:')) return [];
  return Array.from(text.matchAll(MARKER), (m) => ({ start: m.index, end: m.index + m[0].length }));
}

/**
 * Drops spans touching an existing marker, then merges overlaps: the earliest start wins, ties go
 * to the higher-priority kind, and the merged span covers both so no part of a secret survives.
 */
function resolve(found: Span[], markers: Array<{ start: number; end: number }>): Span[] {
  const candidates = markers.length === 0 ? found : found.filter((s) => !overlapsMarker(s, markers));
  candidates.sort(
    (a, b) => a.start - b.start || KIND_PRIORITY[a.kind] - KIND_PRIORITY[b.kind] || b.end - a.end,
  );
  const merged: Span[] = [];
  for (const span of candidates) {
    if (span.end <= span.start) continue;
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start < last.end) {
      last.end = Math.max(last.end, span.end);
      continue;
    }
    merged.push({ ...span });
  }
  return merged;
}

function overlapsMarker(span: Span, markers: Array<{ start: number; end: number }>): boolean {
  // First marker ending after the span starts (markers are sorted and disjoint).
  let lo = 0;
  let hi = markers.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (markers[mid]!.end <= span.start) lo = mid + 1;
    else hi = mid;
  }
  const m = markers[lo];
  return m !== undefined && m.start < span.end;
}
