// "When did we…" is answered by a text that says when: "yesterday", "last Friday", "two weeks
// ago", "in March", "on 3/14", "back in 2019". A question that asks for a time prefers texts that
// state one (a soft factor, like the others: a text can say when without these words).

/** A question asking for a time: "when did…", "since when…", "what year…", "how long ago…". */
const ASKS_WHEN = new RegExp(
  [
    '(?:^|[.?!,;:]\\s*|\\b(?:and|but|so|or|remember|know|recall|tell me)\\s+)(?:since\\s+|until\\s+)?when\\b',
    '\\bwhen\\s+(?:did|do|does|was|were|is|are|will|would|has|have|had|can|could|should)\\b',
    '\\b(?:what|which)\\s+(?:date|day|year|month|week|weekend|season|time of (?:the )?year)\\b',
    '\\bhow\\s+(?:long|many\\s+(?:days|weeks|months|years))\\s+ago\\b',
  ].join('|'),
  'i',
);

export const MONTHS = 'January|February|March|April|June|July|August|September|October|November|December';
/** Abbreviated only before a day or year: "Jan" alone is as often a name. */
const MONTHS_SHORT = 'Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec';
export const WEEKDAYS = 'Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday';
const UNITS = 'days?|weeks?|weekends?|months?|years?|nights?|summers?|winters?|springs?|autumns?|falls?|semesters?|decades?';
const NUMBERS = '\\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|few|several|a couple of|couple of|some';

/** A text stating a time. Relative phrases in any case… */
const RELATIVE = new RegExp(
  [
    '\\b(?:yesterday|today|tonight|tomorrow|the other day|recently|lately)\\b',
    `\\b(?:last|this|next|past|coming|previous)\\s+(?:${UNITS}|${WEEKDAYS})\\b`,
    `\\b(?:${NUMBERS})\\s+(?:${UNITS})\\s+(?:ago|back|earlier|before)\\b`,
  ].join('|'),
  'i',
);
/**
 * …names of months and weekdays only capitalised ("may" and "march" are verbs too); a year only
 * after "in", "since"… or in a date, and a date with slashes only with its year or after "on":
 * "2048 vectors", "port 2049" and "1/2 cup" say no time.
 */
const NAMED = new RegExp(
  [
    `\\b(?:${MONTHS})\\b`,
    `\\b(?:${MONTHS_SHORT}|May)\\.?\\s+\\d`,
    `\\b(?:${WEEKDAYS})s?\\b`,
    '\\b(?:in|since|from|until|till|by|of|during|around|before|after|early|late|mid)[\\s-]+(?:19|20)\\d{2}\\b',
    '\\b(?:19|20)\\d{2}-[01]\\d-[0-3]\\d\\b',
    '\\b\\d{1,2}/\\d{1,2}/(?:\\d{2}|\\d{4})\\b',
    '\\bon\\s+\\d{1,2}/\\d{1,2}\\b',
  ].join('|'),
);

// The same beyond English: the question words for "when" of German, Spanish, French, Russian,
// Japanese and Chinese ("cuando" without its accent is "as", not a question); and a text's days
// said relative to its own ("gestern", "ayer", "вчера", "昨日", "上周") or as dates ("3月5日",
// "5.3.2024"). Letters around a word are ruled out by lookarounds: \b knows only ASCII.
const ASKS_WHEN_OTHER = /(?<!\p{L})(?:wann|cuándo|quand|когда)(?!\p{L})|いつ|什么时候|何时|哪天|哪一天|哪年/iu;
const STATES_TIME_OTHER = new RegExp(
  [
    '(?<!\\p{L})(?:gestern|vorgestern|heute|letzte[nmrs]?\\s+(?:woche|monat|jahr)|ayer|anteayer|hoy|la\\s+semana\\s+pasada|el\\s+(?:mes|año)\\s+pasado|вчера|позавчера|сегодня|на\\s+прошлой\\s+неделе|в\\s+прошлом\\s+(?:месяце|году))(?!\\p{L})',
    '\\d{1,4}\\s*[年月日号]',
    '昨天|前天|今天|上周|上个月|去年|昨日|一昨日|先週|先月|昨年',
    '\\b\\d{1,2}\\.\\s?\\d{1,2}\\.\\s?(?:\\d{4}|\\d{2})\\b',
  ].join('|'),
  'iu',
);

export function asksWhen(query: string): boolean {
  const text = query.slice(0, 500);
  return ASKS_WHEN.test(text) || ASKS_WHEN_OTHER.test(text);
}

export function statesTime(text: string): boolean {
  return RELATIVE.test(text) || NAMED.test(text) || STATES_TIME_OTHER.test(text);
}
