// Capitalised names in running text: "Ana Souza", "New York", "Acme Corp", "Bank of America".
//
// A run of capitalised words (lower-case connectors such as "of", "de", "van" inside) is a name,
// once common words are cut away: a capitalised common word ("The", "Thanks", "Monday", "Hey")
// ends a run and names nothing. A single word that starts a sentence is capitalised anyway, so it
// counts only when (a) the text also writes it capitalised where no sentence starts, (b) it is a
// known name (the speaker, the user's names, a tool, a country or large city), (c) it has a
// possessive ("Ana's"), or (d) the next word is a verb people are the subject of ("Ana said",
// "Jon moved") and the word does not end like a common word (-ing, -ly, -ness…). Two or more
// capitalised words at a sentence start are a name ("Ana Souza called").
//
// The type: a known tool or company, an organisation suffix ("Corp", "University"), a place word
// ("Grand Canyon", "Lake Tahoe"), a place from
// the gazetteer (a country or a large city anywhere, a smaller one after a locating word) unless the
// sentence makes it a person (type-cues.ts), after "works at" an organisation, after "Mr"/"Dr" a
// person, after a preposition of location a place; otherwise a person, with less confidence.
import { foldDiacritics, type Gazetteer, type Place } from '../../places/gazetteer.js';
import type { Found } from './code-refs.js';
import { COMMON_ACRONYMS, isCommonWord } from './common-words.js';
import { knownName, ORG_PREFIXES, ORG_SUFFIXES } from './known-names.js';
import { isHonorific, isStrongPlace, personCue, placeCue, PLACE_PREFIXES, PLACE_SUFFIXES, SUBJECT_VERBS } from './type-cues.js';

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
/** Words after "X's" that make it "X has" or "X is". */
const CONTRACTED = /^(?:been|got|gotten|gone|going|a|an|the|so|really|very|just|not|always|never|also|still|my|our|your|been|done|made|had|great|good|amazing|awesome|nice|fun|hard|tough|important|about)$/i;
const COMMON_ENDING = /(?:ing|ly|ed|ness|tion|sion|ment|ity|ful|less|ous|ive|able|ible|ism|ist)$/i;
/** "works at Helios", "joined Helios", "a job at Helios" (a noun needs its preposition: "your job Jon" calls Jon). */
const WORKPLACE = /\b(?:(?:works?|worked|working|interned|hired|employed|interview(?:ed|ing)?|joined|joining|applied)\s+(?:at|for|with|by|from|to)?|(?:job|jobs|internship|offer|position|role|contract)\s+(?:at|for|with|by|from))\s*$/i;

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
  return orgHeadsAsOrgs(out);
}

/**
 * "Helios Labs hired me. Helios pays well.": a name the text also writes with an organisation's
 * suffix is that organisation where it stands alone, unless read there with more confidence
 * (a strong place: "Boston University" leaves "Boston" a city).
 */
function orgHeadsAsOrgs(found: Found[]): Found[] {
  const heads = new Set<string>();
  for (const f of found) {
    const parts = f.name.split(' ');
    if (f.type === 'organization' && parts.length > 1 && ORG_SUFFIXES.has(parts.at(-1)!)) heads.add(parts.slice(0, -1).join(' '));
  }
  if (heads.size === 0) return found;
  return found.map((f) => (heads.has(f.name) && f.type !== 'organization' && f.confidence < 0.8 ? { ...f, type: 'organization', confidence: 0.7 } : f));
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
    const strongPlace = place !== null && isStrongPlace(place);
    if (!(seen || possessive || subject || strongPlace || acronym)) return null;
  }
  const at = { start: first.start, end: first.start + name.length };
  if (known) return { name: known.name === name || known.name.toLowerCase() === name.toLowerCase() ? name : known.name, type: known.type, confidence: 0.85, ...at };
  const lastWord = bare(last.text);
  if (!single && (ORG_SUFFIXES.has(lastWord) || ORG_PREFIXES.has(first.text))) return { name, type: 'organization', confidence: 0.85, ...at };
  if (!single && (PLACE_SUFFIXES.has(lastWord) || PLACE_PREFIXES.has(first.text))) return { name, type: 'place', confidence: 0.8, ...at };
  // A place by the gazetteer, or by a preposition before an unknown name, unless the sentence makes it a person.
  const person = personCue(text, words, run[0]!, run.at(-1)!, ctx.knownWords);
  const place = lookupPlace(name, ctx);
  // "Edinburgh, Scotland", "Austin, Texas": a place after a place and a comma.
  const afterPlace = before !== undefined && text.slice(before.end, first.start) === ', ' && lookupPlace(bare(before.text), ctx) !== null;
  if (place && !person && (!single || isStrongPlace(place) || afterPlace || placeCue(text, words, run[0]!, true))) {
    return { name, type: 'place', confidence: !single || place.kind === 'country' ? 0.85 : isStrongPlace(place) ? 0.8 : 0.75, ...at };
  }
  // A person cue outweighed the gazetteer: as confident as the place would have been, so the pass does not file it under the place.
  if (place && person) return { name, type: 'person', confidence: 0.8, ...at };
  const preceding = text.slice(Math.max(0, first.start - 40), first.start);
  if (!person && WORKPLACE.test(preceding)) return { name, type: 'organization', confidence: 0.7, ...at };
  if (before && isHonorific(before.text) && text.slice(before.end, first.start).trim().length <= 1) return { name, type: 'person', confidence: 0.8, ...at };
  if (acronym) return { name, type: 'topic', confidence: 0.4, ...at };
  if (!person && placeCue(text, words, run[0]!, false) && !/['’]s$/u.test(last.text)) return { name, type: 'place', confidence: 0.6, ...at };
  const confidence = !single ? 0.6 : first.sentenceStart ? 0.5 : 0.55;
  return { name, type: 'person', confidence, ...at };
}

function lookupPlace(name: string, ctx: NameContext): Place | null {
  const places = ctx.places();
  return places.byName.get(name) ?? places.byName.get(foldDiacritics(name)) ?? null;
}
