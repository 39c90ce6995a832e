// What one fact shape is: a pattern anchored at the start of a clause, and a reader that turns its
// groups into facts (or none, when a value is not clearly one). The shapes live in shapes-*.ts.
import type { ExtractedFact } from '../contracts.js';

/** When the clause's own date is the fact's validFrom: `change` any date ("moved last week"), `since` only after since/as of/seit/desde/depuis, `none` never. */
export type DateRule = 'change' | 'since' | 'none';

export type Groups = Readonly<Record<string, string | undefined>>;

/** What a shape's reader may ask about the clause and its context. */
export interface ShapeContext {
  /** The clause as read (after leading "so", "btw", …). */
  clause: string;
  /** The memory's time, ISO. */
  time: string;
  /** Who "I"/"we" is, or null when someone other than the user speaks (the assistant's "I" is not the user). */
  me: string | null;
  /** Whose world the statement is about when no one is named (event dates, team decisions): the user, whoever speaks. */
  owner: string;
  /** Resolves a written subject: first person → `me`, otherwise a person's name, or null. */
  who(text: string | undefined): string | null;
}

/** A fact before its validFrom is placed. */
export type Draft = Omit<ExtractedFact, 'validFrom'> & { validFrom?: string };

export interface Shape {
  /** For tests and debugging: which shape stated a fact. */
  name: string;
  re: RegExp;
  dates: DateRule;
  /** Reads clauses that speak of the future ("next week I'll…", "the launch will be on…"). */
  future?: boolean;
  /** A cheap test a clause must pass before the pattern runs: most clauses match no shape, and the patterns cost more. */
  cue: RegExp;
  read(g: Groups, c: ShapeContext): Draft[];
}

/** A subject written before the verb: "I", "we", "Ana", "Ana Souza" (up to three words). */
export const WHO = String.raw`(?<who>[^\s,;:]+(?:\s+[^\s,;:]+){0,2}?)`;
/** "'m", "'ve", " am", " have", … between a subject and its verb. */
export const AUX = String.raw`(?:\s*'(?:m|re|s|ve)|\s+(?:am|are|is|have|has|had))?`;
/** A thing named before its verb: "the staging database", "our API" (up to six words). */
export const THING = String.raw`(?<thing>[^\s,;:]+(?:\s+[^\s,;:]+){0,5}?)`;

export function shape(name: string, cue: RegExp, re: string, dates: DateRule, read: Shape['read'], future = false): Shape {
  return { name, cue, re: new RegExp(`^${re}$`, 'iu'), dates, read, future };
}
