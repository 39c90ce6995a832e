// Reading input whose size the sender decides (stdin, an uploaded file) without holding more of it
// than the caller can use: `cairn store -` once read 300 MB into memory (935 MB RSS) before it
// checked the length (issue 30 item 12), and a JSONL line without a newline grew without bound.
import type { Readable } from 'node:stream';

/**
 * The whole of `input` as UTF-8 text, or null as soon as it is longer than `maxBytes`: reading
 * stops there (the stream is destroyed, so the writer gets EPIPE and the process can exit).
 */
export async function readAtMost(input: Readable, maxBytes: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > maxBytes) {
      input.destroy();
      return null;
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A line of input, or the size of one too long to keep (its bytes were read and dropped). */
export type BoundedLine = { text: string } | { tooLongBytes: number };

/**
 * The lines of `input` (split at \n, a trailing \r removed, as readline with crlfDelay Infinity),
 * holding at most `maxLineBytes` of any one line: a longer line is skipped as it streams by and
 * reported by its size, and the lines after it are read as usual.
 */
export async function* boundedLines(input: Readable, maxLineBytes: number): AsyncGenerator<BoundedLine> {
  let pieces: Buffer[] = [];
  let lineBytes = 0;
  const finish = (): BoundedLine => {
    const line: BoundedLine =
      lineBytes > maxLineBytes ? { tooLongBytes: lineBytes } : { text: Buffer.concat(pieces).toString('utf8').replace(/\r$/, '') };
    pieces = [];
    lineBytes = 0;
    return line;
  };
  for await (const chunk of input) {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    for (let end = bytes.indexOf(0x0a); ; end = bytes.indexOf(0x0a)) {
      const part = end < 0 ? bytes : bytes.subarray(0, end);
      lineBytes += part.length;
      if (lineBytes <= maxLineBytes) pieces.push(part);
      else pieces = [];
      if (end < 0) break;
      yield finish();
      bytes = bytes.subarray(end + 1);
    }
  }
  if (lineBytes > 0) yield finish();
}
