// What the words around a capitalised name say about its type, so one name gets one type in every
// sentence: "Ana Souza booked the flights to Lisbon" and "My sister Ana lives in Lisbon" both name
// the place, since the pass files a mention under its alias key and a confident reading of another
// type makes a second entity.
//
// A country, or a city (or a division named like one) of STRONG_PLACE_POPULATION people or more, is
// a place wherever it stands, unless something in the sentence makes it a person: the speaker's or
// the user's name, an honorific ("Dr Austin"), a greeting ("Thanks, Sydney"), a verb people are the
// subject of ("Charlotte said"), a verb done to a person ("I met Austin", "talked to Austin"), or a
// relative after the possessive ("Austin's mom"). A relation phrase ("my friend Georgia") is read
// by relations.ts with more confidence and wins. A smaller place, or a name the gazetteer does not
// know, reads as a place after a preposition of movement or location ("stayed in Woodhaven",
// "flights to Eugene", "the city of Nuuk"), never when a person cue is there too. A name with a
// place word ("Grand Canyon", "Lake Tahoe") is a place, as a suffix makes an organisation.
import type { Place } from '../../places/gazetteer.js';
import { LOCATING, MOVING } from '../../places/place-keys.js';

const words = (s: string): Set<string> => new Set(s.split(/\s+/).filter(Boolean));

/** Last words of place names ("Grand Canyon", "Fenway Park"); PLACE_PREFIXES first words ("Lake Tahoe", "Cliffs of Moher"). */
export const PLACE_SUFFIXES = words(`Mountain Mountains Lake River Island Islands Beach Park Bay Valley Canyon Falls Street Avenue Road Boulevard
  Square Tower Bridge Coast Desert Forest Hills Hill Peak Parkway Trail Harbor Harbour Creek Springs Gardens Plaza Palace Castle
  Cathedral Stadium Arena Airport Station Glacier Volcano Peninsula Cliffs Reef Trailhead Marina Pier Boardwalk`);
export const PLACE_PREFIXES = words('Mount Mt Lake Cape Isle Cliffs Port Fort Lago Monte Rio Costa');
/** Words before "of" that make what follows a place: "the city of Nuuk". */
const PLACE_OF = words('city town village state province island country region county capital outskirts streets suburbs shores coast');

/** A word of the text, as names.ts reads it. */
export interface CueWord {
  text: string;
  start: number;
  end: number;
}

/**
 * Cities this large are places wherever they stand. Measured against the places LoCoMo's
 * conversations name (Boston, Seattle, Detroit, Edinburgh, Miami, Lisbon: 441k–684k) and the first
 * names that are also cities: above 300k only Austin, Charlotte, Salem, Aurora, Florence, Kingston
 * and Hamilton, each a person again with any person cue.
 */
export const STRONG_PLACE_POPULATION = 300_000;

/** Whether a place name is a place wherever it stands (person cues aside). */
export function isStrongPlace(place: Place): boolean {
  return place.kind === 'country' || place.population >= STRONG_PLACE_POPULATION;
}

export const SUBJECT_VERBS = words(`said says told asks asked texted called messaged emailed wrote loves loved likes liked wants wanted thinks thought
  knows knew went goes came comes moved joined started visited bought gave sent got gets took made makes met meets
  lives lived works worked plays played finished won lost left arrived hired quit helped invited recommended suggested
  mentioned shared posted cooked baked painted drew sang adopted`);
const TITLE = /^(?:mr|mrs|ms|mx|dr|prof)\.?$/i;
const HONORIFIC_WORD = /^(?:Sir|Madam|Miss|Aunt|Uncle|Grandma|Grandpa|Coach|Captain|Officer|Father|Sister|Brother)$/;

/** "Dr", "mr.", "Aunt", "Miss": a title before a person's name ("I miss Boston" has none). */
export function isHonorific(word: string): boolean {
  return TITLE.test(word) || HONORIFIC_WORD.test(word);
}
/** Words that greet or thank whoever is named next. */
const GREETING = words('hi hey hello hiya howdy yo bye goodbye thanks thank thx cheers congrats congratulations dear welcome');
/** Verbs whose object is a person ("met Austin", "texted Sydney"); not "called" ("a town called Salem"). */
const DONE_TO_PERSON = words(`met meet meeting meets told tell telling tells asked ask asking texted text texting emailed messaged phoned
  thanked hugged kissed married marry marrying dating dated invited invite introduced hired fired befriended babysat`);
/** Verbs whose "to" names a person: "talked to Austin", "married to Sydney". */
const TO_PERSON = words(`talk talked talking talks spoke speak speaking said say says wrote write writing replied reply listened listen
  listening married engaged introduced explained mentioned apologized apologised lied sent gave give giving lent showed
  belongs belonged happened`);
