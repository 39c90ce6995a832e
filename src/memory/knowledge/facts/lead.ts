// The start of a clause as the fact shapes want it: the subject first. Notes and chat open with
// words that say nothing about the subject ("Reminder:", "FYI", "btw", "these days"), with the time
// of the change ("Since 2021, Ana …", "yesterday we …"), or with a relation before a name ("my
// sister Ana lives in Lisbon"). These are taken off (a time moves to the end, where the shapes read
// it); what remains is the statement itself.

/** Words that open a note or a chat turn; the ones that are also verbs need a ":" or "," after them. */
const LEAD_WORDS =
  /^(?:(?:and|but|so|also|anyway|btw|by the way|oh|ok|okay|well|actually|yes|yeah|yep|yup|lol|haha|hmm|ah|alright|fyi|fwiw|psa|til|nb|ps|p\.s\.|good news|great news|heads[- ]?up|quick note|side note|note to self|(?:quick |friendly )?reminder|just so you know|for the record|for reference|for context|update|note|noting that)\b[\s,:!-]*|(?:important|context|correction|edit|status|info|memo|remember|don't forget|do not forget|keep in mind|fun fact|role change|job change|career update|work update|job update)\s*(?:[:,-]\s*|\s+that\s+))+/i;
/** "these days", "lately": the statement is about now, as every statement is. */
const NOW_WORDS = /^(?:these days|nowadays|lately|currently|right now|at the moment|now|as of now|today|from today|from now on|effective (?:today|immediately))\b,?\s+/i;

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec';
const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
/** A time in the past that dates a change, written first: "Since 2021,", "yesterday", "last month", "in January", "two weeks ago". */
const PAST_TIME = new RegExp(
  String.raw`^((?:since|as of|starting)\s+(?:last\s+\w+|(?:${MONTHS})(?:\s+\d{1,2})?(?:,?\s+\d{4})?|\d{4}|\w+)|yesterday|earlier\s+(?:today|this\s+(?:week|month|year))|last\s+(?:night|week|month|year|spring|summer|fall|autumn|winter|${WEEKDAYS}|${MONTHS})|(?:a|one|two|three|four|five|six|\d{1,2})\s+(?:days?|weeks?|months?|years?)\s+ago|in\s+(?:${MONTHS})(?:\s+\d{4})?|in\s+\d{4}|back\s+in\s+(?:\d{4}|${MONTHS}))\b,?\s+`,
  'i',
);

const RELATIONS =
  'sister|brother|mom|mum|mother|dad|father|wife|husband|partner|spouse|son|daughter|grandma|grandmother|grandpa|grandfather|' +
  'aunt|uncle|cousin|niece|nephew|fianc[eé]e?|girlfriend|boyfriend|friend|buddy|roommate|flatmate|neighbou?r|colleague|' +
  'co-?worker|teammate|manager|boss|supervisor|mentor|landlord|landlady|sister-in-law|brother-in-law|mother-in-law|father-in-law';
const ADJ = String.raw`(?:(?:new|old|former|best|older|younger|little|big|twin|dear|close)\s+){0,2}`;
const NAME = String.raw`\p{Lu}[\p{L}\p{M}'-]*(?:\s+\p{Lu}[\p{L}\p{M}'-]*){0,2}`;
/** "my sister Ana …", "Ana's husband Tom …": the name is the subject. Case-sensitive on the name, so "my sister lives …" keeps its words. */
const RELATION_FIRST = new RegExp(String.raw`^(?:[Mm]y|[Oo]ur|${NAME}'s)\s+${ADJ}(?:${RELATIONS})\s*,?\s+(?=\p{Lu})`, 'u');
/** "Ana, my sister, lives …". */
const RELATION_AFTER = new RegExp(String.raw`^(${NAME}),\s+(?:my|our|his|her|their)\s+${ADJ}(?:${RELATIONS}),\s+`, 'u');

/** Case-insensitive patterns without the `u` flag: with it they cost ten times as much, and these are ASCII. */
const MAY_HAVE_RELATION = /^(?:my|our)\s|^\S+(?:\s\S+){0,2}'s\s|^\S+(?:\s\S+){0,2},\s/i;

/**
 * The clause with its lead-in words gone, a past time written first moved to the end (only when the
 * clause does not speak of the future: "next week I'll…" is read as written), and a relation before
 * a name reduced to the name.
 */
export function subjectFirst(clause: string, future: boolean): string {
  let c = clause;
  for (let i = 0; i < 4; i++) {
    const before = c;
    c = c.replace(LEAD_WORDS, '').replace(NOW_WORDS, '');
    if (!future) {
      const time = PAST_TIME.exec(c);
      if (time && time[0].length < c.length) c = `${c.slice(time[0].length)} ${time[1]!.toLowerCase()}`;
    }
    if (c === before) break;
  }
  return MAY_HAVE_RELATION.test(c) ? c.replace(RELATION_FIRST, '').replace(RELATION_AFTER, '$1 ') : c;
}
