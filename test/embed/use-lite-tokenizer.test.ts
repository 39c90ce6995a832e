// The ONNX Runtime path tokenizes with Cairn's own SentencePiece tokenizer (so a cold search does
// not import TF.js). Stored vectors stay valid only if its ids are exactly the package's, so the
// package's tokenizer is the oracle: the shipped vocabulary on hostile, random and chat text, and
// small vocabularies built to hit the reference's quirks (ties, repeats, null and zero scores,
// pieces outside the BMP, runs of unknown characters).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { EmbeddingsModel } from '@energetic-ai/embeddings';
import { UseLiteTokenizer, type UseLiteVocabulary } from '../../src/embed/use-lite-tokenizer.js';
import { loadUseLiteVocabulary } from '../../src/embed/use-lite-weights.js';
import { CairnError } from '../../src/core/errors.js';

function reference(vocabulary: UseLiteVocabulary): { encode(text: string): number[] } {
  return (new EmbeddingsModel({ vocabulary: vocabulary as [string, number][], model: null as never }) as unknown as { tokenizer: { encode(text: string): number[] } }).tokenizer;
}

/** Deterministic text from a small alphabet that mixes words, spaces, punctuation and non-Latin characters. */
function randomTexts(count: number, alphabet: readonly string[], maxLength: number, seed: number): string[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, () => {
    let s = '';
    const n = Math.floor(next() * maxLength);
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
    return s;
  });
}

const HOSTILE = [
  '',
  ' ',
  '     ',
  '\t\n\r',
  '\u2581',
  '\u2581\u2581 \u2581',
  'x',
  'ok',
  '日本語のテキストと中文的句子',
  '日本語'.repeat(400),
  '🚀🔥 deploy went fine 👍🏽',
  'e\u0301 café cafe\u0301 ﬁle ① Ⅻ ＡＢＣ', // NFKC folds these
  '\u200b\u200d\ufeff zero width',
  '\uFFFD\uFFFD replacement',
  'a'.repeat(5000),
  'rate limiting '.repeat(300),
  'Tool output: {"status": 500, "error": "Internal Server Error", "trace": ["at foo (bar.js:1:2)"]}',
  'see https://example.com/a?b=c :) :( :-) ): ://',
  '__proto__ constructor toString hasOwnProperty valueOf',
  'I went to Paris last summer with Caroline, and we visited the Louvre twice.',
  "Yeah, last Friday! We decided to move the store to PostgreSQL because SQLite can't be shared.",
];

const WORDS = ['the', 'meeting', 'moved', 'to', 'Thursday', 'we', 'decided', 'PostgreSQL', 'Caroline', "I'm", 'pottery', 'class', 'yesterday', '2023', '7:30pm', 'e-mail', 'naïve', 'Zürich', 'sqlite3', 'JSON.parse()', '¿qué?', '—', '...'];

