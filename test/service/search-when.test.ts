// A question that asks when ("when did we…", "what year…") prefers texts that say when
// ("yesterday", "last Friday", "two weeks ago", "in March 2023"): what reads the question, what
// reads a text, and the factor search gives.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Cairn } from '../../src/service/cairn.js';
import { asksWhen, statesTime } from '../../src/search/time-mentions.js';
import { rejectsSearchConfig, searchHomes } from '../helpers/search-homes.js';

describe('asksWhen', () => {
  it('questions that ask for a time', () => {
    for (const q of [
      'When did Caroline go to the support group?',
      'when was the last deploy',
      'Since when do we pin Node 20?',
      'What year did Jon start his shop?',
      'In which month did we move the database?',
      'How long ago was the outage?',
      'Do you remember when we picked Postgres?',
      'Can you tell me when the trial ends?',
      'We moved offices. When was that?',
      'I wonder when did the trial end',
    ])
      assert.equal(asksWhen(q), true, q);
  });

  it('questions that do not', () => {
    for (const q of ['What is my name?', 'whenever it rains, what do I do', 'Which database did we pick?', 'How long is the trip?', 'What time zone is the server in?', '', '   '])
      assert.equal(asksWhen(q), false, q);
  });

  it('oversized and hostile input: an answer, no error', () => {
    assert.equal(asksWhen('x'.repeat(100_000)), false);
    assert.equal(asksWhen(`${'x '.repeat(300)}when did it happen`), false, 'read in its first 500 chars');
    assert.equal(asksWhen('\u0000 so when did it \uFFFF happen'), true);
    assert.equal(asksWhen('\u0000when\uFFFF'), false);
  });
});

describe('statesTime', () => {
  it('texts that say when', () => {
    for (const t of [
      'I went to the group yesterday!',
      'We met last Friday at the cafe',
      'two weeks ago I moved to Lisbon',
      'A few days ago the build broke',
      'It was in March, I think',
      'Back in 2019 we used MySQL',
      'The launch is on 3/14',
      'Mondays are hard',
      'We shipped it this week',
      'Can we meet on May 3?',
      'The release of 2023-05-07 broke it',
      'It shipped on 5/7/23',
      'That was in mid-2021',
    ])
      assert.equal(statesTime(t), true, t);
  });

  it('texts that do not, including "may" and "march" as verbs', () => {
    for (const t of ['I may go later', 'They march on', 'The build is green', 'Version 3.14 is out', 'Port 2049 is taken', 'We index 2048 vectors', 'Add 1/2 cup of flour', 'Jan said hi', '', '\u0000\uFFFF'])
      assert.equal(statesTime(t), false, t);
  });

  it('an oversized text is read in bounded time', () => {
    assert.equal(statesTime('word '.repeat(200_000)), false);
    assert.equal(statesTime(`${'word '.repeat(200_000)}yesterday`), true);
  });
});

describe('search with a question that asks when', () => {
  // Worded alike; the one that says when is older, so recency alone ranks it second.
  const { open, close } = searchHomes(async (cairn) => {
    await cairn.remember({ text: 'We went to the garden centre for tomato plants yesterday.', eventTime: '2024-05-04T10:00:00Z' });
    await cairn.remember({ text: 'We went to the garden centre for tomato plants together.', eventTime: '2024-06-20T10:00:00Z' });
  });
  const top = async (cairn: Cairn, query: string) => (await cairn.search(query, { limit: 5 })).results;

  after(close);

  it('with whenBoost 0.5, the text that says when comes first, its factor shown', async () => {
    const cairn = await open({ whenBoost: 0.5 });
    const results = await top(cairn, 'When did we go to the garden centre for tomato plants?');
    assert.match(results[0]!.text, /yesterday/);
    assert.equal(results[0]!.parts.when, 1.5);
    assert.equal(results[1]!.parts.when, 1);
  });

  it('a question that does not ask when, or the default whenBoost 0: nothing is preferred', async () => {
    const cairn = await open({ whenBoost: 0.5 });
    const plain = await top(cairn, 'Did we go to the garden centre for tomato plants?');
    assert.ok(plain.every((r) => r.parts.when === 1));
    assert.match(plain[0]!.text, /together/, 'the newer one, on recency');
    const off = await open();
    const results = await top(off, 'When did we go to the garden centre for tomato plants?');
    assert.ok(results.every((r) => r.parts.when === 1));
    assert.match(results[0]!.text, /together/);
  });

  it('whenBoost outside 0–2 is a config error', () => rejectsSearchConfig([{ whenBoost: -0.5 }, { whenBoost: 2.5 }, { whenBoost: 'often' }]));
});
