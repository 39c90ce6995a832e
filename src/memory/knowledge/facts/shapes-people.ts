// Fact shapes about people: where they live, where they work, their role, what they prefer.
// English first, with the most common German, Spanish and French forms of living and working.
import { gazetteer, foldDiacritics } from '../../places/gazetteer.js';
import { attributeKey } from './keys.js';
import { AUX, WHO, shape, type Draft, type Shape, type ShapeContext } from './shape.js';
import { PREFERENCE_STOPS, endsValue, readName, readPhrase } from './values.js';

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
const ROLE_STOPS: ReadonlySet<string> = new Set(['at', 'for', 'in', 'since', 'with', 'and', 'on', 'from', 'now', 'who', 'which', 'but', 'because', 'here', 'there', 'again', 'too', 'today', 'yesterday', 'tonight', 'last', 'this', 'effective', 'starting', 'officially', 'recently', 'role', 'position']);

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
  // Only "at": "tech lead for Heron" is more often a project than an employer.
  const at = /\bat\s+(.+)$/iu.exec(text);
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

/** A place written in lower case, as chat is ("i live in lisbon", "moved to new york"): only a place the gazetteer knows. */
function readLowerPlace(text: string): string | null {
  const ws = text.trim().split(/\s+/u, 4).map((w) => w.replace(/[.,;:!)]+$/u, ''));
  if (ws.length === 0 || !/^\p{Ll}/u.test(ws[0]!) || /^(?:a|an|the|my|our)$/u.test(ws[0]!)) return null;
  for (let n = Math.min(3, ws.length); n >= 1; n--) {
    const name = ws
      .slice(0, n)
      .map((w, i) => (i > 0 && NAME_JOINERS_LOWER.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1)))
      .join(' ');
    if (isPlace(name) && (ws.length === n || /^(?:[,;:.!]|$)/u.test(text.trim().slice(ws.slice(0, n).join(' ').length)) || endsValue(ws.slice(n).join(' ')))) return name;
  }
  return null;
}
const NAME_JOINERS_LOWER = new Set(['de', 'do', 'da', 'del', 'la', 'le', 'of', 'am', 'upon', 'sur']);

function fact(subject: string | null, attribute: string, value: string | null, confidence: number): Draft[] {
  return subject && value ? [{ subject, attribute, value, confidence }] : [];
}

