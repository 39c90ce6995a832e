// A long text's passages under each policy (windows of the model's reach, every sentence run, or
// none), embedded one by one beside the whole text, and the packed rows they are stored in.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PASSAGE_POLICY, MAX_PASSAGES, MAX_WINDOWS, PASSAGE_CHARS, PASSAGE_POLICIES, bestPassage, isPassageModel, packVectors, passageModelId, passagePolicyOf, passagesOf } from '../../src/embed/passages.js';
import { parseConfig } from '../../src/core/config.js';

describe('passagesOf, sentences (every run)', () => {
  const sentence = (i: number) => `Sentence number ${i} of this long answer says something new about the plan.`; // 75 chars

  it('a text of PASSAGE_CHARS or less has none: its own vector stands for it', () => {
    assert.deepEqual(passagesOf('One of my favorite dishes is lasagna! Comfort food is a great pick-me-up. I have exams.'), []);
    assert.deepEqual(passagesOf('x'.repeat(PASSAGE_CHARS)), []);
  });

  it('a longer text: runs of whole sentences of at most PASSAGE_CHARS, in order, losing nothing', () => {
    const text = Array.from({ length: 12 }, (_, i) => sentence(i)).join(' ');
    const passages = passagesOf(text, 'sentences');
    assert.ok(passages.length >= 2);
    for (const p of passages) assert.ok(p.length <= PASSAGE_CHARS, p);
    assert.equal(passages.join(' '), text);
    assert.ok(passages.every((p) => p.endsWith('plan.')), 'runs end at sentence ends');
  });

  it('breaks at line ends and at sentence ends before a capital, a digit or a quote, in any script', () => {
    const lines = Array.from({ length: 6 }, (_, i) => `- item ${i} of the list, with a few more words to make it longer than most items are`);
    assert.equal(passagesOf(lines.join('\n'), 'sentences').join(' '), lines.join(' '));
    const german = Array.from({ length: 8 }, () => 'Das ist ein Satz über den Fluss, den wir bald überqueren werden.').join(' ');
    assert.ok(passagesOf(german, 'sentences').length >= 2);
    // No break inside "2.5" or "e.g. the": one 450-char sentence is one passage, so none of its own.
    assert.deepEqual(passagesOf(`Version 2.5 is out, see e.g. the notes ${'and more '.repeat(48)}end.`, 'sentences'), []);
  });

  it('a sentence longer than PASSAGE_CHARS is a passage of its own', () => {
    const long = `A very long sentence ${'that goes on '.repeat(40)}until it ends.`;
    assert.deepEqual(passagesOf(`${long} ${sentence(1)}`, 'sentences'), [long, sentence(1)]);
  });

  it('keeps at most MAX_PASSAGES passages: a very long text is joined into that many runs, in order', () => {
    const text = Array.from({ length: 400 }, (_, i) => sentence(i)).join(' ');
    const passages = passagesOf(text, 'sentences');
    assert.equal(passages.length, MAX_PASSAGES);
    assert.equal(passages.join(' '), text);
  });

  it('empty, blank, punctuation-only and hostile input: no passages, no error', () => {
    for (const policy of PASSAGE_POLICIES) {
      for (const text of ['', '   ', '\n\n\n', '... !!! ???'.repeat(60), '.\n'.repeat(300), '\u0000\u0001 . \uFFFF'.repeat(100)]) assert.deepEqual(passagesOf(text, policy), [], policy);
    }
    assert.equal(passagesOf('Ab cd ef gh. '.repeat(50_000), 'sentences').length, MAX_PASSAGES);
    assert.deepEqual(passagesOf('x'.repeat(200_000), 'sentences'), []);
  });
});

