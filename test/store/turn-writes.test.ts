// What the neighbour cache is told about writes since its mark (store/sqlite/turn-writes.ts):
// turns only added by this connection, or anything else (a rewrite here, another connection's
// commit), which empties it. Real SQLite files, two Stores on one file.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { onlyAdded, unchanged, writeMark } from '../../src/store/sqlite/turn-writes.js';
import type { NewTurn } from '../../src/core/types.js';
import { tempDir } from '../helpers/store-fixtures.js';

const turn = (messageId: string, speaker: string | null = 'Ana'): NewTurn => ({
  namespace: 'n', sessionId: 's', messageId, role: 'user', speaker, text: `turn ${messageId}`, timestamp: '2026-01-01T00:00:00.000Z', line: null, meta: {},
});

describe('writeMark: what was written since', () => {
  let dir: { dir: string; cleanup: () => void };
  let store: SqliteStore;
  let other: SqliteStore;
  before(() => {
    dir = tempDir('cairn-turn-writes-');
    store = new SqliteStore(join(dir.dir, 'cairn.db'));
    other = new SqliteStore(join(dir.dir, 'cairn.db'));
  });
  after(async () => {
    await store.close();
    await other.close();
    dir.cleanup();
  });

  it('tells turns only added here from rewrites here and from any commit of another connection', async () => {
    const { inserted } = await store.addTurns([turn('a'), turn('b')]);
    const first = writeMark(store.db);
    assert.ok(first.rewrites >= 0, 'counted outside a transaction');
    assert.ok(unchanged(first, writeMark(store.db)));

    await store.addTurns([turn('c'), turn('d', 'Bo')]);
    const added = writeMark(store.db);
    assert.ok(!unchanged(first, added));
    assert.ok(onlyAdded(first, added), 'turns added (speaker counts raised) are only added');
    await store.addMemory({ namespace: 'n', text: 'a memory, another table' });
    assert.ok(onlyAdded(added, writeMark(store.db)));

    for (const rewrite of [
      "UPDATE turns SET text = 'changed' WHERE id = ?",
      "UPDATE turns SET session_id = 'moved' WHERE id = ?",
      "DELETE FROM entries WHERE kind = 'turn' AND ref_id = ?",
      "UPDATE speakers SET turns = turns - 1 WHERE name = 'Ana' AND ? IS NOT NULL",
    ]) {
      const before = writeMark(store.db);
      store.db.prepare(rewrite).run(inserted[0]!.id);
      assert.ok(!onlyAdded(before, writeMark(store.db)), rewrite);
    }

    const before = writeMark(store.db);
    await other.addTurns([turn('e')]);
    assert.ok(!onlyAdded(before, writeMark(store.db)), "another connection's commit");
  });

  it('is made outside transactions: a first mark inside one that rolls back leaves later marks working', async () => {
    const fresh = new SqliteStore(join(dir.dir, 'cairn.db'));
    try {
      assert.throws(() =>
        fresh.db.transaction(() => {
          assert.equal(writeMark(fresh.db).rewrites, -1, 'not counted inside a transaction');
          throw new Error('rolled back');
        })(),
      /rolled back/);
      const mark = writeMark(fresh.db);
      assert.ok(mark.rewrites >= 0);
      fresh.db.prepare("UPDATE turns SET text = 'again' WHERE message_id = 'b'").run();
      assert.equal(writeMark(fresh.db).rewrites, mark.rewrites + 1);
      // A rewrite another connection makes is not counted here: its commit moves data_version instead.
      const seen = writeMark(fresh.db);
      other.db.prepare("UPDATE turns SET text = 'elsewhere' WHERE message_id = 'b'").run();
      const after = writeMark(fresh.db);
      assert.equal(after.rewrites, seen.rewrites);
      assert.notEqual(after.version, seen.version);
    } finally {
      await fresh.close();
    }
  });
});
