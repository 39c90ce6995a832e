// Whether two memories say the same thing in other words ("We picked Postgres for the store" / "The
// store will use Postgres, we decided"), so the pass can merge them. A change is never a duplicate:
// "I drink cortado" / "I switched to flat white" and "staging runs on port 5433" / "staging moved
// to port 6543" stay two memories, because the second one supersedes the first. Two scores decide
// (word overlap, cosine of the memories' vectors); a set of vetoes then refuses the merge when the
// texts differ on something that matters (numbers, dates, negation, a name or value word), since a
// wrong merge hides a fact while a missed one only leaves a duplicate in view.
import { stemmer } from 'stemmer';
import { NOT_NAMES, NUMBER_WORDS, TIME_RE } from '../../judge/lexicon.js';
import { isStopWord } from '../../search/query-terms.js';
import type { NearDupCandidate, NearDupVerdict } from './contracts.js';

export interface NearDupThresholds {
  /** Word overlap (Dice of stemmed content words) at or above which two memories are one, vectors or not. */
  overlap: number;
  /** With a vector on both sides: cosine at or above which two memories are one … */
  cosine: number;
  /** … provided their word overlap is at least this. */
  overlapWithCosine: number;
}

/**
 * Measured by `npm run bench:near-dup` (bench/near-dup.ts, results in bench/results/near-dup.md):
 * the setting with the best F1 among those keeping precision ≥ 0.97 on the generated pair set
 * (paraphrases against value, number, negation and date changes and unrelated pairs sharing words),
 * checked on the hand-written pairs of bench/data/near-dup-pairs.json. The cosine was measured with
 * the bundled model (use-lite); the vetoes, not the scores, keep changes apart, so another embedder
 * shifts recall more than precision.
 */
export const NEAR_DUP_THRESHOLDS: NearDupThresholds = Object.freeze({ overlap: 0.55, cosine: 0.775, overlapWithCosine: 0.5 });

// Verbs and adverbs a paraphrase swaps freely ("picked" / "decided" / "went with"; "now", "currently"):
// a word here that only one side has is wording, not a different value. Verbs that name an attribute
// ("lives", "works", "manages") are not here: "Keiko lives in Osaka" / "Keiko works in Osaka" differ.
const WORDING = new Set(
  `decide decided decision pick picked choose chose chosen select selected opt opted go goes going went gone settle settled agree agreed
  use uses used using run runs ran running set configure configured have has had get gets got keep kept make made
  like liked love loved prefer preferred enjoy enjoyed want wanted need needed plan planned think thought say said
  currently now still always usually actually already definitely pretty lot thing things stuff today these days
  happen happens happened take takes took place schedule scheduled due
  team everyone someone mine ours`.split(/\s+/).filter(Boolean),
);

// The judge's negators count a lone "0" (so "5.0" reads as negated) and miss the verbs that end a
// state; here a negation is what turns "I use Vim" into its opposite. A few common negators of other
// languages are listed too (matched as whole words, which the word segmenter finds in any script).
const NEGATION_WORDS = new Set(
  `not no never none nothing without neither nor cannot against stopped quit anymore
  не нет никогда nicht kein keine keinen nie pas jamais nunca não nao`.split(/\s+/).filter(Boolean),
);
// Chinese fuses its negators into the word beside them ("我不", "没去"): a word holding one counts.
const CJK_NEGATION = /[不没別沒]/;
// Time words that name an occasion, not when it is: "the deadline is Friday" and "we ship by Friday" agree.
const NOT_DATES = new Set(['deadline', 'birthday', 'anniversary', 'holiday', 'holidays', 'vacation', 'recently', 'lately', 'since', 'ago', 'soon']);
const NUMBER_WORD_RE = new RegExp(`\\b(?:${NUMBER_WORDS})\\b`, 'gi');
const DIGITS_RE = /\d+(?:[.,:/-]\d+)*/g;
const WORDS = new Intl.Segmenter('en', { granularity: 'word' });

/** A word's comparable form: the Porter stem of a lower-case Latin word ("decided", "decides" → "decid"); other words as they are. */
export function stemWord(word: string): string {
  if (!/^[a-z]{3,}$/.test(word)) return word;
  const known = stems.get(word);
  if (known !== undefined) return known;
  const stem = stemmer(word);
  if (stems.size >= STEMS_KEPT) stems.clear();
  stems.set(word, stem);
  return stem;
}

