// Fact shapes about intent: plans ("we plan to X", "next week I'll X") and decisions ("we decided
// to use X for Y"). Plans and decisions hold several values at once (timeline.ts); a decision names
// what it replaces when the text says so ("instead of X").
import { shape, type Draft, type Groups, type Shape, type ShapeContext } from './shape.js';
import { ACTION_STOPS, readPhrase, readThing } from './values.js';
import { findDate, type FoundDate } from './when.js';

const WEEKDAY = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
const MONTH = 'january|february|march|april|may|june|july|august|september|october|november|december';
const SEASON = 'spring|summer|fall|autumn|winter|weekend|week|month|year|quarter';
/** When a plan is for: a future time named near "I'll"/"will". */
const CUE = `(?<cue>next\\s+(?:${SEASON}|${WEEKDAY}|${MONTH})|tomorrow|tonight|this\\s+(?:${SEASON}|${WEEKDAY})|on\\s+(?:${WEEKDAY})|in\\s+(?:${MONTH})|in\\s+(?:a|two|three|\\d{1,2})\\s+(?:days?|weeks?|months?)|later\\s+this\\s+(?:${SEASON}))`;
const WILL = String.raw`(?:\s*'ll|\s+will|\s*'m\s+going\s+to|\s+am\s+going\s+to|\s*'re\s+going\s+to|\s+are\s+going\s+to)`;

/** A plan: what (without its time words) and, when the time resolves, the day or month it is for. */
function plan(g: Groups, c: ShapeContext): Draft[] {
  if (!c.me) return [];
  let what = (g.rest ?? '').trim();
  const when: FoundDate | null = findDate(g.cue ?? what, c.time, true);
  if (when && !g.cue) what = (what.slice(0, when.index) + what.slice(when.index + when.text.length)).trim().replace(/\s+(?:in|on|by|at)$/iu, '');
  const value = readPhrase(what, 12, ACTION_STOPS);
  // A one-word plan ("travel", "rest") says too little without a date.
  if (!value || (!when && !value.includes(' '))) return [];
  return [{ subject: c.me, attribute: 'plans', value: when ? `${value} (${when.iso})` : value, confidence: 0.6 }];
}

/** Leading words that only say "we chose": "use", "go with", "switch to" (the value is what was chosen). */
const CHOICE_VERB = /^(?:use|using|go\s+with|adopt|switch\s+to|move\s+to|stick\s+with|keep|try)\s+/iu;
/** "for now", "for the time being": no subject. */
const NOT_A_PURPOSE = /^(?:now|today|the\s+time\s+being|a\s+while|the\s+moment|good|real|sure|once|example|instance|\w+\s+reasons?)$/iu;

function decision(g: Groups, c: ShapeContext): Draft[] {
  const subject = g.for && !NOT_A_PURPOSE.test(g.for.trim()) ? readThing(g.for.replace(/[.!]+$/u, '')) : null;
  if (g.for && !subject) return [];
  const text = (g.what ?? g.rest ?? '').replace(CHOICE_VERB, '');
  const instead = /\s+instead\s+of\s+(.+)$/iu.exec(text);
  const value = readPhrase(instead ? text.slice(0, instead.index) : text, subject ? 6 : 12, ACTION_STOPS);
  if (!value || /^(?:in|down|up|back|out|on|for|with)$/iu.test(value)) return []; // "we settled in for the night"
  const replaces = instead ? readPhrase(instead[1]!, 6, ACTION_STOPS) : null;
  const f: Draft = { subject: subject ?? c.owner, attribute: 'decided', value, confidence: subject ? 0.75 : 0.65 };
  return [replaces ? { ...f, replaces } : f];
}

const DECIDERS = String.raw`(?:i|we|the\s+team|they|everyone)(?:\s*'ve|\s+have|\s+had)?(?:\s+(?:finally|just|also|eventually|collectively|all))*`;

export const INTENT_SHAPES: readonly Shape[] = [
  shape('plan-to', /plan|intend/i, `(?<who>i|we)${String.raw`(?:\s*'(?:m|re)|\s+(?:am|are))?`}(?:\\s+(?:also|still|now|really))*\\s+(?:plan|plans|planning|intend|intending)\\s+(?:to|on)\\s+(?<rest>.+)`, 'none', plan, true),
  shape('plan-cue-first', /'ll|will|going/i, `${CUE}\\s*,?\\s+(?:i|we)${WILL}\\s+(?<rest>.+)`, 'none', plan, true),
  shape('plan-cue-last', /'ll|will|going/i, `(?:i|we)${WILL}\\s+(?<rest>.+?)\\s+${CUE}`, 'none', plan, true),
  // With a purpose, the purpose is the subject: "we decided to use Postgres for the queue" → the queue decided Postgres.
  // "went" only as "went with" ("I went back to Berlin for the weekend" is a trip).
  shape('decided-for', /decided|agreed|chose|picked|settled|went/i, `${DECIDERS}\\s+(?:(?:decided|agreed|chose|picked|settled)\\s+(?:to\\s+(?=(?:use|go\\s+with|adopt|switch\\s+to|move\\s+to|stick\\s+with|keep)\\s)|on\\s+|with\\s+)?|went\\s+with\\s+)(?<what>.+?)\\s+(?:for|as)\\s+(?<for>.+)`, 'change', decision),
  shape('decided', /decided|agreed/i, `${DECIDERS}\\s+(?:decided|agreed)\\s+(?:to|on)\\s+(?<rest>.+)`, 'change', decision),
];
