// What only the SQLite backend has for knowledge (issue 25): the schema-13 migration of an existing
// database (entries of memories already superseded get their valid_to, so as-of search finds them),
// and the knowledge rows that go with a purged memory by foreign key as well as by hand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { indexTerms } from '../helpers/index-terms.js';
import { tempDir } from '../helpers/store-fixtures.js';

const NS = 'alpha';
const T = (d: number) => `2026-01-${String(d).padStart(2, '0')}T00:00:00.000Z`;

describe('SQLite knowledge', () => {
  it('a schema-12 database migrates: superseded memory entries get their valid_to; current ones have none', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    try {
      const raw = new Database(path);
      raw.pragma('journal_mode = WAL');
      for (let v = 0; v < 12; v++) raw.exec(MIGRATIONS[v]!);
      raw.pragma('user_version = 12');
      raw.prepare('INSERT INTO namespaces (id, created_at) VALUES (?, ?)').run(NS, T(1));
      const addMemory = raw.prepare(`INSERT INTO memories (id, namespace, text, dedup_key, category, importance, created_at, updated_at, valid_from, valid_to, superseded_by)
        VALUES (?, ?, ?, ?, 'fact', 5, ?, ?, ?, ?, ?)`);
      addMemory.run('m_old', NS, 'ferry leaves at 9', 'ferry leaves at 9', T(1), T(5), T(1), T(5), 'm_new');
      addMemory.run('m_new', NS, 'ferry leaves at 10', 'ferry leaves at 10', T(5), T(5), T(5), null, null);
      const addEntry = raw.prepare("INSERT INTO entries (namespace, kind, ref_id, body, time, current) VALUES (?, 'memory', ?, ?, ?, ?)");
      addEntry.run(NS, 'm_old', 'ferry leaves at 9', T(1), 0);
      addEntry.run(NS, 'm_new', 'ferry leaves at 10', T(5), 1);
      raw.close();

      const store = new SqliteStore(path);
      assert.equal(store.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      assert.deepEqual(store.db.prepare('SELECT ref_id, valid_to FROM entries ORDER BY seq').all(), [{ ref_id: 'm_old', valid_to: T(5) }, { ref_id: 'm_new', valid_to: null }]);
      const asOf = async (at: string) => (await store.getEntries(NS, (await store.keywordSearch(NS, indexTerms(['ferry']), 5, { validAt: at })).map((h) => h.seq))).map((e) => e.refId).sort();
      assert.deepEqual(await asOf(T(3)), ['m_new', 'm_old']);
      assert.deepEqual(await asOf(T(6)), ['m_new']);
      assert.equal(await store.knowledgeCursor(NS), 0);
      assert.equal((await store.health({ integrity: true })).ok, true);
      await store.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('knowledge rows cannot outlive their memory or entity (foreign keys), whoever deletes them', async () => {
    const tmp = tempDir();
    try {
      const store = new SqliteStore(join(tmp.dir, 'cairn.db'));
      const { memory } = await store.addMemory({ namespace: NS, text: 'Ana runs the ferry' });
      await store.applyKnowledge({
        namespace: NS, expectCursor: 0, cursor: 1, now: T(2), entityUpdates: [], memoryEntities: [], factUpdates: [], retirements: [],
        entities: [{ id: 'e_ana', name: 'Ana', slug: 'ana', type: 'person', relation: null }],
        aliases: [{ key: 'ana', entityId: 'e_ana', display: 'Ana' }], mentions: [{ entityId: 'e_ana', memoryId: memory.id }],
        facts: [{ id: 'f_1', namespace: NS, subject: 'ana', subjectName: 'Ana', entityId: 'e_ana', attribute: 'role', value: 'captain', memoryId: memory.id,
          validFrom: T(2), validTo: null, recordedAt: T(2), confidence: 1, supersededBy: null, mentions: 1, extractor: 'offline@1', provenance: [] }],
      });
      const count = (table: string) => store.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get();
      store.db.prepare('DELETE FROM entities WHERE id = ?').run('e_ana');
      assert.deepEqual([count('entity_aliases'), count('entity_mentions')], [0, 0]);
      assert.equal(store.db.prepare('SELECT entity_id FROM facts').pluck().get(), null, 'a fact keeps its memory and loses the link');
      store.db.prepare("DELETE FROM entries WHERE kind = 'memory'").run();
      store.db.prepare('DELETE FROM memories').run();
      assert.equal(count('facts'), 0);
      assert.throws(() => store.db.prepare("INSERT INTO entity_mentions (entity_id, memory_id, namespace) VALUES ('e_none', 'm_none', ?)").run(NS), /FOREIGN KEY/);
      await store.close();
    } finally {
      tmp.cleanup();
    }
  });
});
