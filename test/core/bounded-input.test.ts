// Reading input of a size the sender decides, holding no more than the caller can use (issue 30
// item 12): lines split across chunks, CRLF, a last line without a newline, an oversized line
// reported by its size between good ones, and a whole input refused as soon as it is too long.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { readAtMost } from '../../src/core/bounded-input.js';
import { boundedLines, type ImportLine } from '../../src/service/import/lines.js';

const chunks = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));

async function lines(input: Readable, max: number): Promise<Array<string | null>> {
  const out: ImportLine[] = [];
  for await (const line of boundedLines(input, max)) out.push(line);
  assert.deepEqual(out.map((l) => l.lineNo), out.map((_, k) => k + 1), 'lines are numbered from 1');
  return out.map((l) => l.text);
}

describe('boundedLines (import)', () => {
  it('splits across chunks, drops a CR before LF, keeps a last line without a newline', async () => {
    assert.deepEqual(await lines(chunks('ab', 'c\r\nd', 'é\n\n', 'last'), 100), ['abc', 'dé', '', 'last']);
    assert.deepEqual(await lines(chunks(''), 100), []);
    assert.deepEqual(await lines(chunks('one\n'), 100), ['one']);
  });

  it('reports a line over the bound and reads on', async () => {
    const long = 'x'.repeat(25);
    assert.deepEqual(await lines(chunks('ok\n', long.slice(0, 10), long.slice(10), '\nfine\n', long), 20), ['ok', null, 'fine', null]);
    assert.deepEqual(await lines(chunks('x'.repeat(20) + '\n'), 20), ['x'.repeat(20)], 'exactly at the bound is kept');
  });
});

describe('readAtMost', () => {
  it('returns the text when it fits, null as soon as it does not, and stops reading there', async () => {
    assert.equal(await readAtMost(chunks('ab', 'cé'), 5), 'abcé');
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled++;
        this.push(Buffer.alloc(1024, 'y'));
      },
    });
    assert.equal(await readAtMost(endless, 10_000), null);
    assert.ok(endless.destroyed);
    assert.ok(pulled < 50, `read ${pulled} chunks of an endless input`);
  });
});
