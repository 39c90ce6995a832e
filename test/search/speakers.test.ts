// Who a query names: speakers' names are tokenized once and kept across searches, so the answer
// must be the same on the first search and every later one, whatever other speakers came between.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isAbout, namedSpeakers } from '../../src/search/speakers.js';

const speakers = (...names: string[]) => names.map((name) => ({ name, turns: 1 }));

describe('namedSpeakers', () => {
  it('finds the speakers a query names by any of their name tokens, and only those tokens', () => {
    const got = namedSpeakers("What are Ana's hobbies, and did Dave agree?", speakers('Ana Lima', 'Dave', 'Maria'));
    assert.deepEqual([...got.names].sort(), ['Ana Lima', 'Dave']);
    assert.deepEqual([...got.tokens].sort(), ['ana', 'dave']);
    assert.equal(got.role, null);
    assert.ok(isAbout(got, 'Dave', 'user'));
    assert.ok(!isAbout(got, 'Maria', 'user'));
  });

  it('answers the same on later searches, after thousands of other names were read', () => {
    const first = namedSpeakers('what did Lima say', speakers('Ana Lima', 'Bo'));
    const crowd = speakers(...Array.from({ length: 25_000 }, (_, i) => `Person ${i}`));
    assert.equal(namedSpeakers('what did Person 24999 say', crowd).names.size, 25_000, 'the token "person" names every one of them');
    const again = namedSpeakers('what did Lima say', speakers('Ana Lima', 'Bo'));
    assert.deepEqual(again, first);
    assert.deepEqual([...again.names], ['Ana Lima']);
  });

  it('reads a role-named speaker as a role, and pronouns when no one is named', () => {
    assert.equal(namedSpeakers('what did the assistant say', speakers('assistant', 'user')).names.size, 0);
    assert.equal(namedSpeakers('what did I decide about the port?', speakers('assistant', 'user')).role, 'user');
    assert.equal(namedSpeakers('what did you recommend?', speakers('Ana')).role, 'assistant');
  });

  it('copes with empty and hostile names and queries', () => {
    assert.equal(namedSpeakers('', speakers('', '   ', '<script>', 'Ana')).names.size, 0);
    assert.deepEqual([...namedSpeakers('script kiddies', speakers('<script>')).names], ['<script>']);
    assert.equal(namedSpeakers('x'.repeat(100_000), speakers('Ana')).names.size, 0);
  });
});
