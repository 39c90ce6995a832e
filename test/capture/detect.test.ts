// Telling what a file given to `cairn ingest` holds from its first bytes: the three transcript
// formats by their records, OpenClaw's SQLite store by its header, binary files by their bytes,
// and damaged transcripts still as text (their bad lines become issues, not a refusal).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { oddShare, sniffHead } from '../../src/capture/sources/detect.js';
import { fixtureLines } from './fixtures/load.js';
import { seeded } from '../helpers/prng.js';

const text = (s: string) => sniffHead(Buffer.from(s, 'utf8'), false);
/** The format the first record that names one gives these lines. */
const detectFormat = (lines: string[]) => {
  const sniff = text(lines.join('\n'));
  return sniff.kind === 'text' ? sniff.format : null;
};

describe('sniffHead', () => {
  it('names each format from its first record that says one', () => {
    assert.equal(detectFormat(fixtureLines('openclaw-session.jsonl')), 'openclaw');
    assert.equal(detectFormat(fixtureLines('openclaw-formats-md.jsonl').slice(1)), 'openclaw', 'a resumed file without its header');
    assert.equal(detectFormat(fixtureLines('claude-code-session.jsonl')), 'claude-code');
    assert.equal(detectFormat(fixtureLines('claude-code-formats-md.jsonl')), 'claude-code');
    assert.equal(detectFormat(fixtureLines('generic-chat.jsonl')), 'jsonl');
    // Lines that say nothing are passed over; the first that does decides.
    assert.equal(detectFormat(['', '{oops', '[1,2]', '{"a":1}', '{"role":"user","content":"hi"}']), 'jsonl');
    assert.equal(detectFormat(['{"type":"summary","summary":"x","leafUuid":"u"}']), 'claude-code');
    assert.equal(detectFormat(['\uFEFF{"type":"session","version":4,"id":"s","cwd":"/w"}']), 'openclaw');
    assert.equal(detectFormat(['{"type":"message","role":"user","content":"x"}']), 'jsonl', 'a chat line with a type field is still generic');
    assert.equal(detectFormat(['{"a":1}', 'plain text']), null);
  });

  it('tells SQLite, empty, binary and text apart; a damaged transcript is text', () => {
    assert.deepEqual(sniffHead(Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(200)]), false), { kind: 'sqlite' });
    assert.deepEqual(text(''), { kind: 'empty' });
    assert.deepEqual(text('\n  \n\uFEFF\n'), { kind: 'empty' });
    assert.deepEqual(text('# notes\nnot a transcript\n'), { kind: 'text', format: null });
    const next = seeded(7);
    const random = Buffer.from(Array.from({ length: 4096 }, () => Math.floor(next() * 256)));
    assert.deepEqual(sniffHead(random, false), { kind: 'binary' });
    assert.deepEqual(sniffHead(gzipSync(Buffer.from('{"role":"user","content":"hi"}\n'.repeat(50))), false), { kind: 'binary' });
    assert.deepEqual(sniffHead(Buffer.from('{"role":"user","content":"hi"}\n', 'utf16le'), false), { kind: 'binary' });
    assert.deepEqual(sniffHead(Buffer.from('\uFEFF{"role":"user","content":"hi"}\n', 'utf16le'), false), { kind: 'utf16' });
    // Text with a flipped byte, a NUL and a split line: no record reads, but it is still text.
    const damaged = Buffer.from('{"role":"user","content":"We deci\u00b6ded the port\u0000 is 5433 and the cache stays"\n}\n{"role":"assis');
    assert.ok(oddShare(damaged) < 0.1);
    assert.deepEqual(sniffHead(damaged, false), { kind: 'text', format: null });
    // Garbage lines between good records do not make a transcript binary.
    assert.deepEqual(sniffHead(Buffer.concat([random.subarray(0, 400), Buffer.from('\n{"role":"user","content":"hi"}\n')]), false), { kind: 'text', format: 'jsonl' });
  });

  it('reads only complete lines of a cut head, and does not count a UTF-8 sequence cut at its end', () => {
    const line = '{"role":"user","content":"caf\u00e9"}\n';
    const head = Buffer.from(line + '{"type":"session","version":3,"id":"s","cwd":"/w"}');
    assert.deepEqual(sniffHead(head, true), { kind: 'text', format: 'jsonl' });
    assert.deepEqual(sniffHead(Buffer.from('{"role":"us'), true), { kind: 'text', format: null });
    assert.equal(oddShare(Buffer.from('caf\u00e9').subarray(0, 4)), 0);
  });
});
