// Detectors that look past a single token: private key blocks (BEGIN header to END footer, or a
// truncated base64 body), and random-looking tokens shortly after a credential word.
import type { Candidates } from './redact-candidates.js';
import type { Span } from './redact-kinds.js';
import { looksRandom } from './redact-values.js';

const PK_BEGIN = /-----BEGIN ((?:[A-Z0-9]+ ){0,4})PRIVATE KEY(?: BLOCK)?-----/g;
/** Longest block taken to belong to one BEGIN (an 8192-bit RSA PEM is ~6.5 KB). */
const MAX_KEY_CHARS = 100_000;

export function findPrivateKeys(text: string, out: Span[]): void {
  if (!text.includes('PRIVATE KEY')) return;
  const endFooter = /-----END [A-Z0-9 ]{0,60}-----/y;
  // Memo of the first valid END at or after `searchedFrom`, so many BEGINs cost one scan.
  let searchedFrom = -1;
  let endAt = -1;
  let endLen = 0;
  const nextEnd = (from: number): number => {
    if (searchedFrom !== -1 && searchedFrom <= from && (endAt === -1 || endAt >= from)) return endAt;
    searchedFrom = from;
    let i = text.indexOf('-----END ', from);
    while (i !== -1) {
      endFooter.lastIndex = i;
      const m = endFooter.exec(text);
      if (m !== null) {
        endLen = m[0].length;
        break;
      }
      i = text.indexOf('-----END ', i + 1);
    }
    endAt = i;
    return i;
  };
  for (const m of text.matchAll(PK_BEGIN)) {
    const start = m.index;
    const bodyFrom = start + m[0].length;
    const at = nextEnd(bodyFrom);
    const end = at !== -1 && at + endLen - start <= MAX_KEY_CHARS ? at + endLen : scanKeyBody(text, bodyFrom);
    out.push({ start, end, kind: 'private-key' });
  }
}

/** RFC 1421/4880 armour headers that may sit between BEGIN and the body. */
const PEM_HEADER = /(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset): [^\r\n\\]*/y;

/**
 * End of a block with no END footer (a truncated paste): armour headers and whole base64 lines,
 * real or `\n`-escaped. A run that does not end its line is prose and stops the scan.
 */
function scanKeyBody(text: string, from: number): number {
  let last = from;
  let i = from;
  while (i < text.length) {
    let j = i;
    for (;;) {
      const c = text[j];
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n') j++;
      else if (c === '\\' && (text[j + 1] === 'n' || text[j + 1] === 'r')) j += 2;
      else break;
    }
    PEM_HEADER.lastIndex = j;
    const header = PEM_HEADER.exec(text);
    let k = j;
    if (header !== null) k = j + header[0].length;
    else {
      while (k < text.length && isBase64Char(text.charCodeAt(k))) k++;
      const after = text[k];
      const endsLine = after === undefined || after === '\n' || after === '\r' || after === '\\' || after === '"' || after === "'";
      if (k - j < 16 || !endsLine) break;
    }
    last = k;
    i = k;
  }
  return last;
}

function isBase64Char(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 61;
}

// ---------------------------------------------------------------------------------------------
// High-entropy tokens shortly after a credential word.

const HE_KEYWORD =
  /(?:api[_ -]?key|key|token|secret|password|passwd|pwd|passphrase|credential|authorization|auth|bearer)s?/gi;
/** Longest keyword HE_KEYWORD matches ("authorizations"). */
const HE_LONGEST_KEYWORD = 16;
/** How far after the keyword a token may start: five words, at most 80 characters. */
const HE_MAX_WORDS = 5;
const HE_MAX_GAP = 80;
const SSH_KEY_TYPE = /^(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-\S+|sk-(?:ssh|ecdsa)-\S+)$/;

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}

/** Letters, digits and the base64 symbols: a keyword touching one of these is inside a token. */
function isTokenChar(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57) || c === 43 || c === 47;
}

/** `Key`, `Tokens`: one capitalised word, as a camelCase part is written. */
const CAPITALISED = /^[A-Z][a-z]+$/;

/**
 * A keyword standing as a word or a camelCase part: `apiKey`, `auth token`, `SECRET_KEY`,
 * `tokenValue`; not `monkey`, `author`, or letters that happen to sit inside a base64 blob.
 */
