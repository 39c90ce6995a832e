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
 * short forms (`db`, `prod`, `k8s`, `postgres`, …) spelled out. Empty for a subject of only
 * determiners or punctuation.
 */
export function subjectKey(subject: string): string {
  const folded = foldText(subject).replace(/^["'`([{]+|["'`)\]}]+$/gu, '').replace(DETERMINERS, '').replace(/'s?$/u, '');
  return folded
    .split(' ')
    .map((w) => WORD_FORMS[w] ?? w)
    .join(' ')
    .trim();
}

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
  const a = foldText(attribute).replace(/\bfavou?rites?\b|\bfave\b/gu, 'favourite');
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
