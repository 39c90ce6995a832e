// Where a token can be: runs of characters that credentials are made of, long enough to hold one.
// Prose is mostly short words, so the runs are a small part of a transcript; token shapes and the
// high-entropy scan look only there. One pass of a table lookup per character finds them, which
// is far cheaper than running ~100 patterns (or ~100 substring searches) over the whole text.

/** Characters any token rule may match, and the backslash of a written-out `\n` escape. */
const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.+/=~$:%\\';
const IN_RUN = new Uint8Array(128);
for (const ch of TOKEN_CHARS) IN_RUN[ch.charCodeAt(0)] = 1;

/** Shortest run kept: no token shape matches fewer characters (a Slack token has 15). */
export const MIN_RUN = 12;

/** The runs of a text, joined by newlines into one string the token patterns can scan. */
export interface Candidates {
  /** The runs joined by `\n` (a character no token contains, so no match spans two runs). */
  joined: string;
  /** Start of each run in `joined`, ascending. */
  joinedStarts: number[];
  /** Start of each run in the original text. */
  textStarts: number[];
}

export function findCandidates(text: string): Candidates {
  const out: Candidates = { joined: '', joinedStarts: [], textStarts: [] };
  const parts: string[] = [];
  // A run never holds a space, so only space-separated chunks of MIN_RUN or more characters can
  // hold one; indexOf (a fast native search) skips the short words of prose in one step each.
  let from = 0;
  while (from < text.length) {
    let to = text.indexOf(' ', from);
    if (to === -1) to = text.length;
    if (to - from >= MIN_RUN) addRuns(text, from, to, parts, out);
    from = to + 1;
  }
  out.joined = parts.join('\n');
  return out;
}

/** Adds the runs of `text[from, to)` that are long enough. */
function addRuns(text: string, from: number, to: number, parts: string[], out: Candidates): void {
  let runStart = -1;
  for (let i = from; i <= to; i++) {
    const c = i < to ? text.charCodeAt(i) : 0;
    if (c < 128 && IN_RUN[c] === 1) {
      if (runStart === -1) runStart = i;
      continue;
    }
    if (runStart !== -1 && i - runStart >= MIN_RUN) {
      const joinedAt = out.joinedStarts.length === 0 ? 0 : out.joinedStarts.at(-1)! + parts.at(-1)!.length + 1;
      parts.push(text.slice(runStart, i));
      out.joinedStarts.push(joinedAt);
      out.textStarts.push(runStart);
    }
    runStart = -1;
  }
}

/** Position in the original text of position `pos` of `joined`. */
export function toTextPosition(c: Candidates, pos: number): number {
  let lo = 0;
  let hi = c.joinedStarts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c.joinedStarts[mid]! <= pos) lo = mid + 1;
    else hi = mid;
  }
  const k = Math.max(0, lo - 1);
  return c.textStarts[k]! + (pos - c.joinedStarts[k]!);
}
