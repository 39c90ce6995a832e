// Signal extraction: what a turn says, measured per sentence. A turn's weight comes from its
// statements; greetings, reactions to the other speaker and questions carry little of the
// speaker's own information, so their signals count for less.
import {
  CODE_TOKEN_RE, CUES, type CueCategory, EVENT_RE, FILLER_RE, FIRST_PERSON_RE, GREETING_RE, MAY_DATE_RE, NEGATION_BREAK_RE, NEGATOR_RE,
  NOT_NAMES, NUMBER_RE, QUOTED_RE, REACTION_START_RE, SECOND_PERSON_RE, SELF_STATE_RE, TIME_RE, CHATTER_RE, TECH_CONTEXT_RE, TASK_RE, WEAK_IMPLEMENTATION_RE,
} from './lexicon.js';
import { isBareAcknowledgement } from './backchannel.js';
import { splitSentences } from './text.js';

export type SentenceKind = 'greeting' | 'reaction' | 'question' | 'chatter' | 'statement';

export interface SentenceSignals {
  text: string;
  kind: SentenceKind;
  /** First-person past or perfect event ("I went", "we've moved"). */
  events: number;
  /** First-person states and habits ("I'm a nurse", "I have two cats"). */
  states: number;
  firstPerson: number;
  secondPerson: number;
  times: number;
  numbers: number;
  /** Capitalised words mid-sentence that are not grammar, greetings or the speakers' own names. */
  names: number;
  codeTokens: number;
  quoted: number;
  filler: number;
  words: number;
  /** Category cues found, negation already applied. */
  cues: Partial<Record<CueCategory, number>>;
  /** Cues cancelled by a negator ("not broken", "no errors"). */
  negated: Partial<Record<CueCategory, number>>;
}

export interface TurnSignals {
  sentences: SentenceSignals[];
  words: number;
}

/**
 * Speaker names are vocatives and greetings in chat ("Thanks, Mel!"), not facts: they are dropped
 * from the name count. A short form of a known name counts as that name.
 */
