// Capitalised words that never name an entity on their own: a sentence's first word, a greeting,
// a weekday, a pronoun. General language only, never a word lifted from an evaluation set. The
// function words come from the judge's and the search's stop lists; month and weekday names from
// the search's time mentions; this file adds what those lists have no reason to hold.
import { STOPWORDS } from '../../../judge/lexicon.js';
import { isStopWord } from '../../../search/query-terms.js';
import { MONTHS, WEEKDAYS } from '../../../search/time-mentions.js';

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);

const COMMON = new Set<string>([
  ...MONTHS.toLowerCase().split('|'),
  ...WEEKDAYS.toLowerCase().split('|'),
  // English: answers, reactions, greetings, fillers, time words, openers of sentences.
  ...words(`may jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun
  thanks thank thx ty great good nice cool awesome amazing wow sure yes yeah yep yup no nope ok okay alright fine
  hi hey hello hiya howdy bye goodbye cheers dear welcome congrats congratulations sorry please oh ah aw oops ugh hmm
  lol omg btw fyi imo tbh asap haha hehe yay woah whoa well anyway anyways also still maybe perhaps definitely totally
  absolutely exactly indeed honestly actually basically seriously really right true false agreed morning evening night
  afternoon today tomorrow yesterday tonight now then later soon recently lately currently meanwhile finally first
  second third last next every each many most some any all both another other others someone somebody something
  everyone everybody everything nobody nothing anyone anything i me my mine we us our you your he him his she her it
  its they them their this that these those here there who what when where why how which whose whether
  if unless because since though although however but and or so yet nor not just only even too very quite
  happy birthday merry christmas easter halloween thanksgiving year years eve holidays holiday weekend
  mom mum dad mother father sister brother grandma grandpa granny wife husband son daughter baby kids children
  sir madam mr mrs ms miss mx dr prof
  lots love hugs xoxo bless god jesus lord heaven
  let lets let's i'm i've i'd i'll it's that's what's there's here's can't don't won't didn't isn't wasn't
  note notes todo fixme update updated edit edited done fixed added removed step steps summary example examples
  question questions answer answers problem problems issue issues error errors warning warnings tip tips info
  yesterday's today's tomorrow's
  life work family friends friend home school college job team people world time day days week month year
  art music nature love fun family's
  see check look try make keep take give get go going went come came got made said says think thought know knew
  feel felt tell told ask asked want wanted need needed hope hoped wish wished guess bet remember forgot
  just definitely probably hopefully unfortunately luckily fortunately apparently obviously clearly
  speaking talking looking thinking working planning trying going doing making feeling getting having
  can could would should will shall might must did does do has had have was were is are be been being am
  one two three four five six seven eight nine ten hundred thousand million
  north south east west northern southern eastern western
  english spanish french german chinese japanese italian portuguese russian`),
  // Greetings, thanks, yes/no, pronouns and weekdays in other languages people write in.
  ...words(`hola gracias adios adiós buenos buenas días dias sí bueno vale lunes martes miércoles jueves viernes sábado domingo
  olá ola obrigado obrigada tchau sim não segunda terça quarta quinta sexta
  bonjour salut merci oui non lundi mardi mercredi jeudi vendredi samedi dimanche
  hallo danke ja nein tschüss guten morgen montag dienstag mittwoch donnerstag freitag samstag sonntag ich wir du sie
  ciao grazie buongiorno lunedì martedì mercoledì giovedì venerdì
  привет спасибо да нет пока здравствуйте понедельник вторник среда четверг пятница суббота воскресенье я мы ты вы он она они
  это как что где когда почему
  γεια ευχαριστώ ναι όχι`),
]);

/** Whether a word (any case, possessive dropped) is a common word that names nothing by itself. */
export function isCommonWord(word: string): boolean {
  const w = word.toLowerCase().replace(/['’]s$/u, '').replace(/’/g, "'");
  return COMMON.has(w) || STOPWORDS.has(w) || isStopWord(w);
}

/** All-capital abbreviations that are not names: "OK", "API", "TV", "PM". */
export const COMMON_ACRONYMS = new Set(
  words(`OK OKAY AM PM UTC GMT TV DIY LOL OMG BTW FYI IMO IMHO TBH ASAP RSVP FAQ TLDR TL DR ETA PS PPS NB AKA ID IDs
  API APIs CI CD PR PRs URL URLs UI UX CPU GPU RAM SSD HDD OS IO IP DNS HTTP HTTPS SSH SSL TLS TCP UDP JSON YAML XML CSV PDF
  HTML CSS SQL CLI SDK IDE MVP QA KPI ROI CEO CTO CFO COO VP HR PM USB LED LCD GPS SMS MMS DM DMs PC Mac NPC FPS RPG
  YES NO NOT AND OR THE BUT ALL NEW NOW TODO FIXME NOTE WARNING ERROR INFO DEBUG WIP TBD TBA NA N/A
  I II III IV V VI VII VIII IX X XL XXL S M L XS`),
);
