// Per-namespace adjustments the heuristic judge learns from feedback ("important" / "not
// important"). Deliberately small and local: a term boost only moves turns that share the term,
// and a category offset needs agreeing feedback on several turns of that category before it moves
// anything, so one click never reshapes a whole namespace.
import type { Category } from '../core/types.js';
import { STOPWORDS } from './lexicon.js';

/**
 * What feedback taught the judge, as plain JSON (store it per namespace as is).
 *
 * - `categoryOffsets`: importance points added to every turn judged in that category, in
 *   [-2, 2]. Set only when at least {@link MIN_CATEGORY_EXAMPLES} feedback turns of the category
 *   agree in direction.
 * - `termBoosts`: lower-case content word → points, in [-2, 2] per term. A judged turn adds the sum
 *   over the distinct terms it contains, halved and clamped to [-3, 3]: two or three shared topic
 *   words move a turn across the threshold, a single common word barely does.
 * - `examples`: how many feedback items these weights were learned from.
 */
export interface HeuristicWeights {
  version: 1;
  categoryOffsets: Partial<Record<Category, number>>;
  termBoosts: Record<string, number>;
  examples: number;
}

export const MIN_CATEGORY_EXAMPLES = 3;
const MAX_TERM_BOOST = 2;
const MAX_CATEGORY_OFFSET = 2;
/** Most terms taken from one feedback turn: the distinctive head of a long turn is enough. */
const MAX_TERMS_PER_EXAMPLE = 24;
const MAX_TERMS = 2000;

export function emptyWeights(): HeuristicWeights {
  return { version: 1, categoryOffsets: {}, termBoosts: {}, examples: 0 };
}

/** Distinct content words of a text: lower-case, 3+ letters, not function words, in order of first use. */
export function contentTerms(text: string, limit = Number.POSITIVE_INFINITY): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of text.slice(0, 20_000).toLowerCase().matchAll(/[\p{L}][\p{L}\p{N}_-]{2,}/gu)) {
    const w = m[0].replace(/'s$/, '');
    if (STOPWORDS.has(w) || seen.has(w)) continue;
    seen.add(w);
    out.push(w);
    if (out.length >= limit) break;
  }
  return out;
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** Points feedback adds to a turn with this text and category (0 with no weights). */
export function weightAdjustment(weights: HeuristicWeights | undefined, text: string, category: Category): { points: number; terms: string[] } {
  if (!weights || typeof weights !== 'object') return { points: 0, terms: [] };
  let points = 0;
  const offset = weights.categoryOffsets?.[category];
  if (typeof offset === 'number' && Number.isFinite(offset)) points += clamp(offset, -MAX_CATEGORY_OFFSET, MAX_CATEGORY_OFFSET);
  const boosts = weights.termBoosts ?? {};
  let termSum = 0;
  const terms: string[] = [];
  if (Object.keys(boosts).length > 0) {
    for (const t of contentTerms(text, 400)) {
      const b = Object.prototype.hasOwnProperty.call(boosts, t) ? boosts[t] : undefined;
      if (typeof b === 'number' && Number.isFinite(b) && b !== 0) {
        termSum += clamp(b, -MAX_TERM_BOOST, MAX_TERM_BOOST);
        terms.push(t);
      }
    }
  }
  points += clamp(termSum / 2, -3, 3);
  return { points, terms };
}

/**
 * Learns weights from feedback. Each item says whether a turn (its text and the category it was
 * judged in) mattered. Terms seen in both important and unimportant turns cancel out, so only the
 * words that tell them apart keep a boost.
 */
export function learnWeights(
  feedback: ReadonlyArray<{ text: string; category: Category; important: boolean }>,
): HeuristicWeights {
  const weights = emptyWeights();
  const perCategory = new Map<Category, { up: number; down: number }>();
  const terms = new Map<string, number>();
  for (const item of Array.isArray(feedback) ? feedback : []) {
    if (!item || typeof item !== 'object') continue;
    const sign = item.important ? 1 : -1;
    const text = typeof item.text === 'string' ? item.text : '';
    weights.examples++;
    const tally = perCategory.get(item.category) ?? { up: 0, down: 0 };
    if (sign > 0) tally.up++;
    else tally.down++;
    perCategory.set(item.category, tally);
    for (const t of contentTerms(text, MAX_TERMS_PER_EXAMPLE)) terms.set(t, (terms.get(t) ?? 0) + sign);
  }
  for (const [category, { up, down }] of perCategory) {
    const net = up - down;
    // A category moves only when several turns of it agree; the offset grows slowly with agreement.
    if (Math.abs(net) >= MIN_CATEGORY_EXAMPLES) weights.categoryOffsets[category] = clamp(Math.sign(net) * (0.5 + 0.25 * (Math.abs(net) - MIN_CATEGORY_EXAMPLES)), -MAX_CATEGORY_OFFSET, MAX_CATEGORY_OFFSET);
  }
  const ranked = [...terms].filter(([, v]) => v !== 0).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]) || (a[0] < b[0] ? -1 : 1));
  for (const [t, v] of ranked.slice(0, MAX_TERMS)) weights.termBoosts[t] = clamp(v, -MAX_TERM_BOOST, MAX_TERM_BOOST);
  return weights;
}
