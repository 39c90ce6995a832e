// What a piece of text is about, found offline: multi-word capitalised names, code identifiers,
// file paths and repositories, #hashtags, the record's tags, and pairs of content words. Words are
// split by Intl.Segmenter, so scripts without spaces or without letter case (Chinese, Japanese,
// Thai…) still yield word pairs; only the capitalised-name rule needs case, and it simply finds
// nothing where a script has none.
import { cleanLabel } from '../core/text.js';

/** One subject a text mentions: `key` merges spellings ("Project Phoenix", "project phoenix"); `surface` is how it was written. */
export interface Mention {
  key: string;
  surface: string;
  /** A name, tag, path or identifier; false for a mere pair of words (which loses ties). */
  named: boolean;
}

/** Only the head of a long record is read: subjects that matter are named early, and a pasted log should not cost seconds. */
const MAX_TEXT = 3000;
const MAX_SUBJECT = 80;

// Function words, and words that recur in every conversation without being its subject (time
// words, weekdays, months, talk verbs): as half of a word pair or the end of a name they make no
// topic. English first, then a few more languages. (The judge and search keep lists of their own;
// this part depends on core and store only, see DESIGN.md.)
const STOPWORDS = new Set(
  (
    // English
    'a an the and or but if then else of to in on at by for with from as is are was were be been being am do does did doing ' +
    'have has had having i me my mine myself we us our ours you your yours he him his she her hers it its they them their theirs ' +
    'this that these those there here what which who whom whose when where why how all any both each few more most other some ' +
    'such no nor not only own same so than too very can will just should now im ive id ill dont didnt isnt wasnt cant wont would ' +
    'could might must shall also about into over after before again further once up down out off under until through during ' +
    'between against because yes yeah ok okay thanks thank please really quite get got let lets like one two much many well ' +
    'even back way s t ll re ve d m ' +
    // time, weekdays, months, conversational verbs
    'today tomorrow yesterday tonight morning afternoon evening night day days week weeks month months year years time times ' +
    'last next first new old good bad better best thing things something anything everything nothing someone lot bit ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september ' +
    'october november december make made need needs want wants know think going go goes see seen said say says use used using ' +
    'try tried look looks looked sure right left done want still already maybe though since while per via etc ' +
    // German
    'der die das den dem des ein eine einen einem einer und oder aber nicht ist sind war wir ich du sie er es mit von zu im auf für ' +
    'auch noch nur schon wie was wenn dann dass heute morgen gestern jede jeden jeder ' +
    // French
    'le la les un une des et ou mais ne pas est sont était nous vous je tu il elle ils avec pour dans sur par au aux du de ce cette ' +
    'qui que quoi plus aussi très aujourd hui demain hier ' +
    // Spanish, Portuguese, Italian
    'el los las unos unas y o pero no es son era nosotros yo con para en por del al lo que muy también hoy mañana ayer ' +
    'os um uma mas não são com em na no da do dos das ao isso isto hoje amanhã ontem ' +
    'il lo gli uno e ma non sono era noi io con per nel sul della che anche oggi domani ieri ' +
    // Dutch
    'het een en maar niet zijn wij ik jij met voor op aan ook nog vandaag morgen gisteren ' +
    // Chinese and Japanese particles Intl.Segmenter gives as words
    '的 了 很 不 有 是 在 我 你 他 她 它 们 我们 你们 这 那 和 与 也 就 都 一个 没有 不是 の に は を が と で も た です ます する した こと これ それ'
  ).split(/\s+/),
);

