// The heuristic judge: offline, deterministic, always available. It scores a turn by how much
// specific, durable information the speaker states (events anchored in time, names, numbers,
// commitments, preferences), discounts what only reacts to the other speaker or asks a question,
// and picks a category from cue words with negation handled. The LLM judge falls back to it.
import type { Category } from '../core/types.js';
import {
  CUES, type CueCategory, STOPWORDS, TOOL_ERROR_RE, ZERO_ERRORS_RE,
} from './lexicon.js';
import { isBareAcknowledgement } from './backchannel.js';
import { judgeShort, TRIVIAL_CHARS } from './short-turns.js';
import { type SentenceKind, type SentenceSignals, speakerNameSet, turnSignals } from './signals.js';
import { coerceText, hasWordChars, scanText } from './text.js';
import { type HeuristicWeights, weightAdjustment } from './weights.js';

export { learnWeights, emptyWeights, type HeuristicWeights } from './weights.js';

/** Bumped whenever a rule or weight changes, so stored judgments can be told apart and re-judged. */
export const HEURISTIC_VERSION = 'heuristic-1.1';

export interface JudgeInput {
  text: string;
  /** user | assistant | system | tool | summary */
  role: string;
  speaker: string | null;
  /** ISO time of the turn. */
  timestamp: string;
  kind?: 'message' | 'compaction' | 'tool';
  /** Earlier turns of the same session, oldest first (may be empty). */
  context?: ReadonlyArray<{ role: string; speaker: string | null; text: string }>;
}

export interface Judgment {
  importance: number;
  category: Category;
  /** One line. */
  reason: string;
  judge: 'heuristic';
}

/** Default promotion threshold: turns judged at or above it become memories. */
export const DEFAULT_THRESHOLD = 5;

/** Context turns looked at for novelty: a conversation's last few exchanges. */
const CONTEXT_TURNS = 6;
const CONTEXT_CHARS = 4000;

/** How much of a sentence's information counts, by what the sentence does. */
const KIND_WEIGHT: Record<SentenceKind, number> = { statement: 1, reaction: 0.35, question: 0.35, chatter: 0.15, greeting: 0 };

/**
 * Importance of a substantive turn before any signal: promotion (rounding to 5) needs 0.75 points
 * above it, so a turn needs at least one concrete signal (a time, a name, a number, an answer to a
 * question, or several new topic words) to be kept. Set on LoCoMo conversations 0–4.
 */
const SCORE_BASE = 3.75;

/** Category cue points: a cue is itself a signal that the turn records something durable. */
const CUE_POINTS: Record<CueCategory, number> = {
  decision: 1.2, discovery: 0.6, implementation: 0.6, issue: 0.6, success: 0.4, preference: 0.6, fact: 0.3, plan: 0, feeling: -0.2, philosophy: -0.4,
};