/**
 * Stems by word: a memory's words are stemmed for its features, its lookup terms and its names, and a
 * namespace repeats its words, while the Porter stemmer runs a dozen regular expressions a word.
 */
const stems = new Map<string, string>();
const STEMS_KEPT = 50_000;

const WORDING_STEMS = new Set([...WORDING].map(stemWord));

// On ASCII text the segmenter's word rules (UAX #29) come down to this: runs of letters, digits
// and underscores, joined across ' . : between letters and . , ; ' between digits; a lone "_" is
// not word-like. The segmenter costs about 10 ms CPU on a 2,500-character agent message (most of
// the knowledge pass on such messages), this expression a hundredth of that.
const ASCII_WORD = /[a-z0-9_]+(?:(?:(?<=[a-z])['.:](?=[a-z])|(?<=[0-9])[.,;'](?=[0-9]))[a-z0-9_]+)*/g;

/** Word-like segments, lower case, compatibility forms folded; Chinese and Japanese come out as dictionary words. */
export function wordsOf(text: string): string[] {
  const lower = text.normalize('NFKC').toLowerCase();
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(lower)) return (lower.match(ASCII_WORD) ?? []).filter((w) => w !== '_');
  const out: string[] = [];
  for (const { segment, isWordLike } of WORDS.segment(lower)) if (isWordLike) out.push(segment.replace(/’/g, "'"));
  return out;
}

/** The content words a text is compared on, stemmed, each with the first form the text writes it in; stop words dropped. */
function contentStems(words: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const w of words) {
    const bare = w.replace(/'s$/, '');
    if (bare.length === 0 || isStopWord(bare) || /^[a-z]$/.test(bare)) continue;
    const stem = stemWord(bare);
    if (!out.has(stem)) out.set(stem, bare);
  }
  return out;
}

interface Features {
  stems: Map<string, string>;
  numbers: Set<string>;
  times: Set<string>;
  negated: boolean;
  /** Stems of words written with a capital letter somewhere other than a sentence start. */
  names: Set<string>;
}

/** Features of recently compared texts: a pass compares each new memory with up to 8 candidates, often the same ones. */
const featureCache = new Map<string, Features>();
const FEATURE_CACHE_MAX = 4096;

function featuresOf(text: string): Features {
  if (typeof text !== 'string') return computeFeatures('');
  let f = featureCache.get(text);
  if (!f) {
    if (featureCache.size >= FEATURE_CACHE_MAX) featureCache.clear();
    featureCache.set(text, (f = computeFeatures(text)));
  }
  return f;
}