describe('passagesOf, windows and none (the default)', () => {
  const sentence = (i: number) => `Sentence number ${i} of this long answer says something new about the plan.`; // 75 chars

  it('none is the default policy, and the config\'s (passages did not earn their place: docs/SEARCH.md)', () => {
    assert.equal(DEFAULT_PASSAGE_POLICY, 'none');
    assert.equal(parseConfig({}).index.passages, 'none');
    assert.deepEqual(passagesOf(Array.from({ length: 40 }, (_, i) => sentence(i)).join(' ')), []);
    assert.equal(parseConfig({ index: { passages: 'windows' } }).index.passages, 'windows');
    assert.throws(() => parseConfig({ index: { passages: 'paragraphs' } }));
  });

  it('a text of PASSAGE_CHARS or less, or of one window, has none', () => {
    assert.deepEqual(passagesOf('x '.repeat(PASSAGE_CHARS / 2), 'windows'), []);
    assert.deepEqual(passagesOf(`${sentence(1)} ${sentence(2)}`, 'windows'), []);
  });

  it('at most MAX_WINDOWS windows: the start, the end and evenly between, each within PASSAGE_CHARS', () => {
    const all = Array.from({ length: 60 }, (_, i) => sentence(i));
    const runs = passagesOf(all.join(' '), 'sentences').length; // 60 sentences, 5 per run
    assert.ok(runs > MAX_WINDOWS);
    const windows = passagesOf(all.join(' '), 'windows');
    assert.equal(windows.length, MAX_WINDOWS);
    for (const w of windows) assert.ok(w.length <= PASSAGE_CHARS, w);
    assert.ok(windows[0]!.startsWith(sentence(0)), 'the start');
    assert.ok(windows.at(-1)!.endsWith(sentence(59)), 'the end');
    assert.ok(windows[1]!.includes('number 2') || windows[1]!.includes('number 3'), windows[1]);
    // A text of a few windows keeps them all.
    assert.equal(passagesOf(all.slice(0, 8).join(' '), 'windows').length, 2);
  });

  it('a sentence past PASSAGE_CHARS (code, a log line) is cut at spaces into windows the model reads whole', () => {
    const log = `error: ${'at module.function (src/file.ts:12:5) '.repeat(40)}`.trim();
    const windows = passagesOf(`${log}\n${sentence(1)}`, 'windows');
    assert.ok(windows.length >= 2 && windows.length <= MAX_WINDOWS);
    for (const w of windows) assert.ok(w.length <= PASSAGE_CHARS && w.length > 0, w);
    assert.ok(windows.at(-1)!.endsWith(sentence(1)));
    // No space at all: cut at the limit (the last piece holds the rest).
    assert.deepEqual(passagesOf('y'.repeat(5_000), 'windows').map((w) => w.length), [PASSAGE_CHARS, PASSAGE_CHARS, 5_000 % PASSAGE_CHARS]);
  });

  it('none: never any passage', () => {
    assert.deepEqual(passagesOf(Array.from({ length: 60 }, (_, i) => sentence(i)).join(' '), 'none'), []);
  });
});

describe('packed passage vectors', () => {
  it('packs vectors end to end; the best passage is the largest dot product', () => {
    const packed = packVectors([new Float32Array([1, 0]), new Float32Array([0.6, 0.8]), new Float32Array([0, 1])]);
    assert.deepEqual([...packed], [1, 0, 0.6000000238418579, 0.800000011920929, 0, 1]);
    assert.ok(Math.abs(bestPassage(new Float32Array([0, 1]), packed)!.score - 1) < 1e-6);
    assert.ok(Math.abs(bestPassage(new Float32Array([0.8, 0.6]), packed)!.score - 0.96) < 1e-6);
    assert.equal(bestPassage(new Float32Array([0, 1]), packed)!.index, 2);
    assert.equal(bestPassage(new Float32Array([0.8, 0.6]), packed)!.index, 1);
    assert.equal(bestPassage(new Float32Array([1, 0]), packed)!.index, 0);
  });

  it('an empty or malformed row has no best passage', () => {
    assert.equal(packVectors([]).length, 0);
    assert.equal(bestPassage(new Float32Array([1, 0]), new Float32Array(0)), null);
    assert.equal(bestPassage(new Float32Array([1, 0]), new Float32Array(3)), null);
  });

  it('each policy\'s rows are stored under their own model id, told apart from the model, and the policy read back from it', () => {
    assert.equal(passageModelId('use-lite@1', 'sentences'), 'use-lite@1#passages', 'rows stored before windows keep their id');
    assert.equal(passageModelId('use-lite@1', 'windows'), 'use-lite@1#windows');
    assert.equal(passageModelId('use-lite@1'), 'use-lite@1#no-passages', 'the default names rows that never exist');
    for (const policy of PASSAGE_POLICIES) {
      assert.ok(isPassageModel(passageModelId('x', policy)));
      assert.equal(passagePolicyOf(passageModelId('use-lite@1', policy)), policy);
    }
    assert.equal(new Set(PASSAGE_POLICIES.map((p) => passageModelId('x', p))).size, PASSAGE_POLICIES.length);
    assert.ok(!isPassageModel('use-lite@1'));
    assert.equal(passagePolicyOf('use-lite@1'), DEFAULT_PASSAGE_POLICY);
  });
});