function livesIn(firstPersonOnly: boolean, confidence: number, mustBePlace = false): Shape['read'] {
  return (g, c) => {
    const subject = firstPersonOnly ? c.me : c.who(g.who);
    const place = readName(g.rest ?? '') ?? readLowerPlace(g.rest ?? '');
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

/** How long someone has been somewhere, as a job is counted: "for two years", "since March", "since 2020", "since last year". */
const TENURE = new RegExp(
  String.raw`^(?:for\s+(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several|almost|nearly|over|about|\d+)(?:\s+\w+)?\s+(?:years?|months?)|since\s+(?:\d{4}|last\s+(?:year|month|spring|summer|fall|autumn|winter)|january|february|march|april|may|june|july|august|september|october|november|december))\b`,
  'iu',
);

const FAVOURITE_STOPS: ReadonlySet<string> = new Set(['because', 'since', 'but', 'now', 'these', 'though', 'although']);

/** Things a person has a usual one of: "my usual coffee order", "my editor of choice", "my shell these days". */
const USUAL_THINGS = String.raw`(?:coffee|tea|drink|beer|wine|(?:text\s+|code\s+)?editor|ide|browser|shell|terminal|keyboard|font|theme|distro|(?:programming\s+)?language|breakfast|snack|lunch)`;
/** Editors by name: "I've gone back to vim" is a preference only when what one goes back to is an editor. */
const EDITORS = /^(?:vim|neovim|nvim|emacs|helix|zed|vs\s*code|vscode|visual\s+studio\s+code|sublime(?:\s+text)?|nano|intellij(?:\s+idea)?|webstorm|pycharm|cursor|kakoune|micro)$/iu;

/** An editor by name at the start of `text`, ending the value ("vim last week", "Emacs."), or null. */
function readEditor(text: string): string | null {
  const ws = text.trim().split(/\s+/u, 4).map((w) => w.replace(/[.,;:!)]+$/u, ''));
  for (let n = Math.min(3, ws.length); n >= 1; n--) {
    const name = ws.slice(0, n).join(' ');
    if (EDITORS.test(name) && endsValue(text.trim().split(/\s+/u).slice(n).join(' '))) return name;
  }
  return null;
}

/** A preference for an editor is the favourite editor: "switched from vim to Helix" and "my editor is Zed" are one timeline. */
function preferenceOf(value: string | null): string {
  return value && EDITORS.test(value) ? 'favourite editor' : 'prefers';
}

function usual(confidence: number): Shape['read'] {
  return (g, c) => {
    const what = `${g.what!.toLowerCase().replace(/^(?:text|code)\s+/u, '').replace(/\s+/gu, ' ')}${g.order ? ' order' : ''}`;
    return fact(c.me, attributeKey(`favourite ${what}`), readPhrase(g.rest!, 5, FAVOURITE_STOPS), confidence);
  };
}

const FIRST = String.raw`(?<who>i|we)`;
const THIRD = String.raw`(?<who>[^\s,;:]+(?:\s+[^\s,;:]+){0,2}?)`;
const ADVERBS = String.raw`(?:\s+(?:just|recently|finally|now|also|officially|actually|still|currently|happily|been))*`;
const REST = String.raw`\s+(?<rest>.+)`;
/** A move to a place: "moved (back) to", "relocated to", "moved into a flat in", "settled in". */
const MOVE = String.raw`(?:(?:moved|relocated)(?:\s+(?:back|out|over|away|home))?(?:\s+from\s+(?<from>.{1,40}?))?\s+to|moved\s+into\s+(?:a|an|our|my|the)\s+(?:new\s+)?(?:flat|apartment|house|place|home|condo|studio)\s+in|settled(?:\s+down)?\s+in)`;

export const PEOPLE_SHAPES: readonly Shape[] = [
  // Living: "I live in Lisbon", "I've lived in Lisbon since 2020", "Ana lives in Berlin", "I'm based in Porto".
  shape('lives', /liv|resid|based/i, `${WHO}${AUX}${ADVERBS}\\s+(?:live|lives|living|lived|reside|resides|residing|based)\\s+(?:in|out\\s+of)${REST}`, 'since', livesIn(false, 0.85)),
  // Moving, only to a place the gazetteer knows: "we moved to Porto", "Ana moved to Berlin last month".
  shape('moved', /moved|relocated|settled/i, `${WHO}${AUX}${ADVERBS}\\s+${MOVE}${REST}`, 'change', livesIn(false, 0.8, true)),
  // Without a subject, as notes are written: "Just moved to Berlin!", "Finally moved back to Toronto".
  shape('moved-me', /moved|relocated|settled/i, `(?:(?:just|finally|recently|officially|also)\\s+)?${MOVE}${REST}`, 'change', livesIn(true, 0.7, true)),
  // Notes without a subject: "Now based in Lisbon", "based out of Berlin these days", "currently living in Porto".
  shape('based-me', /based|living/i, `(?:(?:currently|now|still)\\s+)?(?:based|living)\\s+(?:in|out\\s+of)${REST}`, 'since', livesIn(true, 0.7, true)),
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
  shape('started-at', /start|began/i, `${WHO}${AUX}${ADVERBS}\\s+(?:started|began)(?:\\s+working)?\\s+(?:at|with)${REST}`, 'change', worksAt(false, 0.7)),
  shape('hired', /hired|employed|recruited/i, `${WHO}(?:\\s+(?:was|were|got|has\\s+been|have\\s+been)|\\s*'(?:s|ve)\\s+been|${AUX})${ADVERBS}\\s+(?:hired|employed|recruited)\\s+(?:by|at|with)${REST}`, 'change', worksAt(false, 0.75)),
  shape('offer', /offer/i, `${WHO}${AUX}${ADVERBS}\\s+(?:accepted|took|signed)\\s+(?:an|the|a|their)\\s+(?:job\\s+)?offer\\s+(?:from|at|with)${REST}`, 'change', worksAt(false, 0.7)),
  // "Bob left Initech and joined Hooli", "Priya quit Initech to join Hooli": the new employer, naming the old.
  shape('left-joined', /left|quit/i, `${WHO}${ADVERBS}\\s+(?:left|quit)\\s+(?<from>.{1,40}?)\\s+(?:and|to)\\s+(?:joined|join|started\\s+at|start\\s+at|went\\s+to)${REST}`, 'change', (g, c) => {
    const replaces = readName(g.from ?? '', true);
    return replaces ? worksAt(false, 0.75)(g, c).map((f) => (f.attribute === 'works at' ? { ...f, replaces } : f)) : [];
  }),
  // "I've been at Acme since March", "Ana's been at Globex for two years": only with a tenure ("been at Heathrow since 6am" is a visit).
  shape('been-at', /been/i, `${WHO}(?:\\s*'(?:ve|s)|\\s+(?:have|has))(?:\\s+(?:now|also))?\\s+been(?:\\s+working)?\\s+(?:at|with|for)\\s+(?<rest>.+?)\\s+(?<tenure>(?:since|for)\\s+.+)`, 'since', (g, c) =>
    TENURE.test(g.tenure ?? '') ? fact(c.who(g.who), 'works at', readName(g.rest ?? '', true), 0.7) : []),
  shape('my-employer', /employer|company/i, `my(?:\\s+(?:new|current))?\\s+(?:employer|company)\\s+is(?:\\s+now)?${REST}`, 'since', worksAt(true, 0.75)),
  shape('works-de', /arbeit/i, `(?:ich|wir)\\s+(?:arbeite|arbeiten)(?:\\s+(?:jetzt|nun))*\\s+(?:bei|für)${REST}`, 'since', worksAt(true, 0.8)),
  shape('works-es', /trabaj/i, `(?:(?:yo|nosotros)\\s+)?(?:trabajo|trabajamos)(?:\\s+ahora)?\\s+(?:en|para)${REST}`, 'since', worksAt(true, 0.75)),
  shape('works-fr', /travaill/i, `(?:je\\s+travaille|nous\\s+travaillons)(?:\\s+maintenant)?\\s+(?:chez|pour)${REST}`, 'since', worksAt(true, 0.8)),

  // Roles: "I'm a nurse", "Ana is our tech lead", "I work as a designer", "promoted to staff engineer", "my title is …".
  shape('role-am', /'m|\bam\b/i, `${FIRST}(?:\\s*'m|\\s+am)(?:\\s+(?:now|currently|still))?\\s+(?:a|an|the|our)${REST}`, 'since', role(0.75, (_g, c) => c.me)),
  shape('role-is', / is /i, `${THIRD}\\s+is(?:\\s+(?:now|currently|still))?\\s+(?:our|the|my|a|an|their)(?:\\s+new)?${REST}`, 'since', role(0.75, (g, c) => c.who(g.who))),
  shape('works-as', / as /i, `${WHO}${AUX}${ADVERBS}\\s+(?:work|works|working)\\s+as(?:\\s+(?:a|an|the|our))?${REST}`, 'since', role(0.8, (g, c) => c.who(g.who))),
  shape('promoted', /promoted/i, `${WHO}(?:\\s*'(?:s|ve|m)(?:\\s+been)?|\\s+(?:got|was|were|is|am|have\\s+been|has\\s+been|had\\s+been))?${ADVERBS}\\s+promoted\\s+to(?:\\s+(?:a|an|the))?${REST}`, 'change', role(0.8, (g, c) => c.who(g.who))),
  shape('became', /became/i, `${WHO}${ADVERBS}\\s+became\\s+(?:a|an|the|our)(?:\\s+new)?${REST}`, 'change', role(0.75, (g, c) => c.who(g.who))),
  shape('my-role', /^my /i, `my(?:\\s+(?:new|current))?\\s+(?:role|title|job\\s+title|job|position)\\s+is(?:\\s+now)?(?:\\s+(?:a|an|the))?${REST}`, 'since', role(0.8, (_g, c) => c.me)),

  // A role named as a role: "I switched to the principal engineer role", "stepped into the EM position", "moved into a staff engineer role".
  shape('role-into', /role|position/i, `${WHO}${AUX}${ADVERBS}\\s+(?:switched|moved|stepped|transitioned|changed|shifted|went)(?:\\s+(?:over|up|back))?\\s+(?:to|into)(?:\\s+(?:the|a|an|my|our))?(?:\\s+new)?\\s+(?<rest>.+?)\\s+(?:role|position)(?:\\s+(?:at|on|for|in|since|last|this|today|yesterday)\\b.*)?`, 'change', role(0.75, (g, c) => c.who(g.who))),
  // "I took over as tech lead", "Ana stepped up as our EM", "I was named tech lead", "I've been appointed head of platform".
  shape('took-over', /over|stepped|named|appointed/i, `${WHO}(?:\\s*'(?:s|ve|m)(?:\\s+been)?|\\s+(?:got|was|were|is|am|have\\s+been|has\\s+been|have|has))?${ADVERBS}\\s+(?:took\\s+over|taken\\s+over|stepped\\s+(?:up|in)|named|appointed)(?:\\s+as)?(?:\\s+(?:the|a|an|our|their))?(?:\\s+new)?${REST}`, 'change', role(0.75, (g, c) => c.who(g.who))),
  // Notes without a subject: "Got promoted to senior engineer today!", "New role: principal engineer".
  shape('promoted-me', /promoted/i, `(?:(?:just|finally|recently|officially)\\s+)?(?:got\\s+)?promoted\\s+to(?:\\s+(?:a|an|the))?${REST}`, 'change', role(0.7, (_g, c) => c.me)),
  shape('new-role', /^new/i, `new\\s+(?:role|title|job\\s+title|position)\\s*(?::|-|is)(?:\\s+(?:a|an|the))?${REST}`, 'change', role(0.7, (_g, c) => c.me)),

  // Preferences: "I prefer flat white", "I switched from cortado to flat white", "my favourite coffee is a flat white".
  shape('prefers', /prefer/i, `${WHO}${ADVERBS}(?:\\s+(?:really|much|definitely|generally|usually|strongly))?\\s+(?:prefer|prefers)(?:\\s+to)?${REST}`, 'since', (g, c) =>
    fact(c.who(g.who), 'prefers', readPhrase(g.rest!, 5, PREFERENCE_STOPS), 0.7)),
  shape('switched', / from /i, `${WHO}${AUX}${ADVERBS}\\s+(?:switched|changed|went|converted|swapped|moved\\s+on|moved\\s+over)\\s+from\\s+(?<from>.{1,60}?)\\s+to${REST}`, 'change', (g, c) => {
    const value = readPhrase(g.rest!, 5, PREFERENCE_STOPS);
    const replaces = readPhrase(g.from!, 5, PREFERENCE_STOPS);
    return value && replaces ? fact(c.who(g.who), preferenceOf(value), value, 0.7).map((f) => ({ ...f, replaces })) : [];
  }),
  // "I've switched to oat milk": a preference of the user's own ("we switched to X" is a team's choice, not read here).
  shape('switched-to', /switched|converted/i, `(?<who>i)(?:\\s*'ve|\\s+have)?${ADVERBS}\\s+(?:switched|converted)(?:\\s+over)?\\s+to${REST}`, 'change', (g, c) =>
    /^(?:the|my|your|his|her|their|our|this|that|these|those|it|him|them|you|us|me|another|other)\b/iu.test(g.rest!.trim()) ? [] : ((v) => fact(c.me, preferenceOf(v), v, 0.65))(readPhrase(g.rest!, 5, PREFERENCE_STOPS))),
  shape('favourite', /favou?rite|fave|go-to/i, `(?:my|(?<who>[^\\s,;:']+(?:\\s+[^\\s,;:']+){0,2}?)'s)(?:\\s+(?:new|current|all-time|absolute))*\\s+(?:favou?rite|fave|go-to)\\s+(?<what>[\\p{L}\\s-]{1,40}?)\\s+(?:is|are|has\\s+become|is\\s+now|these\\s+days\\s+is)(?:\\s+now)?${REST}`, 'since', (g, c) =>
    fact(g.who ? c.who(g.who) : c.me, attributeKey(`favourite ${g.what}`), readPhrase(g.rest!, 6, FAVOURITE_STOPS), 0.8)),
  // "My usual coffee order is a cortado", "my editor of choice is Helix", "these days my editor is Zed": the favourite one.
  shape('usual', /^my /i, `my(?:\\s+(?:usual|regular|standard|daily|default|current|new|everyday|main))*\\s+(?<what>${USUAL_THINGS})(?<order>\\s+order)?(?:\\s+of\\s+choice)?(?:\\s+these\\s+days)?\\s+is(?:\\s+now)?(?:\\s+(?:a|an|the))?${REST}`, 'since', usual(0.7)),
  // "I use Neovim as my editor now", "I'm using Zed as my main editor".
  shape('use-as', / as my /i, `(?<who>i)(?:'m|\\s+am)?${ADVERBS}\\s+(?:use|using|drink|drinking)\\s+(?<rest>.{1,40}?)\\s+as\\s+my(?:\\s+(?:usual|regular|daily|default|main|new))*\\s+(?<what>${USUAL_THINGS})(?<order>\\s+order)?(?:\\s+(?:now|these\\s+days))?`, 'since', usual(0.7)),
  // "I've gone back to vim", "went back to Emacs", "I'm back on vim": only an editor by name.
  shape('back-to', /back/i, `(?<who>i)(?:\\s*'(?:ve|m)|\\s+(?:have|am))?${ADVERBS}\\s+(?:gone|went|switched|moved|back)\\s+(?:back\\s+)?(?:to|on)${REST}`, 'change', (g, c) => {
    return fact(c.me, 'favourite editor', readEditor(g.rest!), 0.65);
  }),
  shape('is-favourite', /favou?rite|fave|go-to/i, `(?<rest>[^,;:]{1,60}?)\\s+is(?:\\s+now)?\\s+my(?:\\s+(?:new|current|all-time|absolute))*\\s+(?:favou?rite|fave|go-to)\\s+(?<what>[\\p{L}\\s-]{1,40})`, 'since', (g, c) =>
    fact(c.me, attributeKey(`favourite ${g.what}`), readPhrase(g.rest!, 6, FAVOURITE_STOPS), 0.75)),
];
