// The tokenizer's vocabulary kept in the home's cache: what a later process reads back must tokenize
// exactly as the package's vocab.json does, and a missing, damaged, stale or foreign file is made
// again from vocab.json, never trusted and never an error.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCachedVocabulary, VOCABULARY_CACHE_FILE } from '../../src/embed/use-lite-vocab-cache.js';
import { compactVocabulary, UseLiteTokenizer, type CompactVocabulary } from '../../src/embed/use-lite-tokenizer.js';
import { parseUseLiteVocabulary, readUseLiteFile } from '../../src/embed/use-lite-weights.js';

const TEXTS = [
  'We decided to move the staging database to port 5433',
  'naïve Zürich café — ¿qué? 日本語 😀👍🏽 e\u0301',
  'Tool output: {"status": 500, "trace": ["at foo (bar.js:1:2)"]} :) ://',
  'a'.repeat(700),
];

describe('the vocabulary cached in the home', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-vocab-cache-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const source = readUseLiteFile('vocab.json');
  const expected = compactVocabulary(parseUseLiteVocabulary(source));
  /** Loads through the cache, counting how often vocab.json had to be parsed. */
  const load = (cacheDir: string | undefined, bytes = source) => {
    let parsed = 0;
    const vocabulary = loadCachedVocabulary(bytes, cacheDir, (b) => {
      parsed++;
      return parseUseLiteVocabulary(b);
    });
    return { vocabulary, parsed };
  };
  const assertSame = (got: CompactVocabulary, what: string) => {
    assert.deepEqual(got.pieces, expected.pieces, what);
    assert.deepEqual([...got.scores], [...expected.scores], what);
    const ours = new UseLiteTokenizer(got);
    const reference = new UseLiteTokenizer(parseUseLiteVocabulary(source));
    for (const text of TEXTS) assert.deepEqual(ours.encode(text), reference.encode(text), `${what}: ${text.slice(0, 30)}`);
  };

  test('the first load writes it, the next reads it back: the same pieces, scores and token ids', () => {
    const cacheDir = join(dir, 'a', 'cache');
    const first = load(cacheDir);
    assert.equal(first.parsed, 1);
    assertSame(first.vocabulary, 'parsed');
    const file = join(cacheDir, VOCABULARY_CACHE_FILE);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const again = load(cacheDir);
    assert.equal(again.parsed, 0, 'read from the cache, vocab.json not parsed');
    assertSame(again.vocabulary, 'cached');
  });

  test('a damaged, stale or foreign file is made again; the vocabulary stays right', () => {
    const cacheDir = join(dir, 'b');
    load(cacheDir);
    const file = join(cacheDir, VOCABULARY_CACHE_FILE);
    const good = readFileSync(file);
    const flipped = Buffer.from(good);
    flipped[good.length - 100]! ^= 0x20; // one piece's character changed
    const otherSource = Buffer.concat([Buffer.from(' '), source]); // the same JSON in other bytes
    const damage: Array<[string, () => void, Buffer?]> = [
      ['truncated', () => truncateSync(file, 1000)],
      ['a flipped bit in a piece', () => writeFileSync(file, flipped)],
      ['another format', () => writeFileSync(file, Buffer.concat([Buffer.from('CAIRNVC0'), good.subarray(8)]))],
      ['empty', () => writeFileSync(file, '')],
      ['foreign', () => writeFileSync(file, 'not a vocabulary at all, but long enough to have a header')],
      ['made from another vocab.json', () => undefined, otherSource],
    ];
    for (const [what, harm, bytes] of damage) {
      harm();
      const { vocabulary, parsed } = load(cacheDir, bytes);
      assert.equal(parsed, 1, `${what}: parsed again`);
      assertSame(vocabulary, what);
      assert.equal(load(cacheDir, bytes).parsed, 0, `${what}: written again`);
      writeFileSync(file, good);
    }
  });

  test('without a cache folder, or one that cannot be written, it is parsed each time', () => {
    assertSame(load(undefined).vocabulary, 'no cache');
    const blocker = join(dir, 'blocker');
    writeFileSync(blocker, 'a file where the cache folder would go');
    const blocked = load(join(blocker, 'cache'));
    assert.equal(blocked.parsed, 1);
    assertSame(blocked.vocabulary, 'unwritable');
    if (process.getuid?.() !== 0) {
      const readOnly = join(dir, 'read-only');
      mkdirSync(readOnly);
      chmodSync(readOnly, 0o500);
      assertSame(load(readOnly).vocabulary, 'read-only');
      assert.equal(load(readOnly).parsed, 1);
    }
  });

  test('a vocabulary whose pieces would not split back is not cached', () => {
    const cacheDir = join(dir, 'c');
    const odd = Buffer.from(JSON.stringify([...parseUseLiteVocabulary(source).slice(0, 10), ['a\u0000b', -1]]));
    const loaded = loadCachedVocabulary(odd, cacheDir, parseUseLiteVocabulary);
    assert.equal(loaded.pieces.at(-1), 'a\u0000b');
    assert.throws(() => statSync(join(cacheDir, VOCABULARY_CACHE_FILE)));
  });
});