function isStop(word: string): boolean {
  return STOPWORDS.has(word.replace(/['’]/g, ''));
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

const CODE_EXT = 'ts|tsx|js|mjs|cjs|jsx|py|rs|go|rb|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sh|md|json|jsonl|yaml|yml|toml|sql|html|css|txt|lock|cfg|ini|xml|proto';
const GITHUB = /\bhttps?:\/\/(?:www\.)?github\.com\/([\w.-]+\/[\w.-]+)/gi;
const URL = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;
const PATH = /(?<![\w@:/.~-])(?:~\/|\.{1,2}\/|\/)?(?:[\w.@-]+\/)+[\w.@-]*\w/gu;
const FILE = new RegExp(`(?<![\\w/.-])[\\w-]{2,}\\.(?:${CODE_EXT})(?![\\w.])`, 'g');
const BACKTICKED = /`([^`\n]{2,60})`/g;
const CAMEL = /(?<![\w.])[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+(?![\w])/g;
const PASCAL_INNER = /(?<![\w.])[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+(?![\w])/g;
const SNAKE = /(?<![\w.])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w])/g;
const HASHTAG = /(?<![\p{L}\p{N}_&/#])#(\p{L}[\p{L}\p{N}_-]{1,49})/gu;

/** Record ids, hashes and long numbers look like identifiers but name no subject. */
function looksLikeId(token: string): boolean {
  return /^[a-z]{1,3}_[0-9a-z]{8,}$/i.test(token) || /^[0-9a-f]{12,}$/i.test(token) || (token.match(/\d/g)?.length ?? 0) >= 6;
}

/** The key of a subject found in text already cleaned and NFKC-normalised. */
const keyOf = (surface: string): string => surface.toLowerCase().replace(/\s+/g, ' ').trim();
const EDGE_PUNCT = /^[.,;:!?'"()[\]{}]+|[.,;:!?'"()[\]{}]+$/g;

function pathOk(p: string): boolean {
  const parts = p.replace(/^(?:~\/|\.{1,2}\/|\/)/, '').split('/').filter(Boolean);
  if (parts.length < 2 || p.length > 120) return false;
  if (parts.every((s) => /^[\d.-]+$/.test(s))) return false; // 1/2, 2026/01/05
  if (parts.every((s) => isStop(s.toLowerCase()))) return false; // and/or
  return /\p{L}/u.test(p) && !looksLikeId(parts[parts.length - 1]!);
}

interface Word {
  text: string;
  index: number;
}

// Scripts written without spaces between words need the segmenter's dictionaries; for the others
// a regular expression finds the same words at a fraction of the cost (a year of turns is read at once).
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD = /[\p{L}\p{M}\p{N}_]+(?:['’][\p{L}\p{M}\p{N}]+)*/gu;

function wordsOf(text: string): { words: Word[]; gaps: string[] } {
  const words: Word[] = [];
  const gaps: string[] = [];
  if (!UNSPACED.test(text)) {
    let end = 0;
    for (const m of text.matchAll(WORD)) {
      gaps.push(text.slice(end, m.index));
      words.push({ text: m[0], index: m.index });
      end = m.index + m[0].length;
    }
    return { words, gaps };
  }
  let gap = '';
  for (const s of segmenter.segment(text)) {
    if (s.isWordLike) {
      words.push({ text: s.segment, index: s.index });
      gaps.push(gap);
      gap = '';
    } else gap += s.segment;
  }
  return { words, gaps };
}

const isCapitalised = (w: string): boolean => /^\p{Lu}/u.test(w) && /\p{L}/u.test(w.slice(1));
// A single Han, kana or Hangul character is often a whole word (库, 猫); elsewhere one letter is not.
const IDEOGRAPHIC = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const isContent = (w: string): boolean =>
  ([...w].length >= 2 || IDEOGRAPHIC.test(w)) && !/^[\p{N}_]+$/u.test(w) && !looksLikeId(w) && !isStop(w.toLowerCase());

/** Runs of two to five capitalised words joined by single spaces, stop words trimmed off both ends ("The Cairn Project" → "Cairn Project"). */
function capitalisedNames(words: Word[], gaps: string[], add: (surface: string) => void): void {
  let run: Word[] = [];
  const flush = (): void => {
    let a = 0;
    let b = run.length;
    while (a < b && isStop(run[a]!.text.toLowerCase())) a++;
    while (b > a && isStop(run[b - 1]!.text.toLowerCase())) b--;
    if (b - a >= 2 && b - a <= 5) add(run.slice(a, b).map((w) => w.text).join(' '));
    run = [];
  };
  words.forEach((w, i) => {
    const joined = run.length > 0 && gaps[i] === ' ';
    if (!joined) flush();
    if (isCapitalised(w.text)) run.push(w);
    else flush();
  });
  flush();
}

/** Adjacent content words (only white space, or nothing in scripts without spaces, between them). */
function wordPairs(text: string, words: Word[], gaps: string[], add: (surface: string) => void): void {
  for (let i = 1; i < words.length; i++) {
    const a = words[i - 1]!;
    const b = words[i]!;
    if (!/^\s*$/.test(gaps[i]!) || gaps[i]!.includes('\n')) continue;
    if (!isContent(a.text) || !isContent(b.text)) continue;
    add(text.slice(a.index, b.index + b.text.length).replace(/\s+/g, ' '));
  }
}

/** The distinct subjects of one record (its text and tags), in a stable order. */
export function subjectsOf(rawText: string, tags: readonly string[]): Mention[] {
  const found = new Map<string, Mention>();
  let named = true;
  // Surfaces come from the cleaned text (tags are cleaned first): no second cleaning per candidate.
  const add = (surface: string): void => {
    const s = surface.replace(EDGE_PUNCT, '');
    if (s.length < 2 || s.length > MAX_SUBJECT || (s.length === 2 && /[\uD800-\uDBFF]/.test(s))) return;
    const key = keyOf(s);
    if (key !== '' && !found.has(key)) found.set(key, { key, surface: s, named });
  };
  for (const t of tags) add(cleanLabel(t).normalize('NFKC').replace(/^#+/, ''));
  let text = cleanLabel(rawText.slice(0, MAX_TEXT)).normalize('NFKC');
  for (const m of text.matchAll(GITHUB)) add(m[1]!.replace(/\.git$/, ''));
  text = text.replace(URL, ' ');
  for (const m of text.matchAll(HASHTAG)) if (!looksLikeId(m[1]!)) add(m[1]!);
  for (const m of text.matchAll(BACKTICKED)) {
    const code = m[1]!.trim();
    if (!looksLikeId(code) && /\p{L}/u.test(code)) add(code);
  }
  for (const m of text.matchAll(PATH)) if (pathOk(m[0])) add(m[0]);
  for (const re of [FILE, CAMEL, PASCAL_INNER, SNAKE]) for (const m of text.matchAll(re)) if (!looksLikeId(m[0])) add(m[0]);
  // Code and paths are subjects of their own; a word pair must not run across one ("fixed src").
  let plain = text;
  for (const re of [BACKTICKED, PATH, FILE, CAMEL, PASCAL_INNER, SNAKE, HASHTAG]) plain = plain.replace(re, ' · ');
  const { words, gaps } = wordsOf(plain);
  capitalisedNames(words, gaps, add);
  named = false;
  wordPairs(plain, words, gaps, add);
  return [...found.values()];
}
