// Readers for the value (and third-person subject) of a fact shape: each takes the text after the
// shape's verb and returns the value as written, or null when it is not clearly one. They stop at a
// word that starts a new phrase ("in", "since", "with", …), so "Lisbon with my wife since 2020"
// reads as "Lisbon".

/** Words that end a value: a new phrase (time, reason, company, comparison) starts here. */
const STOP_WORDS = new Set([
  'since', 'for', 'from', 'until', 'till', 'because', 'as', 'after', 'before', 'when', 'while', 'with', 'and', 'but',
  'so', 'now', 'again', 'too', 'already', 'anymore', 'last', 'next', 'this', 'ago', 'yesterday', 'today', 'tomorrow',
  'recently', 'on', 'in', 'at', 'by', 'instead', 'over', 'than', 'rather', 'which', 'who', 'where', 'though', 'although',
  'then', 'these', 'full-time', 'part-time', 'remotely', 'seit', 'desde', 'depuis', 'mit', 'con', 'avec', 'et', 'und', 'y',
]);
/** Words inside a name when a capitalised word follows: "Rio de Janeiro", "Bank of America", "Procter & Gamble". */
const NAME_JOINERS = new Set(['of', 'de', 'do', 'da', 'dos', 'das', 'del', 'la', 'le', 'am', 'der', 'upon', 'sur', '&']);
/** Capitalised words that are never a subject or a named value. */
const NOT_NAMES = new Set([
  'i', 'we', 'you', 'he', 'she', 'they', 'it', 'this', 'that', 'these', 'those', 'there', 'here', 'the', 'a', 'an', 'my',
  'our', 'your', 'their', 'his', 'her', 'its', 'everyone', 'someone', 'somebody', 'nobody', 'everybody', 'people', 'then',
  'now', 'today', 'yesterday', 'tomorrow', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'thanks', 'thank', 'great', 'ok', 'okay', 'yes', 'no', 'hi', 'hello', 'hey', 'also', 'so', 'and', 'but', 'which', 'what',
  'who', 'home', 'work', 'user', 'assistant', 'anyone', 'mom', 'dad',
  'got', 'just', 'finally', 'recently', 'officially', 'actually', 'still', 'currently', 'lately', 'nowadays', 'since', 'update', 'reminder',
]);

const NAME_WORD = /^(?:[\p{Lu}\p{Lo}][\p{L}\p{M}\p{N}&.'-]*|@[\p{L}\p{N}_.-]+)$/u;
const TRAILING_PUNCT = /[.,;:!)\]]+$/u;

/** Words of `text`, at most `max` (a value is short; the rest is never read). */
function words(text: string, max: number): string[] {
  return text.trim().split(/\s+/u, max);
}

/**
 * A name (place, organisation): capitalised words (or words of a script without case), joined by
 * "of", "de", "&", …, at most 5 words, ending at the end of the text, a comma or a stop word. Null
 * when a lower-case word follows ("the Zoom call"), so only a name standing alone counts.
 */
