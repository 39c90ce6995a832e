// Who a query is about. "What are Dave's hobbies?" is about what Dave says, not about every turn
// that says "thanks Dave": the name becomes a preference for Dave's own turns instead of a keyword.
// A question in the first person ("what did I decide about the port?") is asked by the person
// the agent works for, the `user` of the transcripts; one in the second person only ("what did
// you recommend?") asks about the agent's own turns.
import type { SpeakerCount } from '../store/store.js';
import { tokenize } from './query-terms.js';

export interface QueryPeople {
  /** Speaker names the query mentions. */
  names: Set<string>;
  /** Their lower-case name tokens as the query spells them. */
  tokens: Set<string>;
  /**
   * When no speaker is named: the transcript role a first- or second-person query is about
   * (`user` or `assistant`), else null.
   */
  role: 'user' | 'assistant' | null;
}

/** Speakers the query names ("Dave", "Ana Lima" → tokens "ana", "lima"), or the role its pronouns point at. */
export function namedSpeakers(query: string, speakers: readonly SpeakerCount[]): QueryPeople {
  const all = tokenize(query);
  const words = new Set(all.map((w) => w.replace(/['’]s$/, '')));
  // The query's few words looked up in the speakers' tokens, not thousands of names walked.
  const index = nameIndex(speakers);
  const found: NameToken[] = [];
  for (const w of words) for (const t of index.get(w) ?? []) found.push(t);
  // In the order walking every speaker's tokens finds them: speakers' order, then their tokens'.
  found.sort((a, b) => a.speaker - b.speaker || a.part - b.part);
  const names = new Set<string>();
  const tokens = new Set<string>();
  for (const t of found) {
    names.add(t.name);
    tokens.add(t.token);
  }
  return { names, tokens, role: names.size > 0 ? null : pronounRole(all) };
}

/** A token of a speaker's name: which speaker (their place in the list), which token of the name. */
interface NameToken {
  speaker: number;
  part: number;
  name: string;
  token: string;
}

/**
 * Each name token of a speaker list → where it occurs, kept per list: the SQLite store gives every
 * search the same list until a write (up to thousands of speakers at 50k chat turns, asked twice a
 * search: the query's focus, the speaker factor).
 */
const nameIndexes = new WeakMap<readonly SpeakerCount[], Map<string, NameToken[]>>();

function nameIndex(speakers: readonly SpeakerCount[]): Map<string, NameToken[]> {
  let index = nameIndexes.get(speakers);
  if (index) return index;
  index = new Map();
  speakers.forEach((s, speaker) => {
    const parts = personTokens(s.name);
    if (parts === null) return;
    parts.forEach((token, part) => {
      let at = index!.get(token);
      if (!at) index!.set(token, (at = []));
      at.push({ speaker, part, name: s.name, token });
    });
  });
  // Only a frozen list is kept: one a caller may still change would leave its index stale.
  if (Object.isFrozen(speakers)) nameIndexes.set(speakers, index);
  return index;
}

/**
 * Speakers' names as tokens, kept across searches: a namespace of chat turns has hundreds or
 * thousands of speakers, and tokenizing every name twice per search (the query's focus, the
 * speaker factor) cost ~1 ms of a search on 50k turns. Null for a speaker called "user" or
 * "assistant" (a role, not a person a question is about) and for a name without tokens. A pure
 * function of the name.
 */
const NAME_TOKENS_MAX = 20_000;
const personCache = new Map<string, readonly string[] | null>();

function personTokens(name: string): readonly string[] | null {
  let parts = personCache.get(name);
  if (parts === undefined) {
    const tokens = tokenize(name);
    parts = tokens.length === 0 || ROLE_WORDS.has(tokens.join(' ')) ? null : tokens;
    personCache.set(name, parts);
    if (personCache.size > NAME_TOKENS_MAX) personCache.delete(personCache.keys().next().value!);
  }
  return parts;
}

/** Whether a turn or memory of this speaker and role is one the query is about. */
export function isAbout(people: QueryPeople, speaker: string | undefined, role: string | undefined): boolean {
  if (people.names.size > 0) return speaker !== undefined && people.names.has(speaker);
  if (people.role === null) return false;
  // Entries with no role (stored memories, documents) are the user's own notes as much as theirs.
  return role === undefined || role === people.role;
}

function pronounRole(all: readonly string[]): 'user' | 'assistant' | null {
  // "Can you remind me…" is a request to the agent, not a question about what it said.
  // So is the "me" of "tell me", "show me": it names the asker, not what the question is about.
  const words = REQUEST.has(all[0] ?? '') && all[1] === 'you' ? all.slice(2) : all;
  const first = words.some((w, i) => FIRST_PERSON.has(w.replace(/’/g, "'")) && !(w === 'me' && ASKING.has(words[i - 1] ?? '')));
  const second = words.some((w) => SECOND_PERSON.has(w.replace(/’/g, "'")));
  if (first === second) return null;
  return first ? 'user' : 'assistant';
}

const REQUEST = new Set(['can', 'could', 'would', 'will']);
const ASKING = new Set(['tell', 'remind', 'show', 'give', 'let']);
const ROLE_WORDS = new Set(['user', 'assistant', 'system', 'tool', 'agent', 'human', 'ai', 'bot', 'me', 'you']);
const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'myself', "i'm", "i've", "i'd", "i'll"]);
const SECOND_PERSON = new Set(['you', 'your', 'yours', 'yourself', "you're", "you've", "you'd", "you'll"]);
