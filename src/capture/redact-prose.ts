// Secrets said in words: "the wifi password is …", "my PIN is 4821", "router login: admin / …",
// "our datadog api key: <hex>". A credential noun (with what it is for), a copula, then one value;
// the value must look like what the noun names, so "the password is wrong" and "the password
// reset email is sent" stay as written.
import type { Span } from './redact-kinds.js';
import { isCredentialShaped, isPathOrUrl, isPlaceholder, isReference, looksRandom } from './redact-values.js';

const PASSWORD_WORDS =
  'pass(?:word|wd|code|phrase)s?|pwd|pw|pin(?:[ \\t]?code)?|puk|requirepass|masterauth|identified[ \\t]+by|(?:door|alarm|gate|garage|safe|lock|keypad|entry|unlock|locker)[ \\t]+code';
const PASSWORD_NOUN = new RegExp(`\\b(?:${PASSWORD_WORDS})\\b`, 'gi');
/** The same nouns right after a written-out `\n` (JSON-escaped text); run only on text with a backslash. */
const PASSWORD_NOUN_ESCAPED = new RegExp(`\\\\[ntr](?:${PASSWORD_WORDS})\\b`, 'gi');
/** Nouns whose value is digits only: PINs and door codes. */
const DIGITS_ONLY = /^(?:pin|puk|door|alarm|gate|garage|safe|lock|keypad|entry|unlock|locker)/i;
const KEY_NOUN = /\b(?:key|token|secret|credentials?|dsn)s?\b/gi;
const DEFAULT_USER = /\b(?:admin|administrator|root|sa|postgres|ubuntu|pi|guest|elastic|user|demo|deploy|operator|superuser)[ \t]+\/[ \t]+/gi;

