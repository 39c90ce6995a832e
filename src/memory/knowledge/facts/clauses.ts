// A text as the fact shapes read it: sentences split into clauses, with every clause that does not
// assert something as true now set aside. Questions, negations, hypotheticals, wishes, reported
// speech and past habits state no fact: a wrong fact that supersedes a right one is worse than a
// missed one.
import { stripControl } from '../../../core/text.js';

/** Texts longer than this are read in their first part: a memory is short, a pasted log is no statement. */
export const MAX_TEXT = 20_000;
/** A clause longer than this is no plain statement (a list, a paste); skipping it keeps the shapes linear. */
export const MAX_CLAUSE = 300;

export interface Clause {
  text: string;
  /** The clause says something will happen ("will", "going to", "next week I'll"): only plans and event dates read it. */
  future: boolean;
}

const QUESTION_START =
  /^(?:do|does|did|is|are|was|were|can|could|would|will|should|shall|have|has|had|where|what|which|who|whom|whose|why|how|wo|was|wie|warum|dónde|qué|cómo|où|quoi|est-ce)\b/u;
const NEGATION =
  /\b(?:not|no longer|never|nor|neither|nobody|none|cannot)\b|n't\b|\b(?:nicht|kein|keine|nie|niemals|no|nunca|jamás|ne|n'|pas|jamais)\b/u;
const HYPOTHETICAL =
  /\b(?:if|unless|would|could|might|maybe|perhaps|probably|possibly|should|whether|suppose|supposing|imagine|wish|hope|hoping|want to|wants to|'d like|would like|considering|thinking about|thinking of|in case|wenn|falls|würde|vielleicht|si|quizás|tal vez|peut-être)\b|\b(?:i|we|you|he|she|they)'d\b/u;
const REPORTED =
  /\b(?:said|says|say|told|tells|tell|heard|hears|according to|claims?|claimed|reportedly|apparently|supposedly|rumou?red|rumou?rs?|asked|asks|wonders?|wondered|thinks?|thought|believes?|believed|guess|sagte|sagt|dijo|dice|a dit|dit)\b/u;
/** Past states that are over ("used to live in"): not current, and with no date to place them in history. */
const PAST_HABIT = /\b(?:used to|formerly|previously|back then|at the time|was living|were living)\b|(?<!(?:'ve|have|has)\s+)\blived in\b/u;
const FUTURE = /\b(?:will|shall|going to|gonna|planning|plan to|plans to|intend|intends|next)\b|'ll\b/u;

/** Clause breaks inside a sentence: ";", ", and/but/so/while", " but ", a dash between words. */
const CLAUSE_BREAK = /\s*;\s*|,\s+(?:and|but|so|while|whereas|though|although)\s+|\s+but\s+|\s+[—–]\s+|\s+-\s+/iu;

/** The clauses of `text` that may state a fact, in order. */
export function statementClauses(text: string): Clause[] {
  const clean = stripControl(text.slice(0, MAX_TEXT)).normalize('NFKC').replace(/[\u2018\u2019\u02bc]/gu, "'").replace(/[\u201c\u201d]/gu, '"');
  const out: Clause[] = [];
  for (const sentence of clean.split(/(?<=[.!?…])\s+|[\r\n]+/u)) {
    const s = sentence.trim();
    if (s === '' || s.length > MAX_CLAUSE * 4) continue;
    // The filters read lower-cased text: case-insensitive Unicode patterns are ten times slower.
    const lower = s.toLowerCase();
    if (/[?¿]/u.test(s) || QUESTION_START.test(lower)) continue;
    if (REPORTED.test(lower) || /"/u.test(s)) continue; // quoted or reported: someone else's words
    for (const part of s.split(CLAUSE_BREAK)) {
      const c = part.trim().replace(/^(?:(?:and|but|so|also|anyway|btw|by the way|oh|ok|okay|well|actually|update|fyi|note|yes|yeah|good news|great news|heads up)\b[\s,:!-]*)+/iu, '').replace(/[\s.!…]+$/u, '');
      if (c === '' || c.length > MAX_CLAUSE) continue;
      const lc = c.toLowerCase();
      if (NEGATION.test(lc) || HYPOTHETICAL.test(lc) || PAST_HABIT.test(lc)) continue;
      out.push({ text: c, future: FUTURE.test(lc) });
    }
  }
  return out;
}
