// redact() remembers the texts it returned after a pass that found nothing, and answers them again
// without a scan (capture redacts a turn, then the service's gate sees the same text). What it
// remembers is only ever a verified fixed point: an input that held a secret is redacted at every
// call, and the answers are the ones a scan gives.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { redact, redactWithLayers } from '../../src/capture/redact.js';
import { Gen } from './fixtures/redaction-corpus.js';

describe('redact: texts found clean', () => {
  it('returns a text it returned before unchanged, with nothing counted', () => {
    const g = new Gen(7);
    const text = `deploy with GITHUB_TOKEN=${'ghp_' + g.b62(36)} then restart the worker`;
    const first = redact(text);
    assert.equal(first.counts['github-token'], 1);
    for (let i = 0; i < 3; i++) assert.deepEqual(redact(first.text), { text: first.text, counts: {} });
    // The same characters in another string object: the same answer.
    assert.deepEqual(redact(first.text.split('').join('')), { text: first.text, counts: {} });
  });

  it('redacts an input that held a secret at every call, counting it each time', () => {
    const g = new Gen(8);
    const key = 'AKIA' + g.upperNum(16);
    const text = `aws_access_key_id = ${key}`;
    for (let i = 0; i < 3; i++) {
      const out = redact(text);
      assert.ok(!out.text.includes(key));
      assert.ok(Object.values(out.counts).reduce((a, b) => a + b, 0) >= 1);
    }
  });

  it('answers as a scan does for clean texts, secrets and look-alikes asked in any order', () => {
    const g = new Gen(9);
    const texts = [
      'nothing secret here, just a note about the staging database',
      `token ${'ghp_' + g.b62(36)} and more`,
      'sk-this-is-not-a-key and AKIAEXAMPLE look-alikes',
      '',
      `password: ${g.password(18)}`,
    ];
    const scanned = texts.map((t) => redact(t));
    for (let round = 0; round < 3; round++) {
      for (const [i, t] of [...texts.entries()].reverse()) {
        assert.deepEqual(redact(t), scanned[i], t);
        assert.deepEqual(redact(scanned[i]!.text), { text: scanned[i]!.text, counts: {} });
      }
    }
  });

  it('keeps no verdict of the hand-written layer alone for a full redaction', () => {
    // A text the library-less pass finds clean is scanned again by redact(), both layers.
    const text = 'a plain sentence the hand-written detectors pass';
    assert.equal(redactWithLayers(text, { library: false }).text, text);
    assert.deepEqual(redact(text), { text, counts: {} });
  });
});