/** Words that link a noun to its value, longest first. Verbs make a plain word count; `:` does not. */
const COPULA = /^[ \t]*(?:(is now|is set to|was set to|was changed to|changed to|set to|will be|is|was|are|were)\b|(=|:|->|→))[ \t]*/i;
const FOR_WORD = /^[ \t]+(?:for|of|on|to|at)[ \t]+(?:(?:the|my|our|your|this|that|his|her|their|a|an)[ \t]+)?/i;
const QUALIFIER_WORD = /^[\w.@'-]{1,40}/;
const COPULA_WORDS = new Set(['is', 'was', 'are', 'were', 'will', 'set', 'changed']);

/** Words after "the password is" that describe the password instead of being it. */
const STOP_WORDS = new Set(
  `a an the not no now still also too very so just only always never already being been be in on at of for to from by with
  without about into inside under over here there this that these those it its my your our his her their mine yours ours
  theirs wrong incorrect correct right invalid valid weak strong long short empty blank missing same different secure
  insecure unsafe safe unknown known visible new old fine good bad ok okay optional mandatory necessary set unset none
  null nil gone lost case sensitive insensitive secret private public simple easy hard complex random default temporary
  permanent unique common personal ready broken enough what which who where when how why something nothing anything
  everything one either neither both all any some every each password passwords passphrase pin true false yes below
  above available unavailable probably likely actually really definitely literally usually generally typically currently
  like but and or nor because since if then else more less most least much many few several whatever weird strange great
  nice cool awesome terrible horrible important critical obvious trivial tricky identical similar exactly`.split(/\s+/),
);
/** Endings of participles and adjectives ("stored", "expiring", "unbreakable"): descriptions. */
const STOP_ENDING = /(?:ed|ing|ly|able|ible)$/i;

/** Qualifiers that make `key`/`token` a credential in prose, provider names included. */
const KEY_QUALIFIERS = new Set(
  `api access secret auth private client app application bot service master license signing encryption webhook deploy admin
  personal refresh session bearer oauth integration account root production prod staging live datadog dd twilio sentry
  heroku algolia okta mailgun sendgrid stripe github gitlab openai anthropic slack discord telegram aws azure gcp google
  cloudflare vercel netlify supabase firebase mapbox pagerduty circleci jenkins sonar snyk newrelic relic hubspot zendesk
  intercom segment mixpanel amplitude mailchimp shopify square paypal braintree twitch twitter dropbox notion linear jira
  confluence atlassian bitbucket airtable asana trello contentful doppler vault pulumi terraform databricks snowflake elastic
  pinecone replicate huggingface cohere mistral groq perplexity postman grafana dynatrace rollbar bugsnag honeycomb
  launchdarkly plaid brevo postmark mailjet resend clerk auth0 npm pypi docker`.split(/\s+/),
);

const MAX_VALUE = 128;
const QUOTES: Readonly<Record<string, string>> = { '"': '"', "'": "'", '`': '`', '“': '”', '‘': '’' };

interface Value {
  start: number;
  end: number;
  quoted: boolean;
  /** The value is the end of its clause: end of text or line, or a sentence mark after it. */
  endsClause: boolean;
}

/** Reads a quoted or bare value at `from`; a bare one loses a trailing sentence mark. */
function readValue(text: string, from: number): Value | null {
  if (text[from] === '\\' && text[from + 1] === '"') {
    // \"quoted\" in JSON-escaped text shown in a message.
    const end = text.indexOf('\\"', from + 2);
    if (end === -1 || end - from > MAX_VALUE || text.slice(from + 2, end).includes('\n')) return null;
    return { start: from + 2, end, quoted: true, endsClause: true };
  }
  const close = QUOTES[text[from] ?? ''];
  if (close !== undefined) {
    const end = text.indexOf(close, from + 1);
    if (end === -1 || end - from > MAX_VALUE || text.slice(from + 1, end).includes('\n')) return null;
    return { start: from + 1, end, quoted: true, endsClause: true };
  }
  let end = from;
  while (end < text.length && end - from < MAX_VALUE && !/[\s"'`<>\\]/.test(text[end]!)) end++;
  while (end > from && /[.,;:?)\]}]/.test(text[end - 1]!)) end--;
  if (end === from) return null;
  const after = text.slice(end, end + 3);
  // End of text or line (real or a written-out `\n`), a closing quote, or a sentence mark before one.
  const endsClause = /^(?:$|[\r\n"'”’]|\\n|[.,;!?](?:$|[\s"'”’]|\\n)| \()/.test(after);
  return { start: from, end, quoted: false, endsClause };
}

/** A plain word or words joined by hyphens: needs more than the noun to count as a password. */
const PLAIN = /^[A-Za-z]+(?:[-'][A-Za-z]+)*$/;

function isDescription(word: string): boolean {
  return word.toLowerCase().split(/[-']/).some((w) => STOP_WORDS.has(w) || STOP_ENDING.test(w));
}

function isPasswordValue(raw: string, v: Value, verb: boolean): boolean {
  if (raw.length < 3 || raw.startsWith('[REDACTED:') || isPlaceholder(raw) || isReference(raw) || isPathOrUrl(raw)) return false;
  if (v.quoted) return !(PLAIN.test(raw) && isDescription(raw));
  if (/^v?\d+(?:[.:-]\d+)+/.test(raw)) return false; // a version, date or time
  if (/^\d+$/.test(raw)) return raw.length >= 4;
  if (!PLAIN.test(raw)) return raw.length >= 4;
  // A plain word is a password only as the plain end of "… password is <word>".
  return verb && v.endsClause && raw.length >= 4 && !isDescription(raw);
}

/**
 * The noun starts a word as people write one: at the start, after a space, quote, bracket or
 * bullet, and cased `pin`, `PIN` or `Pin` (not `pIN`, which is noise in random text).
 */
function startsWord(text: string, at: number, word: string): boolean {
  const before = text[at - 1];
  const escaped = before !== undefined && 'ntr'.includes(before) && text[at - 2] === '\\';
  if (before !== undefined && !escaped && !/[\s"'`(\[*>-]/.test(before)) return false;
  return word === word.toLowerCase() || word === word.toUpperCase() || word.slice(1) === word.slice(1).toLowerCase();
}

/** Skips "for the staging db" between a noun and its copula; returns where the copula may start. */
function skipQualifier(text: string, at: number): number {
  const m = FOR_WORD.exec(text.slice(at, at + 40));
  if (m === null) return at;
  let pos = at + m[0].length;
  for (let words = 0; words < 2; words++) {
    const w = QUALIFIER_WORD.exec(text.slice(pos, pos + 41));
    if (w === null || COPULA_WORDS.has(w[0].toLowerCase())) break;
    pos += w[0].length;
    const space = /^[ \t]+/.exec(text.slice(pos, pos + 8));
    if (space === null || COPULA_WORDS.has((QUALIFIER_WORD.exec(text.slice(pos + space[0].length, pos + 48))?.[0] ?? '').toLowerCase())) break;
    pos += space[0].length;
  }
  return pos;
}

function findPasswordsInProse(text: string, out: Span[]): void {
  for (const m of text.matchAll(PASSWORD_NOUN)) passwordAt(text, m.index, m[0], out);
  if (text.includes('\\')) for (const m of text.matchAll(PASSWORD_NOUN_ESCAPED)) passwordAt(text, m.index + 2, m[0].slice(2), out);
}

function passwordAt(text: string, at: number, noun: string, out: Span[]): void {
  const nounEnd = at + noun.length;
  if (/[_-]/.test(text[nounEnd] ?? '') || !startsWord(text, at, noun)) return; // a name, a URL parameter, noise
  const after = skipQualifier(text, nounEnd);
  const cop = COPULA.exec(text.slice(after, after + 32));
  const pin = DIGITS_ONLY.test(noun);
  if (cop === null) return findAdjacentPassword(text, nounEnd, pin, out);
  // `password = x` is an assignment (redact-env.ts reads those, code variables included).
  if (cop[2] === '=' && !pin) return;
  let from = after + cop[0].length;
  // `Password:` with the password alone on the next line (a real or a written-out newline).
  if (cop[2] === ':') from += /^(?:\r?\n|\\n)/.exec(text.slice(from, from + 2))?.[0].length ?? 0;
  const v = readValue(text, from);
  if (v === null) return;
  const raw = text.slice(v.start, v.end);
  const ok = pin ? /^\d{4,12}$/.test(raw) : isPasswordValue(raw, v, cop[1] !== undefined);
  if (ok) out.push({ start: v.start, end: v.end, kind: 'password' });
}

/**
 * `password <value>` with no copula: config directives (.netrc `password …`, redis `requirepass`,
 * SQL `WITH PASSWORD '…'`, `IDENTIFIED BY '…'`) and prose ("ssh in with password …"). Only a
 * quoted value or one shaped like a password (digits, symbols, mixed case) counts: "password
 * reset" and "password manager" stay.
 */
function findAdjacentPassword(text: string, nounEnd: number, pin: boolean, out: Span[]): void {
  const space = /^[ \t]+/.exec(text.slice(nounEnd, nounEnd + 8));
  if (space === null) return;
  const v = readValue(text, nounEnd + space[0].length);
  if (v === null) return;
  const raw = text.slice(v.start, v.end);
  if (raw.startsWith('-') || raw.startsWith('[REDACTED:') || isPlaceholder(raw) || isReference(raw) || isPathOrUrl(raw)) return;
  const ok = pin
    ? /^\d{4,12}$/.test(raw)
    : v.quoted
      ? raw.length >= 3 && !(PLAIN.test(raw) && isDescription(raw))
      : raw.length >= 6 && !PLAIN.test(raw) && !/^v?\d+(?:[.:-]\d+)+/.test(raw) && !/^\d{1,5}$/.test(raw);
  if (ok) out.push({ start: v.start, end: v.end, kind: 'password' });
}

/** The one or two words before `at`, lower-cased. */
function wordsBefore(text: string, at: number): string[] {
  const m = /([A-Za-z][A-Za-z0-9]*)[ \t_-]+(?:([A-Za-z][A-Za-z0-9]*)[ \t_-]+)?$/.exec(text.slice(Math.max(0, at - 48), at));
  return m === null ? [] : [m[1], m[2]].filter((w): w is string => w !== undefined).map((w) => w.toLowerCase());
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function isKeyValue(raw: string): boolean {
  if (raw.length < 12 || raw.startsWith('[REDACTED:') || isPlaceholder(raw) || isReference(raw) || isPathOrUrl(raw)) return false;
  if (/^[0-9a-fA-F]{16,}$/.test(raw) || UUID.test(raw)) return true;
  return looksRandom(raw) || isCredentialShaped(raw);
}

function findKeysInProse(text: string, out: Span[]): void {
  for (const m of text.matchAll(KEY_NOUN)) {
    const nounEnd = m.index + m[0].length;
    if (/[_.-]/.test(text[nounEnd] ?? '') || !startsWord(text, m.index, m[0])) continue; // part of a name, or noise
    const noun = m[0].toLowerCase();
    const named = /^(?:secret|credential|dsn)/.test(noun) || wordsBefore(text, m.index).some((w) => KEY_QUALIFIERS.has(w));
    if (!named) continue;
    const after = skipQualifier(text, nounEnd);
    const cop = COPULA.exec(text.slice(after, after + 32));
    // With no copula the value must follow at once: "twilio auth token 0123…".
    const space = /^[ \t]+/.exec(text.slice(nounEnd, nounEnd + 8));
    const from = cop !== null ? after + cop[0].length : space !== null ? nounEnd + space[0].length : -1;
    if (from === -1) continue;
    const v = readValue(text, from);
    if (v !== null && isKeyValue(text.slice(v.start, v.end))) out.push({ start: v.start, end: v.end, kind: 'credential' });
  }
}

const LOGIN_CONTEXT = /\b(?:pass(?:word|wd)?|pw|login|log in|logon|sign in|creds|credentials|user ?name)\b/i;

/** `admin / hunter2`: a default account name, a spaced slash, and its password. */
function findUserPasswordPairs(text: string, out: Span[]): void {
  for (const m of text.matchAll(DEFAULT_USER)) {
    const v = readValue(text, m.index + m[0].length);
    if (v === null || v.quoted) continue;
    const raw = text.slice(v.start, v.end);
    if (raw.length < 4 || raw.includes('/') || isPlaceholder(raw) || isReference(raw) || isPathOrUrl(raw)) continue;
    const shaped = !PLAIN.test(raw);
    const context = LOGIN_CONTEXT.test(text.slice(Math.max(0, m.index - 60), m.index));
    if (shaped || (context && !isDescription(raw))) out.push({ start: v.start, end: v.end, kind: 'password' });
  }
}

/** Passwords, PINs, passphrases and keys given in prose. */
export function findProseSecrets(text: string, out: Span[]): void {
  findPasswordsInProse(text, out);
  findKeysInProse(text, out);
  findUserPasswordPairs(text, out);
}
