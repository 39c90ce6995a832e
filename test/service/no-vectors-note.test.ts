// What a search says when a namespace has no vector to search by meaning (issue 30 item 20): the
// advice must fit the situation. "Run cairn reembed" only helps when entries wait for a vector; an
// empty namespace (often a mistyped name) or one holding only tool activity needs no reembed.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';

const tmp = tempDir('cairn-no-vectors-');
after(() => tmp.cleanup());
let n = 0;

async function withCairn(body: (cairn: Cairn) => Promise<void>): Promise<void> {
  const cairn = await Cairn.open({ home: join(tmp.dir, `home-${n++}`), embedder: new HashEmbedder() });
  try {
    await body(cairn);
  } finally {
    await cairn.close();
  }
}

const turn = (namespace: string, id: string, text: string, meta: Record<string, unknown> = {}) => ({
  namespace,
  sessionId: 's1',
  messageId: id,
  role: 'user',
  text,
  timestamp: '2026-03-01T10:00:00.000Z',
  meta,
});

describe('the note of a search with no vectors (issue 30 item 20)', () => {
  it('an empty namespace says it is empty and does not advise cairn reembed', async () => {
    await withCairn(async (cairn) => {
      for (const ns of ['nothing-here', 'default']) {
        const res = await cairn.search('where are the keys', { namespace: ns });
        assert.deepEqual(res.results, []);
        assert.ok(res.degraded, 'the response says why it is BM25 only');
        assert.doesNotMatch(res.degraded!, /reembed/, res.degraded);
        assert.match(res.degraded!, new RegExp(`namespace ${ns} is empty`));
      }
    });
  });

  it('a namespace of tool activity only (nothing to embed) does not advise cairn reembed either', async () => {
    await withCairn(async (cairn) => {
      await cairn.store.addTurns([turn('tools', 'm1', '→ tool exec npm test', { kind: 'tool' })]);
      const res = await cairn.search('npm test', { namespace: 'tools' });
      assert.equal(res.results.length, 1, 'found by keyword');
      assert.doesNotMatch(res.degraded ?? '', /reembed/, res.degraded);
    });
  });

  it('entries waiting for their vectors do get the reembed advice, with how many wait', async () => {
    await withCairn(async (cairn) => {
      await cairn.store.addTurns([turn('chat', 'm1', 'The spare keys are under the blue flowerpot'), turn('chat', 'm2', 'The bike lock code is in the notebook')]);
      const res = await cairn.search('spare keys', { namespace: 'chat' });
      assert.ok(res.results.length >= 1);
      assert.match(res.degraded ?? '', /cairn reembed/);
      assert.match(res.degraded ?? '', /\b2 entries\b/);
    });
  });
});
