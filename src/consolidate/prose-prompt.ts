// The versioned request the prose writer sends: a fixed instruction set, then the digest's sections
// with the records each one cites, in the rendered order. The same digest always gives the same
// request, so the same model answer always gives the same file.
import { z } from 'zod';
import type { DigestKind } from '../core/types.js';
import { gateText } from '../service/redaction-gate.js';
import type { Item } from './contracts.js';

/** Bumped with every change to the instructions or the request's layout (digests record it). */
export const PROSE_PROMPT_VERSION = 'prose-1';

/** Longest record text sent; a digest cites many records, and a point needs its gist, not a transcript. */
const MAX_ITEM_CHARS = 600;

/**
 * What the model answers. Lengths are not capped here: one overlong paragraph is dropped on its
 * own (see prose.ts) rather than failing the whole answer.
 */
export const proseAnswerSchema = z.object({
  sections: z.array(
    z.object({
      heading: z.string(),
      paragraphs: z.array(z.object({ text: z.string(), cites: z.array(z.string()) })),
    }),
  ),
});

export type ProseAnswer = z.infer<typeof proseAnswerSchema>;

const KIND_NAMES: Readonly<Record<DigestKind, string>> = {
  daily: 'a daily note (what happened during the day)',
  night: 'a night note (what happened during the night)',
  review: 'a daily review (achievements, lessons, decisions, open problems)',
  weekly: 'a weekly distill (patterns across days, what moved, what stalled)',
  topic: 'a topic page (a subject that recurs across days)',
  memory: 'a long-term memory overview',
  entity: 'a page about one person, project or subject (what it is, its facts, where it was mentioned)',
  life: 'an index of the people, projects and subjects a person deals with',
};

export const PROSE_SYSTEM = `You write the prose of one section at a time of a personal memory note, from records of a person's conversations with AI agents.
Rules:
- Use ONLY the records listed under a section. Add no facts, names, numbers, dates or opinions that are not in them.
- Write in the language the records are written in.
- Each section gets 1 to 4 short paragraphs of plain sentences (at most 600 characters each). No headings, lists, tables, links, HTML or code blocks.
- Each paragraph lists in "cites" the ids (exactly as given in square brackets) of every record it draws on, and only ids of its own section.
- Keep each section's heading exactly as given, in the given order. Do not add sections.
- Keep the records' own precise terms (file names, commands, error messages, numbers).`;

/** One line of text: the prompt's layout (one record per line) must hold whatever a record says. */
function oneLine(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars)} …[truncated]` : flat;
}

/** A heading as the request shows it; the answer's headings are matched against this form. */
export function promptHeading(heading: string): string {
  return gateText(oneLine(heading, 200));
}

export interface PromptSection {
  heading: string;
  items: Item[];
}

function itemLine(item: Item): string {
  const about = [item.kind, item.category, item.importance === null ? null : `importance ${item.importance}`, item.current ? null : 'superseded']
    .filter((x): x is string => x !== null)
    .join(', ');
  const who = item.speaker ? `${item.speaker}: ` : item.role ? `${item.role}: ` : '';
  return `- [${item.id}] ${item.localDay} ${item.localTime} (${about}) ${gateText(oneLine(`${who}${item.text}`, MAX_ITEM_CHARS))}`;
}

/** The user message: the digest, then each section's heading and its records. */
export function buildProsePrompt(kind: DigestKind, title: string, sections: readonly PromptSection[]): string {
  const parts = [`This is ${KIND_NAMES[kind]}: "${gateText(oneLine(title, 200))}".`, '', `Sections to write (${sections.length}):`];
  sections.forEach((s, i) => {
    parts.push('', `Section ${i + 1}, heading: "${promptHeading(s.heading)}"`, 'Records:', ...s.items.map(itemLine));
  });
  parts.push('', `Answer with {"sections": [...]}: one entry per section above, in order, each with its heading exactly as given and its paragraphs.`);
  return parts.join('\n');
}
