// The mood line of a daily review: how the person's own words felt over the day, read from a small
// sentiment lexicon with one stated rule, so anyone can check it against the cited turns.
//
// The rule: a turn (the person's, not the agent's) carries feeling when it holds a word of the
// lexicon; it counts as positive or negative by which kind it holds more of (a negated positive,
// "not happy", counts as negative; a negated negative counts as nothing). A mood is reported when
// at least MIN_TURNS turns carry feeling: "mostly upbeat" or "mostly frustrated" when at least 60 %
// lean one way, "mixed" otherwise; the trend compares the mean of the first half of those turns
// with the second half.
import type { DigestSource } from '../core/types.js';
import { NEGATOR_RE } from '../judge/lexicon.js';
import type { Item } from './contracts.js';
import { byTimeThenId } from './extract.js';
import { oneLineText } from './point-text.js';

export const MOOD_MIN_TURNS = 3;
const MOST = 0.6;
/** Most turns a mood line cites. */
const MAX_CITED = 12;

const NEGATIVE_RE = new RegExp(
  [
    String.raw`\b(?:frustrat\w*|annoy\w*|angry|furious|pissed|ugh+|argh+|damn(?:it)?|wtf|hate|sick of|tired of|fed up|stuck|stress(?:ed|ful)?|worried|anxious|disappoint\w*|sad|upset|exhausted|confus(?:ed|ing)|hopeless|awful|terrible|horrible|nightmare|painful|ridiculous)\b`,
    String.raw`(?<!\p{L})(?:nervig|genervt|frustriert|ärgerlich|verdammt|furchtbar|enttäuscht)(?!\p{L})`,
    'イライラ|疲れた|困った|最悪|むかつく|烦死|郁闷|累死|糟糕|崩溃|[😠😡😤😩😫😞😢😭🤬]',
  ].join('|'),
  'giu',
);
const POSITIVE_RE = new RegExp(
  [
    String.raw`\b(?:happy|glad|excited|thrilled|delighted|relieved|proud|love (?:it|this|that)|yay+|woohoo|finally|fantastic|wonderful|amazing|awesome|brilliant|great)\b`,
    String.raw`(?<!\p{L})(?:froh|freue|endlich|erleichtert|toll|großartig|super)(?!\p{L})`,
    '嬉しい|よかった|やった|最高|开心|太好了|高兴|[😀😃😄😊🙂😍🥳🎉]',
  ].join('|'),
  'giu',
);

function negatedAt(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 30), index).split(/[,;.!?]/).pop() ?? '';
  return NEGATOR_RE.test(before.trim().split(/\s+/).slice(-3).join(' '));
}

/** +1, -1 or 0 for a text, by the rule above; null when it carries no feeling at all. */
export function feelingOf(text: string): -1 | 0 | 1 | null {
  const line = oneLineText(text);
  let pos = 0;
  let neg = 0;
  for (const m of line.matchAll(POSITIVE_RE)) {
    if (negatedAt(line, m.index ?? 0)) neg++;
    else pos++;
  }
  for (const m of line.matchAll(NEGATIVE_RE)) if (!negatedAt(line, m.index ?? 0)) neg++;
  if (pos === 0 && neg === 0) return null;
  return pos > neg ? 1 : neg > pos ? -1 : 0;
}

function isPersonsOwn(item: Item): boolean {
  const role = (item.role ?? (item.kind === 'memory' ? 'user' : '')).toLowerCase();
  return role === 'user';
}

export interface Mood {
  /** `Mood: mostly frustrated (5 of 7 turns with feeling), improving later in the day` */
  text: string;
  sources: DigestSource[];
}

/** The day's mood from the person's own turns, or null when fewer than {@link MOOD_MIN_TURNS} carry feeling. */
export function moodOf(items: readonly Item[]): Mood | null {
  const owned = new Set(items.filter((i) => i.kind === 'memory').flatMap((m) => m.turnIds));
  const seen = new Set<string>();
  const felt: Array<{ item: Item; polarity: -1 | 0 | 1 }> = [];
  for (const item of [...items].sort(byTimeThenId)) {
    if (seen.has(item.id) || owned.has(item.id) || !isPersonsOwn(item)) continue;
    seen.add(item.id);
    const polarity = feelingOf(item.text);
    if (polarity !== null) felt.push({ item, polarity });
  }
  const n = felt.length;
  if (n < MOOD_MIN_TURNS) return null;
  const neg = felt.filter((f) => f.polarity < 0).length;
  const pos = felt.filter((f) => f.polarity > 0).length;
  const label = neg >= MOST * n ? `mostly frustrated (${neg} of ${n} turns with feeling)` : pos >= MOST * n ? `mostly upbeat (${pos} of ${n} turns with feeling)` : `mixed (${pos} upbeat, ${neg} frustrated of ${n} turns with feeling)`;
  const half = Math.ceil(n / 2);
  const mean = (list: typeof felt): number => list.reduce((s, f) => s + f.polarity, 0) / Math.max(1, list.length);
  const change = mean(felt.slice(half)) - mean(felt.slice(0, half));
  const trend = change >= 0.5 ? ', improving later in the day' : change <= -0.5 ? ', getting worse later in the day' : '';
  // The turns the line is read from (the first twelve with feeling, by time), so it can be checked.
  const cited = felt.slice(0, MAX_CITED).map((f) => ({ kind: f.item.kind, id: f.item.id, time: f.item.time }));
  return { text: `Mood: ${label}${trend}`, sources: cited };
}
