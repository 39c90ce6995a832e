// Keys that make two ways of writing the same subject, attribute or value one timeline: "the staging
// DB" and "our staging database" are one subject, "favorite drink" and "Favourite drink" one
// attribute, "port 6543" and "6543" one value. Cheap and predictable on purpose: entity resolution
// (aliases, merges) is the entities part's; these only fold what is the same in every text.

/** Leading words that say whose or which, not what: "the", "our", "my", … English only: "Los Angeles" and "El Salvador" keep theirs. */
const DETERMINERS = /^(?:(?:the|a|an|our|my|your|their|his|her|its|this|that|these|those)(?:\s+|$))+/u;

/** Short forms written often enough that folding them is safe; whole words only. */
const WORD_FORMS: Readonly<Record<string, string>> = {
  db: 'database',
  dbs: 'databases',
  prod: 'production',
  repo: 'repository',
  repos: 'repositories',
  env: 'environment',
  config: 'configuration',
  cfg: 'configuration',
  svc: 'service',
  k8s: 'kubernetes',
  postgres: 'postgresql',
  pg: 'postgresql',
  'node.js': 'node',
  nodejs: 'node',
};

/** Lower case, NFKC, one space, no trailing punctuation, straight apostrophes. */
export function foldText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/gu, "'")
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/[\s.!?;:,]+$/u, '');
}

/**
 * The key facts about one subject share: "the staging DB", "our staging database" and "Staging
 * database's" all give `staging database`. No leading article or possessive, no trailing "'s",
 * short forms (`db`, `prod`, `k8s`, `postgres`, …) spelled out. A thing written in other word
 * orders gets one key: "the Redis cache for Heron", "the Heron Redis cache" and "Heron's redis
 * cache" all give `heron redis cache` (see thingKey). Empty for a subject of only determiners or punctuation.
 */
export function subjectKey(subject: string): string {
  const written = subject.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  const folded = foldText(written).replace(/^["'`([{]+|["'`)\]}]+$/gu, '').replace(DETERMINERS, '').replace(/'s?$/u, '');
  const words = folded
    .split(' ')
    .map((w) => WORD_FORMS[w] ?? w)
    .filter((w) => w !== '');
  return (isProperName(written) ? words : thingKey(words)).join(' ').trim();
}

/** Words that join a thing to what it belongs to: "the cache for Heron", "the port of the API", "redis on staging". */
const OF_WORDS = new Set(['for', 'of', 'on']);
const INNER_DETERMINERS = new Set(['the', 'a', 'an', 'our', 'my', 'your', 'their', 'his', 'her', 'its', 'this', 'that']);

/**
 * A thing's words in one order: the head noun (the last word before "for/of/on", or the last word)
 * stays last, and every other word is a modifier, sorted. So "redis cache for heron" = "heron redis
 * cache" = "redis heron cache", while "staging database replica" (a replica) stays apart from
 * "staging database", and "database backup" from "backup database": the head decides what it is.
 */
function thingKey(words: readonly string[]): string[] {
  const plain = words.map((w) => w.replace(/'s?$/u, '')).filter((w) => w !== '');
  const split = plain.findIndex((w, i) => i > 0 && i < plain.length - 1 && OF_WORDS.has(w));
  const head = split === -1 ? plain.length - 1 : split - 1;
  if (head < 0) return [];
  const modifiers = plain.filter((w, i) => i !== head && !OF_WORDS.has(w) && !INNER_DETERMINERS.has(w)).sort();
  return [...modifiers, plain[head]!];
}

/**
 * A proper name keeps its word order ("Bank of America", "Ana Souza", "Rio de Janeiro"): every
 * word capitalised and not all capitals (API, DB and CI are nouns of a thing), joiners aside.
 */
function isProperName(written: string): boolean {
  const ws = written.replace(DETERMINERS_CASED, '').split(' ').filter((w) => w !== '');
  const content = ws.filter((w) => !/^(?:of|for|on|de|da|do|del|la|le|the|and|&)$/u.test(w));
  return content.length > 0 && content.every((w) => /^[\p{Lu}\p{Lt}][\p{Ll}\p{M}'’.-]/u.test(w) || /^\p{Lo}/u.test(w));
}
const DETERMINERS_CASED = /^(?:(?:the|a|an|our|my|your|their|his|her|its|this|that)\s+)+/iu;

/** Attribute names other extractors (the LLM) write for the ones the offline shapes use. */
const ATTRIBUTE_FORMS: Readonly<Record<string, string>> = {
  'lives in': 'lives in',
  'lives at': 'lives in',
  'lives': 'lives in',
  'live in': 'lives in',
  'residence': 'lives in',
  'city': 'lives in',
  'home city': 'lives in',
  'based in': 'lives in',
  'works at': 'works at',
  'works for': 'works at',
  'work at': 'works at',
  'employer': 'works at',
  'company': 'works at',
  'job title': 'role',
  'title': 'role',
  'position': 'role',
  'job': 'role',
  'occupation': 'role',
  'prefer': 'prefers',
  'preference': 'prefers',
  'preferences': 'prefers',
  'port number': 'port',
  'ports': 'port',
  'hostname': 'host',
  'host name': 'host',
  'version number': 'version',
  'versions': 'version',
  'plan': 'plans',
  'decision': 'decided',
  'decisions': 'decided',
  'decides': 'decided',
  'file path': 'path',
  'location on disk': 'path',
};

/**
 * The normalised attribute: lower case, one space, singular where the offline shapes are singular,
 * `favorite` → `favourite`, and dates of events as `date of <event>` ("launch date", "date of the
 * launch" → `date of launch`).
 */
export function attributeKey(attribute: string): string {
  const a = foldText(attribute).replace(/\bfavou?rites?\b|\bfave\b|\bgo-to\b/gu, 'favourite');
  const dated = /^(?:the\s+)?date\s+of\s+(.+)$/u.exec(a) ?? /^(.+?)\s+date$/u.exec(a);
  if (dated) {
    const event = dated[1]!.replace(DETERMINERS, '').trim();
    return event && event !== 'due' ? `date of ${event}` : 'date';
  }
  const fav = /^(?:my\s+)?favourite\s+(.+)$/u.exec(a);
  if (fav) return `favourite ${fav[1]!.replace(DETERMINERS, '')}`;
  return ATTRIBUTE_FORMS[a] ?? a;
}

/**
 * The form two values are compared in: folded, no quotes, no leading article, no label a value is
 * often written with ("port 6543" = "6543", "version 3.2" = "v3.2" = "3.2"), no trailing slash.
 */
export function valueKey(value: string): string {
  return foldText(value)
    .replace(/^["'`]+|["'`]+$/gu, '')
    .replace(/^(?:the|a|an)\s+/u, '')
    .replace(/^(?:port|version|ver\.?|release)\s*(?=v?\d)/u, '')
    .replace(/^v(?=\d)/u, '')
    .replace(/(?<=.)\/+$/u, '')
    .trim();
}
