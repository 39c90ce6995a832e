// Capture analyses each new text several times (the turn's index row, its memory's, the memory's
// row again when its entities are set, the near-duplicate lookup), so text-analysis.ts keeps the
// last texts' languages and index forms. Whatever it keeps must give exactly what analysing anew
// gives: per language asked, past eviction, for texts too long to keep, and for texts that share
// their detection sample but not their words.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { analyse, detectLanguage, indexText, type Language } from '../../src/search/text-analysis.js';
import { seeded } from '../helpers/prng.js';

const GERMAN = 'Wir haben gestern die Datenbank auf den neuen Server umgezogen, weil der alte Rechner zu langsam geworden ist.';
const ENGLISH = 'We moved the database to the new server yesterday because the old machine had become too slow.';

/** What indexText gives, computed from analyse without any kept result (its documented rule). */
function expected(text: string, language: Language): string {
  const forms = analyse(text, language);
  if (language === 'en' || language === 'ru') return forms.join(' ');
  const english = analyse(text, 'en');
  return forms.flatMap((f, i) => (english[i] !== f ? [f, english[i]!] : [f])).join(' ');
}

describe('text analysis reuse', () => {
  it('gives each language its own index forms for the same text', () => {
    const german = indexText(GERMAN, 'de');
    const asEnglish = indexText(GERMAN, 'en');
    assert.notEqual(german, asEnglish);
    assert.equal(indexText(GERMAN, 'de'), german);
    assert.equal(indexText(GERMAN, 'de'), expected(GERMAN, 'de'));
    assert.equal(indexText(GERMAN, 'en'), expected(GERMAN, 'en'));
    assert.equal(indexText(GERMAN), expected(GERMAN, 'de'));
    assert.equal(detectLanguage(GERMAN), 'de');
    assert.equal(detectLanguage(ENGLISH), 'en');
  });

  it('answers the same after many other texts pushed a text out', () => {
    const rand = seeded(7);
    const first = indexText(GERMAN);
    for (let i = 0; i < 500; i++) {
      const text = `${i} ${ENGLISH} ${Math.floor(rand() * 1e9)}`;
      assert.equal(indexText(text), expected(text, 'en'));
    }
    assert.equal(indexText(GERMAN), first);
    assert.equal(detectLanguage(GERMAN), 'de');
  });

  it('answers the same once texts past its character budget pushed the oldest out', () => {
    const first = indexText(GERMAN);
    const page = `${ENGLISH} `.repeat(200); // ~19k chars: kept, and 90 of them exceed what is kept
    for (let i = 0; i < 90; i++) {
      const text = `${i} ${page}`;
      assert.equal(indexText(text), expected(text, 'en'));
    }
    assert.equal(indexText(GERMAN), first);
    assert.equal(indexText(`0 ${page}`), expected(`0 ${page}`, 'en'));
  });

  it('reads a text longer than what is kept the same every time', () => {
    const long = `${GERMAN} `.repeat(400); // ~45k chars: analysed anew each time
    const once = indexText(long);
    assert.equal(indexText(long), once);
    assert.equal(once, expected(long, 'de'));
  });

  it('tells texts apart that share their detection sample', () => {
    const head = `${ENGLISH} `.repeat(8); // past the 600 characters detection reads
    const a = `${head}The cache was cold.`;
    const b = `${head}The index was rebuilt.`;
    assert.equal(detectLanguage(a), detectLanguage(b));
    assert.notEqual(indexText(a), indexText(b));
    assert.equal(indexText(b), expected(b, 'en'));
  });

  it('handles empty, symbol-only and mixed-script texts as analysing anew does', () => {
    for (const text of ['', '   ', '🙂🙂', '東京で会議があります。', 'Привет, как дела? Всё хорошо.', 'x'.repeat(30_000)]) {
      const language = detectLanguage(text);
      assert.equal(detectLanguage(text), language);
      assert.equal(indexText(text), expected(text, language));
      assert.equal(indexText(text), expected(text, language));
    }
  });
});
