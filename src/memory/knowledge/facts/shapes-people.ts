// Fact shapes about people: where they live, where they work, their role, what they prefer.
// English first, with the most common German, Spanish and French forms of living and working.
import { gazetteer, foldDiacritics } from '../../places/gazetteer.js';
import { attributeKey } from './keys.js';
import { AUX, WHO, shape, type Draft, type Shape, type ShapeContext } from './shape.js';
import { PREFERENCE_STOPS, readName, readPhrase } from './values.js';

/** Last words of a role ("staff engineer", "tech lead", "nurse"); a role is never guessed from a suffix. */
const ROLE_HEADS = new Set(
  ('engineer engineers developer dev programmer designer manager lead architect scientist analyst researcher consultant ' +
    'nurse doctor physician surgeon dentist teacher professor lecturer student intern lawyer attorney accountant writer ' +
    'editor journalist photographer artist musician chef cook pharmacist therapist psychologist counselor counsellor ' +
    'mechanic electrician plumber carpenter pilot firefighter officer director founder co-founder cofounder ceo cto cfo ' +
    'coo cio cpo vp president owner administrator admin sre pm recruiter marketer freelancer contractor entrepreneur ' +
    'librarian veterinarian paramedic technician specialist coordinator secretary cashier waiter waitress bartender ' +
    'barista driver farmer tester maintainer associate principal postdoc executive head chief supervisor coach trainer ' +
    'instructor tutor translator interpreter economist statistician mathematician physicist chemist biologist geologist ' +
    'midwife caregiver programmer strategist producer animator illustrator copywriter planner auditor banker broker ' +
    'agent salesperson sales representative rep partner').split(' '),
);
const ROLE_STOPS: ReadonlySet<string> = new Set(['at', 'for', 'in', 'since', 'with', 'and', 'on', 'from', 'now', 'who', 'which', 'but', 'because', 'here', 'there', 'again', 'too']);

/** A role: up to five words ending in a role word, or "head/VP/director of X". */
function readRole(text: string): string | null {
  const phrase = readPhrase(text, 6, ROLE_STOPS);
  if (!phrase) return null;
  if (/^(?:(?:new|acting|interim|senior|junior)\s+)?(?:head|vp|director|chief|lead|manager|professor)\s+of\s+\S/iu.test(phrase)) return phrase;
  const last = phrase.split(' ').pop()!.toLowerCase();
  return ROLE_HEADS.has(last) && phrase.split(' ').length <= 5 ? phrase : null;
}

/** "… as a designer" or "… at Acme" after a role or employer: the second fact the same clause states. */
function employerAfterRole(text: string): string | null {
  const at = /\b(?:at|for)\s+(.+)$/iu.exec(text);
  return at ? readName(at[1]!) : null;
}
function roleAfterEmployer(text: string): string | null {
  const as = /\bas\s+(?:a|an|the|our|their)?\s*(.+)$/iu.exec(text);
  return as ? readRole(as[1]!) : null;
}

/** A city, division or country the gazetteer knows: "moved to X" is a move only when X is a place ("moved to Postgres" is not). */
function isPlace(name: string): boolean {
  const places = gazetteer().byName;
  return places.has(name) || places.has(foldDiacritics(name));
}

function fact(subject: string | null, attribute: string, value: string | null, confidence: number): Draft[] {
  return subject && value ? [{ subject, attribute, value, confidence }] : [];
}

function livesIn(firstPersonOnly: boolean, confidence: number, mustBePlace = false): Shape['read'] {
  return (g, c) => {
    const subject = firstPersonOnly ? c.me : c.who(g.who);
    const place = readName(g.rest ?? '');
    return place && (!mustBePlace || isPlace(place)) ? fact(subject, 'lives in', place, confidence) : [];
  };
}

function worksAt(firstPersonOnly: boolean, confidence: number): Shape['read'] {
  return (g, c) => {
    const subject = firstPersonOnly ? c.me : c.who(g.who);
    const org = readName(g.rest ?? '', true);
    const role = org ? roleAfterEmployer(g.rest!) : null;
    return [...fact(subject, 'works at', org, confidence), ...fact(org ? subject : null, 'role', role, confidence - 0.05)];
  };
}

