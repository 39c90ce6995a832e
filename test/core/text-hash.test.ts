// A text's sha256 (the embedding cache's key, dedup's) is the same whether it is hashed in JavaScript (short
// texts: a cold search then loads no node:crypto) or by node:crypto (long ones).
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { dedupKey, normalizeText, sha256 } from '../../src/core/text.js';

const native = (text: string) => createHash('sha256').update(text).digest('hex');

describe('sha256 of a text', () => {
  it('is node:crypto’s digest whichever implementation hashes it: short and long, any script, broken surrogates', () => {
    const texts = [
      '',
      'a',
      'what did we decide about the staging database?',
      'Le café est fermé à Zürich',
      '数据库 迁移 完成',
      'Deploy went 🚀 smoothly',
      '\u0000\u0001\u007f',
      '\uD800 lone high, lone low \uDC00, reversed \uDC00\uD800',
      'x'.repeat(1023),
      'x'.repeat(1024),
      'x'.repeat(1025),
      'é'.repeat(1024),
      `${'🌍'.repeat(512)}`,
      `${'🌍'.repeat(513)}`,
      'long text '.repeat(10_000),
    ];
    for (const text of texts) assert.equal(sha256(text), native(text), `${JSON.stringify(text.slice(0, 24))}… (${text.length} chars)`);
  });

  it('keys exact duplicates by their normalised text', () => {
    assert.equal(dedupKey('We moved the DB.'), native(normalizeText('We moved the DB.')));
    assert.equal(dedupKey('we  moved the db'), dedupKey('We moved the DB.'));
  });
});
