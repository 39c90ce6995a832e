// Putting a model's prose into a rendered digest: its text made inert (one line of plain prose that
// no Markdown block, HTML, marker or citation can come out of), each section's place in the file,
// and the file rebuilt with some sections replaced. Pure functions: same input, same bytes.
import type { DigestSection } from '../core/types.js';
import { gateText } from '../service/redaction-gate.js';
import { citation, type Rendered } from './contracts.js';

/**
 * A paragraph of model text as one inert line. Line breaks go (a paragraph cannot open a heading,
 * list or fence of its own); `<` and `>` become entities (no HTML, no `<!-- cairn:… -->` marker a
 * later regeneration would take for the person's section); backticks become quotes (only Cairn's
 * own citations are in backticks); backslashes and brackets are escaped (no links or images); and
 * a line that would still start a block (`#`, `-`, `1.`, `|`, `=`…) has its first mark escaped.
 */
export function neutralise(text: string): string {
  const flat = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\\/g, '\\\\')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/`/g, "'")
    .replace(/\[/g, '\\[')
    .replace(/\]/g, '\\]');
  const ordered = /^(\d{1,9})([.)])/.exec(flat);
  if (ordered) return `${ordered[1]}\\${flat.slice(ordered[1]!.length)}`;
  return /^[#\-+*=_|~:]/.test(flat) ? `\\${flat}` : flat;
}

/** A prose paragraph as the file shows it: the inert text, then its citations. */
export function proseParagraph(text: string, citeIds: readonly string[]): string {
  return `${gateText(neutralise(text))} ${citation(citeIds.map((id) => ({ id })))}`;
}

/** Where a section's text stands in the file: [start, end) of `section.text`. */
export interface SectionSpan {
  index: number;
  start: number;
  end: number;
}

const HEADING = /^#{1,6}[ \t]+(.*?)[ \t]*$/;

/**
 * The spans of the sections that have a heading and text, found in order: each section's text
 * must follow its heading line with only blank space between. A section not found so is left out
 * (it keeps its text).
 */
export function locateSections(rendered: Rendered): SectionSpan[] {
  const { text, sections } = rendered;
  const spans: SectionSpan[] = [];
  let cursor = 0;
  sections.forEach((section, index) => {
    if (section.heading === '' || section.text.trim() === '') return;
    let lineStart = cursor;
    while (lineStart < text.length) {
      const nl = text.indexOf('\n', lineStart);
      const lineEnd = nl === -1 ? text.length : nl;
      const m = HEADING.exec(text.slice(lineStart, lineEnd));
      if (m && m[1] === section.heading) {
        const after = nl === -1 ? text.length : nl + 1;
        const start = text.indexOf(section.text, after);
        if (start !== -1 && text.slice(after, start).trim() === '') {
          spans.push({ index, start, end: start + section.text.length });
          cursor = start + section.text.length;
        }
        return;
      }
      lineStart = lineEnd + 1;
    }
  });
  return spans;
}

/** A section's new body: `paragraphs` in place of its lines, its own leading and trailing blank space kept. */
export function sectionText(old: string, paragraphs: readonly string[]): string {
  const lead = /^\s*/.exec(old)![0];
  const trail = /\s*$/.exec(old)![0];
  return `${lead}${paragraphs.join('\n\n')}${trail}`;
}

/** The file with some sections' text replaced (by section index); the rest byte for byte as it was. */
export function replaceSections(rendered: Rendered, spans: readonly SectionSpan[], replaced: ReadonlyMap<number, DigestSection>): Rendered {
  let text = '';
  let at = 0;
  for (const span of spans) {
    const section = replaced.get(span.index);
    if (!section) continue;
    text += rendered.text.slice(at, span.start) + section.text;
    at = span.end;
  }
  text += rendered.text.slice(at);
  return { text, sections: rendered.sections.map((s, i) => replaced.get(i) ?? s) };
}

/**
 * The extractive file with a closing line saying the model did not write it and why. The sections
 * stay as they were: the line cites nothing and is not worth indexing.
 */
export function withFallbackNote(rendered: Rendered, reason: string): Rendered {
  const body = rendered.text.replace(/\s+$/, '');
  return { text: `${body === '' ? '' : `${body}\n\n`}> Written by the extractive summariser: the language model was unavailable (${reason}).\n`, sections: rendered.sections };
}