/** A relative or companion after a possessive: "Austin's mom" is a person's. */
const RELATIVES = words(`mom mum dad mother father parents wife husband sister brother son daughter kids kid children baby boyfriend girlfriend
  partner family friend friends boss grandma grandpa aunt uncle cousin`);
/** Prepositions of location: what follows is where something is. */
const AT_PLACE = words('in near at around outside inside across through via toward towards');
/** Verbs that take "in" or "at" of a person or a thing, not a place: "interested in", "mad at". */
const NOT_LOCATING = words(`interested believe believes believed believing involved confide confided trust trusted look looked looking
  looks stare stared staring smile smiled smiling laugh laughed laughing yell yelled yelling shout shouted mad angry upset
  wave waved waving glance glanced point pointed good great bad better best worse worst`);
/** Words before "to"/"from" that make it a direction, beside place-keys.ts's. */
const MOVING_MORE = words(`been flights vacation vacations holiday holidays getaway cruise trips tour moved relocate commute commuted
  migrated emigrated immigrated fled escaped drove`);

function lower(w: CueWord | undefined): string {
  return w?.text.toLowerCase() ?? '';
}

/** Something in the sentence says the name at words[first..last] is a person. */
export function personCue(text: string, all: readonly CueWord[], first: number, last: number, knownWords: ReadonlySet<string>): boolean {
  const name = all[first]!;
  const before = all[first - 1];
  const after = all[last + 1];
  const adjacent = (a: CueWord | undefined, b: CueWord | undefined): boolean =>
    a !== undefined && b !== undefined && /^[\s,]{1,3}$/.test(text.slice(a.end, b.start));
  if (first === last && knownWords.has(name.text.replace(/['’]s$/u, '').toLowerCase())) return true;
  // "the UK gave", "the Netherlands won": a person is not named with an article.
  if (before && /^(?:the|a|an)$/i.test(before.text)) return false;
  if (before && adjacent(before, name)) {
    const b = lower(before);
    if (isHonorific(before.text) || DONE_TO_PERSON.has(b)) return true;
    // "Thanks Sydney for…", "Thanks, Sydney!": after a comma the greeted name ends its phrase ("Hey, Boston's music scene…" greets nobody).
    if (GREETING.has(b) && !/['’]s$/u.test(all[last]!.text)) {
      const endsPhrase = /^\s*(?:[,.!?:;)]|$)/.test(text.slice(all[last]!.end, all[last]!.end + 3));
      if (text.slice(before.end, name.start) === ' ' || endsPhrase) return true;
    }
    if ((b === 'to' || b === 'with') && TO_PERSON.has(lower(all[first - 2]))) return true;
  }
  const last_ = all[last]!;
  if (after && text.slice(last_.end, after.start) === ' ') {
    if (SUBJECT_VERBS.has(lower(after))) return true;
    if (/['’]s$/u.test(last_.text) && RELATIVES.has(lower(after))) return true;
  }
  return false;
}

/**
 * The word before words[i] places it: a preposition of location, or "to"/"from" after going or
 * coming. For a name the gazetteer knows, a locating verb counts too ("visited Eugene"), and one
 * lower-case word may stand between ("in beautiful Eugene"); for an unknown name only a preposition
 * right before it ("visited Ana" is a person).
 */
export function placeCue(text: string, all: readonly CueWord[], i: number, known: boolean): boolean {
  // "where you're at, Jon": a comma or a sentence mark between breaks the phrase.
  const joined = (a: number): boolean => a >= 0 && text.slice(all[a]!.end, all[a + 1]!.start) === ' ';
  const locates = (at: number): boolean => {
    const b = lower(all[at]);
    if (b === '' || !joined(at)) return false;
    if (b === 'to' || b === 'from') {
      const verb = lower(all[at - 1]);
      return MOVING.has(verb) || MOVING_MORE.has(verb);
    }
    if (AT_PLACE.has(b)) return !NOT_LOCATING.has(lower(all[at - 1]));
    return known && LOCATING.has(b);
  };
  if (locates(i - 1)) return true;
  if (lower(all[i - 1]) === 'of' && joined(i - 1) && joined(i - 2) && PLACE_OF.has(lower(all[i - 2]))) return true;
  // "mount Talkeetna", "lake Tahoe" written in lower case.
  if (joined(i - 1) && PLACE_PREFIXES.has(`${all[i - 1]?.text.slice(0, 1).toUpperCase()}${all[i - 1]?.text.slice(1)}`) && /^\p{Ll}/u.test(all[i - 1]!.text)) return true;
  const between = all[i - 1];
  return known && between !== undefined && joined(i - 1) && /^\p{Ll}/u.test(between.text) && !AT_PLACE.has(lower(between)) && locates(i - 2);
}