export function speakerNameSet(names: ReadonlyArray<unknown>): Set<string> {
  const set = new Set<string>();
  for (const n of names) {
    if (typeof n !== 'string' || n === '') continue;
    for (const part of n.toLowerCase().split(/[^\p{L}\p{N}'-]+/u)) if (part.length >= 2) set.add(part);
  }
  return set;
}

function isSpeakerName(word: string, speakers: ReadonlySet<string>): boolean {
  if (speakers.has(word)) return true;
  if (word.length < 3) return false;
  for (const s of speakers) if (s.length > word.length && s.startsWith(word)) return true;
  return false;
}

function count(re: RegExp, text: string): number {
  const m = text.match(re);
  return m ? m.length : 0;
}

/** Whether the few words before `index` negate what follows, stopping at a clause break. */
function negatedAt(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 40), index);
  const breakAt = Math.max(before.lastIndexOf(','), before.lastIndexOf(';'), before.lastIndexOf('.'), before.lastIndexOf('!'), before.lastIndexOf('?'));
  let window = breakAt >= 0 ? before.slice(breakAt + 1) : before;
  const words = window.trim().split(/\s+/);
  window = words.slice(-3).join(' ');
  if (NEGATION_BREAK_RE.test(window)) {
    const parts = window.split(/\b(?:but|however|although|though|yet|except)\b/i);
    window = parts[parts.length - 1] ?? '';
  }
  return NEGATOR_RE.test(window);
}

function cueCounts(lower: string): { cues: SentenceSignals['cues']; negated: SentenceSignals['negated'] } {
  const cues: SentenceSignals['cues'] = {};
  const negated: SentenceSignals['negated'] = {};
  for (const key of Object.keys(CUES) as CueCategory[]) {
    const set = CUES[key];
    let hits = 0;
    let negs = 0;
    for (const m of lower.matchAll(set.pattern)) {
      if (set.negatable && negatedAt(lower, m.index ?? 0)) negs++;
      else hits++;
    }
    if (hits > 0) cues[key] = hits;
    if (negs > 0) negated[key] = negs;
  }
  const technical = TECH_CONTEXT_RE.test(lower) || CODE_TOKEN_ONE.test(lower);
  if (technical && TASK_RE.test(lower)) cues.plan = (cues.plan ?? 0) + 1;
  const weak = WEAK_IMPLEMENTATION_RE.exec(lower);
  if (weak && technical) {
    if (negatedAt(lower, weak.index)) negated.implementation = (negated.implementation ?? 0) + 1;
    else cues.implementation = (cues.implementation ?? 0) + 1;
  }
  // A decision is the speaker's (or the team's), stated near the verb: "you chose pottery" reports
  // someone else's choice, and "let's keep going" is encouragement, not a choice.
  if (cues.decision) {
    let owned = 0;
    for (const m of lower.matchAll(CUES.decision.pattern)) {
      const at = m.index ?? 0;
      const lead = lower.slice(Math.max(0, at - 30), at);
      const tail = lower.slice(at + m[0].length, at + m[0].length + 24);
      if (/^\s*(?:[a-z]+ing|it up|up|on|at it|it|each other|in touch)\b/.test(tail) && /\b(?:keep|stick(?:ing)? with|go(?:ing)? with)$/.test(m[0])) continue;
      if (/^(?:we|let|i)\b/.test(m[0]) || IMPERATIVE_RE.test(lower) || DECISION_SUBJECT_RE.test(lead) || /^[\s\p{P}]*(?:(?:so|ok|okay|then|final(?:ly)?|decision)[\s\p{P}]+)?$/u.test(lead)) owned++;
    }
    if (owned > 0) cues.decision = owned;
    else delete cues.decision;
  }
  return { cues, negated };
}

/** Non-global copy for yes/no tests: a global regex's test() carries lastIndex between calls. */
const CODE_TOKEN_ONE = new RegExp(CODE_TOKEN_RE.source);

/** A sentence that starts by telling someone what to use is the speaker's decision. */
const IMPERATIVE_RE = /^[\s\p{P}]*(?:please\s+)?(?:use|switch|go with|stick with|keep|drop|adopt|make|set|change|pick|choose)\b/u;

/** Who can decide: the speaker, the team, or an imperative ("Use X instead", "Switch to Y"). */
const DECISION_SUBJECT_RE = /\b(?:i|we|i'm|we're|i've|we've|i'd|we'd|i'll|we'll|let's|let us|our \w+|the team|everyone|so|and)\s*(?:\w+\s+){0,2}$/;

const NAME_WORD_RE = /(^|[^\p{L}\p{N}'])(\p{Lu}[\p{L}\p{N}'&.-]*)/gu;

function countNames(sentence: string, speakers: ReadonlySet<string>): number {
  let names = 0;
  let lastEnd = -2;
  let first = true;
  for (const m of sentence.matchAll(NAME_WORD_RE)) {
    const word = (m[2] ?? '').replace(/['.-]+$/u, '');
    const start = (m.index ?? 0) + (m[1] ?? '').length;
    const isFirst = first;
    first = false;
    const lower = word.toLowerCase().replace(/'s$/, '');
    // Sentence-initial capitals are grammar; a run of capitalised words is one name.
    if (isFirst && sentence.slice(0, start).trim() === '') continue;
    if (lower.length < 2 || NOT_NAMES.has(lower) || isSpeakerName(lower, speakers)) continue;
    if (/^\p{Lu}+$/u.test(word) && word.length > 5) continue; // SHOUTING, not an acronym
    if (start - lastEnd <= 1) {
      lastEnd = start + word.length;
      continue;
    }
    lastEnd = start + word.length;
    names++;
  }
  return names;
}

const QUESTION_END_RE = /\?["')\]]*[\s\p{Extended_Pictographic}\uFE0F]*$/u;
const QUESTION_START_RE = /^(?:do|does|did|have|has|are|is|was|were|can|could|would|will|should|what|how|why|when|where|who|which|any)\b/;

function classify(s: string, lower: string, selfContent: boolean): SentenceKind {
  const bare = lower.replace(/^[^\p{L}\p{N}]+/u, '');
  if (QUESTION_END_RE.test(s)) {
    // "I moved to Lisbon in May, remember?" is news with a question mark; "Did you move?" asks.
    return selfContent && !QUESTION_START_RE.test(bare) ? 'statement' : 'question';
  }
  if (CHATTER_RE.test(bare)) return 'chatter';
  if (GREETING_RE.test(bare) && !selfContent) return 'greeting';
  if (REACTION_START_RE.test(bare) && !selfContent) return 'reaction';
  return 'statement';
}

export function sentenceSignals(s: string, speakers: ReadonlySet<string>): SentenceSignals {
  const lower = s.toLowerCase();
  const events = count(EVENT_RE, lower);
  const states = count(SELF_STATE_RE, lower);
  const firstPerson = count(FIRST_PERSON_RE, lower);
  const secondPerson = count(SECOND_PERSON_RE, lower);
  // A reaction opener followed by the speaker's own news is news ("Congrats! I moved too, last May").
  const selfContent = events > 0 || states > 0 || /\bmy \w+/.test(lower);
  const kind = classify(s, lower, selfContent);
  let times = count(TIME_RE, lower);
  if (MAY_DATE_RE.test(lower)) times++;
  const { cues, negated } = cueCounts(lower);
  return {
    text: s,
    kind,
    events,
    states,
    firstPerson,
    secondPerson,
    times,
    numbers: count(NUMBER_RE, lower),
    names: countNames(s, speakers),
    codeTokens: count(CODE_TOKEN_RE, s),
    quoted: count(QUOTED_RE, s),
    filler: count(FILLER_RE, lower),
    words: count(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu, s),
    cues,
    negated,
  };
}

/** "ok thanks, the key is in the vault": an opening acknowledgement clause and what follows it. */
const LEADING_ACK_RE = /^([^,;:–—]{1,40}?)\s*[,;:–—]+\s*(\S+(?:\s+\S+){2,}.*)$/su;

/**
 * A sentence's signals. An opening bare acknowledgement followed by something concrete (a name, a
 * number, an identifier, a title, a time) is set aside from what it acknowledges, so "ok thanks,
 * the deploy key is in 1Password" is read as the statement it holds rather than as a reaction.
 */
function sentenceParts(sentence: string, speakers: ReadonlySet<string>): SentenceSignals[] {
  const m = LEADING_ACK_RE.exec(sentence);
  if (m && isBareAcknowledgement(m[1]!, speakers)) {
    const rest = sentenceSignals(m[2]!, speakers);
    if (rest.kind === 'statement' && rest.names + rest.numbers + rest.codeTokens + rest.quoted + rest.times > 0) return [sentenceSignals(m[1]!, speakers), rest];
  }
  return [sentenceSignals(sentence, speakers)];
}

export function turnSignals(text: string, speakers: ReadonlySet<string>): TurnSignals {
  const sentences = splitSentences(text).flatMap((s) => sentenceParts(s, speakers));
  return { sentences, words: sentences.reduce((n, s) => n + s.words, 0) };
}
