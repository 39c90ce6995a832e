// Offline fact extraction: the common shapes of a statement that something is so (where someone
// lives or works, roles, preferences, versions, ports, hosts, paths, dates of events, plans,
// decisions), read clause by clause. Conservative by design: a clause that is a question, a
// negation, a hypothetical or someone else's words states nothing, and a value that is not clearly
// one is left out. Pure: no store, no network; linear in the text (clauses are bounded).
import { cleanLabel } from '../../../core/text.js';
import type { ExtractedFact, ExtractionContext } from '../contracts.js';
import { statementClauses } from './clauses.js';
import { attributeKey, subjectKey, valueKey } from './keys.js';
import type { Shape, ShapeContext } from './shape.js';
import { INTENT_SHAPES } from './shapes-intent.js';
import { PEOPLE_SHAPES } from './shapes-people.js';
import { THING_SHAPES } from './shapes-things.js';
import { readPerson } from './values.js';
import { findDate, startOf } from './when.js';

/** Things first: "we moved the staging database to port 6543" is a port, not a move; "switched from Node 18 to Node 20" a version, not a preference. */
const SHAPES: readonly Shape[] = [...THING_SHAPES, ...INTENT_SHAPES, ...PEOPLE_SHAPES];
/** More facts than this from one memory is a paste, not a statement. */
const MAX_FACTS = 50;
const FIRST_PERSON = /^(?:i|we|me|us|ich|wir|je|nous|yo|nosotros)(?:'(?:m|re|ve|s|ll|d))?$/iu;
const SINCE_WORD = /\b(?:since|as\s+of|starting|seit|desde|depuis)\b/iu;
/** Every date chrono-node reads has a digit or one of these words. */
const MAY_NAME_TIME = /\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|\b(?:today|yesterday|ago|last|this|week|month|year)\b/iu;
const SINCE_BEFORE = /\b(?:since|as\s+of|starting|seit|desde|depuis)\s*$/iu;
const SINCE_OPENS = /^(?:since|as\s+of|starting|seit|desde|depuis)\b/iu;

/**
 * The facts `text` states. First person ("I", "we") is the first of `ctx.userNames`, else
 * `ctx.speaker` when `ctx.role` is `user`, else `user`; when someone other than the user speaks
 * (`ctx.role` set and not `user`), first-person statements give nothing. `validFrom` is set only
 * when the text dates the change ("moved to Porto last month", "since 2020"); otherwise the memory's
 * time applies. Never throws.
 */
export function extractFacts(text: string, ctx: ExtractionContext): ExtractedFact[] {
  if (typeof text !== 'string' || text.trim() === '') return [];
  const me = firstPerson(ctx);
  const owner = me ?? ownerOf(ctx);
  const out: ExtractedFact[] = [];
  const seen = new Set<string>();
  for (const clause of statementClauses(text)) {
    const c: ShapeContext = {
      clause: clause.text,
      time: ctx.time,
      me,
      owner,
      who: (w) => (w === undefined ? null : FIRST_PERSON.test(w.trim()) ? me : readPerson(w.replace(/'s$/u, ''))),
    };
    for (const s of SHAPES) {
      if ((clause.future && !s.future) || !s.cue.test(clause.text)) continue;
      const m = s.re.exec(clause.text);
      if (!m) continue;
      const drafts = s.read(m.groups ?? {}, c);
      if (drafts.length === 0) continue;
      const validFrom = s.dates === 'none' ? null : datedFrom(clause.text, ctx.time, s.dates === 'since');
      for (const d of drafts) {
        const key = `${subjectKey(d.subject)}\u0000${attributeKey(d.attribute)}\u0000${valueKey(d.value)}`;
        if (seen.has(key) || out.length >= MAX_FACTS) continue;
        seen.add(key);
        out.push(validFrom ? { ...d, validFrom } : d);
      }
      break;
    }
  }
  return out;
}

/** When the clause dates the change, ISO, never after the memory's own time. */
function datedFrom(clause: string, time: string, sinceOnly: boolean): string | undefined {
  if (sinceOnly ? !SINCE_WORD.test(clause) : !MAY_NAME_TIME.test(clause)) return undefined; // chrono-node costs ~50 µs a clause
  // Host names and paths are no dates: "mon-1.x.internal" is not a Monday. Blanked to keep the offsets.
  const found = findDate(clause.replace(/[^\s]*\p{L}[^\s]*[./][^\s]+|[^\s]+[./][^\s]*\p{L}[^\s]*/gu, (t) => ' '.repeat(t.length)), time, false);
  if (!found) return undefined;
  if (sinceOnly && !SINCE_BEFORE.test(clause.slice(0, found.index)) && !SINCE_OPENS.test(found.text)) return undefined;
  const from = startOf(found);
  const at = Date.parse(time);
  return Number.isNaN(at) || Date.parse(from) > at ? undefined : from;
}

function firstPerson(ctx: ExtractionContext): string | null {
  if (ctx.role !== undefined && ctx.role.trim().toLowerCase() !== 'user') return null;
  return ownerOf(ctx);
}

function ownerOf(ctx: ExtractionContext): string {
  const named = (ctx.userNames ?? []).map((n) => (typeof n === 'string' ? cleanLabel(n) : '')).find((n) => n !== '');
  if (named) return named;
  const speaker = ctx.role?.trim().toLowerCase() === 'user' && typeof ctx.speaker === 'string' ? cleanLabel(ctx.speaker) : '';
  return speaker || 'user';
}
