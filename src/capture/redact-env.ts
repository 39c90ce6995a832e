// env-style assignments: `NAME=value`, `NAME: value`, `"name": "value"`, `--name=value`. Find a
// keyword, grow it into the name around it, classify the name, then read and judge the value.
import type { Span } from './redact-kinds.js';
import { classifySecretName, isSecretValue, nameSegments, type SecretName } from './redact-values.js';

const NAME_STEM = /key|token|secret|pass|pwd|cred|priv|auth|psk/gi;
/** `=`, `:`, `:=`, `=>`, and ` is ` after an identifier (`SECRET_KEY is '…'`). */
const ASSIGN_OP = /[ \t]*(:=|=>|=(?!=)|:(?![:/=])|(?<=[ \t])is(?=[ \t]))[ \t]*/y;
const MAX_NAME = 64;
/** Longest quoted value read; a longer "value" is prose between two unrelated quotes. */
const MAX_QUOTED = 4096;

function isNameChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46;
}

/** Characters that end a bare (unquoted) value. `=` too, except as trailing base64 padding. */
function isBareStop(c: number): boolean {
  return (
    c <= 32 || // whitespace and controls
    c === 34 || c === 39 || c === 96 || // " ' `
    c === 44 || c === 59 || c === 38 || // , ; &
    c === 60 || c === 62 || // < >
    c === 40 || c === 41 || c === 91 || c === 93 || c === 123 || c === 125 || // ( ) [ ] { }
    c === 92 || c === 61 // \ =
  );
}

/** indexOf with a memo per needle, so scanning forward for closing quotes stays linear. */
class NextFinder {
  private readonly memo = new Map<string, { from: number; at: number }>();
  constructor(private readonly text: string) {}

  next(needle: string, from: number): number {
    const m = this.memo.get(needle);
    if (m !== undefined && m.from <= from && (m.at === -1 || m.at >= from)) return m.at;
    const at = this.text.indexOf(needle, from);
    this.memo.set(needle, { from, at });
    return at;
  }
}

interface ValueRead {
  start: number;
  end: number;
  quoted: boolean;
  /** The character that ended a bare value. */
  after: string;
  /** Where scanning resumes when the value is not a secret. */
  resume: number;
}

export function findEnvSecrets(text: string, out: Span[]): void {
  const finder = new NextFinder(text);
  const names = new Map<string, SecretName | null>(); // the same few names recur in a transcript
  let skipUntil = 0;
  for (const m of text.matchAll(NAME_STEM)) {
    const hit = m.index;
    if (hit < skipUntil) continue;
    let r = hit;
    while (r < text.length && isNameChar(text.charCodeAt(r))) r++;
    skipUntil = r;
    let l = hit;
    while (l > 0 && hit - l < MAX_NAME && isNameChar(text.charCodeAt(l - 1))) l--;
    const escaped = l < hit && text[l - 1] === '\\' && 'ntr'.includes(text[l]!);
    if (escaped) l++; // `\nPASSWORD=` written out: the n is the escape's
    if (r - l > MAX_NAME || (!escaped && l > 0 && isNameChar(text.charCodeAt(l - 1)))) continue; // not a name
    let nameStart = l;
    while (nameStart < hit && /[-.0-9]/.test(text[nameStart]!)) nameStart++; // `--password`
    let nameEnd = r;
    while (nameEnd > hit + 1 && (text[nameEnd - 1] === '.' || text[nameEnd - 1] === '-')) nameEnd--;
    const name = text.slice(nameStart, nameEnd);
    if (!/^[A-Za-z_]/.test(name)) continue;
    let secretName = names.get(name);
    if (secretName === undefined) names.set(name, (secretName = classifySecretName(name)));
    if (secretName === null) continue;

    let pos = nameEnd;
    let open = nameStart;
    const q = text[nameStart - 1];
    if (nameStart === l && (q === '"' || q === "'" || q === '`')) {
      const quote = q === '"' && text[nameStart - 2] === '\\' ? '\\"' : q;
      if (text.startsWith(quote, nameEnd)) {
        open = nameStart - quote.length;
        pos = nameEnd + quote.length;
      } // else the quote opens a longer string (`"x-api-key: …"`) and the name is bare
    }
    ASSIGN_OP.lastIndex = pos;
    const op = ASSIGN_OP.exec(text);
    if (op === null) continue;
    // "the password is …" is prose (redact-prose.ts); ` is ` counts after identifiers only.
    if (op[1] === 'is' && !/[_A-Z]/.test(name.slice(1))) continue;
    const valueFrom = pos + op[0].length;
    const value = readValue(text, valueFrom, finder);
    const accepted = acceptValue(text, name, secretName, op, value, open);
    if (accepted) {
      const end = spacedValueEnd(text, name, op[1]!, value, open);
      out.push({ start: value.start, end, kind: 'env-secret' });
      skipUntil = Math.max(skipUntil, end, value.resume);
    } else skipUntil = Math.max(skipUntil, value.resume);
  }
}

