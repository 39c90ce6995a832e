// Bare acknowledgements ("backchannel" turns): "ok thanks", "sounds good", "haha yes please 👍",
// "Thanks, Deb! You too, take care.", "merci beaucoup". They keep a conversation going but say
// nothing that could matter later, so they are never memories, however many sentiment or
// agreement words they hold. A turn is bare when, once emoji, emoticons and the speakers' names are
// set aside, every word belongs to a known acknowledgement phrase (thanks, agreement, laughter,
// politeness, greetings and farewells, in a few languages) or to the glue between them ("so",
// "really", "that's"). One word outside the vocabulary ("thanks, the retry fix worked") makes it
// a turn with something to say, which the judge reads on its content.

/** Longer turns are not backchannel, whatever their words: they are read on their content. */
const MAX_CHARS = 300;
const MAX_WORDS = 20;

/** Acknowledgement phrases, in lower case without accents. Each must mean nothing more than "I heard you". */
const ACK_PHRASES: readonly string[] = [
  // agreement, assent, understanding
  'ok', 'okay', 'okey', 'okie', 'oki', 'okey dokey', 'k', 'kk', 'alright', 'all right', 'aight', 'fine', 'got it', 'gotcha', 'understood', 'noted',
  'roger', 'roger that', 'copy', 'copy that', 'ack', 'i see', 'makes sense', 'that makes sense', 'fair', 'fair enough', 'true', 'right', 'correct',
  "you're right", 'you are right', 'exactly', 'indeed', 'precisely', 'sure', 'sure thing', 'of course', 'ofc', 'certainly', 'will do', 'yes', 'yeah',
  'yea', 'yep', 'yup', 'ya', 'yah', 'aye', 'please', 'pls', 'plz', 'no problem', 'no prob', 'np', 'no worries', 'nw', 'all good', 'sounds good',
  'sounds great', 'sounds perfect', 'sounds fine', 'sounds fun', 'sounds lovely', 'sounds awesome', 'sounds like a plan', 'looks good', 'looks great',
  'lgtm', 'that works', 'works for me', 'that works for me', 'agreed', 'agree', 'totally', 'absolutely', 'definitely', 'for sure', 'good call',
  'good point', 'go for it', 'let\'s do it', 'lets do it', 'good idea', 'great idea', 'nice idea', 'good plan', 'great plan', 'good thinking',
  'good news', 'great news', 'helpful', 'that helps', 'that helped', 'this helps',
  // praise without a subject
  'perfect', 'great', 'good', 'excellent', 'awesome', 'cool', 'nice', 'neat', 'sweet', 'super', 'fantastic', 'wonderful', 'lovely', 'amazing', 'brilliant',
  'incredible', 'terrific', 'fab', 'well done', 'good job', 'great job', 'nice job', 'nicely done', 'nice one', 'nice work', 'great work', 'good work',
  'bravo', 'kudos', 'congrats', 'congratulations', 'love it', 'love that', 'love this', 'loving it', 'wow', 'whoa', 'woah', 'yay', 'woohoo', 'hooray',
  // interjections
  'oh', 'ah', 'aha', 'ahh', 'ooh', 'hmm', 'hm', 'mm', 'mhm', 'uh huh', 'oh well',
  // thanks and their answers
  'thanks', 'thank you', 'thank u', 'thanku', 'thankyou', 'thx', 'thnx', 'tnx', 'ty', 'tysm', 'tyvm', 'thanks a lot', 'thanks a bunch', 'thanks a ton',
  'many thanks', 'cheers', 'much appreciated', 'appreciate it', 'appreciated', 'appreciate that', 'i appreciate it', "you're welcome", 'youre welcome',
  'welcome', 'my pleasure', 'anytime', 'any time', 'happy to help', 'glad to help', 'glad it helped', 'glad to hear it', 'glad to hear that',
  // greetings, farewells, politeness
  'hi', 'hey', 'hello', 'hiya', 'bye', 'bye bye', 'goodbye', 'see you', 'see ya', 'see you later', 'see you soon', 'see you around', 'later', 'cya',
  'talk later', 'talk soon', 'talk to you later', 'talk to you soon', 'ttyl', 'take care', 'good night', 'gn', 'night', 'stay safe', 'catch you later',
  'you too', 'same to you', 'likewise', 'good morning', 'morning',
  ...['good', 'great', 'nice', 'lovely', 'wonderful', 'fun'].flatMap((a) => [
    ...['day', 'one', 'night', 'evening', 'weekend', 'week', 'time', 'trip'].map((n) => `have a ${a} ${n}`),
    ...['catching up', 'chatting', 'talking', 'talking to you', 'seeing you', 'hearing from you'].map((n) => `${a} ${n}`),
  ]),
  // French, German, Spanish, Italian, Portuguese, Dutch, Nordic, Polish, Czech, Turkish
  'merci', 'merci beaucoup', 'merci bien', 'mille mercis', 'de rien', 'oui', 'ouais', "d'accord", 'dac', 'bien sur', 'tres bien', 'parfait', 'genial', 'top',
  'nickel', 'ca marche', 'avec plaisir', 'bonne journee', 'a plus', 'salut', 'bonjour', 'au revoir', 'mdr',
  'danke', 'danke schon', 'danke schoen', 'dankeschon', 'vielen dank', 'besten dank', 'ja', 'jawohl', 'genau', 'klar', 'alles klar', 'gut', 'sehr gut',
  'prima', 'toll', 'bitte', 'gerne', 'gern', 'passt', 'stimmt', 'tschuss', 'hallo',
  'gracias', 'muchas gracias', 'mil gracias', 'si', 'vale', 'claro', 'perfecto', 'de acuerdo', 'de nada', 'por favor', 'hola', 'adios', 'muy bien', 'bueno',
  'grazie', 'grazie mille', 'certo', 'perfetto', 'va bene', 'prego', 'ciao', 'ottimo', 'benissimo',
  'obrigado', 'obrigada', 'muito obrigado', 'muito obrigada', 'valeu', 'beleza', 'sim',
  'dank je', 'dank je wel', 'dank u', 'dank u wel', 'bedankt',
  'tack', 'tack sa mycket', 'takk', 'tusen takk', 'kiitos', 'dziekuje', 'dzieki', 'dekuji', 'tesekkurler', 'sagol',
  // other scripts, as single words
  'спасибо', 'большое спасибо', 'да', 'хорошо', 'ок', 'ладно', 'ありがとう', 'ありがとうございます', 'どうも', 'はい', '了解', '谢谢', '謝謝', '好的',
  '감사합니다', '고마워', '네', 'شكرا', 'תודה', 'धन्यवाद',
];

