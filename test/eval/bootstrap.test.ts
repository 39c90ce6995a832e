// The bootstrap intervals of bench/eval/bootstrap.ts: deterministic under a seed, the right width
// on data whose spread is known, paired differences that see what unpaired intervals hide.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { beyondNoise, bootstrapMean, pairedBootstrap, seededRandom } from '../../bench/eval/bootstrap.js';

describe('bootstrap over questions', () => {
  test('the same seed gives the same interval; another seed a slightly different one', () => {
    const values = Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? 1 : i % 3 === 1 ? 0.5 : 0));
    const a = bootstrapMean(values, { seed: 7 });
    assert.deepEqual(bootstrapMean(values, { seed: 7 }), a);
    const b = bootstrapMean(values, { seed: 8 });
    assert.notDeepEqual(b, a);
    assert.equal(b.mean, a.mean, 'the figure itself does not depend on the seed');
    assert.deepEqual(seededRandom(1)(), seededRandom(1)());
    const random = seededRandom(3);
    for (let i = 0; i < 1000; i++) {
      const x = random();
      assert.ok(x >= 0 && x < 1, String(x));
    }
  });

  test('the interval holds the mean and is as wide as the spread says (±1.96·sd/√n)', () => {
    // 400 questions, half found (1) and half not (0): sd 0.5, so the 95 % interval is about ±0.049.
    const values = Array.from({ length: 400 }, (_, i) => i % 2);
    const i = bootstrapMean(values, { resamples: 4000, seed: 29 });
    assert.equal(i.mean, 0.5);
    assert.ok(i.low < 0.5 && i.high > 0.5);
    assert.ok(Math.abs(i.high - i.low - 2 * 1.96 * 0.5 / Math.sqrt(400)) < 0.015, `width ${i.high - i.low}`);
  });

  test('no spread is a zero-width interval; no questions are NaN; too few resamples are refused', () => {
    assert.deepEqual(bootstrapMean([0.75, 0.75, 0.75]), { mean: 0.75, low: 0.75, high: 0.75 });
    const none = bootstrapMean([]);
    assert.ok(Number.isNaN(none.mean) && Number.isNaN(none.low) && Number.isNaN(none.high));
    assert.throws(() => bootstrapMean([1, 0], { resamples: 999 }), /at least 1,000 resamples/);
    assert.throws(() => bootstrapMean([1, 0], { resamples: 1500.5 }), /at least 1,000 resamples/);
    const one = bootstrapMean([1]);
    assert.deepEqual([one.low, one.high], [1, 1]);
  });

  test('a paired difference: a small gain on every question is beyond noise, though the two intervals overlap', () => {
    const random = seededRandom(11);
    const base = Array.from({ length: 300 }, () => random());
    const better = base.map((x) => Math.min(1, x + 0.02));
    const a = bootstrapMean(better);
    const b = bootstrapMean(base);
    assert.ok(a.low < b.high, 'the unpaired intervals overlap');
    const d = pairedBootstrap(better, base);
    assert.ok(d.mean > 0.015 && d.mean <= 0.02, String(d.mean));
    assert.ok(beyondNoise(d), JSON.stringify(d));
    // Gains and losses that cancel: the difference is within noise.
    const mixed = base.map((x, i) => Math.max(0, Math.min(1, x + (i % 2 ? 0.2 : -0.2))));
    assert.equal(beyondNoise(pairedBootstrap(mixed, base)), false);
    assert.throws(() => pairedBootstrap([1, 0], [1]), /2 against 1 questions/);
  });

  test('beyondNoise reads the sign of both bounds', () => {
    assert.equal(beyondNoise({ mean: 0.1, low: 0.01, high: 0.2 }), true);
    assert.equal(beyondNoise({ mean: -0.1, low: -0.2, high: -0.01 }), true);
    assert.equal(beyondNoise({ mean: 0.1, low: -0.01, high: 0.2 }), false);
    assert.equal(beyondNoise({ mean: 0, low: 0, high: 0 }), false, 'identical variants');
  });
});
