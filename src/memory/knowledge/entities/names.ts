// Capitalised names in running text: "Ana Souza", "New York", "Acme Corp", "Bank of America".
//
// A run of capitalised words (lower-case connectors such as "of", "de", "van" inside) is a name,
// once common words are cut away: a capitalised common word ("The", "Thanks", "Monday", "Hey")
// ends a run and names nothing. A single word that starts a sentence is capitalised anyway, so it
// counts only when (a) the text also writes it capitalised where no sentence starts, (b) it is a
// known name (the speaker, the user's names, a tool, a country or big city), (c) it has a
// possessive ("Ana's"), or (d) the next word is a verb people are the subject of ("Ana said",
// "Jon moved") and the word does not end like a common word (-ing, -ly, -ness…). Two or more
// capitalised words at a sentence start are a name ("Ana Souza called").
//
// The type: a known tool or company, an organisation suffix ("Corp", "University"), a place from
// the gazetteer where it reads as one (as place-keys.ts does), after "works at" an organisation,
// after "Mr"/"Dr" a person; otherwise a person, with less confidence.
import type { EntityType } from '../../../core/types.js';
import { BIG_CITY, foldDiacritics, type Gazetteer, type Place } from '../../places/gazetteer.js';
import { LOCATING, MOVING } from '../../places/place-keys.js';
import type { Found } from './code-refs.js';
import { COMMON_ACRONYMS, isCommonWord } from './common-words.js';
import { knownName, ORG_PREFIXES, ORG_SUFFIXES } from './known-names.js';

interface Word {
  text: string;
  start: number;
  end: number;
  capital: boolean;
  sentenceStart: boolean;
}

