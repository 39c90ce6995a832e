// People named in a query. "What are Dave's hobbies?" is about what Dave says, not about every turn
// that says "thanks Dave": the name becomes a preference for Dave's own turns instead of a keyword.
import type { SpeakerCount } from '../store/store.js';
import { tokenize } from './query-terms.js';

/** Lower-case name tokens ("Dave", "Ana Lima" → "ana", "lima") of speakers the query names. */
export function namedSpeakers(query: string, speakers: readonly SpeakerCount[]): { names: Set<string>; tokens: Set<string> } {
  const words = new Set(tokenize(query).map((w) => w.replace(/['’]s$/, '')));
  const names = new Set<string>();
  const tokens = new Set<string>();
  for (const s of speakers) {
    const parts = tokenize(s.name);
    // A speaker called "user" or "assistant" is a role, not a person a question is about.
    if (parts.length === 0 || ROLE_WORDS.has(parts.join(' '))) continue;
    if (parts.some((p) => words.has(p))) {
      names.add(s.name);
      for (const p of parts) if (words.has(p)) tokens.add(p);
    }
  }
  return { names, tokens };
}

const ROLE_WORDS = new Set(['user', 'assistant', 'system', 'tool', 'agent', 'human', 'ai', 'bot', 'me', 'you']);
