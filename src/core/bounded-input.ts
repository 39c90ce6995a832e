// Reading input whose size the sender decides (stdin, an uploaded file) without holding more of it
// than the caller can use: `cairn store -` once read 300 MB into memory (935 MB RSS) before it
// checked the length (issue 30 item 12). Import bounds its lines itself (service/import/lines.ts).
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
