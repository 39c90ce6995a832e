// Snippets: the excerpt around the query's words, or around the passage of a long text that is
// closest to the query by meaning when the words alone cannot place it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { queryTerms as terms } from '../../src/search/query-terms.js';
import { makeSnippet, oneLine } from '../../src/search/snippet.js';
import { forEachWord, wordSpans } from '../../src/search/text-analysis.js';

const OPENING = 'The kitchen renovation took most of the spring and the contractor kept changing the schedule every week.';
const MIDDLE = 'We picked oak cabinets, a grey stone counter and a deep sink after weeks of arguing about tiles and taps.';
const LATE = 'The API now applies rate limiting to clients that send too many requests in a minute.';
const TEXT = [OPENING, MIDDLE, MIDDLE, LATE].join(' ');

describe('oneLine', () => {
  it('folds every run of whitespace to one space and trims, as /\\s+/ did', () => {
    const texts = [
      '', ' ', 'plain text with single spaces', '  lead and trail  ', 'two  spaces', 'a\tb', 'a\nb', 'a \n b', '\r\n\r\n',
      'no\u00a0break space', 'line\u2028separator', 'ideographic\u3000space', 'mixed \t\u00a0 run', 'x', '  ',
    ];
    for (const t of texts) assert.equal(oneLine(t), t.replace(/\s+/g, ' ').trim(), JSON.stringify(t));
  });
});

describe('forEachWord', () => {
  const visited = (text: string) => {
    const out: Array<[string, number]> = [];
    forEachWord(text, (word, index) => void out.push([word, index]));
    return out;
  };

  it('gives each word, lower-cased, with where it starts in the text', () => {
    assert.deepEqual(visited("Ana's  CAT, café-bar 42"), [["ana's", 0], ['cat', 7], ['café', 12], ['bar', 17], ['42', 21]]);
    assert.deepEqual(visited(''), []);
    assert.deepEqual(visited(' -- '), []);
  });

  it('cuts unspaced scripts into words with their places in the whole text', () => {
    const text = 'Tokyo 東京都に行きました ok';
    for (const [word, index] of visited(text)) assert.equal(text.slice(index, index + word.length).toLowerCase(), word);
    assert.ok(visited(text).length >= 4);
  });

  it('is what wordSpans lists, also when a visit reads other words meanwhile', () => {
    const text = 'The deploy failed twice; we rolled back and retried on Friday.';
    const spans = wordSpans(text).map((w): [string, number] => [w.word, w.index]);
    const nested: Array<[string, number]> = [];
    forEachWord(text, (word, index) => {
      nested.push([word, index]);
      forEachWord('other words here', () => undefined);
    });
    assert.deepEqual(visited(text), spans);
    assert.deepEqual(nested, spans);
  });
});

describe('makeSnippet', () => {
  it('a short text is itself, whitespace folded', () => {
    assert.equal(makeSnippet('  a\n\nshort   text ', terms('short')), 'a short text');
  });

  it('without a focus: the densest run of query words, or the opening when there is none', () => {
    const s = makeSnippet(TEXT, terms('rate limit'));
    assert.match(s, /^….*rate limiting/);
    assert.ok(s.length <= 242, `${s.length}`);
    assert.equal(makeSnippet(TEXT, terms('zebra')), `${OPENING} ${MIDDLE}…`);
  });

  it('a cut excerpt ends after a sentence, else between words, never before a query word it shows', () => {
    assert.equal(makeSnippet(TEXT, [], 150), `${OPENING}…`);
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau';
    assert.equal(makeSnippet(words, [], 40), 'alpha beta gamma delta epsilon zeta eta…');
    // A sentence ends in the window's second half before the second query word: the cut waits for it.
    const text = `${'Filler words come first here. '.repeat(3)}The key one is near, and a few more words pass by slowly here. Then the key again follows later on, with more text after it to the end.`;
    const s = makeSnippet(text, terms('key'), 100);
    assert.equal((s.match(/key/g) ?? []).length, 2, s);
    assert.ok(s.length <= 102, `${s.length}`);
  });

  it('the window starts at the sentence that holds the query words when it can keep them all', () => {
    const text = 'We spent the whole weekend at the coast. On Saturday Mel finally bought the red kayak she wanted. The rest was rain.';
    // "On Saturday…" starts 39 characters before "kayak", within reach (0.7 × 70): shown from there.
    assert.equal(makeSnippet(text, terms('kayak'), 70), '…On Saturday Mel finally bought the red kayak she wanted.…');
    // A sentence that began too far back for the window: a little before the word instead.
    const long = `We went. ${'and then some more of the long day went by '.repeat(3)}before the kayak arrived at last.`;
    const s = makeSnippet(long, terms('kayak'), 60);
    assert.ok(s.startsWith('…') && !s.startsWith('…We went') && s.includes('kayak arrived'), s);
    // Moving back to the sentence's start would drop a later query word: it stays put.
    const two = 'Intro here. Mel said that after many long months of saving up she bought a kayak and a paddle.';
    const both = makeSnippet(two, terms('saving paddle'), 60);
    assert.ok(both.includes('saving') && both.includes('paddle'), both);
  });

  it('a focus passage places a text that has none of the query words', () => {
    const s = makeSnippet(TEXT, terms('throttling callers'), 120, LATE);
    // Near the end the window starts earlier rather than show less.
    assert.ok(s.startsWith('…') && s.includes('The API now applies rate limiting'), s);
    assert.ok(!s.includes('kitchen'));
    const early = makeSnippet(TEXT, terms('throttling'), 120, MIDDLE);
    assert.ok(early.startsWith('…We picked oak cabinets'), early);
  });

  it('query words inside the focus win over a denser run elsewhere', () => {
    const text = `${'Tiles tiles tiles, the tiles again. '.repeat(4)}${MIDDLE} ${LATE}`;
    const s = makeSnippet(text, terms('tiles clients'), 100, LATE);
    assert.match(s, /clients/);
    assert.ok(!/Tiles tiles/.test(s), s);
    // Without the focus the denser run wins.
    assert.match(makeSnippet(text, terms('tiles clients'), 100), /tiles/i);
  });

  it('a focus without query words gives way to the words found elsewhere', () => {
    const s = makeSnippet(TEXT, terms('cabinets'), 100, LATE);
    assert.match(s, /cabinets/);
  });

  it('a focus not in the text, empty or blank is ignored', () => {
    for (const focus of ['A sentence that is not there at all.', '', '   \n ', 'x'.repeat(10_000)]) {
      assert.equal(makeSnippet(TEXT, terms('cabinets'), 100, focus), makeSnippet(TEXT, terms('cabinets'), 100));
    }
  });

  it('a focus found across folded whitespace; a start inside a word moves to the next one', () => {
    const text = `${OPENING}\n\n${MIDDLE}\n${LATE.replace(/ /g, '   ')}`;
    assert.ok(makeSnippet(`${text} ${OPENING}`, [], 80, LATE).startsWith('…The API now'));
    const s = makeSnippet(`${'word '.repeat(100)}needle end`, terms('needle'), 30);
    assert.ok(/^…(word )+needle end$/.test(s), s);
  });

  it('hostile and oversized input: bounded output, no error', () => {
    const huge = 'abc '.repeat(200_000);
    assert.ok(makeSnippet(huge, terms('abc'), 240, 'abc abc').length <= 242);
    assert.ok(makeSnippet('\u0000\uFFFF '.repeat(500), ['\u0000'], 50, '\uFFFF').length <= 52);
    assert.equal(makeSnippet('', terms('x'), 240, 'x'), '');
  });
});
