// The fact timeline: given every fact known for one subject key + attribute (current and
// superseded) and a newly stated value, decide what the new statement is. Valid time decides, never
// capture order: a value that was true before the current one, learned late, goes into history.
import type { Fact } from '../../../core/types.js';
import type { FactDecision } from '../contracts.js';
import { attributeKey, valueKey } from './keys.js';

/**
 * Attributes that hold one value at a time: a new value ends the old one. Every other attribute
 * (`prefers`, `plans`, `decided`, and whatever else the LLM names) holds several values side by
 * side, and a value ends only when a statement names what it replaces ("switched from cortado to
 * flat white"). `date of <event>` and `favourite <thing>` are single-valued per event or thing.
 */
export const SINGLE_VALUED_ATTRIBUTES: ReadonlySet<string> = new Set(['lives in', 'works at', 'role', 'version', 'port', 'host', 'path']);
const SINGLE_VALUED_PREFIXES = ['date of ', 'favourite '] as const;

export function isSingleValued(attribute: string): boolean {
  const a = attributeKey(attribute);
  return SINGLE_VALUED_ATTRIBUTES.has(a) || SINGLE_VALUED_PREFIXES.some((p) => a.startsWith(p));
}

/** Whether two values say the same: case, spaces, quotes, a leading article, trailing punctuation and a "port"/"version" label do not count. */
export function sameValue(a: string, b: string): boolean {
  const ka = valueKey(a);
  return ka !== '' && ka === valueKey(b);
}

/** What a statement says: its value, when it became true (ISO), and the value it replaced, when it names one. */
export interface IncomingFact {
  value: string;
  validFrom: string;
  /** "switched from cortado to flat white": `cortado`. */
  replaces?: string;
}

/**
 * Decides a newly stated fact against `known`, every fact (current and superseded) with the same
 * subject key and attribute. Same value as a current fact → remention; same value as a past fact
 * whose validity covers the new validFrom → remention of that one. Single-valued: newer or equal
 * valid time → supersede the current fact(s) (at equal time the later recorded wins, and that is the
 * one being recorded now); older → history, ended by the next newer fact. Multi-valued: supersede
 * only the current fact named by `replaces`, otherwise add beside the others.
 */
export function decideFact(known: readonly Fact[], incoming: IncomingFact): FactDecision {
  const current = known.filter(isCurrent);
  const sameCurrent = current.find((f) => sameValue(f.value, incoming.value));
  if (sameCurrent) return { action: 'remention', factId: sameCurrent.id };
  const samePast = known.find((f) => !isCurrent(f) && sameValue(f.value, incoming.value) && covers(f, incoming.validFrom));
  if (samePast) return { action: 'remention', factId: samePast.id };
  if (current.length === 0) return { action: 'add' };

  if (!isSingleValued(known[0]!.attribute)) {
    const replaced = incoming.replaces === undefined ? [] : current.filter((f) => sameValue(f.value, incoming.replaces!));
    const ended = replaced.filter((f) => compareTime(f.validFrom, incoming.validFrom) <= 0);
    return ended.length > 0 ? { action: 'supersede', supersedes: ended.map((f) => f.id) } : { action: 'add' };
  }

  const newest = current.reduce((a, b) => (compareTime(a.validFrom, b.validFrom) >= 0 ? a : b));
  if (compareTime(incoming.validFrom, newest.validFrom) >= 0) return { action: 'supersede', supersedes: current.map((f) => f.id) };
  // Older than the current value: true until the next value in valid time took over.
  const next = known
    .filter((f) => compareTime(f.validFrom, incoming.validFrom) > 0)
    .reduce((a, b) => (compareTime(a.validFrom, b.validFrom) <= 0 ? a : b));
  return { action: 'history', by: next.id, validTo: next.validFrom };
}

function isCurrent(f: Fact): boolean {
  return f.supersededBy === null && f.validTo === null;
}

/** Whether `at` falls in the fact's validity [validFrom, validTo). */
function covers(f: Fact, at: string): boolean {
  return compareTime(f.validFrom, at) <= 0 && (f.validTo === null || compareTime(at, f.validTo) < 0);
}

/** Orders ISO times by the instant they name ("2026-03-02" and "2026-03-02T00:00:00Z" are equal); unreadable ones as text. */
function compareTime(a: string, b: string): number {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  if (Number.isNaN(ta) || Number.isNaN(tb)) return a < b ? -1 : a > b ? 1 : 0;
  return ta - tb;
}
