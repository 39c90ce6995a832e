// Offline entity extraction: the names a memory's text gives, each with a type and a confidence
// fixed per rule. Deterministic, linear in the text (every pattern is bounded; texts are capped),
// and it never throws on what people paste (HTML, control characters, emoji, a wall of symbols).
//
// Rules, strongest first (a name found by several keeps the most confident reading, and any
// relation): the speaker (a person, 0.95); repositories (GitHub/GitLab URLs 0.9, `owner/repo`
// 0.6–0.8), @handles (persons, 0.8), file paths (topics, 0.55), code identifiers (tools,
// 0.55–0.7) — code-refs.ts; relationships ("my sister Ana", persons or organisations, 0.9) —
// relations.ts; projects ("project Atlas", "the Atlas project" 0.8, "working on Atlas" 0.65);
// caseless-script names (honorifics, "叫…", quoted names) — unicase.ts; known tools in any case
// (0.85) — known-names.ts; capitalised names (persons, places, organisations, 0.4–0.85) — names.ts.
//
// Not found: lower-case names ("talked to ana"), single-word names that start a sentence and
// appear nowhere else capitalised with no verb after ("Ana. She…"), names that are also month
// names ("April", "June"), bare names in Chinese or Japanese running text.
import type { ExtractionContext, EntityMention } from '../contracts.js';
import { gazetteer, type Gazetteer } from '../../places/gazetteer.js';
import { aliasKey } from './aliases.js';
import { addressRanges, blank, codeRefs, type Found } from './code-refs.js';
import { isCommonWord } from './common-words.js';
import { knownName } from './known-names.js';
import { capitalisedNames } from './names.js';
import { relationNames } from './relations.js';
import { unicaseNames } from './unicase.js';

/** Raise when the rules change: the pass can re-read memories extracted by an older version. */
export const ENTITY_EXTRACTOR_VERSION = 1;
/** Text beyond this is not read: a pasted document names its entities early or is not a memory to mine. */
export const MAX_ENTITY_TEXT = 20_000;
/** At most this many mentions per text, first named first. */
export const MAX_MENTIONS = 48;

export interface ExtractOptions {
  /** The place names (tests pass a small one); loaded on first use otherwise. */
  places?: () => Gazetteer;
}