export function readName(text: string, allowDigits = false): string | null {
  const ws = words(text.replace(/^(?:the|l')\s*/iu, ''), 8);
  const kept: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!.replace(TRAILING_PUNCT, '');
    const lower = w.toLowerCase();
    const isName = NAME_WORD.test(w) && (allowDigits || !/\d/u.test(w)) && !(kept.length === 0 && NOT_NAMES.has(lower));
    if (isName) kept.push(w);
    else if (kept.length > 0 && NAME_JOINERS.has(lower) && NAME_WORD.test(ws[i + 1] ?? '')) kept.push(w);
    else if (kept.length > 0 && STOP_WORDS.has(lower)) break;
    else return null;
    if (w !== ws[i] || kept.length > 5) break;
  }
  return kept.length > 0 && kept.length <= 5 ? kept.join(' ') : null;
}

/** A person (or @handle) as a subject: one to three capitalised words, none of them a pronoun or a day. */
export function readPerson(text: string): string | null {
  const ws = text.trim().split(/\s+/u);
  if (ws.length === 0 || ws.length > 3) return null;
  if (ws.some((w) => !NAME_WORD.test(w) || NOT_NAMES.has(w.toLowerCase()) || /\d/u.test(w))) return null;
  return ws.join(' ');
}

/**
 * A thing as a subject ("the staging database", "our API", "nginx"): one to five words, leading
 * determiner kept as written. Null for a bare pronoun ("it", "this") or a first-person subject.
 */
export function readThing(text: string): string | null {
  const t = text.trim().replace(/['’]s$/u, '');
  const ws = t.split(/\s+/u);
  if (t === '' || ws.length > 6) return null;
  const content = ws.filter((w) => !/^(?:the|our|my|your|their|this|that|its)$/iu.test(w));
  if (content.length === 0 || content.length > 5) return null;
  if (content.length === 1 && /^(?:it|this|that|which|what|we|i|you|they|he|she|one|everything|something)$/iu.test(content[0]!)) return null;
  if (content.some((w) => !/^[\p{L}\p{N}][\p{L}\p{N}._/+#-]*(?:'s)?$/u.test(w))) return null;
  // "Jenkins from ci-old.internal": a change's origin, not part of the thing's name.
  if (content.some((w) => /^(?:from|to|into|onto)$/iu.test(w))) return null;
  return t;
}

/**
 * A short phrase (a preference, a plan, a decision), up to `maxWords` words and the first stop word
 * of `stops`; a leading article goes ("a flat white" → "flat white"). Null when empty or too long.
 */
export function readPhrase(text: string, maxWords: number, stops: ReadonlySet<string>): string | null {
  const ws = words(text, maxWords + 2);
  const kept: string[] = [];
  for (const raw of ws) {
    const w = raw.replace(TRAILING_PUNCT, '');
    if (kept.length > 0 && stops.has(w.toLowerCase())) break;
    if (w !== '') kept.push(w);
    if (w !== raw) break;
  }
  while (kept.length > 0 && /^(?:a|an|the|some)$/iu.test(kept[0]!)) kept.shift();
  if (kept.length === 0 || kept.length > maxWords) return null;
  return kept.join(' ');
}

/** Stop words for preferences: "flat white over cortado", "tea to coffee", "dark mode because…". */
export const PREFERENCE_STOPS: ReadonlySet<string> = new Set(['over', 'to', 'than', 'rather', 'instead', 'because', 'since', 'when', 'as', 'for', 'these', 'now', 'and', 'but', 'with', 'at', 'in', 'on']);
/** Stop words for plans and decisions: only a reason or a time ends them. */
export const ACTION_STOPS: ReadonlySet<string> = new Set(['because', 'since', 'so', 'instead', 'but', 'next', 'tomorrow', 'later', 'soon']);

/** What comes after a number or name must end it: the end, punctuation, or a stop word ("6543 since Monday"), not "3 times". */
export function endsValue(after: string): boolean {
  const t = after.trim();
  if (t === '' || /^[,;:.!)(]/u.test(t)) return true;
  const first = t.split(/\s+/u, 1)[0]!.toLowerCase();
  return STOP_WORDS.has(first);
}

/** A hostname ("api.internal", "db-1.eu.example.com:5432"), `localhost` or an IPv4 address. */
export function readHost(text: string): string | null {
  const m = /^(localhost(?::\d{1,5})?|(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+(?::\d{1,5})?)(?=$|[\s,;)]|\.(?:\s|$))/iu.exec(text.trim());
  if (!m) return null;
  const host = m[1]!;
  // "3.2" or "config.json" is a version or a file, not a host.
  if (/^[\d.]+(?::\d+)?$/u.test(host) && !/^(?:\d{1,3}\.){3}\d{1,3}/u.test(host)) return null;
  if (/\.(?:json|ya?ml|toml|ini|conf|txt|md|js|ts|py|sh|log|env|cfg)$/iu.test(host)) return null;
  return endsValue(text.trim().slice(host.length)) ? host : null;
}

/** A file system path: `/etc/x`, `~/.cairn/config.json`, `./data`, `C:\data`. */
export function readPath(text: string): string | null {
  const m = /^((?:~|\.{1,2})?\/[^\s,;'"()]+|[A-Za-z]:\\[^\s,;'"()]+)/u.exec(text.trim());
  if (!m) return null;
  const path = m[1]!.replace(/[.:]+$/u, '');
  return path.length > 1 && endsValue(text.trim().slice(m[1]!.length)) ? path : null;
}

/** A port number 1–65535. */
export function readPort(text: string): string | null {
  const m = /^(\d{1,5})\b/u.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 && n <= 65_535 && endsValue(text.trim().slice(m[1]!.length)) ? String(n) : null;
}
