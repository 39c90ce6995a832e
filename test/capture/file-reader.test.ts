// The incremental file reader: complete lines only, resumable from a checkpoint, constant memory
// with tiny chunks, oversized lines skipped, and a restart from the top when the file was
// replaced, truncated or rewritten under the checkpoint.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTranscript, parseFileCheckpoint, type FileCheckpoint, type FileLine, type ReaderOptions } from '../../src/capture/file-reader.js';
import { collect, rejectsCode, tempDir } from '../helpers/store-fixtures.js';

const tmp = tempDir('cairn-reader-');
after(() => tmp.cleanup());
let n = 0;
const file = (content: string | Buffer): string => {
  const path = join(tmp.dir, `f${n++}.jsonl`);
  writeFileSync(path, content);
  return path;
};

/** Reads every complete line from `checkpoint`; returns the lines and the checkpoint after them. */
async function readAll(path: string, checkpoint: unknown = null, options: ReaderOptions = {}) {
  const reader = await openTranscript(path, checkpoint, options);
  try {
    const lines: FileLine[] = await collect(reader.lines());
    return { lines, restarted: reader.restarted, start: reader.start, next: reader.checkpointAfter(lines.at(-1) ?? null) };
  } finally {
    await reader.close();
  }
}
const texts = (lines: FileLine[]) => lines.map((l) => [l.lineNo, l.text]);

describe('file reader', () => {
  it('yields complete lines with 1-based numbers and byte offsets; never a partial last line', async () => {
    const path = file('a\nbé\n\nc-partial');
    const { lines, next, restarted } = await readAll(path);
    assert.deepEqual(texts(lines), [[1, 'a'], [2, 'bé'], [3, '']]);
    assert.deepEqual(lines.map((l) => l.offset), [2, 6, 7]);
    assert.equal(restarted, undefined);
    assert.equal(next.offset, 7);
    assert.equal(next.lineNo, 3);
  });

  it('resumes from a checkpoint: only lines appended since, the partial line once its newline arrives', async () => {
    const path = file('one\ntw');
    const first = await readAll(path);
    assert.deepEqual(texts(first.lines), [[1, 'one']]);
    appendFileSync(path, 'o\nthree\n');
    const second = await readAll(path, first.next);
    assert.equal(second.restarted, undefined);
    assert.deepEqual(texts(second.lines), [[2, 'two'], [3, 'three']]);
    const third = await readAll(path, second.next);
    assert.deepEqual(third.lines, []);
    assert.deepEqual(third.next, { ...second.next, size: third.next.size });
  });

  it('splits lines and multi-byte characters across tiny chunks correctly; strips CR of CRLF', async () => {
    const content = ['héllo wörld ✓', '{"a":"😀😀😀"}', 'x'.repeat(50), 'crlf'].join('\r\n') + '\r\n';
    const { lines } = await readAll(file(content), null, { chunkBytes: 3 });
    assert.deepEqual(texts(lines), [[1, 'héllo wörld ✓'], [2, '{"a":"😀😀😀"}'], [3, 'x'.repeat(50)], [4, 'crlf']]);
    assert.equal(lines.at(-1)!.offset, Buffer.byteLength(content));
  });

  it('skips a line over the cap (text null, length counted) and keeps reading after its newline', async () => {
    const long = 'y'.repeat(100);
    const { lines } = await readAll(file(`ok1\n${long}\nok2\n`), null, { maxLineBytes: 10, chunkBytes: 7 });
    assert.deepEqual(texts(lines), [[1, 'ok1'], [2, null], [3, 'ok2']]);
    assert.equal(lines[1]!.length, 101);
  });

  it('restarts from the top when the file was truncated', async () => {
    const path = file('a\nb\nc\n');
    const { next } = await readAll(path);
    writeFileSync(path, 'd\n');
    const again = await readAll(path, next);
    assert.equal(again.restarted, 'truncated');
    assert.deepEqual(texts(again.lines), [[1, 'd']]);
  });

  it('restarts from the top when the bytes before the offset were rewritten (same inode, size grew)', async () => {
    const path = file('aaa\nbbb\n');
    const { next } = await readAll(path);
    writeFileSync(path, 'aaa\nBBB\nccc\n'); // same inode (truncate + write), different last line
    const again = await readAll(path, next);
    assert.equal(again.restarted, 'rewritten');
    assert.deepEqual(texts(again.lines), [[1, 'aaa'], [2, 'BBB'], [3, 'ccc']]);
  });

  it('restarts from the top when another file now has the path (rotation: new inode)', async () => {
    const path = file('old1\nold2\n');
    const { next } = await readAll(path);
    renameSync(path, `${path}.1`);
    writeFileSync(path, 'old1\nold2\nnew3\n');
    const again = await readAll(path, next);
    assert.equal(again.restarted, 'replaced');
    assert.equal(again.lines.length, 3);
  });

  it('treats a malformed checkpoint as none (restart, reported)', async () => {
    const path = file('a\n');
    const again = await readAll(path, { offset: 'x' });
    assert.equal(again.restarted, 'invalid-checkpoint');
    assert.deepEqual(texts(again.lines), [[1, 'a']]);
    assert.equal(parseFileCheckpoint({ dev: '1', ino: '2', size: 5, offset: 5, lineNo: 1, lastLineHash: null, lastLineLength: 0 }), null);
    const good: FileCheckpoint = { dev: '1', ino: '2', size: 5, offset: 0, lineNo: 0, lastLineHash: null, lastLineLength: 0 };
    assert.deepEqual(parseFileCheckpoint(good), good);
  });

  it('a missing file is NOT_FOUND; a directory is INVALID_INPUT', async () => {
    await rejectsCode(openTranscript(join(tmp.dir, 'missing.jsonl'), null), 'NOT_FOUND', /no such file/);
    const dir = join(tmp.dir, 'a-dir');
    mkdirSync(dir);
    await rejectsCode(openTranscript(dir, null), 'INVALID_INPUT', /is a directory/);
  });

  it('reads a big file in constant memory and resumes at the exact byte', async () => {
    const line = JSON.stringify({ role: 'user', content: 'z'.repeat(1000) });
    const path = file(`${line}\n`.repeat(20_000)); // ~20 MB
    const reader = await openTranscript(path, null, { chunkBytes: 64 * 1024 });
    let count = 0;
    let last: FileLine | null = null;
    const before = process.memoryUsage().rss;
    for await (const l of reader.lines()) {
      count++;
      last = l;
    }
    const grew = process.memoryUsage().rss - before;
    await reader.close();
    assert.equal(count, 20_000);
    assert.equal(last!.offset, 20_000 * (line.length + 1));
    assert.ok(grew < 64 * 1024 * 1024, `RSS grew by ${grew} bytes`);
  });
});
