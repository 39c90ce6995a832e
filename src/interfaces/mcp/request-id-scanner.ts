// Finds the top-level "id" of a JSON-RPC message too large to keep, as its bytes stream past, so
// the error answering it can name the request. Nothing but a few bytes of state is kept: the
// message itself is dropped as it is read. The SDK's client writes the id last (after params),
// other clients first: the whole message is scanned. Works on UTF-8 bytes: every structural
// character of JSON is ASCII, and no byte of a multi-byte character equals one of them.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPENERS = new Set([0x7b, 0x5b]); // { [
const CLOSERS = new Set([0x7d, 0x5d]); // } ]
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** Longer top-level strings cannot be the key "id" and longer values are not plausible ids. */
const MAX_TOKEN_BYTES = 200;

function indexOrEnd(bytes: Buffer, byte: number, from: number): number {
  const at = bytes.indexOf(byte, from);
  return at < 0 ? bytes.length : at;
}

export class RequestIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Bytes of the top-level string being read (a key, if a colon follows); null once too long. */
  private token: number[] | null = null;
  private lastString: string | null = null;
  /** Bytes of the value after `"id":` while it is read; null when not reading one. */
  private value: number[] | null = null;
  /** The last well-formed top-level id seen (JSON.parse keeps the last of duplicate keys too). */
  id: string | number | null = null;

  feed(bytes: Buffer): void {
    // The bulk of a big message is string content below the top level: jump from one quote or
    // backslash to the next (each position looked up once per chunk, so long runs of escapes
    // stay linear).
    let quote = -1;
    let backslash = -1;
    const next = (from: number): number => {
      const b = bytes[from];
      if (b === QUOTE || b === BACKSLASH) return from;
      if (quote !== bytes.length && quote < from) quote = indexOrEnd(bytes, QUOTE, from);
      if (backslash !== bytes.length && backslash < from) backslash = indexOrEnd(bytes, BACKSLASH, from);
      return Math.min(quote, backslash);
    };
    for (let i = 0; i < bytes.length; i++) {
      if (this.inString && this.depth !== 1) {
        if (this.escaped) {
          this.escaped = false;
          continue;
        }
        i = next(i);
        if (i >= bytes.length) break;
        if (bytes[i] === BACKSLASH) this.escaped = true;
        else this.inString = false;
        continue;
      }
      const b = bytes[i]!;
      if (this.inString) this.inStringByte(b);
      else this.structuralByte(b);
    }
  }

  private inStringByte(b: number): void {
    if (this.depth === 1) this.keep(b);
    if (this.escaped) this.escaped = false;
    else if (b === BACKSLASH) this.escaped = true;
    else if (b === QUOTE) {
      this.inString = false;
      if (this.depth === 1 && this.value === null) this.lastString = this.token ? Buffer.from(this.token.slice(0, -1)).toString('utf8') : null;
    }
  }

  private structuralByte(b: number): void {
    if (WHITESPACE.has(b)) return;
    if (b === QUOTE) {
      this.inString = true;
      if (this.depth === 1) {
        if (this.value !== null) this.keep(b);
        else this.token = [];
      }
      return;
    }
    if (OPENERS.has(b)) {
      this.depth++;
      if (this.depth === 2) this.value = null; // an object or array is no id
      return;
    }
    if (CLOSERS.has(b)) {
      if (this.depth === 1) this.endValue();
      this.depth = Math.max(0, this.depth - 1);
      return;
    }
    if (this.depth !== 1) return;
    if (b === COLON) {
      if (this.lastString === 'id') this.value = [];
      this.lastString = null;
    } else if (b === COMMA) {
      this.endValue();
      this.lastString = null;
    } else if (this.value !== null) this.keep(b); // a number, or true/false/null
  }

  /** Appends to the value being read, else to the string being read; gives up on long ones. */
  private keep(b: number): void {
    if (this.value !== null) {
      if (this.value.length < MAX_TOKEN_BYTES) this.value.push(b);
      else this.value = null;
    } else if (this.token) {
      if (this.token.length < MAX_TOKEN_BYTES) this.token.push(b);
      else this.token = null;
    }
  }

  private endValue(): void {
    if (this.value === null) return;
    const raw = Buffer.from(this.value).toString('utf8');
    this.value = null;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed === 'string' || (typeof parsed === 'number' && Number.isFinite(parsed))) this.id = parsed;
    } catch {
      // not a JSON scalar: no usable id
    }
  }
}
