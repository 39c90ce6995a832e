// A long text's passages (runs of its sentences, embedded one by one beside the whole text) and
// the packed rows they are stored in.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PASSAGES, PASSAGE_CHARS, bestPassage, isPassageModel, packVectors, passageModelId, passagesOf } from '../../src/embed/passages.js';

describe('passagesOf', () => {
  const sentence = (i: number) => `Sentence number ${i} of this long answer says something new about the plan.`; // 75 chars

  it('a text of PASSAGE_CHARS or less has none: its own vector stands for it', () => {
    assert.deepEqual(passagesOf('One of my favorite dishes is lasagna! Comfort food is a great pick-me-up. I have exams.'), []);
    assert.deepEqual(passagesOf('x'.repeat(PASSAGE_CHARS)), []);
  });

  it('a longer text: runs of whole sentences of at most PASSAGE_CHARS, in order, losing nothing', () => {
    const text = Array.from({ length: 12 }, (_, i) => sentence(i)).join(' ');
    const passages = passagesOf(text);
    assert.ok(passages.length >= 2);
    for (const p of passages) assert.ok(p.length <= PASSAGE_CHARS, p);
    assert.equal(passages.join(' '), text);
    assert.ok(passages.every((p) => p.endsWith('plan.')), 'runs end at sentence ends');
  });

  it('breaks at line ends and at sentence ends before a capital, a digit or a quote, in any script', () => {
    const lines = Array.from({ length: 6 }, (_, i) => `- item ${i} of the list, with a few more words to make it longer than most items are`);
    assert.equal(passagesOf(lines.join('\n')).join(' '), lines.join(' '));
    const german = Array.from({ length: 8 }, () => 'Das ist ein Satz über den Fluss, den wir bald überqueren werden.').join(' ');
    assert.ok(passagesOf(german).length >= 2);
    // No break inside "2.5" or "e.g. the": one 450-char sentence is one passage, so none of its own.
    assert.deepEqual(passagesOf(`Version 2.5 is out, see e.g. the notes ${'and more '.repeat(48)}end.`), []);
  });

  it('a sentence longer than PASSAGE_CHARS is a passage of its own', () => {
    const long = `A very long sentence ${'that goes on '.repeat(40)}until it ends.`;
    assert.deepEqual(passagesOf(`${long} ${sentence(1)}`), [long, sentence(1)]);
  });

  it('keeps at most MAX_PASSAGES passages: a very long text is joined into that many runs, in order', () => {
    const text = Array.from({ length: 400 }, (_, i) => sentence(i)).join(' ');
    const passages = passagesOf(text);
    assert.equal(passages.length, MAX_PASSAGES);
    assert.equal(passages.join(' '), text);
  });

  it('empty, blank, punctuation-only and hostile input: no passages, no error', () => {
    for (const text of ['', '   ', '\n\n\n', '... !!! ???'.repeat(60), '.\n'.repeat(300), '\u0000\u0001 . \uFFFF'.repeat(100)]) assert.deepEqual(passagesOf(text), []);
    assert.equal(passagesOf('Ab cd ef gh. '.repeat(50_000)).length, MAX_PASSAGES);
    assert.deepEqual(passagesOf('x'.repeat(200_000)), []);
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

  it('passage rows are stored under their own model id, told apart from the model', () => {
    assert.equal(passageModelId('use-lite@1'), 'use-lite@1#passages');
    assert.ok(isPassageModel(passageModelId('x')));
    assert.ok(!isPassageModel('use-lite@1'));
  });
});