function role(confidence: number, subjectOf: (g: Record<string, string | undefined>, c: ShapeContext) => string | null): Shape['read'] {
  return (g, c) => {
    const subject = subjectOf(g, c);
    const r = readRole(g.rest ?? '');
    const org = r ? employerAfterRole(g.rest!) : null;
    return [...fact(subject, 'role', r, confidence), ...fact(r ? subject : null, 'works at', org, confidence - 0.1)];
  };
}

const FAVOURITE_STOPS: ReadonlySet<string> = new Set(['because', 'since', 'but', 'now', 'these', 'though', 'although']);

const FIRST = String.raw`(?<who>i|we)`;
const THIRD = String.raw`(?<who>[^\s,;:]+(?:\s+[^\s,;:]+){0,2}?)`;
const ADVERBS = String.raw`(?:\s+(?:just|recently|finally|now|also|officially|actually|still|currently|happily|been))*`;
const REST = String.raw`\s+(?<rest>.+)`;

export const PEOPLE_SHAPES: readonly Shape[] = [
  // Living: "I live in Lisbon", "I've lived in Lisbon since 2020", "Ana lives in Berlin", "I'm based in Porto".
  shape('lives', /liv|resid|based/i, `${WHO}${AUX}${ADVERBS}\\s+(?:live|lives|living|lived|reside|resides|residing|based)\\s+in${REST}`, 'since', livesIn(false, 0.85)),
  // Moving, only to a place the gazetteer knows: "we moved to Porto", "Ana moved to Berlin last month".
  shape('moved', /moved|relocated/i, `${WHO}${AUX}${ADVERBS}\\s+(?:moved|relocated)(?:\\s+back)?(?:\\s+from\\s+(?<from>.{1,40}?))?\\s+to${REST}`, 'change', livesIn(false, 0.8, true)),
  shape('lives-de', /wohn|leb/i, `(?:ich|wir)\\s+(?:wohne|wohnen|lebe|leben)(?:\\s+(?:jetzt|schon|nun|seit\\s+[^\\s,;:]+))*\\s+in${REST}`, 'since', livesIn(true, 0.8)),
  shape('moved-de', /gezogen/i, `(?:ich\\s+bin|wir\\s+sind)(?:\\s+(?:jetzt|gerade|nun))*\\s+nach\\s+(?<rest>.+?)\\s+(?:um)?gezogen`, 'change', livesIn(true, 0.8)),
  shape('lives-es', /viv/i, `(?:(?:yo|nosotros)\\s+)?(?:vivo|vivimos)(?:\\s+ahora)?\\s+en${REST}`, 'since', livesIn(true, 0.8)),
  shape('moved-es', /mud/i, `(?:yo\\s+)?(?:me\\s+mudé|nos\\s+mudamos)\\s+a${REST}`, 'change', livesIn(true, 0.8)),
  shape('lives-fr', /habit|vi[sv]/i, `(?:j'habite|nous\\s+habitons|je\\s+vis|nous\\s+vivons)(?:\\s+maintenant)?\\s+(?:à|a|en|au)${REST}`, 'since', livesIn(true, 0.8)),
  shape('moved-fr', /déménag/i, `(?:j'ai|nous\\s+avons)\\s+déménagé\\s+(?:à|a|en|au)${REST}`, 'change', livesIn(true, 0.8)),

  // Working: "I work at Acme", "Ana works for Globex as a designer", "joined Globex", "started a new job at Initech".
  shape('works', /work/i, `${WHO}${AUX}${ADVERBS}\\s+(?:work|works|working)\\s+(?:at|for)${REST}`, 'since', worksAt(false, 0.8)),
  shape('joined', /joined/i, `${WHO}${AUX}${ADVERBS}\\s+joined${REST}`, 'change', worksAt(false, 0.6)),
  shape('new-job', /job|position|role|gig|working/i, `${WHO}${AUX}${ADVERBS}\\s+(?:started|began|got|accepted|took)\\s+(?:a\\s+|my\\s+|the\\s+)?(?:new\\s+)?(?:job|position|role|gig|working)\\s+(?:at|for|with)${REST}`, 'change', worksAt(false, 0.8)),
  shape('works-de', /arbeit/i, `(?:ich|wir)\\s+(?:arbeite|arbeiten)(?:\\s+(?:jetzt|nun))*\\s+(?:bei|für)${REST}`, 'since', worksAt(true, 0.8)),
  shape('works-es', /trabaj/i, `(?:(?:yo|nosotros)\\s+)?(?:trabajo|trabajamos)(?:\\s+ahora)?\\s+(?:en|para)${REST}`, 'since', worksAt(true, 0.75)),
  shape('works-fr', /travaill/i, `(?:je\\s+travaille|nous\\s+travaillons)(?:\\s+maintenant)?\\s+(?:chez|pour)${REST}`, 'since', worksAt(true, 0.8)),

  // Roles: "I'm a nurse", "Ana is our tech lead", "I work as a designer", "promoted to staff engineer", "my title is …".
  shape('role-am', /'m|\bam\b/i, `${FIRST}(?:\\s*'m|\\s+am)(?:\\s+(?:now|currently|still))?\\s+(?:a|an)${REST}`, 'since', role(0.75, (_g, c) => c.me)),
  shape('role-is', / is /i, `${THIRD}\\s+is(?:\\s+(?:now|currently|still))?\\s+(?:our|the|my|a|an|their)(?:\\s+new)?${REST}`, 'since', role(0.75, (g, c) => c.who(g.who))),
  shape('works-as', / as /i, `${WHO}${AUX}${ADVERBS}\\s+(?:work|works|working)\\s+as(?:\\s+(?:a|an|the|our))?${REST}`, 'since', role(0.8, (g, c) => c.who(g.who))),
  shape('promoted', /promoted/i, `${WHO}(?:\\s*'(?:s|ve|m)(?:\\s+been)?|\\s+(?:got|was|were|is|am|have\\s+been|has\\s+been|had\\s+been))?${ADVERBS}\\s+promoted\\s+to(?:\\s+(?:a|an|the))?${REST}`, 'change', role(0.8, (g, c) => c.who(g.who))),
  shape('became', /became/i, `${WHO}${ADVERBS}\\s+became\\s+(?:a|an|the|our)(?:\\s+new)?${REST}`, 'change', role(0.75, (g, c) => c.who(g.who))),
  shape('my-role', /^my /i, `my(?:\\s+(?:new|current))?\\s+(?:role|title|job\\s+title|job|position)\\s+is(?:\\s+now)?(?:\\s+(?:a|an|the))?${REST}`, 'since', role(0.8, (_g, c) => c.me)),

  // Preferences: "I prefer flat white", "I switched from cortado to flat white", "my favourite coffee is a flat white".
  shape('prefers', /prefer/i, `${WHO}${ADVERBS}(?:\\s+(?:really|much|definitely|generally|usually|strongly))?\\s+(?:prefer|prefers)(?:\\s+to)?${REST}`, 'since', (g, c) =>
    fact(c.who(g.who), 'prefers', readPhrase(g.rest!, 5, PREFERENCE_STOPS), 0.7)),
  shape('switched', / from /i, `${WHO}${AUX}${ADVERBS}\\s+(?:switched|changed|went|converted|swapped)\\s+from\\s+(?<from>.{1,60}?)\\s+to${REST}`, 'change', (g, c) => {
    const value = readPhrase(g.rest!, 5, PREFERENCE_STOPS);
    const replaces = readPhrase(g.from!, 5, PREFERENCE_STOPS);
    return value && replaces ? fact(c.who(g.who), 'prefers', value, 0.7).map((f) => ({ ...f, replaces })) : [];
  }),
  shape('favourite', /favou?rite|fave/i, `(?:my|(?<who>[^\\s,;:']+(?:\\s+[^\\s,;:']+){0,2}?)'s)(?:\\s+(?:new|current|all-time|absolute))*\\s+(?:favou?rite|fave)\\s+(?<what>[\\p{L}\\s-]{1,40}?)\\s+(?:is|are|has\\s+become|is\\s+now|these\\s+days\\s+is)(?:\\s+now)?${REST}`, 'since', (g, c) =>
    fact(g.who ? c.who(g.who) : c.me, attributeKey(`favourite ${g.what}`), readPhrase(g.rest!, 6, FAVOURITE_STOPS), 0.8)),
  shape('is-favourite', /favou?rite|fave/i, `(?<rest>[^,;:]{1,60}?)\\s+is(?:\\s+now)?\\s+my(?:\\s+(?:new|current|all-time|absolute))*\\s+(?:favou?rite|fave)\\s+(?<what>[\\p{L}\\s-]{1,40})`, 'since', (g, c) =>
    fact(c.me, attributeKey(`favourite ${g.what}`), readPhrase(g.rest!, 6, FAVOURITE_STOPS), 0.75)),
];
