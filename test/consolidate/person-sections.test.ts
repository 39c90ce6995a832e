// The person's own text in files Cairn regenerates: carried over byte for byte, a new file gets an
// empty section with a hint, broken markers keep everything from the first begin to the end of the
// file (and the next rewrite is stable), and a file a person wrote before Cairn is kept whole.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  GENERATED_MARKER,
  PERSON_BEGIN,
  PERSON_END,
  PERSON_HINT,
  carriedPersonText,
  extractPersonSection,
  isCairnGenerated,
  personBlockLines,
  withPersonSection,
} from '../../src/consolidate/person-sections.js';

const generated = (body: string) => `${GENERATED_MARKER}\n# Title\n\n${body}\n`;
/** One regeneration: the person's text of `previous` carried into a fresh generated body. */
const regenerate = (previous: string | null, body = 'Generated line.') => withPersonSection(generated(body), carriedPersonText(previous));

describe('person sections', () => {
  it('gives a new file an empty section with a hint, right after the title', () => {
    const text = regenerate(null);
    assert.equal(text, `${GENERATED_MARKER}\n# Title\n\n${PERSON_BEGIN}\n${PERSON_HINT}\n${PERSON_END}\n\nGenerated line.\n`);
    assert.equal(personBlockLines(null), 3);
    assert.ok(isCairnGenerated(text));
  });

  it('carries the text between the markers byte for byte, whatever the generated part becomes', () => {
    const mine = '\n  my notes: *keep* this\r\n\ttabs, trailing spaces   \n\n多言語 テキスト 🙂\n<!-- my own comment -->\n';
    const before = `${GENERATED_MARKER}\n# Old title\n\n${PERSON_BEGIN}${mine}${PERSON_END}\n\nOld generated text.\n`;
    assert.equal(extractPersonSection(before), mine);
    const after = regenerate(before, 'Entirely new generated text.');
    assert.equal(extractPersonSection(after), mine);
    assert.ok(after.includes(`${PERSON_BEGIN}${mine}${PERSON_END}`));
    assert.ok(!after.includes('Old generated text.'));
    assert.equal(regenerate(after, 'Entirely new generated text.'), after, 'a second rewrite is byte-identical');
  });

  it('returns null when there is no file or no section', () => {
    assert.equal(extractPersonSection(null), null);
    assert.equal(extractPersonSection(generated('no markers here')), null);
    assert.equal(carriedPersonText(generated('no markers here')), null, 'a Cairn file whose section was deleted gets a fresh one');
    assert.equal(carriedPersonText(''), null);
  });

  for (const [name, broken] of [
    ['a begin without an end', `${PERSON_BEGIN}\nmine, no end\n\n## Generated\nold`],
    ['two begins', `${PERSON_BEGIN}\nfirst\n${PERSON_BEGIN}\nsecond\n${PERSON_END}\nold`],
    ['a nested pair', `${PERSON_BEGIN}\nouter\n${PERSON_BEGIN}\ninner\n${PERSON_END}\nouter tail\n${PERSON_END}\nold`],
    ['an end before the begin', `${PERSON_END}\nstray\n${PERSON_BEGIN}\nmine`],
  ] as const) {
    it(`keeps everything from the first begin to the end of the file on ${name}, says so, and is stable after`, () => {
      const before = `${GENERATED_MARKER}\n# T\n\n${broken}\n`;
      const kept = extractPersonSection(before)!;
      assert.match(kept, /<!-- cairn: the markers of this section were broken/);
      const tail = before.slice(before.indexOf(PERSON_BEGIN) + PERSON_BEGIN.length);
      // Every word the person wrote after the first begin is still there, in order.
      const words = tail.replace(/<!--[^>]*-->/g, ' ').split(/\s+/).filter(Boolean);
      let at = 0;
      for (const w of words) {
        at = kept.indexOf(w, at);
        assert.notEqual(at, -1, `"${w}" is kept`);
      }
      const once = regenerate(before);
      assert.equal(once.split(PERSON_BEGIN).length, 2, 'one begin marker after the rewrite');
      assert.equal(once.split(PERSON_END).length, 2, 'one end marker after the rewrite');
      assert.equal(regenerate(once), once, 'the next rewrite changes nothing: the section does not grow');
    });
  }

  it('keeps a file a person wrote before Cairn whole, as their section', () => {
    const handMade = '# My memory\n\n- the staging password lives in the vault\n- prefers tabs\n';
    const kept = carriedPersonText(handMade)!;
    assert.ok(kept.includes(handMade));
    assert.match(kept, /as you wrote it before Cairn/);
    const once = regenerate(handMade);
    assert.ok(once.includes(handMade));
    assert.equal(regenerate(once), once);
  });

  it('makes markers inside a hand-written file inert instead of letting them cut it', () => {
    const handMade = `notes\n${PERSON_END}\nmore notes\n`;
    const once = regenerate(handMade);
    assert.equal(once.split(PERSON_END).length, 2);
    assert.ok(once.includes('more notes'));
    assert.equal(regenerate(once), once);
  });

  it('puts the section at the top of a file without a title', () => {
    assert.equal(withPersonSection('just text\n', 'x'), `${PERSON_BEGIN}x${PERSON_END}\n\njust text\n`);
  });

  it('counts the lines of the section as written', () => {
    assert.equal(personBlockLines('inline'), 1);
    assert.equal(personBlockLines('\na\nb\n'), 4);
  });
});