/** Words that only join or intensify acknowledgements ("thank you so much", "that's great"). */
const GLUE_WORDS = new Set([
  'so', 'very', 'really', 'much', 'too', 'a', 'lot', 'again', 'just', 'then', 'all', 'both', 'well', 'also', 'and', 'i', 'it', "it's", 'its', 'that', "that's",
  'thats', 'this', 'is', 'was', 'for', 'man', 'dude', 'buddy', 'mate', 'guys', 'folks', 'everyone', 'y\'all', 'sir', 'indeed', 'sounds', 'looks', 'beaucoup', 'muy',
]);

const PHRASES_BY_FIRST = new Map<string, string[][]>();
for (const phrase of ACK_PHRASES) {
  const words = phrase.split(' ');
  const list = PHRASES_BY_FIRST.get(words[0]!) ?? [];
  list.push(words);
  PHRASES_BY_FIRST.set(words[0]!, list);
}
for (const list of PHRASES_BY_FIRST.values()) list.sort((a, b) => b.length - a.length);

/** Laughter in a few spellings: haha, hehe, lol, lmao, jaja, xd (already lower case). */
const LAUGHTER_RE = /^(?:a?(?:h+a+)+h*|(?:h+e+){2,}h*|(?:h+i+){2,}|lo+l+|lmf?ao+|rofl|(?:j+a+){2,}|(?:j+e+){2,}|xd+|k{4,})$/;
/** ASCII emoticons and reactions that are not words: :) ;-) :D <3 ^_^ +1 :thumbsup: */
const EMOTICON_RE = /(?<=^|[\s,.!?])(?:[:;=8][-'^o]?[)(\][dpo3|\\/*]+|<\/?3+|\^_?\^|[xX][dD]+|\+1|:[a-z_+-]+:)(?=$|[\s,.!?])/g;
const PICTOGRAPH_RE = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u200D\uFE0F\u20E3]/gu;
const WORD_RE = /[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu;

interface Word {
  key: string;
  capitalised: boolean;
  /** A comma follows the word: "Frank, thanks". */
  beforeComma: boolean;
}

function foldAccents(word: string): string {
  return /^[\p{Script=Latin}']+$/u.test(word) ? word.normalize('NFD').replace(/\p{M}/gu, '') : word;
}

/** The vocabulary form of a word: lower case, no accents, and "okkk"/"thanksss" shortened when that makes it known. */
function vocabularyKey(raw: string): string {
  const word = foldAccents(raw.toLowerCase());
  if (PHRASES_BY_FIRST.has(word) || GLUE_WORDS.has(word) || LAUGHTER_RE.test(word)) return word;
  for (const shorter of [word.replace(/(\p{L})\1{2,}/gu, '$1$1'), word.replace(/(\p{L})\1{2,}/gu, '$1')]) {
    if (PHRASES_BY_FIRST.has(shorter) || GLUE_WORDS.has(shorter)) return shorter;
  }
  return word;
}

function words(text: string): Word[] {
  const out: Word[] = [];
  for (const m of text.matchAll(WORD_RE)) {
    const end = (m.index ?? 0) + m[0].length;
    out.push({ key: vocabularyKey(m[0]), capitalised: /^\p{Lu}/u.test(m[0]) && m[0] !== 'I', beforeComma: /^\s*,/.test(text.slice(end, end + 3)) });
  }
  return out;
}

/**
 * Whether a turn is only an acknowledgement. `speakers` are the lower-case names of the people in
 * the conversation: addressing one ("Thanks, Mel!") adds nothing. Without them, one capitalised
 * word used as a vocative ("Thanks, Frank") is allowed.
 */
export function isBareAcknowledgement(text: string, speakers: ReadonlySet<string> = new Set()): boolean {
  if (typeof text !== 'string' || text.length > MAX_CHARS) return false;
  const normalised = text.replace(/[\u2018\u2019\u02BC]/g, "'").trim();
  // A question asks for something ("sounds good?"): it is not a backchannel.
  if (normalised === '' || /\?[\s\p{Extended_Pictographic}\uFE0F]*$/u.test(normalised)) return false;
  let reactions = 0;
  const stripped = normalised
    .replace(EMOTICON_RE, () => {
      reactions++;
      return ' ';
    })
    .replace(PICTOGRAPH_RE, () => {
      reactions++;
      return ' ';
    });
  const all = words(stripped);
  if (all.length > MAX_WORDS) return false;
  let acknowledgements = reactions;
  let vocatives = 0;
  for (let i = 0; i < all.length; ) {
    const w = all[i]!;
    const phrase = (PHRASES_BY_FIRST.get(w.key) ?? []).find((p) => p.every((part, k) => all[i + k]?.key === part));
    if (phrase) {
      acknowledgements++;
      i += phrase.length;
      continue;
    }
    if (LAUGHTER_RE.test(w.key)) acknowledgements++;
    else if (speakers.has(w.key)) {
      // the person addressed
    } else if (GLUE_WORDS.has(w.key)) {
      // joins or intensifies the acknowledgement
    } else if (w.capitalised && (i > 0 || w.beforeComma) && vocatives === 0) vocatives++;
    else return false;
    i++;
  }
  return acknowledgements > 0;
}
