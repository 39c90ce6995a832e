// Sharing a fixed number of lines between a file's parts by priority, so that a file with a hard
// line limit loses its least useful lines first: every part first gets a small quota in order of
// priority, then the parts grow to their maximum in the same order until the lines run out.

export interface BudgetPart {
  /** Names the part in the answer (parts are placed by priority but may be shown in another order). */
  key: string;
  /** `## heading`, or null for a run of lines without one (the links under the title). */
  heading: string | null;
  /** Candidate lines, most wanted first; each is one line (no `\n`). */
  candidates: Array<{ line: string; order: number | string }>;
  /** Lines it gets before any part grows past its quota, and at most. */
  minLines: number;
  maxLines: number;
}

export interface PlacedPart {
  key: string;
  heading: string | null;
  /** The chosen lines, in display order (ascending `order`, then as given). */
  lines: string[];
}

/** Lines a part costs besides its own: the blank line before it, and a heading with the blank line after. */
export const overheadOf = (part: Pick<BudgetPart, 'heading'>): number => (part.heading === null ? 1 : 3);

/**
 * How many candidate lines of each part fit in `budget` lines, in the parts' given order (the
 * highest priority first). A part with no candidates takes nothing; a part whose overhead and one
 * line do not fit is left out. Returns the parts that got lines, in their given order.
 */
export function placeParts(parts: readonly BudgetPart[], budget: number): PlacedPart[] {
  let left = Math.max(0, Math.floor(budget));
  const taken = parts.map(() => 0);
  parts.forEach((p, i) => {
    const want = Math.min(p.minLines, p.maxLines, p.candidates.length);
    if (want <= 0 || left < overheadOf(p) + 1) return;
    taken[i] = Math.min(want, left - overheadOf(p));
    left -= overheadOf(p) + taken[i]!;
  });
  parts.forEach((p, i) => {
    if (taken[i] === 0) return;
    const more = Math.min(Math.min(p.maxLines, p.candidates.length) - taken[i]!, left);
    if (more <= 0) return;
    taken[i]! += more;
    left -= more;
  });
  const placed: PlacedPart[] = [];
  parts.forEach((p, i) => {
    if (taken[i] === 0) return;
    const chosen = p.candidates.slice(0, taken[i]).map((c, k) => ({ ...c, k }));
    chosen.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : a.k - b.k));
    placed.push({ key: p.key, heading: p.heading, lines: chosen.map((c) => c.line) });
  });
  return placed;
}
