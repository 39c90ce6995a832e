// Record ids: the time part sorts as the times do, the random part comes from a pool of CSPRNG
// bytes drawn a few KB at a time, and no two ids repeat across the pool's refills.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { newId, RECORD_ID_PATTERN } from '../../src/core/ids.js';

const ID = /^([mtdxef])_([0-9a-hjkmnp-tv-z]{9})([0-9a-hjkmnp-tv-z]{12})$/;

describe('newId', () => {
  it('writes the prefix, nine characters of base-32 milliseconds, then twelve random ones', () => {
    for (const prefix of ['m', 't', 'd', 'x', 'e', 'f'] as const) {
      const id = newId(prefix);
      assert.match(id, ID);
      assert.match(id, RECORD_ID_PATTERN);
      assert.equal(id[0], prefix);
    }
    // The time part as every release wrote it (Crockford's alphabet, most significant first).
    assert.equal(newId('m', 0).slice(2, 11), '000000000');
    assert.equal(newId('m', 31).slice(2, 11), '00000000z');
    assert.equal(newId('m', 32).slice(2, 11), '000000010');
    assert.equal(newId('m', 1_700_000_000_000).slice(2, 11), '1hf7yat00');
    assert.equal(newId('m', 2 ** 45 - 1).slice(2, 11), 'zzzzzzzzz');
  });

  it('sorts by time as text, whatever the random part', () => {
    const times = [0, 1, 999, 1_000, 1_699_999_999_999, 1_700_000_000_000, 1_764_400_000_123, 2 ** 45 - 1];
    const ids = times.map((t) => newId('m', t));
    assert.deepEqual([...ids].sort(), ids);
  });

  it('repeats no id over many refills of the random pool, and uses every character', () => {
    const seen = new Set<string>();
    const counts = new Map<string, number>();
    const at = Date.now();
    for (let i = 0; i < 20_000; i++) {
      const id = newId('t', at);
      assert.ok(!seen.has(id), `repeated ${id}`);
      seen.add(id);
      for (const c of id.slice(11)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    assert.equal(counts.size, 32);
    // 240,000 characters over 32 symbols: 7,500 each expected; a skewed draw would be far off.
    for (const [c, n] of counts) assert.ok(n > 7_000 && n < 8_000, `${c} drawn ${n} times`);
  });

  it('refuses a time that is not a number, and writes one before 1970 as 0', () => {
    assert.throws(() => newId('m', Number.NaN), RangeError);
    assert.throws(() => newId('m', Number.POSITIVE_INFINITY), RangeError);
    assert.equal(newId('m', -5).slice(2, 11), '000000000');
    assert.equal(newId('m', 1.9).slice(2, 11), '000000001');
  });
});
