// "Secrets never land": capture runs every turn through `redact` before it is stored or sent to an
// LLM. Detectors propose spans, overlapping spans merge, each span becomes `[REDACTED:<kind>]`, and
// every other byte stays as it was. What a secret looks like lives in redact-patterns.ts; this
// file only scans, and every scan is linear so a hostile 5 MB transcript costs milliseconds.
import {
  KIND_PRIORITY,
  TOKEN_RULES,
  classifySecretName,
  isSecretValue,
  looksRandom,
  type RedactionKind,
  type SecretName,
  type TokenRule,
} from './redact-patterns.js';

export { REDACTION_KINDS, type RedactionKind } from './redact-patterns.js';

/** The redacted text and how many spans of each kind were replaced (kinds with zero are absent). */
export interface RedactionResult {
  text: string;
  counts: Record<string, number>;
}

/** The marker that replaces a secret. Markers are never redacted again. */
export function redactionMarker(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

interface Span {
  start: number;
  end: number;
  kind: RedactionKind;
}

const MARKER = /\[REDACTED:[a-z0-9-]{1,40}\]/g;
/**
 * A replacement can bring a keyword within reach of a token (a private key block collapsing into
 * one marker), so redaction repeats until a pass finds nothing; that is what makes it idempotent.
 * Each pass removes unmarked text, so this ends; in practice after one or two passes.
 */
const MAX_PASSES = 8;

/**
 * Replaces credentials in `text` with `[REDACTED:<kind>]` markers (kinds: see REDACTION_KINDS).
 * Pure, linear in the input, idempotent (`redact(redact(x).text)` changes nothing), and
 * byte-identical outside the replaced spans.
 */
export function redact(text: string): RedactionResult {
  const counts: Record<string, number> = {};
  let current = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const spans = findSpans(current);
    if (spans.length === 0) break;
    current = applySpans(current, spans, counts);
  }
  return { text: current, counts };
}

function findSpans(text: string): Span[] {
  if (text.length === 0) return [];
  const found: Span[] = [];
  for (const rule of TOKEN_RULES) findTokens(text, rule, found);
  findPrivateKeys(text, found);
  findEnvSecrets(text, found);
  findHighEntropy(text, found);
  return resolve(found, markerSpans(text));
}

function applySpans(text: string, spans: Span[], counts: Record<string, number>): string {
  const parts: string[] = [];
  let at = 0;
  for (const span of spans) {
    parts.push(text.slice(at, span.start), redactionMarker(span.kind));
    counts[span.kind] = (counts[span.kind] ?? 0) + 1;
    at = span.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

function markerSpans(text: string): Array<{ start: number; end: number }> {
  if (!text.includes('[REDACTED:')) return [];
  return Array.from(text.matchAll(MARKER), (m) => ({ start: m.index, end: m.index + m[0].length }));
}

/**
 * Drops spans touching an existing marker, then merges overlaps: the earliest start wins, ties go
 * to the higher-priority kind, and the merged span covers both so no part of a secret survives.
 */
function resolve(found: Span[], markers: Array<{ start: number; end: number }>): Span[] {
  const candidates = markers.length === 0 ? found : found.filter((s) => !overlapsMarker(s, markers));
  candidates.sort(
    (a, b) => a.start - b.start || KIND_PRIORITY[a.kind] - KIND_PRIORITY[b.kind] || b.end - a.end,
  );
  const merged: Span[] = [];
  for (const span of candidates) {
    if (span.end <= span.start) continue;
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start < last.end) {
      last.end = Math.max(last.end, span.end);
      continue;
    }
    merged.push({ ...span });
  }
  return merged;
}

function overlapsMarker(span: Span, markers: Array<{ start: number; end: number }>): boolean {
  // First marker ending after the span starts (markers are sorted and disjoint).
  let lo = 0;
  let hi = markers.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (markers[mid]!.end <= span.start) lo = mid + 1;
    else hi = mid;
  }
  const m = markers[lo];
  return m !== undefined && m.start < span.end;
}

// ---------------------------------------------------------------------------------------------
// Provider tokens: one regex each.