describe('use-lite tokenizer', () => {
  test('gives the package tokenizer\'s ids for the shipped vocabulary', async () => {
    const vocabulary = await loadUseLiteVocabulary();
    const ours = new UseLiteTokenizer(vocabulary);
    const theirs = reference(vocabulary);
    const alphabet = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ  ..,!?\'"-_:/()\t\n0123456789éèüßçñ日本語中文한국어😀👍🏽\u0301\u200b\uFFFD\u2581ﬁ①Ⅻ'];
    let state = 11;
    const pick = () => WORDS[(state = (state * 48271) % 2147483647) % WORDS.length]!;
    const chat = Array.from({ length: 500 }, (_, i) => Array.from({ length: 1 + (i % 40) }, pick).join(i % 3 ? ' ' : '  '));
    const texts = [...HOSTILE, ...randomTexts(3000, alphabet, 80, 7), ...chat];
    // One tokenizer for all: after its first texts it matches through its trie.
    for (const text of texts) assert.deepEqual(ours.encode(text), theirs.encode(text), JSON.stringify(text.slice(0, 60)));
    // A new tokenizer per text, as a one-shot query has: matched piece by piece, without the trie
    // (except the hostile texts longer than 512 characters).
    for (const text of [...HOSTILE, ...texts.filter((_, i) => i % 20 === 0)]) {
      assert.deepEqual(new UseLiteTokenizer(vocabulary).encode(text), theirs.encode(text), `first text: ${JSON.stringify(text.slice(0, 60))}`);
    }
    // Sanity: the comparison is not between two empty outputs.
    assert.ok(ours.encode('We decided to use PostgreSQL').length >= 5);
    assert.deepEqual(ours.encode(''), []);
  });

  test('follows the reference on ties, repeats, null or zero scores and pieces outside the BMP', () => {
    const reserved: [string, number][] = [['\uFFFD', 0], ['<s>', 0], ['</s>', 0], ['r1', 0], ['r2', 0], ['r3', 0]];
    const vocabularies: UseLiteVocabulary[] = [
      // Equal scores: the later arc into a position wins.
      [...reserved, ['\u2581a', -1], ['b', -1], ['\u2581ab', -2], ['ab', -1], ['a', -1], ['\u2581', -1]],
      // A repeated piece keeps its last id and score; a zero score reads as "not reached".
      [...reserved, ['\u2581', 0], ['a', -2], ['a', -1], ['aa', 0], ['\u2581aa', -3], ['b', -0.5]],
      // Null scores count as 0.
      [...reserved, ['\u2581', null], [':', null], [':)', -1], ['\u2581:', -2], ['x', -1]],
      // A piece outside the BMP is one symbol but two UTF-16 units: the reference steps back by two.
      [...reserved, ['\u2581', -1], ['😀', -1], ['a', -1], ['😀a', -1.5], ['b', -1]],
    ];
    const alphabet = ['a', 'b', ' ', ':', ')', 'x', '😀', 'z', '日'];
    for (const vocabulary of vocabularies) {
      const ours = new UseLiteTokenizer(vocabulary);
      const theirs = reference(vocabulary);
      for (const text of [...randomTexts(1500, alphabet, 14, 3), 'zzz', 'a zz b', '😀😀a']) {
        const expected = theirs.encode(text);
        assert.deepEqual(ours.encode(text), expected, `${JSON.stringify(vocabulary.slice(6))} ${JSON.stringify(text)}`);
        assert.deepEqual(new UseLiteTokenizer(vocabulary).encode(text), expected, `first text: ${JSON.stringify(vocabulary.slice(6))} ${JSON.stringify(text)}`);
      }
    }
  });

  test('merges a run of unknown characters into one unknown token', () => {
    const ours = new UseLiteTokenizer([['\uFFFD', 0], ['<s>', 0], ['</s>', 0], ['r1', 0], ['r2', 0], ['r3', 0], ['\u2581', -1], ['a', -1]]);
    assert.deepEqual(ours.encode('a zzz a'), [6, 7, 6, 0, 6, 7]);
    // The same through the trie, built for a text longer than 512 characters.
    assert.deepEqual(ours.encode(`a zzz a ${'a'.repeat(600)}`).slice(0, 6), [6, 7, 6, 0, 6, 7]);
  });

  test('refuses a damaged vocabulary with a clear error', () => {
    const reserved: [string, number][] = [['\uFFFD', 0], ['<s>', 0], ['</s>', 0], ['r1', 0], ['r2', 0], ['r3', 0]];
    const cases: Array<[unknown, RegExp]> = [
      [null, /no pieces/],
      [{ length: 10 }, /no pieces/],
      [[], /0 pieces/],
      [reserved, /6 pieces/],
      [[...reserved, ['a', 'x']], /piece 6 is not a \[text, score\] pair/],
      [[...reserved, ['', -1]], /piece 6 /],
      [[...reserved, ['a', -1], ['b', Number.NaN]], /piece 7 /],
      [[...reserved, ['a', -1], 'b'], /piece 7 /],
      [[...reserved, ['a', Infinity]], /piece 6 /],
    ];
    for (const [vocabulary, message] of cases) {
      assert.throws(
        () => new UseLiteTokenizer(vocabulary as UseLiteVocabulary),
        (err: unknown) => err instanceof CairnError && err.code === 'EMBEDDER' && message.test(err.message),
        JSON.stringify(vocabulary),
      );
    }
  });
});