const REMEMBER_RE = /\b(?:remember (?:that|this|to)|don't forget|do not forget|note to self|keep in mind|for (?:future )?reference|important:|for the record|make a note)\b/i;
const SHARE_RE = /\b(?:here's|here is|here are|this is|these are|check out|take a look|look at|attached|sharing)\b[^.!?]{0,40}\b(?:photo|pic|picture|pics|image|screenshot|video|clip|link|drawing|painting|sketch|recording|this)\b/i;
const POSSESSION_RE = /\b(?:my|our) (?!own\b|bad\b|pleasure\b|god\b|goodness\b|gosh\b)[a-z]{3,}/gi;
const STRONG_DECISION_RE = new RegExp(
  '\\b(?:decided|decide to|decision(?: is| was)?(?: to|:)|settled on|opted (?:for|to)|agreed (?:to|on|that)|we agreed|from now on|going forward|' +
    'switch(?:ed|ing)? (?:over )?to|go(?:ing)? with(?! it\\b)|stick(?:ing)? with(?! it\\b)|instead of|rather than|use \\S+ instead|chose|chosen|committed to|approved|signed off|' +
    '(?:^|[.!?]\\s+)(?:please\\s+)?(?:use|switch|go with|stick with|make|set|change|pick|keep)\\b[^.!?\\n]{0,80}\\binstead|' +
    "(?:we(?:'ll| will| shall)|let's|let us) (?:go with|use|switch|move|keep(?! \\w+ing\\b| it up| up\\b| on\\b| at it| each other| in touch)|drop|adopt|stick|ship|migrate|deprecate|remove|replace|launch|release|postpone|cancel|skip|stop|start using|not))\\b",
  'i',
);
/** Discovery wording that explains something, which beats the problem words it explains. */
const STRONG_DISCOVERY_RE = /\b(?:found (?:that|out)|turns? out|turned out|root cause|caused by|the (?:cause|reason|culprit) (?:is|was)|figured out|realized that|realised that|learned that|learnt that|discovered that|til)\b/i;
const RESOLVED_RE = /\b(?:fixed|resolved|solved|patched|worked around|workaround|no longer|anymore|since the fix|after the fix|now (?:works|passes|passing|working)|is working now|works now)\b/i;
const TOOL_CALL_RE = /^→ tool\b/;

const NON_LATIN_MIN_CHARS = TRIVIAL_CHARS;

/** Whether most letters are outside the Latin script (the English cues cannot read the turn). */
function mostlyNonLatin(text: string): boolean {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  return letters > 0 && latin / letters < 0.4;
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

export interface Scored {
  importance: number;
  category: Category;
  reason: string;
}

/** Judges one turn. Never throws: odd input gets a low, safe judgment. */
export function judgeHeuristic(input: JudgeInput, weights?: HeuristicWeights): Judgment {
  let scored: Scored;
  let text = '';
  try {
    const raw = coerceText((input as Partial<JudgeInput> | null | undefined)?.text);
    text = scanText(raw);
    scored = judgeText(input ?? ({} as JudgeInput), text, raw.length);
  } catch (err) {
    scored = { importance: 1, category: 'noise', reason: `unjudgeable input (${err instanceof Error ? err.name : 'error'})` };
  }
  if (weights) {
    try {
      const adj = weightAdjustment(weights, text, scored.category);
      if (adj.points !== 0) {
        const before = scored.importance;
        scored.importance = clamp(Math.round(before + adj.points), 1, 10);
        if (scored.importance !== before) {
          scored.reason += `; feedback ${adj.points > 0 ? '+' : ''}${Math.round(adj.points * 10) / 10}${adj.terms.length ? ` (${adj.terms.slice(0, 3).join(', ')})` : ''}`;
        }
      }
    } catch {
      // Corrupt weights must not stop judging: the unadjusted judgment stands.
    }
  }
  return { importance: scored.importance, category: scored.category, reason: oneLine(scored.reason), judge: 'heuristic' };
}

function oneLine(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function judgeText(input: JudgeInput, text: string, rawLength: number): Scored {
  const role = coerceText(input.role).toLowerCase();
  const kind = input.kind;
  if (text === '' || !hasWordChars(text)) {
    return { importance: 1, category: 'noise', reason: text === '' ? 'empty turn' : 'no words (symbols or emoji only)' };
  }
  if (kind === 'tool' || role === 'tool') return judgeTool(text);
  const speakers = speakerNameSet([input.speaker, ...(Array.isArray(input.context) ? input.context.map((c) => c?.speaker) : [])]);
  const sig = turnSignals(text, speakers);
  if (kind === 'compaction' || role === 'summary') return judgeSummary(sig.sentences, text);
  const bareAck = isBareAcknowledgement(text, speakers);
  if (rawLength < TRIVIAL_CHARS || bareAck) {
    const trivial = judgeShort(text, sig.sentences, bareAck);
    if (trivial) return trivial;
  }
  let scored = judgeSubstantive(input, text, sig.sentences);
  if (scored.importance < DEFAULT_THRESHOLD && rawLength >= NON_LATIN_MIN_CHARS && mostlyNonLatin(text)) {
    // The cues are English; a substantial turn in another script cannot be read, so it is kept
    // rather than lost (an LLM judge, when configured, reads it properly).
    scored = { importance: DEFAULT_THRESHOLD, category: scored.category === 'noise' ? 'fact' : scored.category, reason: 'substantial text in a non-Latin script (the cues are English)' };
  }
  if (role === 'system') {
    // System prompts are standing instructions the agent already carries; they are not news.
    return { ...scored, importance: Math.min(scored.importance, 3), reason: `system message; ${scored.reason}` };
  }
  return scored;
}

/** Tool activity is routine unless it failed; a failure is an issue worth keeping. */
function judgeTool(text: string): Scored {
  if (TOOL_CALL_RE.test(text) && !text.includes('\n')) return { importance: 1, category: 'noise', reason: 'tool call' };
  const cleaned = text.replace(ZERO_ERRORS_RE, '');
  if (TOOL_ERROR_RE.test(cleaned)) {
    const specific = /\b(?:[A-Z][a-zA-Z]*(?:Error|Exception)|E[A-Z]{3,}|exit(?:ed)? (?:code|status) [1-9]\d*|\d+ (?:failed|failing|errors?))\b|\((?:error|failed)\)/.test(cleaned);
    return { importance: specific ? 5 : 4, category: 'issue', reason: `tool output reports a failure${specific ? ' (named error or exit code)' : ''}` };
  }
  if (/\b(?:passed|passing|succeeded|success(?:ful)?|deployed|published|merged|all tests pass|0 failed)\b/i.test(text)) {
    return { importance: 3, category: 'success', reason: 'tool output reports success' };
  }
  return { importance: 2, category: 'noise', reason: 'routine tool output' };
}

/** Compaction summaries restate the session: searchable, low importance, but categorised. */
function judgeSummary(sentences: SentenceSignals[], text: string): Scored {
  const { category } = pickCategory(sentences, text);
  const cat: Category = category ?? 'fact';
  const weighty = cat === 'decision' || cat === 'issue' || cat === 'plan';
  return { importance: weighty ? 4 : 3, category: cat, reason: `compaction summary (${cat})` };
}

/**
 * The numbers a substantive turn is scored on. Sentence-level signals are summed with each
 * sentence weighted by what it does ({@link KIND_WEIGHT}) and then capped, so that one long list of
 * names or dates cannot outweigh everything else.
 */
export interface TurnFeatures {
  /** First-person past or perfect events ("I went", "we've moved"). */
  event: number;
  /** First-person states and habits ("I'm a nurse", "I have two cats"). */
  state: number;
  /** First-person ongoing activities ("I'm training for", "we've been building"). */
  activity: number;
  time: number;
  number: number;
  name: number;
  code: number;
  quoted: number;
  /** "my sister", "our repo": the speaker's own people and things. */
  possession: number;
  /** Content words the recent context has not used yet, in units of four words. */
  novel: number;
  /** The previous turn by someone else asked a question and this one states something. */
  answer: number;
  /** The turn shows or shares something ("here's a photo of…", "attached is…"). */
  share: number;
  /** The speaker asks for it to be kept ("remember that…", "note to self"). */
  remember: number;
  /** Sentences that only react to the other speaker, greet, or ask. */
  reactions: number;
  questions: number;
  /** Statements addressed to the other speaker ("you're so brave") rather than about the speaker. */
  aboutYou: number;
  /** Share of vague filler words in the turn, above a floor. */
  filler: number;
}

/** Importance points per unit of each feature. Chosen by hand for generality; see bench/judge-locomo.ts. */
export const FEATURE_WEIGHTS: Readonly<Record<keyof TurnFeatures, number>> = {
  event: 0.6,
  state: 0.1,
  activity: 0.1,
  time: 0.9,
  number: 0.8,
  name: 1.0,
  code: 0.5,
  quoted: 0.4,
  possession: 0.2,
  novel: 0.8,
  answer: 0.8,
  share: 0.8,
  remember: 2,
  reactions: -0.2,
  questions: -0.15,
  aboutYou: -0.3,
  filler: -0.6,
};

const FEATURE_CAPS: Partial<Record<keyof TurnFeatures, number>> = {
  event: 2, state: 2, activity: 2, time: 2, number: 2, name: 3, code: 3, quoted: 1, possession: 2, novel: 2, reactions: 3, questions: 3, aboutYou: 2, filler: 1,
};

const FEATURE_LABELS: Partial<Record<keyof TurnFeatures, string>> = {
  event: 'an event', state: 'a first-person state', activity: 'an ongoing activity', time: 'a time', number: 'numbers', name: 'names',
  code: 'identifiers', quoted: 'a title', novel: 'new topic words', answer: 'answers a question', share: 'shares something', remember: 'asks to be remembered',
};

const ACTIVITY_RE = /\b(?:i'm|i am|we're|we are|i've been|we've been|been) (?:\w+ )?(?!going\b|gonna\b)[a-z]{2,}ing\b/g;

export function turnFeatures(input: JudgeInput, text: string, sentences: SentenceSignals[]): TurnFeatures {
  const f: TurnFeatures = {
    event: 0, state: 0, activity: 0, time: 0, number: 0, name: 0, code: 0, quoted: 0, possession: 0, novel: 0, answer: 0, share: 0, remember: 0,
    reactions: 0, questions: 0, aboutYou: 0, filler: 0,
  };
  let statementText = '';
  let statements = 0;
  let fillerWords = 0;
  let words = 0;
  for (const s of sentences) {
    const w = KIND_WEIGHT[s.kind];
    const lower = s.text.toLowerCase();
    f.event += w * s.events;
    f.state += w * s.states;
    f.activity += w * (lower.match(ACTIVITY_RE)?.length ?? 0);
    f.time += w * s.times;
    f.number += w * s.numbers;
    f.name += w * s.names;
    f.code += w * s.codeTokens;
    f.quoted += w * s.quoted;
    f.possession += w * (lower.match(POSSESSION_RE)?.length ?? 0);
    if (s.kind === 'statement') {
      statements++;
      statementText += ` ${s.text}`;
      if (s.secondPerson > 0 && s.firstPerson === 0) f.aboutYou++;
    } else if (s.kind === 'question') f.questions++;
    else if (s.kind !== 'chatter') f.reactions++;
    fillerWords += s.filler;
    words += s.words;
  }
  const hasContext = Array.isArray(input.context) && input.context.some((c) => typeof c?.text === 'string' && c.text.trim() !== '');
  // Without context every word looks new, so novelty says little: count it at about two thirds.
  f.novel = (novelTerms(statementText, input.context) / 4) * (hasContext ? 1 : 0.7);
  const previous = lastOther(input);
  if (previous && statements > 0 && /\?\s*["')\]]?[\p{Extended_Pictographic}\s]*$/u.test(previous.text.slice(-200))) f.answer = 1;
  if (SHARE_RE.test(text)) f.share = 1;
  if (REMEMBER_RE.test(text)) f.remember = 1;
  const fillerRatio = words >= 8 ? fillerWords / words : 0;
  f.filler = Math.max(0, (fillerRatio - 0.15) * 4);
  for (const key of Object.keys(FEATURE_CAPS) as Array<keyof TurnFeatures>) f[key] = Math.min(f[key], FEATURE_CAPS[key]!);
  return f;
}

function judgeSubstantive(input: JudgeInput, text: string, sentences: SentenceSignals[]): Scored {
  const role = coerceText(input.role).toLowerCase();
  const f = turnFeatures(input, text, sentences);
  const kinds: Record<SentenceKind, number> = { statement: 0, reaction: 0, question: 0, chatter: 0, greeting: 0 };
  for (const s of sentences) kinds[s.kind]++;
  let points = 0;
  const contributions: Array<[string, number]> = [];
  for (const key of Object.keys(f) as Array<keyof TurnFeatures>) {
    const p = f[key] * FEATURE_WEIGHTS[key];
    points += p;
    const label = FEATURE_LABELS[key];
    if (label && p >= 0.5) contributions.push([label, p]);
  }
  const parts = contributions.sort((a, b) => b[1] - a[1]).slice(0, 4).map(([l]) => l);

  const picked = pickCategory(sentences, text);
  let category: Category;
  if (picked.category) {
    category = picked.category;
    points += CUE_POINTS[picked.category as CueCategory] ?? 0;
  } else if (kinds.statement === 0 || (kinds.reaction + kinds.greeting + kinds.question > kinds.statement * 2 && points < 1.5)) {
    category = kinds.reaction > 0 ? 'acknowledgement' : 'noise';
  } else {
    category = 'fact';
  }
  let cue = picked.cue;
  if (category === 'fact' && mentionsLaterDate(text, input.timestamp)) {
    category = 'plan';
    cue = 'a later date';
  }

  // Agent chatter: a turn that only announces work ("Let me check…") has nothing to remember yet.
  const chatterOnly = kinds.chatter > 0 && kinds.statement === 0;
  if (chatterOnly || (role === 'assistant' && sentences.length > 0 && sentences[0]!.kind === 'chatter' && points < 2)) {
    return { importance: clamp(Math.round(1 + points / 2), 1, 3), category: chatterOnly || !picked.category ? 'noise' : category, reason: `agent chatter${parts.length ? ` (${parts.join(', ')})` : ''}` };
  }
  if (kinds.statement === 0) points = Math.min(points, 1.5);

  let importance = clamp(Math.round(SCORE_BASE + points), 1, 9);
  if (category === 'decision') {
    const specific = f.name + f.number + f.time + f.code >= 2;
    importance = specific ? 8 : 7;
  }
  if (category === 'noise') importance = Math.min(importance, 3);
  if (category === 'acknowledgement') importance = Math.min(importance, 4);
  if (category === 'philosophy') importance = Math.min(importance, 6);
  const reason = `${category}${cue ? ` ("${cue}")` : ''}${parts.length ? `: ${parts.join(', ')}` : ''}`;
  return { importance, category, reason };
}

const MONTH_INDEX: Record<string, number> = {
  jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11,
};
const ISO_DATE_RE = /\b(20\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b/g;
const DAY_MONTH_YEAR_RE = /\b(\d{1,2})(?:st|nd|rd|th)? (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*,? (20\d\d)\b/gi;
const MONTH_DAY_YEAR_RE = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* (\d{1,2})(?:st|nd|rd|th)?,? (20\d\d)\b/gi;

/** Whether the text names a full calendar date after the turn's own day: a statement about the future. */
function mentionsLaterDate(text: string, timestamp: unknown): boolean {
  const now = Date.parse(typeof timestamp === 'string' ? timestamp : '');
  if (!Number.isFinite(now)) return false;
  const day = Math.floor(now / 86_400_000);
  const later = (y: number, m: number, d: number): boolean => Math.floor(Date.UTC(y, m, d) / 86_400_000) > day;
  for (const m of text.matchAll(ISO_DATE_RE)) if (later(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) return true;
  for (const m of text.matchAll(DAY_MONTH_YEAR_RE)) if (later(Number(m[3]), MONTH_INDEX[m[2]!.toLowerCase().slice(0, 3)]!, Number(m[1]))) return true;
  for (const m of text.matchAll(MONTH_DAY_YEAR_RE)) if (later(Number(m[3]), MONTH_INDEX[m[1]!.toLowerCase().slice(0, 3)]!, Number(m[2]))) return true;
  return false;
}

/** The most recent context turn by someone else (or any turn when speakers are unknown). */
function lastOther(input: JudgeInput): { text: string } | null {
  const ctx = Array.isArray(input.context) ? input.context : [];
  for (let i = ctx.length - 1; i >= Math.max(0, ctx.length - 2); i--) {
    const c = ctx[i];
    if (!c || typeof c.text !== 'string') continue;
    if (input.speaker && c.speaker === input.speaker && c.role === input.role) continue;
    return { text: c.text };
  }
  return null;
}

/** Content words of the statements that the recent context has not mentioned yet: new information. */
function novelTerms(statementText: string, context: JudgeInput['context']): number {
  if (statementText === '') return 0;
  const ctx = Array.isArray(context) ? context.slice(-CONTEXT_TURNS) : [];
  const seen = ctx.map((c) => contextStems(typeof c?.text === 'string' ? c.text : ''));
  const fresh = new Set<string>();
  for (const m of statementText.toLowerCase().matchAll(/[a-z][a-z']{3,}/g)) {
    const w = m[0];
    if (STOPWORDS.has(w) || FILLER_WORDS.has(w)) continue;
    const s = stem(w);
    if (!seen.some((set) => set.has(s))) fresh.add(s);
    if (fresh.size >= 12) break;
  }
  return fresh.size;
}

/**
 * The stems of a context turn's words, kept for the turns judged after it: each turn is context of
 * the CONTEXT_TURNS after it, and stemming a long message's 4,000 characters again for each was
 * most of judging it (2.6 ms a long agent message). A few sessions' worth are kept, oldest dropped first.
 */
const recentContextStems = new Map<string, ReadonlySet<string>>();
const CONTEXT_STEMS_KEPT = 64;

function contextStems(text: string): ReadonlySet<string> {
  const known = recentContextStems.get(text);
  if (known) return known;
  const stems = new Set<string>();
  for (const m of text.slice(0, CONTEXT_CHARS).toLowerCase().matchAll(/[a-z][a-z']{3,}/g)) stems.add(stem(m[0]));
  if (recentContextStems.size >= CONTEXT_STEMS_KEPT) recentContextStems.delete(recentContextStems.keys().next().value!);
  recentContextStems.set(text, stems);
  return stems;
}

const FILLER_WORDS = new Set(
  'really just very totally super pretty literally basically actually honestly stuff thing things awesome amazing cool great nice wow haha glad happy sounds looks thanks thank'
    .split(' '),
);

function stem(w: string): string {
  return w.replace(/'s$/, '').replace(/(?:ing|ed|es|s)$/, '');
}

/** Cue priority when a turn has several: what it settles beats what it reports, which beats how it feels. */
const PRIORITY: CueCategory[] = ['decision', 'issue', 'implementation', 'success', 'discovery', 'plan', 'preference', 'fact', 'feeling', 'philosophy'];

function pickCategory(sentences: SentenceSignals[], text: string): { category: Category | null; cue: string | null } {
  const score: Partial<Record<CueCategory, number>> = {};
  let negatedIssue = 0;
  for (const s of sentences) {
    const w = s.kind === 'statement' ? 1 : s.kind === 'question' ? 0.3 : s.kind === 'reaction' ? 0.5 : 0.2;
    for (const key of PRIORITY) {
      const n = s.cues[key] ?? 0;
      if (n > 0) score[key] = (score[key] ?? 0) + w * n;
    }
    negatedIssue += s.negated.issue ?? 0;
  }
  const lower = text.toLowerCase();
  const has = (k: CueCategory, min = 0.5): boolean => (score[k] ?? 0) >= min;
  // Only decision wording counts: a bare "we will" or "let's" is a plan or encouragement.
  if (has('decision') && STRONG_DECISION_RE.test(lower)) return { category: 'decision', cue: firstCue('decision', lower) };
  if (has('discovery') && STRONG_DISCOVERY_RE.test(lower)) return { category: 'discovery', cue: firstCue('discovery', lower) };
  // A fixed problem is an implementation; a problem still open is an issue; one that is gone is a success.
  if (negatedIssue > 0 && !has('issue') && RESOLVED_RE.test(lower)) return { category: 'success', cue: 'no longer failing' };
  if (has('issue') && RESOLVED_RE.test(lower)) return { category: has('success', 1) && !has('implementation') ? 'success' : 'implementation', cue: firstCue('implementation', lower) ?? 'fixed' };
  if (has('issue', 1) && !(negatedIssue > 0 && (score.issue ?? 0) < 2)) return { category: 'issue', cue: firstCue('issue', lower) };
  if (has('implementation') && (has('implementation', 1) || /\b(?:i|we)\b/.test(lower))) return { category: 'implementation', cue: firstCue('implementation', lower) };
  if (has('success', 1) || (has('success') && negatedIssue > 0)) return { category: 'success', cue: firstCue('success', lower) ?? 'no errors' };
  if (has('discovery')) return { category: 'discovery', cue: firstCue('discovery', lower) };
  if (has('plan') && (has('plan', 1) || /\b(?:i|we|i'm|we're|i'll|we'll)\b/.test(lower))) return { category: 'plan', cue: firstCue('plan', lower) };
  if (has('preference') && /\b(?:i|i'd|i'm|my|we|please|always|never)\b/.test(lower)) return { category: 'preference', cue: firstCue('preference', lower) };
  if (has('fact')) return { category: 'fact', cue: firstCue('fact', lower) };
  if (has('feeling', 1)) return { category: 'feeling', cue: firstCue('feeling', lower) };
  if (has('philosophy')) return { category: 'philosophy', cue: firstCue('philosophy', lower) };
  if (has('issue')) return { category: 'issue', cue: firstCue('issue', lower) };
  if (has('feeling')) return { category: 'feeling', cue: firstCue('feeling', lower) };
  return { category: null, cue: null };
}

/** Non-global copies of the cue patterns, for finding the first cue to quote in a reason. */
const FIRST_CUE: Record<CueCategory, RegExp> = Object.fromEntries(
  (Object.keys(CUES) as CueCategory[]).map((k) => [k, new RegExp(CUES[k].pattern.source, 'i')]),
) as Record<CueCategory, RegExp>;

function firstCue(key: CueCategory, lower: string): string | null {
  const m = FIRST_CUE[key].exec(lower);
  return m ? m[0].slice(0, 40) : null;
}

/** For callers that only need the promotion decision. */
export function isPromoted(judgment: Pick<Judgment, 'importance'>, threshold = DEFAULT_THRESHOLD): boolean {
  return judgment.importance >= threshold;
}
