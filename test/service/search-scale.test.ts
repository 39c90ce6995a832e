// How the two retrievers' scores are put on one scale: min-max over the candidates, spanning at
// least half the top score (search.minRange), so the weakest keyword match is not scored as no
// match and a few near-equal candidates are not stretched to 1 and 0.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Cairn } from '../../src/service/cairn.js';
import { rejectsSearchConfig, searchHomes } from '../helpers/search-homes.js';

describe('score scaling (search.minRange)', () => {
  // Two keyword matches, the second a little weaker (a longer text), and one with no keyword.
  const { open, close } = searchHomes(async (cairn) => {
    await cairn.remember({ text: 'The deploy checklist covers staging.' });
    await cairn.remember({ text: 'The deploy checklist covers staging, the database and the cache.' });
    await cairn.remember({ text: 'Banana bread needs three ripe bananas.' });
  });
  const bm25Parts = async (cairn: Cairn) => {
    const { results } = await cairn.search('deploy checklist', { limit: 5 });
    const part = (re: RegExp) => results.find((r) => re.test(r.text))!.parts.bm25;
    return { strong: part(/staging\.$/), weak: part(/cache/) };
  };

  after(close);

  it('the weaker of two close keyword matches keeps most of its score', async () => {
    const { strong, weak } = await bm25Parts(await open());
    assert.equal(strong, 1);
    assert.ok(weak > 0.5 && weak < 1, `weak ${weak}`);
  });

  it('plain min-max (minRange 0) stretches the pair to 1 and 0', async () => {
    const { strong, weak } = await bm25Parts(await open({ minRange: 0 }));
    assert.equal(strong, 1);
    assert.equal(weak, 0);
  });

  it('minRange outside 0–1 is a config error', () => rejectsSearchConfig([{ minRange: -0.1 }, { minRange: 1.5 }, { minRange: 'half' }]));
});
