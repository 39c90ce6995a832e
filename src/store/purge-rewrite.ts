// The database-independent part of rewriting stored text (purge, re-redaction), shared by both
// backends' purge-text.ts: what a rule makes of JSON columns and digest sections, and how a
// rewritten row is counted. Paging, locking and writing stay with each backend.
import type { DigestSection } from '../core/types.js';
import type { PurgeChanges } from './purge.js';

/** Every string inside a JSON text through the rule; the same text back when nothing changed. */
export function rewriteJson(json: string, rw: (s: string) => string): string {
  let changed = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const r = rw(v);
      if (r !== v) changed = true;
      return r;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return rw(json);
  }
  const next = walk(parsed);
  return changed ? JSON.stringify(next) : json;
}

/** A literal as a JSON column holds it (JSON.stringify escapes quotes and backslashes). */
export function jsonNeedle(literal: string): string {
  return JSON.stringify(literal).slice(1, -1);
}

/**
 * A digest's sections (its JSON column) through the rule. Only what a person reads changes: the
 * cited ids and times stay as they are.
 */
export function rewriteSections(json: string, rw: (s: string) => string): { sections: DigestSection[]; changed: boolean } {
  const before = JSON.parse(json) as DigestSection[];
  const sections = before.map((s) => ({ ...s, heading: rw(s.heading), text: rw(s.text) }));
  return { sections, changed: sections.some((s, i) => s.heading !== before[i]!.heading || s.text !== before[i]!.text) };
}

/** Counts one rewritten row of `table` in `namespace`. */
export function countRewrite(into: { out: PurgeChanges; namespaces: Set<string> }, table: string, namespace: string): void {
  into.out.rewritten[table] = (into.out.rewritten[table] ?? 0) + 1;
  into.namespaces.add(namespace);
}