const ROLE_NAMES = new Set(['user', 'assistant', 'system', 'tool', 'agent', 'human', 'ai', 'bot', 'me', 'you', 'unknown', 'model']);
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b\u202a-\u202e\u2066-\u2069]/g;
const TAG = /<\/?[A-Za-z][^<>]{0,200}>/g;
const NAME_TOKEN = "\\p{Lu}(?:[\\p{L}\\p{N}'’-]|\\.(?=\\p{L}))*";
const CAPITALISED_NAME = `${NAME_TOKEN}(?: ${NAME_TOKEN}){0,2}`;
const CODE_NAME = '[a-z][\\w.-]*[-_\\d][\\w.-]*|`[^`\\s]{1,40}`';
const PROJECT_NAMED = new RegExp(`\\b[Pp]roject\\s+(${CAPITALISED_NAME}|${CODE_NAME})`, 'gu');
const THE_X_PROJECT = new RegExp(`\\b[Tt]he\\s+(${CAPITALISED_NAME}|${CODE_NAME})\\s+project\\b`, 'gu');
const WORKING_ON = new RegExp(`\\b(?:working on|worked on|work on|building|launched|launching|shipping|maintaining)\\s+(${CAPITALISED_NAME}|\`[^\`\\s]{1,40}\`)`, 'gu');
const LOWER_WORD = /(?<![\p{L}\p{N}@/.])[\p{Ll}\p{N}](?:[\p{L}\p{N}]|[.+#-](?=[\p{L}\p{N}]))*/gu;

/** The entities a text names. */
export function extractEntities(text: string, ctx: ExtractionContext, options: ExtractOptions = {}): EntityMention[] {
  if (typeof text !== 'string') return [];
  const places = options.places ?? gazetteer;
  const clean = text.slice(0, MAX_ENTITY_TEXT).replace(TAG, ' ').replace(CONTROL, ' ');
  const found: Found[] = [];
  const speaker = typeof ctx.speaker === 'string' ? ctx.speaker.replace(CONTROL, '').trim() : '';
  if (speaker && speaker.length <= 80 && !ROLE_NAMES.has(speaker.toLowerCase()) && aliasKey(speaker)) {
    found.push({ name: speaker, type: 'person', confidence: 0.95, start: -1, end: -1 });
  }
  const code = codeRefs(clean);
  found.push(...code);
  const prose = blank(clean, [...code, ...addressRanges(clean)]);
  found.push(...relationNames(prose), ...projectNames(prose), ...unicaseNames(prose), ...lowerCaseTools(prose));
  const knownWords = new Set<string>();
  for (const n of [speaker, ...(ctx.userNames ?? [])]) for (const w of aliasKey(n).split(' ')) if (w) knownWords.add(w);
  found.push(...capitalisedNames(prose, { knownWords, places }));
  return merge(found);
}

function projectNames(text: string): Found[] {
  const out: Found[] = [];
  const add = (m: RegExpMatchArray, confidence: number): void => {
    const name = m[1]!.replace(/^`|`$/g, '').replace(/['’]s$/u, '').replace(/[.'’-]+$/u, '');
    if (!name || isCommonWord(name) || knownName(name)) return;
    const start = m.index! + m[0].indexOf(m[1]!);
    out.push({ name, type: 'project', confidence, start, end: start + m[1]!.length });
  };
  for (const m of text.matchAll(PROJECT_NAMED)) add(m, 0.8);
  for (const m of text.matchAll(THE_X_PROJECT)) add(m, 0.8);
  for (const m of text.matchAll(WORKING_ON)) add(m, 0.65);
  return out;
}

/** Tools written in lower case ("we moved to postgres", "the docker image"); capitalised ones are read as names. */
function lowerCaseTools(text: string): Found[] {
  const out: Found[] = [];
  for (const m of text.matchAll(LOWER_WORD)) {
    const word = m[0].replace(/[.-]+$/, '');
    const known = knownName(word);
    if (known) out.push({ name: known.name, type: known.type, confidence: 0.85, start: m.index, end: m.index + word.length });
  }
  return out;
}

/** Cuts a name at its first common word ("Bob I" → "Bob"); '' when it starts with one. */
function trimName(f: Found): string {
  if (f.type !== 'person' && f.type !== 'organization') return f.name.trim();
  const words = f.name.trim().split(/\s+/);
  const kept: string[] = [];
  for (const w of words) {
    if (isCommonWord(w) && !(kept.length > 0 && /^\p{Ll}/u.test(w) && w.length <= 3)) break;
    kept.push(w);
  }
  while (kept.length > 0 && /^\p{Ll}/u.test(kept.at(-1)!)) kept.pop();
  return kept.join(' ');
}

/** One mention per alias key: the most confident reading's name and type, the first relation stated, in order of position. */
function merge(found: Found[]): EntityMention[] {
  const byKey = new Map<string, { mention: EntityMention; start: number }>();
  for (const f of found) {
    const name = trimName(f);
    const key = aliasKey(name);
    if (!key || name.length > 120 || (f.type !== 'tool' && isCommonWord(key))) continue;
    const known = byKey.get(key);
    if (!known) {
      byKey.set(key, { mention: { name, type: f.type, confidence: f.confidence, ...(f.relation ? { relation: f.relation } : {}) }, start: f.start });
      continue;
    }
    const m = known.mention;
    if (f.confidence > m.confidence) {
      m.name = name;
      m.type = f.type;
      m.confidence = f.confidence;
    }
    if (f.relation && !m.relation) m.relation = f.relation;
    known.start = Math.min(known.start, f.start);
  }
  return [...byKey.values()]
    .sort((a, b) => a.start - b.start)
    .slice(0, MAX_MENTIONS)
    .map((v) => v.mention);
}
