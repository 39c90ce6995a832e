// A search embeds its query once per home: asked again (a search paged, an agent repeating itself)
// the vector is the one the first search got, without the model, and the results are the same.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';

describe('query vectors of recent searches', () => {
  let tmp: { dir: string; cleanup: () => void };
  let embedder: HashEmbedder;
  let cairn: Cairn;
  before(async () => {
    tmp = tempDir('cairn-query-vectors-');
    embedder = new HashEmbedder();
    cairn = await Cairn.open({ home: join(tmp.dir, 'home'), embedder });
    for (const text of ['the staging database runs on port 5433', 'we adopted a puppy called Pepper', 'the invoice for the cloud servers doubled']) await cairn.remember({ text });
  });
  after(async () => {
    await cairn.close();
    tmp.cleanup();
  });

  const modelCalls = async (run: () => Promise<unknown>): Promise<string[][]> => {
    const from = embedder.calls.length;
    await run();
    return embedder.calls.slice(from);
  };

  it('a repeated query skips the model and finds the same results; another query does not', async () => {
    const query = 'which port does staging use';
    let first: Awaited<ReturnType<Cairn['search']>> | undefined;
    const calls = await modelCalls(async () => (first = await cairn.search(query, { limit: 5 })));
    assert.ok(calls.some((batch) => batch.includes(query)), 'the first search embeds its query');
    let again: Awaited<ReturnType<Cairn['search']>> | undefined;
    assert.deepEqual(await modelCalls(async () => (again = await cairn.search(query, { limit: 5 }))), []);
    assert.equal(first!.mode, 'hybrid');
    assert.deepEqual(again!.results, first!.results);
    assert.deepEqual(await modelCalls(async () => cairn.search(query, { limit: 2 })), [], 'another limit, the same query');
    const other = await modelCalls(() => cairn.search('what is the puppy called', { limit: 5 }));
    assert.ok(other.some((batch) => batch.includes('what is the puppy called')));
  });

  it('another home (another Cairn) embeds the query itself', async () => {
    const second = await Cairn.open({ home: join(tmp.dir, 'home2'), embedder });
    try {
      await second.remember({ text: 'the staging database runs on port 5433' });
      const query = 'which port does staging use';
      await cairn.search(query, { limit: 5 });
      const calls = await modelCalls(() => second.search(query, { limit: 5 }));
      assert.ok(calls.some((batch) => batch.includes(query)));
    } finally {
      await second.close();
    }
  });
});
