// A query's keyword terms: stop words and the words of asking an agent to remember ("remind me",
// "in our previous conversation") are dropped, so they neither pull in turns that happen to say
// "remember" nor dilute the share of query words a text is scored on.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { queryLanguage, queryTerms, queryWords } from '../../src/search/query-terms.js';
import { detectLanguage } from '../../src/search/text-analysis.js';
import { searchHomes } from '../helpers/search-homes.js';

describe('queryTerms', () => {
  it('a query\'s language is the one detection gives, asked again or after many other queries', () => {
    const texts = ['Wo hat meine Schwester gewohnt?', 'what did we decide about the port', '¿Dónde vive mi hermana ahora?', 'Где живёт моя сестра?', ''];
    for (const t of texts) assert.equal(queryLanguage(t), detectLanguage(t), t);
    for (const t of texts) assert.equal(queryLanguage(t), detectLanguage(t), `again: ${t}`);
    // More distinct queries than are kept: the oldest are asked anew, and still answered right.
    for (let i = 0; i < 600; i++) assert.equal(queryLanguage(`Wo hat meine Schwester ${i} gewohnt?`), 'de');
    for (const t of texts) assert.equal(queryLanguage(t), detectLanguage(t), `after eviction: ${t}`);
  });

  it('keeps content words, drops stop words, reads possessives as the name', () => {
    // Terms are in the index's form (porter stems for English); queryWords keeps them as written.
    assert.deepEqual(queryTerms('what did we decide about the port'), ['decid', 'port']);
    assert.deepEqual(queryWords('what did we decide about the port'), ['decide', 'port']);
    assert.deepEqual(queryTerms("What is Ana's job?"), ['ana', 'job']);
  });

  it('drops the words of asking to remember, wherever they stand', () => {
    assert.deepEqual(queryTerms('Can you remind me which database we picked?'), ['databas', 'pick']);
    assert.deepEqual(queryTerms('In our previous conversation I mentioned a hotel in Lisbon, tell me again'), ['hotel', 'lisbon']);
    assert.deepEqual(queryTerms('Do you remember what I told you earlier about the queue?'), ['queue']);
  });

  it('keeps them when nothing else is left, so the query still searches', () => {
    assert.deepEqual(queryTerms('remember?'), ['rememb']);
    assert.deepEqual(queryTerms('do you remember'), ['do', 'you', 'rememb']);
  });

  it('copes with empty, hostile and huge input', () => {
    assert.deepEqual(queryTerms(''), []);
    assert.deepEqual(queryTerms('"remind" OR NEAR(x) <script>'), ['near', 'script']);
    const huge = queryTerms(`${'remind me '.repeat(5000)}${Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')}`);
    assert.equal(huge.length, 32, 'bounded');
    assert.ok(!huge.includes('remind'));
  });
});

describe('search with a request to remember', () => {
  const { open, close } = searchHomes(async (cairn) => {
    await cairn.remember({ text: 'We picked Postgres for the job queue.' });
    await cairn.remember({ text: 'Remember the queue: I remember it was drained on Friday.' });
  });
  after(close);

  it('"remember" is no keyword: the text that says it twice does not win the keyword side', async () => {
    const cairn = await open();
    const { results } = await cairn.search('Can you remind me what we picked for the queue? I do not remember.', { limit: 5 });
    const picked = results.find((r) => /Postgres/.test(r.text))!;
    const said = results.find((r) => /drained/.test(r.text));
    assert.equal(results[0], picked);
    // With "remember" as a keyword, the second text had the top BM25 score (1 against 0.92).
    assert.ok(said === undefined || said.parts.bm25 < picked.parts.bm25, `keyword parts ${said?.parts.bm25} vs ${picked.parts.bm25}`);
  });
});
