// Assembling a digest file: a title, `## ` sections of cited lines, and the sections as the store
// indexes them (each section's text exactly as it stands in the file, and what its lines cite).
import type { DigestSection, DigestSource } from '../core/types.js';
import { citation, citedSources, type Rendered } from './contracts.js';
import { addDays } from './windows.js';
import type { Point } from './extract.js';

/** One list line of a section and the records it cites. */
export interface Line {
  text: string;
  sources: DigestSource[];
}

export interface SectionDraft {
  heading: string;
  lines: Line[];
}

/** Short marks for the kinds of record a reader scans a day for. */
const CATEGORY_TAGS: Record<string, string> = {
  decision: 'decision',
  issue: 'problem',
  implementation: 'change',
  success: 'result',
  discovery: 'finding',
  plan: 'plan',
};

export function categoryTag(category: string | null): string {
  const tag = category ? CATEGORY_TAGS[category] : undefined;
  return tag ? `**${tag}** ` : '';
}

/** `- <when> <tag><point> \`id\` …`: the citation line every digest uses. */
export function pointLine(point: Point, when: string, options: { tag?: boolean; suffix?: string } = {}): Line {
  const tag = options.tag ? categoryTag(point.category) : '';
  const suffix = options.suffix ? ` ${options.suffix}` : '';
  return { text: `- ${when} ${tag}${point.text}${suffix} ${citation(point.sources)}`, sources: point.sources };
}


/**
 * The file: `preamble` lines (the `# ` title first), then each non-empty section as `## heading`
 * and its lines, blocks separated by one blank line, ending in one newline.
 */
export function assemble(preamble: readonly Line[], drafts: readonly SectionDraft[]): Rendered {
  const sections: DigestSection[] = [];
  if (preamble.length > 0) sections.push({ heading: '', text: preamble.map((l) => l.text).join('\n'), sources: citedSources(preamble) });
  for (const d of drafts) {
    if (d.lines.length === 0) continue;
    sections.push({ heading: d.heading, text: d.lines.map((l) => l.text).join('\n'), sources: citedSources(d.lines) });
  }
  const blocks = sections.map((s) => (s.heading === '' ? s.text : `## ${s.heading}\n${s.text}`));
  return { text: `${blocks.join('\n\n')}\n`, sections };
}

/** The calendar day after `day` (`YYYY-MM-DD`), by the calendar alone (no time zone involved). */
export function nextDay(day: string): string {
  return addDays(day, 1);
}


/** A time zone name is config, but it still goes on a title line: keep it to one plain line. */
export function plainLabel(text: string): string {
  return text.replace(/[^\p{L}\p{N}/_+:.-]+/gu, ' ').trim().slice(0, 80);
}