function findTokens(text: string, rule: TokenRule, out: Span[]): void {
  for (const m of text.matchAll(rule.pattern)) {
    let start = m.index;
    let end = start + m[0].length;
    if (rule.group !== undefined) {
      const range = m.indices?.[rule.group];
      if (range === undefined) continue;
      [start, end] = range;
    }
    if (rule.accept !== undefined && !rule.accept(text.slice(start, end))) continue;
    out.push({ start, end, kind: rule.kind });
  }
}

// ---------------------------------------------------------------------------------------------
// Private key blocks: BEGIN header to END footer, found with indexOf so no regex spans the body.

const PK_BEGIN = /-----BEGIN ((?:[A-Z0-9]+ ){0,4})PRIVATE KEY(?: BLOCK)?-----/g;
/** Longest block taken to belong to one BEGIN (an 8192-bit RSA PEM is ~6.5 KB). */
const MAX_KEY_CHARS = 100_000;

function findPrivateKeys(text: string, out: Span[]): void {
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
// env-style assignments: find a keyword, grow it into the name around it, then read the value.

const NAME_STEM = /key|token|secret|pass|pwd|cred|priv|auth/gi;
const ASSIGN_OP = /[ \t]*(:=|=>|=(?!=)|:(?![:/=]))[ \t]*/y;
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

function findEnvSecrets(text: string, out: Span[]): void {
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
    if (r - l > MAX_NAME || (l > 0 && isNameChar(text.charCodeAt(l - 1)))) continue; // not a name
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
    const valueFrom = pos + op[0].length;
    const value = readValue(text, valueFrom, finder);
    const accepted = acceptValue(text, name, secretName, op, value, open);
    if (accepted) out.push({ start: value.start, end: value.end, kind: 'env-secret' });
    skipUntil = Math.max(skipUntil, accepted ? Math.max(value.end, value.resume) : value.resume);
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

/** The name is the first thing on its line (YAML, .env), not a word in a sentence. */
function opensLine(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && text[i - 1] !== '\n' && at - i < 200) i--;
  if (i > 0 && text[i - 1] !== '\n') return false;
  return /^[ \t]*(?:[-*][ \t]+)?(?:export[ \t]+)?$/.test(text.slice(i, at));
}

// ---------------------------------------------------------------------------------------------
// High-entropy tokens shortly after a credential word.

const HE_KEYWORD =
  /(?:api[_ -]?key|key|token|secret|password|passwd|pwd|passphrase|credential|authorization|auth|bearer)s?/gi;
const HE_TOKEN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{20,}/g;
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
  const prev = text.charCodeAt(start - 1);
  const okPrev = !isTokenChar(prev) || (isLower(prev) && CAPITALISED.test(word));
  const next = text.charCodeAt(end);
  const okNext = !isTokenChar(next) || (isUpper(next) && /^(?:[a-z]+|[A-Z][a-z]+)$/.test(word));
  return okPrev && okNext;
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

function findHighEntropy(text: string, out: Span[]): void {
  const keywordEnds: number[] = [];
  // A keyword inside a random-looking run is noise in a blob, not a word; runs are disjoint, so
  // the verdict for the current run is reused by every keyword inside it.
  let run = { start: -1, end: -1 };
  let runIsRandom = false;
  for (const m of text.matchAll(HE_KEYWORD)) {
    const end = m.index + m[0].length;
    if (!isKeywordAt(text, m.index, end)) continue;
    if (m.index >= run.end) {
      run = tokenRunAround(text, m.index);
      runIsRandom = run.end - run.start >= 20 && looksRandom(text.slice(run.start, run.end));
    }
    if (!runIsRandom) keywordEnds.push(end);
  }
  if (keywordEnds.length === 0) return;
  let k = -1;
  for (const m of text.matchAll(HE_TOKEN)) {
    const start = m.index;
    while (k + 1 < keywordEnds.length && keywordEnds[k + 1]! <= start) k++;
    if (k < 0) continue;
    const gapStart = keywordEnds[k]!;
    if (start - gapStart > HE_MAX_GAP || !gapIsClose(text.slice(gapStart, start))) continue;
    if (!looksRandom(m[0])) continue;
    let end = start + m[0].length;
    while (text[end] === '=' && end - (start + m[0].length) < 2) end++;
    out.push({ start, end, kind: 'high-entropy' });
  }
}
