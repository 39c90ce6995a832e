// Whether an English text may name a time: the test that decides if a query is read by the date
// parser (query-time.ts), apart so that the executable can ask it too (bundle-loader.ts: a query
// that may name a time runs the date parser, whose code the code cache should then cover) without
// importing the parser's loaders. Imports nothing.

/**
 * A date chrono-node reads in English has a digit or one of these words; other queries skip it
 * (its first parse in a process compiles every parser's pattern: ~30 ms). Month and weekday names
 * are chrono's own forms (its MONTH_DICTIONARY and WEEKDAY_DICTIONARY, which its parsers match only
 * when no letter follows): "friend", "decide" or "Maria" do not start a parse.
 */
const MONTH_NAMES = 'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const WEEKDAY_NAMES = 'sun(?:day)?|mon(?:day)?|tue(?:sday)?|wed(?:nesday)?|thu(?:r|rs|rsday)?|fri(?:day)?|sat(?:urday)?|weekend|weekday';
const MAY_NAME_TIME = new RegExp(
  `\\d|\\b(?:${MONTH_NAMES}|${WEEKDAY_NAMES})(?![a-z])|\\b(?:today|tonight|yesterday|tomorrow|week|weeks|month|months|year|years|ago|last|this|next|noon|midnight|morning|evening|night)\\b`,
  'i',
);

/** Whether English text may name a time chrono-node reads (false: it cannot, and is not parsed). */
export function mayNameTime(text: string): boolean {
  return MAY_NAME_TIME.test(text);
}
