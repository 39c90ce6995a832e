// The pieces `cairn import` reads with: Markdown notes split into one memory per list item or
// paragraph (with line ranges and headings), and an input stream split into lines with a cap
// that holds while reading (chunk boundaries, CRLF, multi-byte characters, oversized lines).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { markdownItems } from '../../src/service/import/markdown.js';
import { boundedLines, type ImportLine } from '../../src/service/import/lines.js';

const rows = (md: string) => markdownItems(md).map((i) => [i.startLine, i.endLine, i.headings.filter(Boolean).join(' > '), i.text]);

describe('markdownItems', () => {
  it('one memory per top-level item (nested lines included) and per paragraph', () => {
    assert.deepEqual(rows([
      'Setext title', '============', // 1-2
      'Intro paragraph that', 'wraps over two lines.', '', // 3-5
      'Section', '-------', // 6-7
      '1. First step', '2) Second step', '   continued under it', '', '   and after a blank line', // 8-12
      '- item with code', '  ```sh', '  # not a heading', '  deploy --prod', '  ```', // 13-17
      '- lazy item', 'continuation line', // 18-19
      '', '***', '', '> quoted note', '', // 20-24
      '<!--', '- hidden', '-->', // 25-27
      '```', '# comment in code', '```', // 28-30
      '### Deep', '- [x] done task', // 31-32
    ].join('\r\n')), [
      [3, 4, 'Setext title', 'Intro paragraph that\nwraps over two lines.'],
      [8, 8, 'Setext title > Section', 'First step'],
      [9, 12, 'Setext title > Section', 'Second step\ncontinued under it\n\nand after a blank line'],
      [13, 17, 'Setext title > Section', 'item with code\n```sh\n# not a heading\ndeploy --prod\n```'],
      [18, 19, 'Setext title > Section', 'lazy item\ncontinuation line'],
      [23, 23, 'Setext title > Section', '> quoted note'],
      [28, 30, 'Setext title > Section', '```\n# comment in code\n```'],
      [32, 32, 'Setext title > Section > Deep', '[x] done task'],
    ]);
  });

  it('skips front matter, empty items and blank files; a heading resets deeper ones', () => {
    assert.deepEqual(rows('---\ntitle: x\ntags: [a]\n---\n# A\n## B\n- one\n-\n# C\n- two\n'), [
      [7, 7, 'A > B', 'one'],
      [10, 10, 'C', 'two'],
    ]);
    assert.deepEqual(rows(''), []);
    assert.deepEqual(rows('\uFEFF\n\n   \n'), []);
  });
});

async function collect(chunks: Array<string | Buffer>, max: number): Promise<ImportLine[]> {
  const out: ImportLine[] = [];
  for await (const line of boundedLines(Readable.from(chunks), max)) out.push(line);
  return out;
}

describe('boundedLines', () => {
  it('splits across chunk boundaries, drops CR before LF, keeps a last line without newline', async () => {
    const euro = Buffer.from('€');
    const lines = await collect([Buffer.from('ab'), Buffer.from('c\r\nd'), euro.subarray(0, 1), euro.subarray(1), Buffer.from('\n\nlast')], 100);
    assert.deepEqual(lines, [
      { lineNo: 1, text: 'abc', length: 3 },
      { lineNo: 2, text: 'd€', length: 2 },
      { lineNo: 3, text: '', length: 0 },
      { lineNo: 4, text: 'last', length: 4 },
    ]);
    assert.deepEqual(await collect([], 10), []);
    assert.deepEqual(await collect(['a\n'], 10), [{ lineNo: 1, text: 'a', length: 1 }]);
  });

  it('skips a line over the cap as it streams (across chunks, or with no newline at all) and goes on', async () => {
    const lines = await collect(['ok\n', 'x'.repeat(8), 'x'.repeat(8), 'xx\nnext\n', 'y'.repeat(30)], 10);
    assert.deepEqual(lines, [
      { lineNo: 1, text: 'ok', length: 2 },
      { lineNo: 2, text: null, length: 18 },
      { lineNo: 3, text: 'next', length: 4 },
      { lineNo: 4, text: null, length: 30 },
    ]);
  });
});