function acceptValue(
  text: string,
  name: string,
  secretName: SecretName,
  op: RegExpExecArray,
  value: ValueRead,
  nameOpen: number,
): boolean {
  const opText = op[1]!;
  const raw = text.slice(value.start, value.end);
  const needLineStart = opText === ':' && !value.quoted && secretName.strength === 'strong';
  return isSecretValue(raw, {
    name,
    secretName,
    quoted: value.quoted,
    op: opText,
    spacedOp: op[0].length > opText.length,
    lineStart: needLineStart && opensLine(text, nameOpen),
    after: value.after,
  });
}

function readValue(text: string, from: number, finder: NextFinder): ValueRead {
  const c = text[from];
  if (c === '\\' && text[from + 1] === '"') {
    const close = finder.next('\\"', from + 2);
    const nl = finder.next('\n', from + 2);
    if (close !== -1 && (nl === -1 || close < nl) && close - from <= MAX_QUOTED) {
      return { start: from + 2, end: close, quoted: true, after: '"', resume: close + 2 };
    }
    return readBare(text, from + 2);
  }
  if (c === '"' || c === "'" || c === '`') {
    let close = finder.next(c, from + 1);
    while (close !== -1 && text[close - 1] === '\\' && close - from <= MAX_QUOTED) close = finder.next(c, close + 1);
    const nl = finder.next('\n', from + 1);
    if (close !== -1 && (nl === -1 || close < nl) && close - from <= MAX_QUOTED) {
      return { start: from + 1, end: close, quoted: true, after: c, resume: close + 1 };
    }
    return readBare(text, from + 1);
  }
  return readBare(text, from);
}

function readBare(text: string, from: number): ValueRead {
  let i = from;
  while (i < text.length && !isBareStop(text.charCodeAt(i))) i++;
  let end = i;
  let resume = i;
  if (text[i] === '=') {
    let j = i;
    while (j < text.length && text[j] === '=') j++;
    const padding = j - i <= 2 && (j === text.length || isBareStop(text.charCodeAt(j)));
    if (padding) {
      end = j;
      resume = j;
    } else {
      // `key: password=x`: the value's last word is the next name; resume there.
      resume = i;
      while (resume > from && isNameChar(text.charCodeAt(resume - 1))) resume--;
    }
  }
  // One closing sentence mark (`timing.`), not an ellipsis (`sk-...` is a placeholder).
  if (end - from >= 2 && '.:!?,'.includes(text[end - 1]!) && !'.:!?,'.includes(text[end - 2]!)) end--;
  return { start: from, end, quoted: false, after: text[i] ?? '', resume };
}

/** Longest unquoted passphrase taken to the end of its line, and most words in it. */
const MAX_PHRASE_CHARS = 128;
const MAX_PHRASE_WORDS = 8;

/**
 * Where an accepted bare value ends. A password or passphrase written unquoted on its own line
 * (`passphrase: correct horse battery staple`) runs to the end of the line, minus a trailing
 * ` # comment`, as YAML reads it: only its first word would otherwise
 * go. In prose, or for other names, the value is one word.
 */
function spacedValueEnd(text: string, name: string, op: string, value: ValueRead, nameOpen: number): number {
  // `:` only: in `VAR=value cmd` a shell ends the value at the space.
  if (value.quoted || (value.after !== ' ' && value.after !== '\t') || op !== ':') return value.end;
  const last = nameSegments(name).at(-1) ?? '';
  if (!/pass|pwd|psk/.test(last) || !opensLine(text, nameOpen)) return value.end;
  // A bounded look ahead: a long line with many such names must stay linear.
  const ahead = text.slice(value.end, value.end + MAX_PHRASE_CHARS * 2);
  const nl = ahead.search(/\n|\\n/);
  if (nl === -1 && value.end + ahead.length < text.length) return value.end;
  let rest = (nl === -1 ? ahead : ahead.slice(0, nl)).replace(/\r$/, '');
  const comment = rest.search(/[ \t]#/);
  if (comment !== -1) rest = rest.slice(0, comment);
  rest = rest.trimEnd();
  const phrase = text.slice(value.start, value.end) + rest;
  if (rest === '' || phrase.length > MAX_PHRASE_CHARS || phrase.split(/\s+/).length > MAX_PHRASE_WORDS) return value.end;
  if (/[A-Za-z_][\w.-]*[ \t]*(?:=|:[ \t])/.test(rest)) return value.end; // another `name: value` on the line
  return value.end + rest.length;
}

/** The name is the first thing on its line (YAML, .env), not a word in a sentence. */
function opensLine(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && text[i - 1] !== '\n' && !isWrittenNewline(text, i) && at - i < 200) i--;
  if (i > 0 && text[i - 1] !== '\n' && !isWrittenNewline(text, i)) return false;
  return /^[ \t]*(?:[-*][ \t]+)?(?:export[ \t]+)?$/.test(text.slice(i, at).replace(/\\t/g, '\t'));
}

/** `\n` written out as two characters ends at `at` (JSON-escaped text shown in a message). */
function isWrittenNewline(text: string, at: number): boolean {
  return at >= 2 && text[at - 1] === 'n' && text[at - 2] === '\\' && text[at - 3] !== '\\';
}

