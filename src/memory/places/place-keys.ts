// The words a text's place names imply, for the keyword index: "a beach in Tampa" is also found by
// "Florida", "state", "United States", "North America"; "our trip to Italy" by "country",
// "Europe", "European". A question asks by the kind or the region ("which state did Nate
// visit?", "what European countries has Maria been to?"); the text names the place.
//
// A capitalised name is taken as a place only where it reads as one. Multi-word names and country
// names always do. A single-word city or division ("Nice", "Charlotte", "Victoria") must follow a
// word that locates ("in", "from", "visited", "trip to"), unless it is a city of a million people,
// and never sits inside a longer capitalised name ("George Washington", "Jordan Peterson").
import type { EntryKeys } from '../../store/store.js';
import { BIG_CITY, foldDiacritics, gazetteer, gazetteerVersion, type Gazetteer, type Place } from './gazetteer.js';

const WORD = /[\p{Lu}\p{Ll}\p{Lt}][\p{L}\p{M}'’.-]*/gu;
const MAX_NAME_WORDS = 4;
const NON_ASCII = /[^\x00-\x7f]/;
/** Lower-case words inside a place name ("Rio de Janeiro", "Stratford upon Avon"). */
const CONNECTORS = new Set(['de', 'del', 'da', 'do', 'la', 'le', 'les', 'los', 'las', 'of', 'on', 'upon', 'am', 'an', 'der', 'di', 'el', 'y']);
/** Words after which a name is where someone is, goes or comes from. */
export const LOCATING = new Set([
  'in', 'at', 'near', 'around', 'outside', 'inside', 'toward', 'towards', 'via', 'through', 'into', 'across',
  'visit', 'visits', 'visited', 'visiting', 'trip', 'flew', 'fly', 'flying', 'drove', 'drive', 'driving',
  'moved', 'move', 'moving', 'live', 'lives', 'lived', 'living', 'based', 'born', 'stay', 'stayed', 'staying',
  'left', 'leaving', 'arrived', 'headed', 'heading', 'explore', 'explored', 'exploring', 'tour', 'toured', 'touring', 'downtown',
]);

/** Words before "to"/"from" that make it a direction. */
export const MOVING = new Set([
  'go', 'goes', 'going', 'gone', 'went', 'come', 'comes', 'coming', 'came', 'back', 'trip', 'trips', 'travel', 'traveled', 'travelled',
  'traveling', 'travelling', 'flew', 'fly', 'flying', 'flight', 'drove', 'drive', 'driving', 'move', 'moved', 'moving', 'headed',
  'heading', 'return', 'returned', 'returning', 'relocated', 'relocating', 'way', 'road', 'ride', 'train', 'bus', 'tickets', 'ticket',
  'am', "i'm", 'is', 'are', 'was', 'originally', 'away', 'miles', 'hours', 'welcome', 'visit', 'visitors', 'arrived', 'journey',
]);

interface Word { text: string; start: number; end: number; capital: boolean }

const CAPITALISED = /\p{Lu}[\p{L}\p{M}'’.-]*/gu;

/** A word without its possessive or trailing punctuation: "Italy's" → "Italy", "D.C." → "D.C". */
function bare(word: string): string {
  return word.replace(/['’]s$/, '').replace(/[.'’-]+$/, '');
}

/** Space-separated keys for the places `text` names ('' for none), from the bundled gazetteer. */
export function placeKeys(text: string, places: Gazetteer = gazetteer()): string {
  // Most texts have no capitalised word that begins a place name: one lookup per capitalised word.
  const begins = (w: string): boolean => places.firstWords.has(w) || (NON_ASCII.test(w) && places.firstWords.has(foldDiacritics(w)));
  let any = false;
  for (const m of text.matchAll(CAPITALISED)) if ((any = begins(bare(m[0])))) break;
  if (!any) return '';
  const words: Word[] = [];
  for (const m of text.matchAll(WORD)) {
    const w = bare(m[0]);
    words.push({ text: w, start: m.index, end: m.index + w.length, capital: /^\p{Lu}/u.test(w) });
  }
  const keys = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const first = words[i]!;
    if (!first.capital || !begins(first.text)) continue;
    for (let len = Math.min(MAX_NAME_WORDS, words.length - i); len >= 1; len--) {
      const span = words.slice(i, i + len);
      if (!isName(text, span)) continue;
      const name = text.slice(span[0]!.start, span.at(-1)!.end);
      const place = places.byName.get(name) ?? (NON_ASCII.test(name) ? places.byName.get(foldDiacritics(name)) : undefined);
      if (!place || !readsAsPlace(text, words, i, len, place)) continue;
      for (const k of place.keys.split(' ')) keys.add(k);
      i += len - 1;
      break;
    }
  }
  return [...keys].join(' ');
}

/** Capitalised words (lower-case connectors inside), separated by single spaces only. */
function isName(text: string, span: readonly Word[]): boolean {
  if (!span[0]!.capital || !span.at(-1)!.capital) return false;
  for (let j = 0; j < span.length; j++) {
    const w = span[j]!;
    if (!w.capital && !CONNECTORS.has(w.text)) return false;
    if (j > 0 && text.slice(span[j - 1]!.end, w.start) !== ' ') return false;
  }
  return true;
}

function readsAsPlace(text: string, words: readonly Word[], i: number, len: number, place: Place): boolean {
  if (len > 1) return true;
  const before = words[i - 1];
  const after = words[i + 1];
  // Part of a longer capitalised name: "George Washington", "Jordan Peterson".
  if (after?.capital && text.slice(words[i]!.end, after.start) === ' ') return false;
  if (before?.capital && text.slice(before.end, words[i]!.start) === ' ' && !sentenceStart(text, before.start)) return false;
  if (place.kind === 'country') return true;
  if (place.kind === 'city' && place.population >= BIG_CITY) return true;
  return locates(words, i - 1) || (before !== undefined && !before.capital && locates(words, i - 2));
}

/** Whether words[at] places what follows it. "to" and "from" only after going or coming: "went to Austin", not "talked to Austin". */
function locates(words: readonly Word[], at: number): boolean {
  const w = words[at]?.text.toLowerCase();
  if (w === undefined) return false;
  if (w === 'to' || w === 'from') return MOVING.has(words[at - 1]?.text.toLowerCase() ?? '');
  return LOCATING.has(w);
}

function sentenceStart(text: string, at: number): boolean {
  return /(^|[.!?]\s+|\n\s*)$/.test(text.slice(Math.max(0, at - 4), at));
}

/** Entry keys from place names; the gazetteer loads on the first entry keyed, not before. */
export function placeEntryKeys(): EntryKeys {
  return { version: gazetteerVersion(), keys: (text) => placeKeys(text) };
}

/** Keys switched off (config index.places false): entries keyed before lose their keys. */
export const NO_ENTRY_KEYS: EntryKeys = { version: 'none', keys: () => '' };