function isKeywordAt(text: string, start: number, end: number): boolean {
  const word = text.slice(start, end);
  const prev = afterEscape(text, start) ? 32 : text.charCodeAt(start - 1);
  const okPrev = !isTokenChar(prev) || (isLower(prev) && CAPITALISED.test(word));
  const next = text.charCodeAt(end);
  const okNext = !isTokenChar(next) || (isUpper(next) && /^(?:[a-z]+|[A-Z][a-z]+)$/.test(word));
  return okPrev && okNext;
}

/** `at` follows a `\n`, `\t` or `\r` written out as two characters (JSON-escaped text). */
function afterEscape(text: string, at: number): boolean {
  return at >= 2 && text[at - 2] === '\\' && 'ntr'.includes(text[at - 1]!);
}

/** The run of token characters around `at`. */
function tokenRunAround(text: string, at: number): { start: number; end: number } {
  let start = at;
  while (start > 0 && isRunChar(text.charCodeAt(start - 1))) start--;
  let end = at;
  while (end < text.length && isRunChar(text.charCodeAt(end))) end++;
  return { start, end };
}

function isRunChar(c: number): boolean {
  return isTokenChar(c) || c === 95 || c === 45;
}

/**
 * Whether a token starting after `gap` is still "next to" the keyword: at most five words, no
 * sentence end or blank line in between, and not a public key after its type (`ssh-ed25519 AAAA…`).
 */
function gapIsClose(gap: string): boolean {
  let words = 0;
  let lastWordStart = -1;
  let newlines = 0;
  for (let i = 0; i < gap.length; i++) {
    const c = gap.charCodeAt(i);
    const space = c === 32 || c === 9 || c === 10 || c === 13;
    if (c === 10 && ++newlines > 1) return false; // a blank line: another paragraph
    if (space) continue;
    newlines = 0;
    if ((c === 46 || c === 33 || c === 63) && (i + 1 === gap.length || /\s/.test(gap[i + 1]!))) return false; // . ! ?
    if (i === 0 || /\s/.test(gap[i - 1]!)) {
      if (++words > HE_MAX_WORDS) return false;
      lastWordStart = i;
    }
  }
  if (lastWordStart === -1) return true;
  const last = gap.slice(lastWordStart).trimEnd();
  return !SSH_KEY_TYPE.test(last);
}

/**
 * End of the last credential keyword that may introduce a token starting at `start`: within
 * HE_MAX_GAP characters before it, a word or camelCase part, and not letters inside a blob.
 */
function keywordBefore(text: string, start: number): number {
  const from = Math.max(0, start - HE_MAX_GAP - HE_LONGEST_KEYWORD);
  let found = -1;
  const window = text.slice(from, start);
  for (const m of window.matchAll(HE_KEYWORD)) {
    const kStart = from + m.index;
    const kEnd = kStart + m[0].length;
    if (!isKeywordAt(text, kStart, kEnd)) continue;
    const run = tokenRunAround(text, kStart);
    if (run.end - run.start >= 20 && looksRandom(text.slice(run.start, run.end))) continue;
    found = kEnd;
  }
  return found;
}

/**
 * Random-looking tokens (20+ characters) shortly after a credential word. Tokens only occur in
 * candidate runs, so those are scanned, and a keyword is looked for just before each token.
 */
export function findHighEntropy(text: string, candidates: Candidates, out: Span[]): void {
  const { joined, joinedStarts, textStarts } = candidates;
  for (let k = 0; k < joinedStarts.length; k++) {
    const runEnd = k + 1 < joinedStarts.length ? joinedStarts[k + 1]! - 1 : joined.length;
    const shift = textStarts[k]! - joinedStarts[k]!;
    let i = joinedStarts[k]!;
    while (i < runEnd) {
      if (!isRunChar(joined.charCodeAt(i))) {
        i++;
        continue;
      }
      let j = i;
      while (j < runEnd && isRunChar(joined.charCodeAt(j))) j++;
      if (j - i >= 20) highEntropyToken(text, i + shift, j + shift, out);
      i = j;
    }
  }
}

function highEntropyToken(text: string, runStart: number, runEnd: number, out: Span[]): void {
  // A token right after a written-out `\n` starts after its n.
  const start = afterEscape(text, runStart + 1) ? runStart + 1 : runStart;
  const token = text.slice(start, runEnd);
  if (token.length < 20 || !looksRandom(token)) return;
  const keywordEnd = keywordBefore(text, start);
  if (keywordEnd === -1 || start - keywordEnd > HE_MAX_GAP || !gapIsClose(text.slice(keywordEnd, start))) return;
  let end = runEnd;
  while (text[end] === '=' && end - runEnd < 2) end++;
  out.push({ start, end, kind: 'high-entropy' });
}
