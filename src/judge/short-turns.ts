// Short turns (under TRIVIAL_CHARS), and bare acknowledgements of any length: the calibration says a
// short message is kept only for real sentiment, a request to remember, or an acknowledgement with
// something in it; fillers, emoji and backchannel ("ok thanks", "sounds good") are not memories.
import { ACK_RE, NEGATOR_RE, NOISE_ONLY_RE, SENTIMENT_RE } from './lexicon.js';
import type { Scored } from './heuristic.js';
import type { SentenceSignals } from './signals.js';

/** Below this many characters a turn is "trivial" unless it carries sentiment, acknowledgement or content. */
export const TRIVIAL_CHARS = 50;

/** A sentence that opens by asking to keep something: "Remember the…", "Please note…", "Don't forget…". */
const REMEMBER_REQUEST_RE = /(?:^|[.!]\s+)(?:please\s+|pls\s+)?(?:remember|note|don't forget|do not forget|keep in mind)\b(?!\s+(?:when|how|if|why|what|who|where)\b)/i;
const EMOJI_ONLY_RE = /^[\p{Extended_Pictographic}\p{Emoji_Component}\p{Emoji_Modifier}\u200D\uFE0F\s\p{P}]+$/u;

/**
 * Short turns. The calibration: fillers ("ok", "thanks", "sure") are noise, and so is any other bare
 * acknowledgement ("ok thanks", "sounds good", "haha yes please 👍"): thanks, agreement, laughter
 * and politeness alone are never memories. Sentiment with something more keeps a turn (6),
 * acknowledgement words with something more keep it at the threshold (5); anything else short is
 * skipped (≤ 3) unless it states content, which goes through the substantive path instead (returns
 * null).
 */
export function judgeShort(text: string, sentences: SentenceSignals[], bareAck: boolean): Scored | null {
  const bare = text.toLowerCase().replace(/[\p{Extended_Pictographic}\p{Emoji_Component}\u200D\uFE0F]/gu, '').replace(/[^\p{L}\p{N}' ]+/gu, ' ').replace(/\s+/g, ' ').trim();
  // "Thanks, Mel!" is a filler with a vocative: drop one trailing capitalised word before testing.
  const withoutName = text.replace(/[,\s]+\p{Lu}[\p{L}'-]*[\s!.?]*$/u, '').toLowerCase().replace(/[^\p{L}\p{N}' ]+/gu, ' ').replace(/\s+/g, ' ').trim();
  if (bare === '' || EMOJI_ONLY_RE.test(text)) return { importance: 2, category: 'noise', reason: 'emoji or punctuation only' };
  if (NOISE_ONLY_RE.test(bare) || NOISE_ONLY_RE.test(withoutName)) return { importance: 1, category: 'noise', reason: 'filler' };
  if (bareAck) return { importance: 2, category: 'acknowledgement', reason: 'bare acknowledgement (thanks, agreement, laughter or politeness only)' };
  if (hasContent(sentences)) return null;
  const lower = text.toLowerCase();
  // An explicit request to keep something ("Remember the staging port", "Don't forget the keys")
  // is the clearest signal a person can give, however short.
  if (REMEMBER_REQUEST_RE.test(text) && !sentences.every((s) => s.kind === 'question')) {
    return { importance: 6, category: 'fact', reason: 'short turn asking to be remembered' };
  }
  const sentiment = matchUnnegated(SENTIMENT_RE, lower);
  if (sentiment) return { importance: 6, category: 'feeling', reason: `short turn with sentiment ("${sentiment}")` };
  const allQuestions = sentences.every((s) => s.kind === 'question');
  const ack = allQuestions ? null : matchUnnegated(ACK_RE, lower);
  if (ack) return { importance: 5, category: 'acknowledgement', reason: `short acknowledgement ("${ack}")` };
  if (ACK_RE.test(lower) && NEGATOR_RE.test(lower)) return { importance: 3, category: 'issue', reason: 'short disagreement' };
  return { importance: allQuestions ? 3 : 2, category: 'noise', reason: allQuestions ? 'short question' : 'short turn without content' };
}

/** Whether a short turn states something concrete enough to judge on its content. */
function hasContent(sentences: SentenceSignals[]): boolean {
  for (const s of sentences) {
    if (s.kind !== 'statement') continue;
    if (s.names + s.numbers + s.times + s.codeTokens + s.quoted > 0) return true;
    if (s.events > 0 && s.words >= 4) return true;
    if ((s.cues.decision ?? 0) + (s.cues.fact ?? 0) + (s.cues.preference ?? 0) + (s.cues.issue ?? 0) > 0 && s.words >= 4) return true;
  }
  return false;
}

function matchUnnegated(re: RegExp, lower: string): string | null {
  const m = re.exec(lower);
  if (!m) return null;
  const before = lower.slice(Math.max(0, m.index - 25), m.index);
  const window = before.split(/[,;.!?]/).pop() ?? '';
  if (NEGATOR_RE.test(window.split(/\s+/).slice(-3).join(' '))) return null;
  return m[0];
}