function computeFeatures(text: string): Features {
  const clean = typeof text === 'string' ? text : '';
  const lower = clean.normalize('NFKC').toLowerCase();
  const words = wordsOf(clean);
  const numbers = new Set<string>();
  for (const m of lower.matchAll(DIGITS_RE)) numbers.add(m[0].replace(/^0+(?=\d)/, ''));
  for (const m of lower.matchAll(NUMBER_WORD_RE)) numbers.add(m[0]);
  const times = new Set<string>();
  const singularDays = lower.replace(/\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)s\b/g, '$1');
  for (const m of singularDays.matchAll(TIME_RE)) if (!/\d/.test(m[0]) && !NOT_DATES.has(m[0])) times.add(m[0]);
  const names = new Set<string>();
  // A capital after a sentence end is grammar, not a name.
  for (const m of clean.matchAll(/(?<![\p{L}\p{N}_'’-]|(?:^|[.!?:;]["')\]]?)\s*)\p{Lu}[\p{L}\p{N}'’-]*/gu)) {
    const word = m[0].toLowerCase().replace(/['’]s$/, '');
    if (!NOT_NAMES.has(word) && !isStopWord(word)) names.add(stemWord(word));
  }
  return { stems: contentStems(words), numbers, times, negated: words.some((w) => NEGATION_WORDS.has(w) || /n't$/.test(w) || CJK_NEGATION.test(w)), names };
}

/** Dice coefficient of two sets: shared words over their mean size (0 when either is empty). */
function dice(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const t of a.keys()) if (b.has(t)) shared++;
  return (2 * shared) / (a.size + b.size);
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const t of a) if (!b.has(t)) return false;
  return true;
}

/** Cosine of two unit vectors; null when either is missing, empty, of another length or not finite. */
function cosineOf(a: Float32Array | null | undefined, b: Float32Array | null | undefined): number | null {
  if (!a || !b || a.length === 0 || a.length !== b.length) return null;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return Number.isFinite(dot) ? Math.max(-1, Math.min(1, dot)) : null;
}

/**
 * Stems of the Latin-script content words only one side has, leaving out the wording a paraphrase
 * swaps. Other scripts are left to the scores: without a list of their paraphrase wording, every
 * swapped verb or particle would read as a changed value.
 */
function valueWords(own: ReadonlyMap<string, string>, other: ReadonlyMap<string, string>, names: ReadonlySet<string>): string[] {
  return [...own.keys()].filter((t) => !other.has(t) && (!WORDING_STEMS.has(t) || names.has(t)) && /^[\p{Script=Latin}'-]+$/u.test(t));
}

/** Why two texts whose scores say "duplicate" still state different things; undefined when nothing differs. */
function difference(a: Features, b: Features): string | undefined {
  if (!sameSet(a.numbers, b.numbers)) return 'numbers differ';
  if (!sameSet(a.times, b.times)) return 'dates differ';
  if (a.negated !== b.negated) return 'negation differs';
  const onlyA = valueWords(a.stems, b.stems, a.names);
  const onlyB = valueWords(b.stems, a.stems, b.names);
  if (onlyA.length > 0 && onlyB.length > 0) {
    const said = (f: Features, stems: string[]) => stems.slice(0, 3).map((t) => f.stems.get(t)!).join(' ');
    const named = onlyA.some((t) => a.names.has(t)) || onlyB.some((t) => b.names.has(t));
    return `${named ? 'names' : 'values'} differ (${said(a, onlyA)} / ${said(b, onlyB)})`;
  }
  return undefined;
}

/** Whether `a` and `b` are one memory in other words. Pure: reads only the two texts and vectors. */
export function nearDuplicate(a: NearDupCandidate, b: NearDupCandidate, thresholds: NearDupThresholds = NEAR_DUP_THRESHOLDS): NearDupVerdict {
  const fa = featuresOf(a.text);
  const fb = featuresOf(b.text);
  const overlap = dice(fa.stems, fb.stems);
  const cosine = cosineOf(a.vector, b.vector);
  const scoresSay = overlap >= thresholds.overlap || (cosine !== null && cosine >= thresholds.cosine && overlap >= thresholds.overlapWithCosine);
  if (!scoresSay) return { duplicate: false, overlap, cosine };
  const reason = difference(fa, fb);
  return reason === undefined ? { duplicate: true, overlap, cosine } : { duplicate: false, overlap, cosine, reason };
}

const MAX_QUERY_TERMS = 8;

/**
 * The words to look up near-duplicate candidates by in the keyword index, rarest first, at most 8.
 * Rarity without corpus counts: figures and names first (they pin a statement down), then longer
 * words before shorter (long words are the rare ones in any corpus), then the text's order. Words are
 * returned as written (lower case), since the index stems its own way.
 */
export function nearDupQueryTerms(text: string): string[] {
  const clean = typeof text === 'string' ? text : '';
  const names = featuresOf(clean).names;
  const seen = new Set<string>();
  const terms: { word: string; rank: number; at: number }[] = [];
  for (const w of wordsOf(clean)) {
    const word = w.replace(/'s$/, '').replace(/'/g, '');
    if (word.length === 0 || isStopWord(word) || seen.has(word) || (word.length === 1 && !/\d/.test(word))) continue;
    seen.add(word);
    const stem = stemWord(word);
    if (WORDING_STEMS.has(stem)) continue;
    const specific = /\d/.test(word) || names.has(stem) ? 1 : 0;
    terms.push({ word, rank: specific * 1000 + Math.min(word.length, 999), at: terms.length });
  }
  terms.sort((x, y) => y.rank - x.rank || x.at - y.at);
  return terms.slice(0, MAX_QUERY_TERMS).map((t) => t.word);
}
