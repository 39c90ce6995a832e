// Words that say how a question is asked, not what it asks about, per language. Dropped from query
// terms (the index keeps every word): as keywords they match nearly every text and, in coverage,
// dilute the share of the question a text answers. English is the list the engine was tuned with;
// the others are short lists of the articles, pronouns, auxiliaries, prepositions and question
// words of each language, written to the same measure.

const words = (list: string): Set<string> => new Set(list.split(/\s+/).filter(Boolean));

export const ENGLISH = words(`a about above after again against all am an and any are aren't as at be because been before being below
  between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each
  few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself
  him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't
  my myself no nor not of off on once only or other ought our ours ourselves out over own same shan't she she'd
  she'll she's should shouldn't so some such than that that's the their theirs them themselves then there
  there's these they they'd they'll they're they've this those through to too under until up very was wasn't we
  we'd we'll we're we've were weren't what what's when when's where where's which while who who's whom why
  why's with won't would wouldn't you you'd you'll you're you've your yours yourself yourselves
  also just will shall may might must yes ok okay really quite`);

const GERMAN = words(`der die das den dem des ein eine einer eines einem einen und oder aber doch auch noch schon nur
  nicht kein keine keinen keinem ich du er sie es wir ihr mich dich sich uns euch mir dir ihm ihn ihnen mein meine
  meinen meinem meiner dein deine sein seine seinen seinem ihre ihren ihrem unser unsere euer eure ist sind war waren
  bin bist sein gewesen hat habe hast haben hatte hatten wird werden wurde wurden kann können konnte soll sollte
  will wollte muss musste mag in im an am auf aus bei mit nach von vom zu zum zur für über unter vor hinter
  neben zwischen durch gegen ohne um bis als wie wo wann was wer wen wem wessen warum wieso welche welcher welches
  welchen woher wohin dass ob wenn denn so da dort hier dies diese dieser dieses diesem diesen jener man etwas`);

const SPANISH = words(`el la los las un una unos unas lo al del de a en con por para sin sobre entre hasta desde
  y e o u ni pero sino que qué quien quién quienes cuál cual cuáles cuando cuándo donde dónde como cómo cuánto cuánta
  cuántos cuántas por qué porque yo tú tu él ella ello nosotros nosotras vosotros ellos ellas me te se nos os le les
  mi mis su sus nuestro nuestra nuestros nuestras es son era eran fue fueron ser estar está están estaba estaban
  estoy he has ha hemos han había hay muy más ya también no sí este esta estos estas ese esa esos esas aquel
  aquella eso esto algo`);

const RUSSIAN = words(`и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только
  ее её мне было вот от меня еще ещё нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был была были
  него до вас нибудь опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для мы тебя их
  чем сам чтоб без будто чего раз тоже себе под будет ж тогда кто этот того потому этого какой совсем ним здесь
  этом один почти мой тем чтобы нее сейчас куда зачем всех никогда можно при наконец два об другой хоть после над
  больше тот через эти нас про всего них какая много разве эту моя свою этой перед иногда лучше чуть том нельзя
  такой им более всегда конечно всю между мой моя моё мои свой своя своё свои какие каких сколько почему`);

// Chinese and Japanese particles, copulas and question words as the word segmenter cuts them.
const CHINESE = words(`的 了 着 过 是 在 和 与 及 或 也 都 就 还 又 把 被 给 对 从 向 吗 呢 吧 啊 呀 么 什么 怎么 怎样 哪 哪里 哪儿
  哪个 谁 几 多少 为什么 我 你 他 她 它 我们 你们 他们 她们 这 那 这个 那个 这些 那些 有 没 没有 不 一个 之`);

const JAPANESE = words(`の は が を に へ と で や も か な ね よ から まで より だ です ます でした ました した して
  する います いる ある あり た て これ それ あれ この その あの どこ どれ どの だれ 誰 なに 何 なぜ どう いつ
  私 僕 あなた 彼 彼女 ん っ`);

const BY_LANGUAGE: Readonly<Record<string, ReadonlySet<string>>> = { de: GERMAN, es: SPANISH, ru: RUSSIAN };

const HAN_OR_KANA = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const ONLY_HIRAGANA = /^\p{Script=Hiragana}{1,2}$/u;

/**
 * Whether a lower-case word is a stop word of a query in `language`. English's list applies to
 * every query (English function words in a German question are still not what it asks about);
 * Russian's to Cyrillic words and Chinese and Japanese lists to Han and kana words whatever the
 * detected language, since their script says which they are. One or two hiragana alone are
 * grammar the segmenter split off an inflected word ("食べました" → 食|べ|ま|した).
 */
export function isQueryStopWord(word: string, language: string): boolean {
  if (ENGLISH.has(word)) return true;
  if (HAN_OR_KANA.test(word)) return CHINESE.has(word) || JAPANESE.has(word) || ONLY_HIRAGANA.test(word);
  if (CYRILLIC.test(word)) return RUSSIAN.has(word);
  return BY_LANGUAGE[language]?.has(word) ?? false;
}

/** Whether any of these words is a stop word of `language` (German, Spanish: evidence a text is in it). */
export function hasStopWordOf(words: readonly string[], language: string): boolean {
  const list = BY_LANGUAGE[language];
  return list !== undefined && list !== RUSSIAN && words.some((w) => list.has(w));
}

/** The Latin-script languages hasStopWordOf can find evidence of (it knows no list for the others). */
export const LATIN_STOP_WORD_LANGUAGES: readonly string[] = ['de', 'es'];
