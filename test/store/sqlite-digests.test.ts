// What only the SQLite backend has for digests (issue 24): the schema-12 migration of an existing
// database, and digest rows that follow their namespace.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { indexTerms } from '../helpers/index-terms.js';
import { tempDir } from '../helpers/store-fixtures.js';

const NS = 'alpha';

describe('SQLite digests', () => {
  it('a schema-11 database migrates: its entries stay, and digests and consolidation state can be stored', async () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'cairn.db');
    try {
      const raw = new Database(path);
      raw.pragma('journal_mode = WAL');
      for (let v = 0; v < 11; v++) raw.exec(MIGRATIONS[v]!);
      raw.pragma('user_version = 11');
      raw.prepare('INSERT INTO namespaces (id, created_at) VALUES (?, ?)').run(NS, '2026-01-01T00:00:00.000Z');
      raw.prepare("INSERT INTO entries (namespace, kind, ref_id, body, time) VALUES (?, 'document', 'x1', 'Lighthouse by the harbour', ?)").run(NS, '2026-01-01T00:00:00.000Z');
      raw.close();

      const store = new SqliteStore(path);
      assert.ok(SCHEMA_VERSION >= 12, 'steps after 12 apply on top');
      assert.equal(store.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      assert.equal((await store.keywordSearch(NS, indexTerms(['lighthouse']), 5)).length, 1);
      const { digest } = await store.putDigest({
        namespace: NS, kind: 'review', path: 'reviews/2026-01-01.md', periodStart: '2026-01-01T06:00:00.000Z', periodEnd: '2026-01-02T06:00:00.000Z',
        text: '# Review\n## Lessons\n- harbour fog delays ferries\n', sections: [{ heading: 'Lessons', text: '- harbour fog delays ferries', sources: [] }],
        inputsHash: 'h', generator: 'extractive@1',
      });
      assert.equal(digest.layer, 2);
      assert.equal((await store.keywordSearch(NS, indexTerms(['harbour']), 5)).length, 2);
      await store.putConsolidationState(NS, { lastSeq: 1 });
      assert.deepEqual(await store.getConsolidationState(NS), { lastSeq: 1 });
      assert.equal((await store.health({ integrity: true })).ok, true);
      await store.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('a damaged consolidation state row reads as no state', async () => {
    const tmp = tempDir();
    try {
      const store = new SqliteStore(join(tmp.dir, 'cairn.db'));
      await store.putConsolidationState(NS, { lastSeq: 1 });
      store.db.prepare("UPDATE consolidation_state SET state = '{not json'").run();
      assert.equal(await store.getConsolidationState(NS), null);
      store.db.prepare("UPDATE consolidation_state SET state = '[1,2]'").run();
      assert.equal(await store.getConsolidationState(NS), null);
      await store.close();
    } finally {
      tmp.cleanup();
    }
  });
});
