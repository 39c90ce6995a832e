// The lines of an import stream with a length cap that holds while reading: a line longer than
// the cap is skipped as it streams past (reported, never buffered whole), so one oversized or
// newline-free input cannot exhaust memory.
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';

export interface ImportLine {
  /** 1-based. */
  lineNo: number;
  /** The line without its newline (and a CR before it); null when it was longer than the cap. */
  text: string | null;
  /** Characters in the line (counted up to the cap and beyond while skipping). */
  length: number;
}

/** Yields every line of `input` (a last line without a newline too), each at most `maxChars`. */
export async function* boundedLines(input: Readable, maxChars: number): AsyncGenerator<ImportLine> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let skipping = false;
  let skipped = 0;
  let lineNo = 0;
  const finish = (text: string): ImportLine => {
    lineNo++;
    if (skipping) {
      const length = skipped + text.length;
      skipping = false;
      skipped = 0;
      return { lineNo, text: null, length };
    }
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    return line.length > maxChars ? { lineNo, text: null, length: line.length } : { lineNo, text: line, length: line.length };
  };
  for await (const chunk of input) {
    const all = pending + (typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer));
    pending = '';
    let from = 0;
    for (let nl = all.indexOf('\n'); nl !== -1; nl = all.indexOf('\n', from)) {
      yield finish(all.slice(from, nl));
      from = nl + 1;
    }
    const data = all.slice(from);
    if (skipping) skipped += data.length;
    else if (data.length > maxChars + 1) {
      // Past the cap with no newline yet: drop what we have and skip to the next newline.
      skipping = true;
      skipped = data.length;
    } else pending = data;
  }
  const rest = pending + decoder.end();
  if (rest.length > 0 || skipping) yield finish(rest);
}