/** Letters and digits, with inner apostrophes, dots, hyphens and ampersands ("O'Brien", "Node.js", "AT&T"). */
const WORD = /[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}]|['’.&-](?=[\p{L}\p{N}]))*/gu;
const CONNECTORS = new Set(['of', 'de', 'del', 'da', 'das', 'do', 'dos', 'di', 'du', 'van', 'von', 'der', 'den', 'la', 'le', 'bin', 'al', 'y', '&']);
const MAX_NAME_WORDS = 5;
const SUBJECT_VERBS = new Set(`said says told asks asked texted called messaged emailed wrote loves loved likes liked wants wanted thinks thought
  knows knew went goes came comes moved joined started visited bought gave sent got gets took made makes met meets
  lives lived works worked plays played finished won lost left arrived hired quit helped invited recommended suggested
  mentioned shared posted cooked baked painted drew sang adopted`.split(/\s+/));
/** Words after "X's" that make it "X has" or "X is". */
const CONTRACTED = /^(?:been|got|gotten|gone|going|a|an|the|so|really|very|just|not|always|never|also|still|my|our|your|been|done|made|had|great|good|amazing|awesome|nice|fun|hard|tough|important|about)$/i;
const COMMON_ENDING = /(?:ing|ly|ed|ness|tion|sion|ment|ity|ful|less|ous|ive|able|ible|ism|ist)$/i;
const HONORIFIC = /^(?:mr|mrs|ms|mx|dr|prof|sir|madam|miss|aunt|uncle|grandma|grandpa|coach|captain|officer|father|sister|brother)\.?$/i;
const WORKPLACE = /\b(?:works?|worked|working|job|jobs|internship|interned|hired|employed|interview(?:ed|ing)?|joined|joining|applied|offer|position|role|contract)\s+(?:at|for|with|by|from|to)?\s*$/i;

export interface NameContext {
  /** Lower-case words of the names the speaker and the user are known by. */
  knownWords: ReadonlySet<string>;
  places: () => Gazetteer;
}

/** Capitalised names in the text (ranges already read by other rules must be blanked by the caller). */
export function capitalisedNames(text: string, ctx: NameContext): Found[] {
  const words = readWords(text);
  if (words.length === 0) return [];
  // Words written capitalised somewhere a sentence does not start: they are names wherever they stand.
  const namedElsewhere = new Set<string>();
  for (const w of words) if (w.capital && !w.sentenceStart) namedElsewhere.add(bare(w.text));
  const out: Found[] = [];
  for (let i = 0; i < words.length; ) {
    const run = nameRun(text, words, i);
    if (run.length === 0) {
      i++;
      continue;
    }
    i += run.length;
    const found = judgeRun(text, words, run, namedElsewhere, ctx);
    if (found) out.push(found);
  }
  return out;
}

function readWords(text: string): Word[] {
  const words: Word[] = [];
  for (const m of text.matchAll(WORD)) {
    const t = m[0];
    words.push({ text: t, start: m.index, end: m.index + t.length, capital: /^[\p{Lu}\p{Lt}]/u.test(t), sentenceStart: startsSentence(text, m.index) });
  }
  return words;
}

/** Nothing but quotes, brackets, bullets, emoji or spaces since a sentence mark, a line break or the start. */
function startsSentence(text: string, at: number): boolean {
  for (let j = at - 1; j >= 0 && j >= at - 24; j--) {
    const c = text[j]!;
    if (c === '\n' || SENTENCE_MARK.test(c)) return true;
    if (!DECORATION.test(c)) return false;
  }
  return true;
}
const SENTENCE_MARK = /[.!?…:;。！？]/;
const DECORATION = /[\s"'“‘(\[*•>#\-–—\uFE0F\u200D\uD800-\uDFFF]/u;

function bare(word: string): string {
  return word.replace(/['’]s$/u, '');
}

/** Indexes of the capitalised run starting at i (common words excluded), or [] when none starts there. */
function nameRun(text: string, words: readonly Word[], i: number): number[] {
  const first = words[i]!;
  // A tool that is also a common word ("Go", "Word") counts where no sentence starts.
  const tool = !first.sentenceStart && knownName(first.text) !== null;
  if (!first.capital || (isCommonWord(first.text) && !tool) || /^\p{N}/u.test(first.text)) return [];
  const run = [i];
  for (let j = i + 1; j < words.length && run.length < MAX_NAME_WORDS; j++) {
    const w = words[j]!;
    const gap = text.slice(words[j - 1]!.end, w.start);
    if (gap !== ' ' || /['’]s$/u.test(words[j - 1]!.text)) break;
    if (w.capital && !isCommonWord(w.text)) {
      run.push(j);
      continue;
    }
    // A connector counts only between capitalised words: "Bank of America", not "Ana of".
    const next = words[j + 1];
    if (CONNECTORS.has(w.text) && next && next.capital && !isCommonWord(next.text) && text.slice(w.end, next.start) === ' ') {
      run.push(j, j + 1);
      j++;
      continue;
    }
    break;
  }
  return run;
}

function judgeRun(text: string, words: readonly Word[], run: readonly number[], namedElsewhere: ReadonlySet<string>, ctx: NameContext): Found | null {
  const first = words[run[0]!]!;
  const last = words[run.at(-1)!]!;
  const raw = text.slice(first.start, last.end);
  const name = raw.replace(/['’]s$/u, '');
  const single = run.length === 1;
  const before = words[run[0]! - 1];
  const after = words[run.at(-1)! + 1];
  const lower = bare(first.text).toLowerCase();
  const known = knownName(name);
  const acronym = single && /^[\p{Lu}\d&]{2,}$/u.test(name);
  if (acronym && COMMON_ACRONYMS.has(name)) return null;
  if (single && name.length < 2) return null;

  if (single && first.sentenceStart && !known) {
    const seen = namedElsewhere.has(bare(first.text)) || ctx.knownWords.has(lower);
    // "Ana's cat", not "Yoga's been great" (a contraction of has/is).
    const possessive = /['’]s$/u.test(first.text) && !(after && CONTRACTED.test(after.text));
    const subject = after !== undefined && text.slice(first.end, after.start) === ' ' && SUBJECT_VERBS.has(after.text.toLowerCase()) && !COMMON_ENDING.test(name);
    const place = lookupPlace(name, ctx);
    const strongPlace = place !== null && (place.kind === 'country' || place.population >= BIG_CITY);
    if (!(seen || possessive || subject || strongPlace || acronym)) return null;
  }
  const at = { start: first.start, end: first.start + name.length };
  if (known) return { name: known.name === name || known.name.toLowerCase() === name.toLowerCase() ? name : known.name, type: known.type, confidence: 0.85, ...at };
  const lastWord = bare(last.text);
  if (!single && (ORG_SUFFIXES.has(lastWord) || ORG_PREFIXES.has(first.text))) return { name, type: 'organization', confidence: 0.85, ...at };
  const place = lookupPlace(name, ctx);
  if (place && readsAsPlace(words, run, place)) return { name, type: 'place', confidence: run.length > 1 || place.kind === 'country' ? 0.85 : 0.75, ...at };
  const preceding = text.slice(Math.max(0, first.start - 40), first.start);
  if (WORKPLACE.test(preceding)) return { name, type: 'organization', confidence: 0.7, ...at };
  if (before && HONORIFIC.test(before.text) && text.slice(before.end, first.start).trim().length <= 1) return { name, type: 'person', confidence: 0.8, ...at };
  if (acronym) return { name, type: 'topic', confidence: 0.4, ...at };
  const type: EntityType = 'person';
  const confidence = !single ? 0.6 : first.sentenceStart ? 0.5 : 0.55;
  return { name, type, confidence, ...at };
}

function lookupPlace(name: string, ctx: NameContext): Place | null {
  const places = ctx.places();
  return places.byName.get(name) ?? places.byName.get(foldDiacritics(name)) ?? null;
}

/** As place-keys.ts reads a place: several words, a country or a big city always; a smaller one after a locating word. */
function readsAsPlace(words: readonly Word[], run: readonly number[], place: Place): boolean {
  if (run.length > 1 || place.kind === 'country' || (place.kind === 'city' && place.population >= BIG_CITY)) return true;
  const locates = (at: number): boolean => {
    const w = words[at]?.text.toLowerCase();
    if (w === undefined) return false;
    if (w === 'to' || w === 'from') return MOVING.has(words[at - 1]?.text.toLowerCase() ?? '');
    return LOCATING.has(w);
  };
  const i = run[0]!;
  return locates(i - 1) || (words[i - 1] !== undefined && !words[i - 1]!.capital && locates(i - 2));
}
