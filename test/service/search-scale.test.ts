// How the two retrievers' scores are put on one scale: min-max over the candidates, spanning at
// least half the top score (search.minRange), so the weakest keyword match is not scored as no
// match and a few near-equal candidates are not stretched to 1 and 0.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { HashEmbedder, rejectsCode, tempDir } from '../helpers/store-fixtures.js';

describe('score scaling (search.minRange)', () => {
  const tmp = tempDir();
  const homes: Cairn[] = [];
  const open = async (minRange?: number) => {
    const cairn = await Cairn.open({
      home: join(tmp.dir, `home-${homes.length}`),
      embedder: new HashEmbedder(),
      config: { search: minRange === undefined ? {} : { minRange } },
    });
    homes.push(cairn);
    // Two keyword matches, the second a little weaker (a longer text), and one with no keyword.
    await cairn.remember({ text: 'The deploy checklist covers staging.' });
    await cairn.remember({ text: 'The deploy checklist covers staging, the database and the cache.' });
    await cairn.remember({ text: 'Banana bread needs three ripe bananas.' });
    return cairn;
  };
  const bm25Parts = async (cairn: Cairn) => {
    const { results } = await cairn.search('deploy checklist', { limit: 5 });
    const part = (re: RegExp) => results.find((r) => re.test(r.text))!.parts.bm25;
    return { strong: part(/staging\.$/), weak: part(/cache/) };
  };

  after(async () => {
    for (const c of homes) await c.close();
    tmp.cleanup();
  });

  it('the weaker of two close keyword matches keeps most of its score', async () => {
    const { strong, weak } = await bm25Parts(await open());
    assert.equal(strong, 1);
    assert.ok(weak > 0.5 && weak < 1, `weak ${weak}`);
  });

  it('plain min-max (minRange 0) stretches the pair to 1 and 0', async () => {
    const { strong, weak } = await bm25Parts(await open(0));
    assert.equal(strong, 1);
    assert.equal(weak, 0);
  });

  it('minRange outside 0–1 is a config error', async () => {
    for (const search of [{ minRange: -0.1 }, { minRange: 1.5 }, { minRange: 'half' }]) {
      const home = tempDir();
      await rejectsCode(Cairn.open({ home: home.dir, config: { embedder: { provider: 'none' }, search: search as never } }), 'CONFIG');
      home.cleanup();
    }
  });
});
