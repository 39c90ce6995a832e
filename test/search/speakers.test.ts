// Who a query names: speakers' names are tokenized once and kept across searches, so the answer
// must be the same on the first search and every later one, whatever other speakers came between.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isAbout, namedSpeakers } from '../../src/search/speakers.js';
import { tokenize } from '../../src/search/query-terms.js';

const speakers = (...names: string[]) => names.map((name) => ({ name, turns: 1 }));

/** Every speaker's name tokens walked in order, as search once did for each query (no role names here). */
function walked(query: string, names: readonly string[]): { names: string[]; tokens: string[] } {
  const words = new Set(tokenize(query).map((w) => w.replace(/['’]s$/, '')));
  const found = { names: new Set<string>(), tokens: new Set<string>() };
  for (const name of names) {
    for (const t of tokenize(name)) {
      if (!words.has(t)) continue;
      found.names.add(name);
      found.tokens.add(t);
    }
  }
  return { names: [...found.names], tokens: [...found.tokens] };
}

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

  it('a frozen list (a store\'s shared one, indexed once) and a fresh copy answer as walking every name does, names and tokens in the same order', () => {
    const names = ['Ana Lima', 'Lima Ana', 'Dave', 'Bo Dave', 'Maria de Lima', 'Ana', 'Zoë Ana', 'dave'];
    const shared = Object.freeze(speakers(...names).map((s) => Object.freeze(s)));
    for (const q of ['what did Ana say', 'did Lima and Dave agree?', "Dave's and Ana's plans", 'what did Maria de Lima say to Zoë', 'nobody here', 'what did I say']) {
      for (let round = 0; round < 2; round++) {
        const fresh = namedSpeakers(q, speakers(...names));
        const got = namedSpeakers(q, shared);
        assert.deepEqual({ names: [...got.names], tokens: [...got.tokens] }, walked(q, names), q);
        assert.deepEqual({ names: [...fresh.names], tokens: [...fresh.tokens] }, walked(q, names), q);
        assert.equal(got.role, fresh.role);
      }
    }
    assert.deepEqual([...namedSpeakers('did Lima and Dave agree?', shared).names], ['Ana Lima', 'Lima Ana', 'Dave', 'Bo Dave', 'Maria de Lima', 'dave']);
  });

  it('copes with empty and hostile names and queries', () => {
    assert.equal(namedSpeakers('', speakers('', '   ', '<script>', 'Ana')).names.size, 0);
    assert.deepEqual([...namedSpeakers('script kiddies', speakers('<script>')).names], ['<script>']);
    assert.equal(namedSpeakers('x'.repeat(100_000), speakers('Ana')).names.size, 0);
  });
});
