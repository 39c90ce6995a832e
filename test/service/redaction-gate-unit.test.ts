// The memory unit (store.memoryUnit, the primitives the memory rules write through) is a way in
// like any other: through the facade's store, every text it writes passes the redaction gate.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Cairn } from '../../src/service/cairn.js';
import { newMemoryRecord } from '../../src/memory/remember.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';
import { GITHUB_TOKEN, OPENAI_KEY, assertNowhereOnDisk } from '../helpers/secrets.js';

describe('redaction gate on memory units', () => {
  it('inserted records, updated tags and provenance, and judgments written in a unit are stored redacted', async () => {
    const tmp = tempDir();
    const home = join(tmp.dir, 'home');
    let cairn = await Cairn.open({ home, embedder: new HashEmbedder() });
    try {
      const { inserted } = await cairn.store.addTurns([{ namespace: 'default', sessionId: 's1', messageId: 'm1', role: 'user', text: 'plain turn', timestamp: new Date().toISOString() }]);
      const record = newMemoryRecord({ namespace: 'default', text: `deploy key ${OPENAI_KEY}`, tags: [`t ${GITHUB_TOKEN}`], provenance: [{ sessionId: `s ${OPENAI_KEY}` }] }, new Date().toISOString());
      await cairn.store.memoryUnit(async (unit) => {
        await unit.insertMemory(record);
        await unit.updateMemory('default', record.id, { tags: ['ok', `again ${GITHUB_TOKEN}`], provenance: [{ messageId: `m ${GITHUB_TOKEN}` }] });
        const target = await unit.judgmentTarget(inserted[0]!.id);
        assert.ok(target);
        await unit.putJudgment(target, { turnId: target.turnId, importance: 6, category: 'fact', judge: 'test', reason: `saw ${OPENAI_KEY}`, statement: `said ${GITHUB_TOKEN}`, needsRejudge: false }, record.id, new Date().toISOString());
      });
      const stored = await cairn.store.getMemory('default', record.id);
      assert.equal(stored!.text, 'deploy key [REDACTED:openai-key]');
      assert.deepEqual(stored!.tags, ['ok', 'again [REDACTED:github-token]']);
      assert.equal(stored!.provenance[0]!.messageId, 'm [REDACTED:github-token]');
      assert.equal((await cairn.store.getJudgment(inserted[0]!.id))!.reason, 'saw [REDACTED:openai-key]');
      await cairn.close();
      cairn = await Cairn.open({ home, embedder: new HashEmbedder() });
      assertNowhereOnDisk(home, OPENAI_KEY);
      assertNowhereOnDisk(home, GITHUB_TOKEN);
    } finally {
      await cairn.close();
      tmp.cleanup();
    }
  });
});
